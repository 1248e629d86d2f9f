"""The table-meld rummies' reference (Rami, Rami 40, Kalooki, Rami traditionnel): the greedy melder of the
players' guides. Draw from the stock, but take the top discard when it completes a meld in hand (its best
lay-down then sheds more) or, once the table is open to it, when it lays off on a table meld; in Rami 40,
where a taken card must be laid at once, only when it can be (in the opening itself before opening). Lay down
as soon as the opening requirement can be met, then every turn lay all its melds and lay off every natural
card it can (a joker only when two cards or fewer are left); go out when it can; discard the highest-penalty
card outside the hand's melds, never a joker while another card is loose. Never releases a joker.

Moves are read from the legal list: the engine lists the lay-down it would make (`meld`: the opening's melds
once they reach the threshold, afterwards the melds of the least-penalty arrangement) and every single-card
`lay_off`; the reference stages those, one per decision, then commits with `go_out` or its discard."""

import random

from bench.reference.common import first, of
from engine import cards, games
from engine.melds import table as tm


def _game(view: dict):
    return games.get(view["game"])


def _is_joker(card: str) -> bool:
    return cards.is_joker(card)


def _lays_off(game, table: list[dict], card: str) -> bool:
    return any(tm.layoff_ends(tm.reading_of(list(m["cards"]), dict(m["wilds"]), m["kind"], game.rules), card,
                              game.rules) for m in table)


def _may_act(view: dict) -> bool:
    return view["threshold"] is None or view["opened"][view["seat"]]


def _take(view: dict, legal: list[dict]) -> bool:
    """Whether the top discard is worth taking (and, in Rami 40, can be laid this turn)."""
    game = _game(view)
    top = view.get("discard_top")
    if first(legal, "take_discard") is None or top is None:
        return False
    hand = list(view["hand"])
    values = game.values()
    table = view.get("table") or []
    if game.take_must_be_used:
        if not _may_act(view):
            plan = tm.best_plan(hand + [top], game.rules, None, must=top, taken=top, leave="discard")
            return plan is not None and plan.value >= view["threshold"]
        plan = tm.best_plan(hand + [top], game.rules, values, must=top, taken=top, leave="discard")
        return plan is not None or _lays_off(game, table, top)
    leave = "discard_or_empty" if game.go_out else "discard"  # a card must stay to be thrown (or none at all)
    without = tm.best_plan(hand, game.rules, values, leave=leave)
    with_top = tm.best_plan(hand + [top], game.rules, values, must=top, taken=top, leave=leave)
    if with_top is not None and with_top.value > (without.value if without else 0):
        return True
    return _may_act(view) and _lays_off(game, table, top)


def _discard(view: dict, legal: list[dict]) -> dict:
    game = _game(view)
    values = game.values()
    discards = of(legal, "discard")
    arrangement = view.get("arrangement") or {}
    loose = set(arrangement.get("deadwood") or [])
    pool = ([m for m in discards if m["card"] in loose and not _is_joker(m["card"])]
            or [m for m in discards if not _is_joker(m["card"])] or discards)
    return min(pool, key=lambda m: (-values[m["card"]], cards.sort_key(m["card"])))


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    if view["phase"] == "DRAW":
        take = first(legal, "take_discard")
        if take is not None and _take(view, legal):
            return take
        return first(legal, "draw_stock") or take
    taken = view.get("taken_card")
    hand = view["hand"]
    melds = of(legal, "meld")
    layoffs = of(legal, "lay_off")
    if taken is not None and taken in hand:  # lay the card taken from the pile first (Rami 40 demands it)
        with_taken = [m for m in melds + layoffs if taken in m["cards"]]
        if with_taken:
            return with_taken[0]
    if melds:
        return melds[0]
    naturals = [m for m in layoffs if not any(_is_joker(c) for c in m["cards"])]
    if naturals:
        return naturals[0]
    if layoffs and len(hand) <= 2:
        return layoffs[0]
    go_out = first(legal, "go_out")
    if go_out is not None:
        return go_out
    if of(legal, "discard"):
        return _discard(view, legal)
    return first(legal, "undo") or legal[0]  # the staged turn cannot be committed: take it back
