"""Turn an engine view into what the table templates show. Generic: no game name in here."""

import json
from functools import lru_cache

from django.utils import timezone

from engine import cards, narration
from tables import economy, reads
from tables.models import Seat, Table

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
    "MELD": "Pose des combinaisons si tu veux, puis défausse une carte.",
}
MOVE_CARD_ACTIONS = ("discard", "close", "knock")


def card_ctx(card: str, *, wild_rank: str | None = None, **flags) -> dict:
    """A card as the templates draw it; `flags` add what the moment says (in_meld, points, …)."""
    return {**_card_fields(card, wild_rank), **flags}


@lru_cache(maxsize=4096)  # a card's names and colours are computed once, not for every seat of every push
def _card_fields(card: str, wild_rank: str | None) -> dict:
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
    }


def seat_name(seat: Seat) -> str:
    if seat.is_bot:
        return f"Robot {BOT_LEVELS.get(seat.bot_level, '')}".strip()
    username = getattr(seat, "username", None)  # read with the seat on the hot path (tables.reads)
    if username is None and seat.user_id is not None:
        username = seat.user.username
    return username or "Place libre"


def _hand_groups(view: dict, order: list, value=cards.deadwood_value) -> list[dict]:
    """My hand in my manual order ("|" separates groups), else the best arrangement's groups."""
    hand = list(view.get("hand") or [])
    arrangement = view.get("arrangement") or {}
    in_meld = {c for meld in arrangement.get("melds", []) for c in meld}
    wild = view.get("wild_rank")
    closable = set(view.get("closable") or [])
    taken = view.get("taken_card")

    def ctx(card):
        return card_ctx(card, wild_rank=wild, in_meld=card in in_meld, closable=card in closable,
                        taken=card == taken, points=None if card in in_meld else value(card))

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
        if view.get("phase") == "MELD":
            return "Tu as déjà pioché : pose tes combinaisons ou défausse une carte."
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
            "bot_level": seat.bot_level if seat.is_bot else None,  # the robot's avatar shows its level
            "is_me": me is not None and seat.pk == me.pk,
            "connected": seat.connected,
            "left": seat.left,
            "hand_count": info.get("hand_count", 0),
            "score": info.get("score", 0),
            "active": info.get("active", True),
            "out": info.get("out"),
            "is_current": seat.position == current or seat.position in to_act,
            "is_dealer": seat.position == dealer,
            "picked": [card_ctx(c) for c in info.get("picked") or ()],  # Gin: taken from the pile, public
        })
    return out


def _around(seats: list[dict], me: Seat | None) -> list[dict]:
    """Opponents clockwise from my left (seat i+1), as players sit around the table."""
    if me is None:
        return seats
    n = len(seats)
    by_pos = {s["position"]: s for s in seats}
    return [by_pos[(me.position + k) % n] for k in range(1, n) if (me.position + k) % n in by_pos]


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
        "info": engine.info,
        "version": table.version,
        "view": view,
        "has_view": view is not None,  # what the pieces test, rather than the whole view (tables.live.PieceMemo)
        "me": my_seat,
        "seated": my_seat is not None,
        "seats": seats_ctx,
        # What the score sheet shows of each seat: it stays the same while a round is played.
        "score_seats": [{key: s[key] for key in ("position", "name", "is_me", "is_bot", "bot_level", "active", "out",
                                                 "score")} for s in seats_ctx],
        "opponents": _around(seats_ctx, me),
        "is_my_turn": is_my_turn,
        "phase": (view or {}).get("phase"),
        "hint": PHASE_HINTS.get((view or {}).get("phase"), "") if is_my_turn else "",
        "remaining_s": remaining,
        "deadline_iso": table.deadline.isoformat() if table.deadline else "",
        "error": error,
        "is_host": me is not None and me.user_id is not None and me.user_id == table.host_id,
        "free_seats": max(0, table.seats_count - len(seats)),
        "chat": lambda: reads.recent_chat(table.pk),  # a callable: only the full page reads it, never a push
        "leave_cost": economy.abandon_cost(table=table, seat=me),  # what the ledger charges on « Quitter »
        **_recent_ctx(table, seats_ctx, me),
    }
    if view is None:
        return ctx
    legal_kinds = {m["action"] for m in view.get("legal") or []}
    value = card_value_fn(view)
    ctx.update({
        "hand_groups": _hand_groups(view, me.hand_order if me else [], value),
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
        "last_round": _round_end(view, seats_ctx, wild, value),
        "result": view.get("result"),
        "ranking": _ranking(table, seats, seats_ctx, view.get("result")),
    })
    if is_table_meld(view):
        ctx["tm"] = table_melds_ctx(view, seats_ctx, my_seat, is_my_turn)
        _mark_hand_targets(ctx["hand_groups"], ctx["tm"])
        if is_my_turn and view.get("phase") in ctx["tm"]["hints"]:
            ctx["hint"] = ctx["tm"]["hints"][view["phase"]]
            if view["phase"] == "DRAW" and ctx["tm"]["help_line"]:
                ctx["hint"] = ctx["tm"]["help_line"]
    return ctx


