"""The card games' presenter: a hand of cards, the stock and the discard pile, the action buttons, the
round-end sheet with every hand shown (templates/tables/live/cards/)."""

from functools import lru_cache

from markupsafe import Markup

from engine import cards, coach
from tables import families, live
from tables.presenters.base import Presenter

MOVE_CARD_ACTIONS = ("discard", "close", "knock")
MACROS = "tables/live/cards/cards.jinja"
_face, _shown, _hand_card = (live.cached_macro(MACROS, name) for name in ("face", "shown", "hand_card"))


def card_face(card: dict, badge: bool = False) -> Markup:
    return _face(card, badge)


def card_shown(card: dict, size: str | None = None, badge: bool = False, extra: str | None = None) -> Markup:
    return _shown(card, size, badge, extra)


def hand_card(card: dict, selectable: bool = False, discardable: bool = False) -> Markup:
    return _hand_card(card, bool(selectable), bool(discardable))


def opponent_box(seat: dict, marks, view, remaining_s: int | None, turn_timer_s: int) -> Markup:
    """An opponent's place (macro `opponent`), drawn once per distinct seat and reused: for every seat's push of a
    move, and from one move to the next for the players whose turn neither starts nor ends (the clock only
    shows on the player to act)."""
    remaining = remaining_s if seat.get("is_current") else None
    args = (bool(marks), bool(view), remaining, turn_timer_s)
    if live.environment().auto_reload:
        return live.macro(MACROS, "opponent")(seat, *args)
    try:
        key = tuple((k, tuple(c["id"] for c in v) if k == "picked" else v) for k, v in seat.items())
        return _opponent_box(key, *args)
    except TypeError:  # a value that cannot be a key: drawn each time
        return live.macro(MACROS, "opponent")(seat, *args)


@lru_cache(maxsize=live.MACRO_CACHE_SIZE)
def _opponent_box(key: tuple, *args) -> Markup:
    seat = dict(key)
    seat["picked"] = [card_ctx(c) for c in seat.get("picked") or ()]
    return live.macro(MACROS, "opponent")(seat, *args)


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


def hand_groups(view: dict, order: list, value=cards.deadwood_value) -> list[dict]:
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


def action_buttons(engine, view: dict, is_my_turn: bool) -> list[dict]:
    """The family's buttons (the engine's `action_labels`): legal ones enabled, the others this game may
    offer shown disabled with a reason; « Passer » and « Manche suivante » only when legal."""
    legal = view.get("legal") or []
    kinds = []
    for move in legal:
        if move["action"] not in kinds:
            kinds.append(move["action"])
    known = getattr(engine, "turn_actions", None)
    shown = []
    for action in engine.action_labels:
        if action in ("pass", "next_round") and action not in kinds:
            continue
        if known is not None and action not in known and action not in kinds:
            continue  # this game never offers it (no « Prendre la défausse » in a stock-only game)
        if action == "take_discard" and not view.get("discard_pile") and action not in kinds:
            continue
        enabled = action in kinds
        shown.append({"action": action, "label": engine.action_label(action, view), "enabled": enabled,
                      "reason": "" if enabled else _why_not(engine, view, action, is_my_turn)})
    return shown


def _why_not(engine, view: dict, action: str, is_my_turn: bool) -> str:
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
        return engine.phase_hints.get(view.get("phase"), "Ce coup n'est pas permis maintenant.")
    return "Ce coup n'est pas permis maintenant."


def round_end(view: dict, seats_ctx: list[dict], wild: str | None, value=cards.deadwood_value,
              best: list[dict] | None = None) -> dict | None:
    """The round-end sheet; `best`: « Meilleure disposition » of each hand (engine.coach.dispositions), when
    the game counts hands as they are."""
    last = view.get("last_round")
    if not last:
        return None
    names = {s["position"]: s["name"] for s in seats_ctx}
    best_of = {b["seat"]: b for b in best or ()}
    players = []
    for p in last.get("players", []):
        deadwood = set(p.get("deadwood", []))
        arranged = best_of.get(p["seat"])
        players.append({
            "best": None if arranged is None else {
                "melds_ctx": [[card_ctx(c, wild_rank=wild, in_meld=True) for c in m] for m in arranged["melds"]],
                "deadwood_ctx": [card_ctx(c, wild_rank=wild, points=value(c)) for c in arranged["deadwood"]],
                "points": arranged["points"],
                "saved": max(0, (arranged.get("counted") or 0) - arranged["points"]),
            },
            **p,
            "name": names.get(p["seat"], f"Place {p['seat'] + 1}"),
            "melds_ctx": [[card_ctx(c, wild_rank=wild, in_meld=True) for c in m] for m in p.get("melds", [])],
            "deadwood_ctx": [card_ctx(c, wild_rank=wild, points=value(c)) for c in sorted(
                deadwood, key=cards.sort_key)],
            "layoffs_ctx": [card_ctx(lay["card"], wild_rank=wild, in_meld=True) for lay in p.get("layoffs") or []],
        })
    return {**last, "players_ctx": players}


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



class CardsPresenter(Presenter):
    family = "cards"
    folder = "cards"
    pieces = ("opponents", "centre", "hand", "actions", "round_end")
    template_globals = {"card_face": card_face, "card_shown": card_shown, "hand_card": hand_card,
                        "opponent_box": opponent_box}

    def context(self, engine, view: dict, frame: dict, *, table, seats: list, me) -> dict:
        players = {p["seat"]: p for p in view.get("players", [])}
        for seat in frame["seats"]:  # cards taken face up from the pile, when the view lists them
            seat["picked"] = [card_ctx(c) for c in players.get(seat["position"], {}).get("picked") or ()]
        legal_kinds = {m["action"] for m in view.get("legal") or []}
        wild = view.get("wild_rank")
        value = card_value_fn(view)
        return {
            "hand_groups": hand_groups(view, me.hand_order if me else [], value),
            "hand_count": len(view.get("hand") or []),
            "actions": action_buttons(engine, view, frame["is_my_turn"]),
            "can_discard": "discard" in legal_kinds,
            "can_draw": "draw_stock" in legal_kinds,
            "can_take_discard": "take_discard" in legal_kinds,
            "card_actions": sorted(legal_kinds & set(MOVE_CARD_ACTIONS)),
            "discard_top": card_ctx(view["discard_top"], wild_rank=wild) if view.get("discard_top") else None,
            "indicator": card_ctx(view["indicator"], wild_rank=wild) if view.get("indicator") else None,
            "stock_count": view.get("stock_count"),
            "last_round": round_end(view, frame["seats"], wild, value, coach.dispositions(engine, view)),
        }


PRESENTER = families.register(CardsPresenter())
