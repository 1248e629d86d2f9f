"""Thanasis's all-seeing player: it knows the stock's order, so it knows every card it will draw, and plans its
discards to close as early as those draws allow (a beam search over its own future hands). Nothing a player does
in Thanasis touches another's cards, so this is the ceiling of the race: how often a seat wins when it plays its
own cards perfectly, against the reference opponent."""

from engine.bots.thanasis import ADAPTER

BEAM = 40  # hands kept per future turn
HORIZON = 24  # future draws looked at


def own_draws(state: dict, seat: int) -> list[str]:
    """The cards `seat` will draw, in order, if every seat keeps drawing from the stock (as long as it lasts)."""
    active = state["active"]
    players = len(active)
    order = active[active.index(seat) + 1:] + active[: active.index(seat) + 1]  # the next drawers, `seat` last
    stock = list(state["stock"])
    draws = []
    position = order.index(seat) + 1
    while position <= len(stock) and len(draws) < HORIZON:
        draws.append(stock[-position])
        position += players
    return draws


def choose(state: dict, view: dict, legal: list[dict]) -> dict:
    key = view.get("wild_rank")
    closes = [m for m in legal if m.get("action") == "close"]
    hand = list(view["hand"])
    if closes:
        left = ADAPTER.discards(hand, key)
        return min(closes, key=lambda m: (left[m["card"]], m["card"]))
    discards = {m["card"]: m for m in legal if m.get("action") == "discard"}
    if not discards:
        return legal[0]
    left = ADAPTER.discards(hand, key)
    beam: dict[frozenset, tuple[int, str]] = {}
    for card in discards:
        beam.setdefault(_without_one(hand, card), (left[card], card))
    for drawn in own_draws(state, view["seat"]):
        grown: dict[frozenset, tuple[int, str]] = {}
        for kept, (_dw, first) in _best(beam):
            cards = list(kept) + [drawn]
            after = ADAPTER.discards(cards, key)
            if min(after.values()) <= 10:
                return discards[first]  # the earliest turn this seat can close
            for throw, dw in after.items():
                grown.setdefault(_without_one(cards, throw), (dw, first))
        beam = grown
    return discards[min(_best(beam), key=lambda item: item[1][0])[1][1]]


def _best(beam: dict) -> list:
    return sorted(beam.items(), key=lambda item: (item[1][0], sorted(item[0])))[:BEAM]


def _without_one(hand: list[str], card: str) -> frozenset:
    rest = list(hand)
    rest.remove(card)
    return frozenset(rest)
