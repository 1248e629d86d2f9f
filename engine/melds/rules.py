"""Meld rules as plain parameters, card kinds and values, and the layout of a packed hand.

The per-rules card table (`compiled`) lives in engine.melds.compiled."""

from dataclasses import dataclass
from functools import cache

from engine.cards import RANKS

# Deadwood value by rank index (index 0 unused): A=1, 2-10 face, J/Q/K=10.
RANK_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

NATURAL, WILD, DEAD = 0, 1, 2  # card kinds; DEAD = a printed joker that is not wild


@dataclass(frozen=True)
class MeldRules:
    """What counts as a meld. Every field is a rule parameter; see thanasis_rules / gin_rules.

    Cards of a wild rank are always wilds (interchangeable with printed jokers); one may stand for
    itself, but it never counts as a natural for `min_naturals` or `set_distinct_suits`.
    """

    wild_ranks: frozenset[str] = frozenset()
    jokers_wild: bool = True
    set_min: int = 3
    set_max: int = 4
    set_distinct_suits: bool = True
    run_min: int = 3
    run_max: int = 13
    ace_low: bool = True
    ace_high: bool = False
    all_wild_ok: bool = True
    min_naturals: int = 0
    joker_value: int = 25

    def __post_init__(self):
        object.__setattr__(self, "wild_ranks", frozenset(self.wild_ranks))
        unknown = self.wild_ranks - set(RANKS)
        if unknown:
            raise ValueError(f"unknown wild ranks: {sorted(unknown)}")
        if not 1 <= self.set_min <= self.set_max:
            raise ValueError("need 1 <= set_min <= set_max")
        if not 1 <= self.run_min <= self.run_max:
            raise ValueError("need 1 <= run_min <= run_max")
        if self.min_naturals < 0:
            raise ValueError("min_naturals must be >= 0")


@cache
def thanasis_rules(wild_rank: str | None) -> MeldRules:
    """Thanasis: the round's rank and both printed jokers are wild; ace low or high; all-wild melds."""
    return MeldRules(
        wild_ranks=frozenset({wild_rank}) if wild_rank else frozenset(),
        jokers_wild=True,
        ace_low=True,
        ace_high=True,
        all_wild_ok=True,
        joker_value=25,
    )


@cache
def gin_rules() -> MeldRules:
    """Gin Rami: one deck, no wilds, sets of 3-4, runs with the ace low only."""
    return MeldRules(jokers_wild=False, ace_low=True, ace_high=False, all_wild_ok=False)


# A whole hand packs into one int, the sum of its cards' codes: suit s holds a natural of rank r at
# bit 32*s + 2r (two bits per rank count its copies), the wild count sits at WILD_SHIFT and the
# points of dead cards at DEAD_SHIFT. Summing is C-speed and the fields cannot overflow.
SUIT_SHIFT = 32
SUIT_MASK = (1 << 28) - 1
WILD_SHIFT = 128
DEAD_SHIFT = 140