MOVE_LOG_TURNS = 12


def _recent_ctx(table: Table, seats_ctx: list[dict], me: Seat | None) -> dict:
    """« What just happened »: the last turn as a line, and the round's latest turns (newest first), told
    from the public events kept with the table (tables.recent); plain strings, so a piece drawn from them
    is drawn again only when they change (tables.live.PieceMemo)."""
    names = {s["position"]: s["name"] for s in seats_ctx}
    told = narration.turns(getattr(table, "recent_events", None) or [], names, me.position if me else None)
    texts = tuple(t["text"] for t in reversed(told))
    return {"last_move": texts[0] if texts else "", "move_log": texts[:MOVE_LOG_TURNS]}


def _round_end(view: dict, seats_ctx: list[dict], wild: str | None, value=cards.deadwood_value) -> dict | None:
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
            "deadwood_ctx": [card_ctx(c, wild_rank=wild, points=value(c)) for c in sorted(
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


# ---------------------------------------------------------------- table-meld rummies
# Games whose melds are laid on the table during the round (the view has "table" and "opened"):
# the melds grouped by owner with their open ends, my staged turn, the first lay-down progress and
# the solver's suggestions. Generic: everything comes from the view's keys, never from a game name.

CELEBRATED_ENDINGS = {"main_lisse": "Main lisse !", "going_rami": "Going Rami !", "chasse": "Chasse !"}
TM_HINTS = {
    "DRAW": "Pioche une carte ou prends la défausse.",
    "MELD": "Pose tes combinaisons si tu veux, puis défausse une carte.",
}


def is_table_meld(view: dict | None) -> bool:
    return bool(view) and isinstance(view.get("table"), list) and "opened" in view


def card_value_fn(view: dict | None):
    """Penalty value of a card left in hand: the game's ace and joker values when the view states them."""
    rules = (view or {}).get("rules")
    if not isinstance(rules, dict) or "ace_penalty" not in rules:
        return cards.deadwood_value
    ace, joker = rules["ace_penalty"], rules.get("joker_penalty") or 0

    def value(card: str) -> int:
        if cards.is_joker(card):
            return joker
        if cards.rank_of(card) == "A":
            return ace
        return cards.deadwood_value(card)

    return value


def face_label(face: str) -> str:
    """« 7♣ » for the face "7C" (a card without its copy number)."""
    return cards.label(face + "1")


def face_name(face: str) -> str:
    return cards.name_fr(face + "1")


def tm_card_ctx(card: str, stands: str | None = None, **flags) -> dict:
    """A card of a table meld; a joker says what it stands for: « Joker (7♣) »."""
    ctx = card_ctx(card, **flags)
    if stands:
        ctx["stands"] = face_label(stands)
        ctx["wild_label"] = f"Joker ({face_label(stands)})"
        ctx["name"] = f"Joker ({face_name(stands)})"
    return ctx


def _cards_text(ids, wilds: dict | None = None) -> str:
    wilds = wilds or {}
    return " ".join(f"Joker ({face_label(wilds[c])})" if c in wilds else cards.label(c) for c in ids)


def _meld_ctx(meld: dict, names: dict, *, pending: set, new_ids: set, changed_ids: set, actionable: bool,
              swap_ok: bool) -> dict:
    wilds = meld.get("wilds") or {}
    kind = meld.get("kind")
    n = len(meld["cards"])
    label = "Suite" if kind == "run" else ("Carré" if n == 4 else "Groupe" if n > 4 else "Brelan")
    is_new = meld["id"] in new_ids
    card_list = [tm_card_ctx(c, wilds.get(c), pending=is_new or c in pending,
                             swappable=actionable and swap_ok and c in wilds) for c in meld["cards"]]
    ends = meld.get("ends") or {}
    owner = meld.get("owner")
    return {
        "id": meld["id"],
        "owner": owner,
        "owner_name": names.get(owner, ""),
        "kind": kind,
        "label": label,
        "points": meld.get("points"),
        "cards": card_list,
        "low": kind == "run" and bool(ends.get("low")),
        "high": kind == "run" and bool(ends.get("high")),
        "room": kind != "run" and bool(ends.get("high") or ends.get("low")),
        "new": is_new,
        "changed": meld["id"] in changed_ids and not is_new,
        "actionable": actionable,
        "aria": f"{label} de {names.get(owner, '?')} : " + ", ".join(c["name"] for c in card_list),
    }


def _staged_lines(actions: list[dict], names: dict) -> list[str]:
    lines = []
    for a in actions:
        owner = names.get((a.get("meld") or {}).get("owner"), "")
        if a["action"] == "meld":
            lines.append(f"Poser {_cards_text(a['cards'], a.get('wilds'))} ({a.get('points', 0)} pts)")
        elif a["action"] == "lay_off":
            lines.append(f"Ajouter {_cards_text(a['cards'], a.get('wilds'))} à la combinaison de {owner}")
        elif a["action"] == "swap_joker":
            lines.append(f"Échanger le joker de {owner} contre {_cards_text(a['cards'])}")
    return lines


def _chips(melds: list[dict]) -> list[dict]:
    """Suggested melds as chips the player can pick (select the cards, keep the wild statement)."""
    out = []
    for m in melds:
        wilds = m.get("wilds") or {}
        out.append({
            "cards_ctx": [tm_card_ctx(c, wilds.get(c)) for c in m["cards"]],
            "cards_json": json.dumps(m["cards"]),
            "wilds_json": json.dumps(wilds) if wilds else "",
            "points": m.get("points"),
            "text": _cards_text(m["cards"]),
        })
    return out


def _opening_plan(best: dict) -> str:
    """The opening the solver found, as « Déposer » proposes it with nothing chosen (static/js/table.js):
    JSON `{melds: [{cards, wilds?}], text}`, every meld laid in turn."""
    melds = [{"cards": m["cards"], **({"wilds": m["wilds"]} if m.get("wilds") else {})} for m in best["melds"]]
    parts = " + ".join(f"{_cards_text(m['cards'], m.get('wilds'))} ({m.get('points', 0)} pts)" for m in best["melds"])
    already = f" avec les {best['staged_points']} déjà préparés" if best.get("staged_points") else ""
    text = (f"Première pose proposée : {parts} = {best['total']} points{already} (il en faut {best['threshold']}).")
    return json.dumps({"melds": melds, "text": text}, ensure_ascii=False)


def _option_line(view: dict) -> str:
    if view.get("target") is not None:
        return "Partie en une manche" if str(view["target"]) == "1" else f"Objectif : {view['target']} points"
    if view.get("point_limit") is not None:
        limit = str(view["point_limit"])
        return "Partie en une manche" if limit == "1" else f"Limite : {limit} points"
    return ""


def table_melds_ctx(view: dict, seats_ctx: list[dict], me: dict | None, is_my_turn: bool) -> dict:
    """What the table-meld templates need (templates/tables/_table_melds.html and _tm_*.html)."""
    names = {s["position"]: ("toi" if s["is_me"] else s["name"]) for s in seats_ctx}
    owner_names = {s["position"]: s["name"] for s in seats_ctx}
    phase = view.get("phase")
    my_pos = me["position"] if me else None
    opened_list = view.get("opened") or []
    for s in seats_ctx:
        s["opened"] = bool(s["position"] < len(opened_list) and opened_list[s["position"]])
    rules = view.get("rules") or {}
    threshold = view.get("threshold")
    staged = view.get("staged")  # only in the acting seat's own view
    sugg = view.get("suggestions") or {}
    acting = bool(is_my_turn and phase == "MELD" and staged is not None)
    actions = (staged or {}).get("actions") or []
    table = staged["table_preview"] if staged else view.get("table") or []
    new_ids = {a["meld_id"] for a in actions if a["action"] == "meld"}
    changed_ids = {a["meld_id"] for a in actions}
    pending = {c for a in actions if a["action"] in ("lay_off", "swap_joker") for c in a["cards"]}
    may_act = bool(staged and staged.get("may_act_on_table"))
    actionable = acting and may_act
    swap_ok = bool(rules.get("swap"))

    melds = [_meld_ctx(m, owner_names, pending=pending, new_ids=new_ids, changed_ids=changed_ids,
                       actionable=actionable, swap_ok=swap_ok) for m in table]
    order = [s["position"] for s in seats_ctx if not s["is_me"]]
    if my_pos is not None:
        order.append(my_pos)
    order += sorted({m["owner"] for m in melds} - set(order), key=lambda o: (o is None, o))
    groups = []
    for owner in order:
        mine = [m for m in melds if m["owner"] == owner]
        if mine:
            seat = next((s for s in seats_ctx if s["position"] == owner), None)
            groups.append({"owner": owner, "name": owner_names.get(owner, "?"), "is_me": owner == my_pos,
                           "is_current": bool(seat and seat["is_current"]), "melds": mine})

    i_opened = bool(my_pos is not None and my_pos < len(opened_list) and opened_list[my_pos])
    opening = None
    if threshold and not i_opened and view.get("hand"):
        points = (staged or {}).get("opening_points", 0)
        opening = {"points": points, "threshold": threshold, "reached": points >= threshold,
                   "missing": max(0, threshold - points), "staged": bool(staged and new_ids)}

    # Solver help: what I can lay down now (MELD) or what taking the discard would give (DRAW).
    best = sugg.get("opening")
    chips, help_line = [], ""
    if acting:
        if best and not may_act:
            chips = _chips(best["melds"]) if best.get("reaches") else []
            if best.get("reaches"):
                help_line = (f"Tu peux ouvrir avec {best['total']} points "
                             f"(il en faut {best['threshold']}) :")
            else:
                help_line = (f"Tes combinaisons ne font que {best['total']} points : il en faut "
                             f"{best['threshold']} pour ta première pose.")
        elif sugg.get("melds"):
            chips = _chips(sugg["melds"])
            help_line = "Combinaisons possibles :"
    elif is_my_turn and phase == "DRAW":
        top = view.get("discard_top")
        top_text = cards.label(top) if top else ""
        discard_best = sugg.get("discard_opening")
        if best and best.get("reaches"):
            help_line = f"Pioche : ta main peut déjà ouvrir avec {best['total']} points."
        if discard_best and discard_best.get("reaches") and (not best or discard_best["total"] > best["total"]):
            help_line = (f"Prends le {top_text} de la défausse : tu pourrais ouvrir avec "
                         f"{discard_best['total']} points.")
        elif sugg.get("discard_melds") or sugg.get("discard_layoffs"):
            help_line = f"Le {top_text} de la défausse irait dans une combinaison : prends-le ou pioche."

    def why(default: str) -> str:
        if phase in ("ROUND_OVER", "MATCH_OVER"):
            return "La manche est terminée."
        if not is_my_turn:
            return "Ce n'est pas ton tour."
        if phase == "DRAW":
            return "Pioche d'abord une carte."
        return default

    legal = {m["action"] for m in view.get("legal") or []}
    has_joker = any(c["joker"] for m in melds for c in m["cards"])
    open_end = any(m["low"] or m["high"] or m["room"] for m in melds)
    opening_reason = f"Pose d'abord tes {threshold} points de première pose." if threshold else ""
    can_lay_down = acting and bool(sugg.get("melds"))
    if acting and not can_lay_down:
        meld_reason = (f"Aucune combinaison de ta main n'atteint les {best['threshold']} points de la première "
                       f"pose : au mieux {best['total']}." if best and not best.get("reaches")
                       else "Aucune combinaison à poser dans ta main.")
    else:
        meld_reason = why("Aucune combinaison à poser dans ta main.")
    # « Déposer » with nothing chosen, before my first lay-down: the solver's whole opening, not one meld of it.
    opening_plan = _opening_plan(best) if acting and not may_act and best and best.get("reaches") else ""
    # Déposer and Défausser are always there (disabled with their reason); the other table actions show
    # while I play my turn, « Échanger le joker » when a joker lies on the table, « Sortir » when I may.
    buttons = [
        {"tm": "meld", "label": "Déposer", "enabled": can_lay_down, "acting": acting, "reason": meld_reason,
         "show": True, "plan": opening_plan},
        {"tm": "lay_off", "label": "Ajouter", "enabled": actionable and open_end, "show": acting,
         "reason": why(opening_reason if not may_act else "Aucune combinaison à compléter sur la table.")},
    ]
    if swap_ok:
        buttons.append({"tm": "swap_joker", "label": "Échanger le joker", "enabled": actionable and has_joker,
                        "show": acting and has_joker, "reason": why(opening_reason)})
    undo_label = "Annuler la prise" if not actions and view.get("taken_card") and rules.get("undo_take") else "Annuler"
    buttons.append({"action": "undo", "label": undo_label, "enabled": "undo" in legal, "show": acting,
                    "reason": why("Rien à annuler pour l'instant.")})
    if len(actions) > 1:
        buttons.append({"action": "undo", "all": True, "label": "Tout annuler", "enabled": "undo" in legal,
                        "secondary": True, "show": acting, "reason": why("Rien à annuler.")})
    if rules.get("go_out"):
        buttons.append({"action": "go_out", "label": "Sortir", "enabled": "go_out" in legal,
                        "show": "go_out" in legal, "reason": why("Pose d'abord toutes tes cartes.")})
    buttons.append({"tm": "discard", "label": "Défausser", "enabled": acting and bool(view.get("hand")),
                    "show": True, "reason": why("Tu ne peux pas défausser maintenant.")})

    layoff_targets: dict[str, list[str]] = {}
    for m in sugg.get("layoffs") or []:
        for c in m["cards"]:
            layoff_targets.setdefault(c, []).append(f"{m['meld_id']}:{m.get('end') or ''}")
    swap_targets: dict[str, list[str]] = {}
    for m in sugg.get("swaps") or []:
        for c in m["cards"]:
            swap_targets.setdefault(c, []).append(f"{m['meld_id']}:{m['joker']}")

    me_out = bool(me and not me["active"])
    return {
        "groups": groups,
        "melds_count": len(melds),
        "acting": acting,
        "actionable": actionable,
        "may_act": may_act,
        "threshold": threshold,
        "opened": i_opened,
        "opening": opening,
        "option_line": _option_line(view),
        "staged_lines": _staged_lines(actions, names),
        "staged": staged,
        "commit_error": (staged or {}).get("commit_error"),
        "chips": chips,
        "help_line": help_line,
        "buttons": buttons,
        "hints": TM_HINTS,
        "layoff_targets": layoff_targets,
        "swap_targets": swap_targets,
        "rules_json": json.dumps({
            "ace_low": bool(rules.get("ace_low", True)), "ace_high": bool(rules.get("ace_high", False)),
            "min_naturals": rules.get("min_naturals", 1), "threshold": threshold, "opened": i_opened,
            "staged_points": (staged or {}).get("opening_points", 0), "may_act": may_act, "acting": acting,
            "swap": rules.get("swap"),
        }),
        "celebrate": CELEBRATED_ENDINGS.get((view.get("last_round") or {}).get("ending")),
        "me_out": me_out,
    }


def _mark_hand_targets(groups: list[dict], tm: dict) -> None:
    """Each card of my hand lists the table melds it fits (lay-off ends, jokers it can release)."""
    for group in groups:
        for card in group["cards"]:
            card["tm_layoffs"] = " ".join(tm["layoff_targets"].get(card["id"], []))
            card["tm_swaps"] = " ".join(tm["swap_targets"].get(card["id"], []))
