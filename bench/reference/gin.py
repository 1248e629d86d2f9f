"""Gin Rami's reference: take the upcard when it completes a meld or lowers the deadwood, throw the highest
deadwood card, knock as soon as the rules allow (the « simple » policy of rlcard and OpenSpiel write-ups)."""

import random

from bench.reference.common import first
from engine import cards
from engine.games import gin as gin_rules


def _value(card: str) -> int:
    return min(cards.RANK_INDEX[card[:-2]], 10)


def _deadwood(hand: list[str]) -> int:
    return gin_rules.best_arrangement(hand).points


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    hand = list(view["hand"])
    top = view.get("discard_top")
    take = first(legal, "take_discard")
    if take is not None and top:
        with_top = gin_rules.best_arrangement(hand + [top])
        completes = any(top in meld for meld in with_top.melds)
        now = _deadwood(hand)
        after = min(_deadwood([c for c in hand + [top] if c != throw]) for throw in hand)
        if completes or after < now:
            return take
    draw = first(legal, "draw_stock") or first(legal, "pass")
    if draw is not None:
        return draw
    knocks = [m for m in legal if m.get("action") == "knock"]
    if knocks:
        return min(knocks, key=lambda m: (_deadwood([c for c in hand if c != m["card"]]), -_value(m["card"])))
    discards = [m for m in legal if m.get("action") == "discard"]
    dead = set(gin_rules.best_arrangement(hand).deadwood)
    loose = [m for m in discards if m["card"] in dead] or discards
    return max(loose, key=lambda m: (_value(m["card"]), -_deadwood([c for c in hand if c != m["card"]]),
                                     cards.sort_key(m["card"])))
