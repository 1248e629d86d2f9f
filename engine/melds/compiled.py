"""The per-rules card table: each card id's kind, suit, rank, value and packed code (see engine.melds.rules)."""

from engine.cards import RANK_INDEX, RANKS, SUIT_INDEX, SUITS
from engine.melds import plain
from engine.melds.rules import DEAD, DEAD_SHIFT, NATURAL, RANK_VALUE, SUIT_SHIFT, WILD, WILD_SHIFT, MeldRules


def _all_card_ids() -> list[str]:
    cards = [f"{r}{s}{c}" for c in (1, 2) for s in SUITS for r in RANKS]
    return cards + [f"JK{n}" for n in range(1, 7)]


def card_value(card: str, rules: MeldRules) -> int:
    """Deadwood points of a card left outside melds (a wild-rank card counts its face value)."""
    try:
        return compiled(rules).info[card][3]
    except KeyError:
        raise ValueError(f"not a card id: {card!r}") from None


class CompiledRules:
    """Per-rules lookup tables for card ids."""

    def __init__(self, rules: MeldRules):
        self.rules = rules
        self.info: dict[str, tuple[int, int, int, int]] = {}  # id -> (kind, suit, rank, value)
        self.codes: dict[str, int] = {}  # id -> packed code (see engine.melds.rules)
        self.wild_values: dict[str, int] = {}  # wild id -> deadwood value
        self.structure = None  # engine.melds.structure.Structure, set on first use
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
