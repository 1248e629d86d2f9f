"""Validity of one meld, independent of the search."""

from engine.melds.compiled import compiled
from engine.melds.rules import DEAD, NATURAL, MeldRules


def is_valid_meld(cards: list[str], rules: MeldRules) -> bool:
    """True if these cards, with wilds standing for suitable cards, form one set or one run."""
    info = compiled(rules).info
    if len(set(cards)) != len(cards):
        return False
    naturals = []
    for card in cards:
        try:
            kind, suit, rank, _ = info[card]
        except (KeyError, TypeError):
            raise ValueError(f"not a card id: {card!r}") from None
        if kind == DEAD:
            return False
        if kind == NATURAL:
            naturals.append((suit, rank))
    n = len(cards)
    if len(naturals) < rules.min_naturals:
        return False
    if not naturals:
        return rules.all_wild_ok and (_set_size_ok(n, rules) or _run_size_ok(n, rules))
    return _is_set(naturals, n, rules) or _is_run(naturals, n, rules)


def _set_size_ok(n: int, rules: MeldRules) -> bool:
    return rules.set_min <= n <= rules.set_max and (n <= 4 or not rules.set_distinct_suits)


def _run_size_ok(n: int, rules: MeldRules) -> bool:
    window = 13 if (rules.ace_low or rules.ace_high) else 12
    return rules.run_min <= n <= min(rules.run_max, window)


def _is_set(naturals: list[tuple[int, int]], n: int, rules: MeldRules) -> bool:
    if len({rank for _, rank in naturals}) != 1 or not _set_size_ok(n, rules):
        return False
    return not rules.set_distinct_suits or len({suit for suit, _ in naturals}) == len(naturals)


def _is_run(naturals: list[tuple[int, int]], n: int, rules: MeldRules) -> bool:
    if len({suit for suit, _ in naturals}) != 1 or not _run_size_ok(n, rules):
        return False
    ranks = sorted(rank for _, rank in naturals)
    if len(set(ranks)) != len(ranks):
        return False
    if ranks[0] != 1:
        return ranks[-1] - ranks[0] + 1 <= n
    # The ace is low (position 1) or high (position 14), never both.
    if rules.ace_low and ranks[-1] <= n:
        return True
    return rules.ace_high and 14 - (ranks[1] if len(ranks) > 1 else 14) + 1 <= n
