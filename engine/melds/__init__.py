"""Exact, generic meld solver: least deadwood, best arrangement, best discards, Gin lay-offs.

Rules are parameters (`MeldRules`); `thanasis_rules(wild_rank)` and `gin_rules()` build the two
current games' rules. Hands are lists of card ids ("QH1", "10S2", "JK1"); two copies of a face are
different ids. Every function raises ValueError on an unknown or repeated card id.

- `deadwood(hand, rules)`: the true minimum of deadwood points (fast path, memoised).
- `best_arrangement(hand, rules)`: an arrangement reaching that minimum. Ties: more naturals in
  sets with two or more naturals (the Gin UI proposal), then a fixed order, so the same hand always
  gives the same answer whatever its order. Wilds left out are always the cheapest ones.
- `best_discards(hand, rules)`: for each card, the minimum deadwood of the hand without it.
- `is_valid_meld(cards, rules)`: one set or run, wilds standing for whatever fits.
- `best_with_layoffs(hand, table_melds, rules)`: a Gin opponent's best own melds plus lay-offs.

Wild semantics: every card of a wild rank is a wild (like a printed joker when `jokers_wild`); it
may stand for itself, but it never counts as a natural for `min_naturals` or the distinct-suits
rule. Left out of melds it counts its face value; a printed joker counts `joker_value`.

How it works: see engine.melds.structure (per-suit solutions) and engine.melds.solver (sets across
suits, wilds). Hands without wilds and with one copy of each face (every Gin hand) take a shortcut,
engine.melds.plain (the hand as one int, bit tricks, no memo), with the same answers.
`engine.melds.table` (table melds of the rummy family) lives beside it.
"""

from engine.melds.arrange import Arrangement, best_arrangement
from engine.melds.compiled import card_value
from engine.melds.layoffs import best_with_layoffs
from engine.melds.rules import MeldRules, gin_rules, thanasis_rules
from engine.melds.solver import best_discards, deadwood
from engine.melds.validity import is_valid_meld

__all__ = [
    "Arrangement",
    "MeldRules",
    "best_arrangement",
    "best_discards",
    "best_with_layoffs",
    "card_value",
    "deadwood",
    "gin_rules",
    "is_valid_meld",
    "thanasis_rules",
]
