"""Turn an engine view into what the table templates show. Generic: no game name in here."""

from django.utils import timezone

from engine import cards
from tables.models import ChatMessage, Seat, Table

ACTION_LABELS = {
    "draw_stock": "Piocher",
    "take_discard": "Prendre la défausse",
    "pass": "Passer",
    "close": "Je ferme !",
    "knock": "Frapper",
    "next_round": "Manche suivante",
}
BOT_LEVELS = {1: "Débutant", 2: "Confirmé", 3: "Expert"}
PHASE_HINTS = {
    "DRAW": "Pioche une carte.",
    "DISCARD": "Défausse une carte en cliquant dessus.",
    "FIRST_UPCARD": "Prends la carte retournée ou passe.",
    "ROUND_OVER": "Manche terminée.",
    "MATCH_OVER": "Partie terminée.",
}
MOVE_CARD_ACTIONS = ("discard", "close", "knock")


def card_ctx(card: str, *, wild_rank: str | None = None, **flags) -> dict:
    is_joker = cards.is_joker(card)
    suit = cards.suit_of(card)
    return {
        "id": card,
        "label": cards.label(card),
        "rank": cards.rank_label(card),
        "suit": cards.SUIT_SYMBOLS.get(suit, ""),
        "suit_code": suit or "",
        "name": cards.name_fr(card),
        "red": suit in ("H", "D"),
        "joker": is_joker,
        "wild": is_joker or (wild_rank is not None and cards.rank_of(card) == wild_rank),
        **flags,
    }


def seat_name(seat: Seat) -> str:
    if seat.is_bot:
        return f"Robot {BOT_LEVELS.get(seat.bot_level, '')}".strip()
    return seat.user.username if seat.user else "Place libre"


def _hand_groups(view: dict, order: list) -> list[dict]:
    """My hand in my manual order ("|" separates groups), else the best arrangement's groups."""
    hand = list(view.get("hand") or [])
    arrangement = view.get("arrangement") or {}
    in_meld = {c for meld in arrangement.get("melds", []) for c in meld}
    wild = view.get("wild_rank")
    closable = set(view.get("closable") or [])
    taken = view.get("taken_card")

    def ctx(card):
        return card_ctx(card, wild_rank=wild, in_meld=card in in_meld, closable=card in closable,
                        taken=card == taken, points=None if card in in_meld else cards.deadwood_value(card))

    held = set(hand)
    groups: list[list[str]] = []
    if order:
        current: list[str] = []
        placed = set()
        for item in order:
            if item == "|":
                if current:
                    groups.append(current)
                current = []
            elif item in held and item not in placed:
                current.append(item)
                placed.add(item)
        if current:
            groups.append(current)
        rest = [c for c in hand if c not in placed]
        if rest:
            groups.append(rest)
    else:
        groups = [list(m) for m in arrangement.get("melds", []) if set(m) <= held]
        placed = {c for g in groups for c in g}
        rest = [c for c in hand if c not in placed]
        if rest:
            groups.append(rest)
    result = []
    for group in groups:
        card_list = [ctx(c) for c in group]
        result.append({
            "cards": card_list,
            "meld": all(c["in_meld"] for c in card_list),
            "points": sum(c["points"] or 0 for c in card_list),
        })
    return result


def _actions(view: dict, is_my_turn: bool, known: frozenset | None = None) -> list[dict]:
    """The action buttons: legal ones enabled, the others this game has shown disabled with a reason."""
    legal = view.get("legal") or []
    kinds = []
    for move in legal:
        if move["action"] not in kinds:
            kinds.append(move["action"])
    shown = []
    for action, label in ACTION_LABELS.items():
        if action in ("pass", "next_round") and action not in kinds:
            continue
        if known is not None and action not in known and action not in kinds:
            continue  # this game never offers it (no « Prendre la défausse » in a stock-only game)
        if action == "take_discard" and not view.get("discard_pile") and action not in kinds:
            continue
        if action in ("close", "knock") and not _game_uses(view, action):
            continue
        enabled = action in kinds
        if action == "knock" and enabled and any(o.get("gin") for o in view.get("knock_options") or []):
            label = "Frapper / Gin !"
        shown.append({"action": action, "label": label, "enabled": enabled,
                      "reason": "" if enabled else _why_not(view, action, is_my_turn)})
    return shown


def _game_uses(view: dict, action: str) -> bool:
    if action == "close":
        return "close_limit" in view
    return "knock_limit" in view


def _why_not(view: dict, action: str, is_my_turn: bool) -> str:
    if view.get("phase") in ("ROUND_OVER", "MATCH_OVER"):
        return "La manche est terminée."
    if not is_my_turn:
        return "Ce n'est pas ton tour."
    if action in ("close", "knock"):
        limit = view.get("close_limit") or view.get("knock_limit")
        if view.get("phase") != "DISCARD":
            return "Pioche d'abord une carte."
        return f"Il te resterait plus de {limit} points hors combinaisons."
    if action in ("draw_stock", "take_discard"):
        if view.get("phase") == "DISCARD":
            return "Tu as déjà pioché : défausse une carte."
        return PHASE_HINTS.get(view.get("phase"), "Ce coup n'est pas permis maintenant.")
    return "Ce coup n'est pas permis maintenant."


