"""Thanasis' reference: the plain policy of a draw-and-discard rummy played in hand. Draw (the pile is never
taken in Thanasis, so « take the discard when it completes a meld » never arises); close (« Je ferme ! ») as
soon as the rules allow, with the card that leaves the least outside melds; otherwise throw the highest card
outside the hand's best melds, keeping the wilds (a wild is thrown only when nothing else is loose)."""

import random

from bench.reference.common import first, of
from engine import cards
from engine.games import thanasis as rules


def _is_wild(card: str, wild_rank: str | None) -> bool:
    return cards.is_joker(card) or cards.rank_of(card) == wild_rank


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    draw = first(legal, "draw_stock")
    if draw is not None:
        return draw
    hand = list(view["hand"])
    wild = view.get("wild_rank")
    left = rules.discards(hand, wild)  # the hand's best deadwood after each discard: the meld solver
    closes = of(legal, "close")
    if closes:
        return min(closes, key=lambda m: (left[m["card"]], -rules.card_value(m["card"], wild),
                                          cards.sort_key(m["card"])))
    discards = of(legal, "discard")
    loose = set(rules.best_arrangement(hand, wild).deadwood)
    pool = ([m for m in discards if m["card"] in loose and not _is_wild(m["card"], wild)]
            or [m for m in discards if m["card"] in loose] or discards)
    return min(pool, key=lambda m: (-rules.card_value(m["card"], wild), left[m["card"]], cards.sort_key(m["card"])))
