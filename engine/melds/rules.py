"""Meld rules as plain parameters, card values, and the per-rules card table."""

from dataclasses import dataclass
from functools import cache

from engine.cards import RANK_INDEX, RANKS, SUIT_INDEX, SUITS

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


def _all_card_ids() -> list[str]:
    cards = [f"{r}{s}{c}" for c in (1, 2) for s in SUITS for r in RANKS]
    return cards + [f"JK{n}" for n in range(1, 7)]


def card_value(card: str, rules: MeldRules) -> int:
    """Deadwood points of a card left outside melds (a wild-rank card counts its face value)."""
    try:
        return compiled(rules).info[card][3]
    except KeyError:
        raise ValueError(f"not a card id: {card!r}") from None


# A whole hand packs into one int, the sum of its cards' codes: suit s holds a natural of rank r at
# bit 32*s + 2r (two bits per rank count its copies), the wild count sits at WILD_SHIFT and the
# points of dead cards at DEAD_SHIFT. Summing is C-speed and the fields cannot overflow.
SUIT_SHIFT = 32
SUIT_MASK = (1 << 28) - 1
WILD_SHIFT = 128
DEAD_SHIFT = 140


class CompiledRules:
    """Per-rules lookup tables for card ids."""

    def __init__(self, rules: MeldRules):
        self.rules = rules
        self.info: dict[str, tuple[int, int, int, int]] = {}  # id -> (kind, suit, rank, value)
        self.codes: dict[str, int] = {}  # id -> packed code (see above)
        self.wild_values: dict[str, int] = {}  # wild id -> deadwood value
        self.structure = None  # engine.melds.structure.Structure, set on first use
        from engine.melds import plain  # here: plain imports this module

        # Hands without wilds, one copy per face, solved by engine.melds.plain: its set cap, or 0.
        self.plain_cap = min(rules.set_max, 4) if plain.serves(rules) else 0
        wild_idx = {RANK_INDEX[r] for r in rules.wild_ranks}
        for card in _all_card_ids():
            if card.startswith("JK"):
                kind, suit, rank, value = (WILD if rules.jokers_wild else DEAD), -1, 0, rules.joker_value
            else:
                rank = RANK_INDEX[card[:-2]]
                kind, suit, value = (WILD if rank in wild_idx else NATURAL), SUIT_INDEX[card[-2]], RANK_VALUE[rank]
            self.info[card] = (kind, suit, rank, value)
            if kind == NATURAL:
                self.codes[card] = 1 << (SUIT_SHIFT * suit + 2 * rank)
            elif kind == WILD:
                self.codes[card] = 1 << WILD_SHIFT
                self.wild_values[card] = value
            else:
                self.codes[card] = value << DEAD_SHIFT


_by_identity: dict[int, tuple[MeldRules, CompiledRules]] = {}
_by_value: dict[MeldRules, CompiledRules] = {}


# The rules compiled last, as one (rules, CompiledRules) tuple (one assignment: safe across threads);
# hot callers check it before calling `compiled`.
LAST: list[tuple] = [(object(), None)]


def compiled(rules: MeldRules) -> CompiledRules:
    # Identity first: hashing a dataclass re-hashes all its fields on every call.
    hit = _by_identity.get(id(rules))
    if hit is not None and hit[0] is rules:
        LAST[0] = hit
        return hit[1]
    comp = _by_value.get(rules)
    if comp is None:
        if not isinstance(rules, MeldRules):
            raise TypeError("rules must be a MeldRules")
        comp = _by_value[rules] = CompiledRules(rules)
    if len(_by_identity) > 4096:
        _by_identity.clear()
    _by_identity[id(rules)] = LAST[0] = (rules, comp)
    return comp