def _seats_ctx(table: Table, seats: list[Seat], view: dict | None, me: Seat | None) -> list[dict]:
    players = {p["seat"]: p for p in (view or {}).get("players", [])}
    current = (view or {}).get("current")
    to_act = set((view or {}).get("to_act") or [])
    dealer = (view or {}).get("dealer")
    out = []
    for seat in seats:
        info = players.get(seat.position, {})
        out.append({
            "position": seat.position,
            "name": seat_name(seat),
            "is_bot": seat.is_bot,
            "is_me": me is not None and seat.pk == me.pk,
            "connected": seat.connected,
            "left": seat.left,
            "hand_count": info.get("hand_count", 0),
            "score": info.get("score", 0),
            "active": info.get("active", True),
            "out": info.get("out"),
            "is_current": seat.position == current or seat.position in to_act,
            "is_dealer": seat.position == dealer,
        })
    return out


def _around(seats: list[dict], me: Seat | None) -> list[dict]:
    """Opponents clockwise from my left (seat i+1), as players sit around the table."""
    if me is None:
        return seats
    n = len(seats)
    by_pos = {s["position"]: s for s in seats}
    return [by_pos[(me.position + k) % n] for k in range(1, n) if (me.position + k) % n in by_pos]


def recent_chat(table: Table) -> list:
    return list(ChatMessage.objects.filter(table=table).select_related("user").order_by("-created")[:30])[::-1]


def table_context(table: Table, seats: list[Seat], me: Seat | None, *, error: str | None = None) -> dict:
    from tables.services import engine_for

    engine = engine_for(table)
    state = table.state
    view = None
    if state is not None:
        view = engine.view(state, me.position) if me is not None else engine.public_view(state)
    seats_ctx = _seats_ctx(table, seats, view, me)
    my_seat = next((s for s in seats_ctx if s["is_me"]), None)
    is_my_turn = bool(view and me is not None and me.position in (view.get("to_act") or []))
    wild = (view or {}).get("wild_rank")
    remaining = None
    if table.deadline and view and view.get("to_act"):
        remaining = max(0, int((table.deadline - timezone.now()).total_seconds()))
    ctx = {
        "table": table,
        "game": table.game,
        "info": engine.info,
        "version": table.version,
        "view": view,
        "me": my_seat,
        "seats": seats_ctx,
        "opponents": _around(seats_ctx, me),
        "is_my_turn": is_my_turn,
        "phase": (view or {}).get("phase"),
        "hint": PHASE_HINTS.get((view or {}).get("phase"), "") if is_my_turn else "",
        "remaining_s": remaining,
        "deadline_iso": table.deadline.isoformat() if table.deadline else "",
        "error": error,
        "is_host": me is not None and me.user_id is not None and me.user_id == table.host_id,
        "free_seats": max(0, table.seats_count - len(seats)),
        "chat": lambda: recent_chat(table),  # a callable: only the full page reads it, never a push
    }
    if view is None:
        return ctx
    legal_kinds = {m["action"] for m in view.get("legal") or []}
    ctx.update({
        "hand_groups": _hand_groups(view, me.hand_order if me else []),
        "hand_count": len(view.get("hand") or []),
        "actions": _actions(view, is_my_turn, getattr(engine, "turn_actions", None)),
        "can_discard": "discard" in legal_kinds,
        "can_draw": "draw_stock" in legal_kinds,
        "can_take_discard": "take_discard" in legal_kinds,
        "card_actions": sorted(legal_kinds & set(MOVE_CARD_ACTIONS)),
        "discard_top": card_ctx(view["discard_top"], wild_rank=wild) if view.get("discard_top") else None,
        "indicator": card_ctx(view["indicator"], wild_rank=wild) if view.get("indicator") else None,
        "stock_count": view.get("stock_count"),
        "history": view.get("history") or [],
        "last_round": _round_end(view, seats_ctx, wild),
        "result": view.get("result"),
        "ranking": _ranking(table, seats, seats_ctx, view.get("result")),
    })
    return ctx


def _round_end(view: dict, seats_ctx: list[dict], wild: str | None) -> dict | None:
    last = view.get("last_round")
    if not last:
        return None
    names = {s["position"]: s["name"] for s in seats_ctx}
    players = []
    for p in last.get("players", []):
        deadwood = set(p.get("deadwood", []))
        players.append({
            **p,
            "name": names.get(p["seat"], f"Place {p['seat'] + 1}"),
            "melds_ctx": [[card_ctx(c, wild_rank=wild, in_meld=True) for c in m] for m in p.get("melds", [])],
            "deadwood_ctx": [card_ctx(c, wild_rank=wild, points=cards.deadwood_value(c)) for c in sorted(
                deadwood, key=cards.sort_key)],
            "layoffs_ctx": [card_ctx(lay["card"], wild_rank=wild, in_meld=True) for lay in p.get("layoffs") or []],
        })
    return {**last, "players_ctx": players}


def _ranking(table: Table, seats: list[Seat], seats_ctx: list[dict], result: dict | None) -> list[dict]:
    """Final standings with each player's net token change for this table (from the ledger)."""
    if not result:
        return []
    from django.db.models import Sum

    from accounts.models import LedgerEntry

    by_pos = {s["position"]: s for s in seats_ctx}
    users = {s.position: s.user_id for s in seats if s.user_id and not s.is_bot}
    deltas = dict(
        LedgerEntry.objects.filter(table_id=table.pk, account__user_id__in=users.values())
        .values_list("account__user_id").annotate(total=Sum("amount"))
    )
    order = result.get("ranking") or [s["position"] for s in seats_ctx]
    rows = []
    for position in order:
        seat = by_pos.get(position)
        if seat is None:
            continue
        user_id = users.get(position)
        rows.append({**seat, "winner": position in result.get("winners", []),
                     "tokens": deltas.get(user_id, 0) if user_id else None})
    return rows
