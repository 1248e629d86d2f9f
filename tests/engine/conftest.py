"""Engine test fixtures.

Until `engine.melds` (the real solver, written separately) exists, a small exhaustive
stand-in with the same API is installed as `engine.melds` so the game engines can be tested.
Set ENGINE_TESTS_STUB_MELDS=1 to use the stand-in anyway (to tell engine bugs from solver bugs).
"""

import importlib
import os
import sys
import types
from collections import namedtuple
from itertools import combinations

import engine
from engine import cards


def _install_stub_solver() -> None:
    Arrangement = namedtuple("Arrangement", "points melds deadwood wilds")
    MeldRules = namedtuple("MeldRules", "wild_rank jokers ace_high")

    def thanasis_rules(wild_rank):
        return MeldRules(wild_rank, True, True)

    def gin_rules():
        return MeldRules(None, False, False)

    def card_value(card, rules):
        if cards.is_joker(card):
            return 25
        rank = cards.rank_of(card)
        return min(cards.RANK_INDEX[rank], 10)

    def is_wild(card, rules):
        return rules.jokers and (cards.is_joker(card) or cards.rank_of(card) == rules.wild_rank)

    def is_valid_meld(meld, rules):
        n = len(meld)
        if n < 3 or len(set(meld)) != n:
            return False
        naturals = [c for c in meld if not is_wild(c, rules)]
        if not naturals:
            return rules.jokers
        suits = [cards.suit_of(c) for c in naturals]
        ranks = [cards.RANK_INDEX[cards.rank_of(c)] for c in naturals]
        if len(set(ranks)) == 1 and n <= 4 and len(set(suits)) == len(suits):
            return True
        if len(set(suits)) != 1 or len(set(ranks)) != len(ranks) or n > 13:
            return False
        options = [ranks]
        if rules.ace_high and 1 in ranks:
            options.append([14 if r == 1 else r for r in ranks])
        return any(max(p) - min(p) + 1 <= n for p in options)

    def _solve(hand, rules):
        hand = list(hand)
        n = len(hand)
        valid = [
            m for size in range(3, n + 1) for idx in combinations(range(n), size)
            if is_valid_meld([hand[i] for i in idx], rules)
            for m in [sum(1 << i for i in idx)]
        ]
        memo = {0: (0, ())}

        def f(mask):
            if mask in memo:
                return memo[mask]
            low = mask & -mask
            i = low.bit_length() - 1
            rest = f(mask ^ low)
            best = (rest[0] + card_value(hand[i], rules), rest[1])
            for m in valid:
                if m & low and m & mask == m:
                    sub = f(mask ^ m)
                    if sub[0] < best[0]:
                        best = (sub[0], sub[1] + (m,))
            memo[mask] = best
            return best

        def arrangement(mask):
            points, chosen = f(mask)
            in_melds = 0
            for m in chosen:
                in_melds |= m
            melds_ = [[hand[i] for i in range(n) if m >> i & 1] for m in chosen]
            dead = [hand[i] for i in range(n) if mask >> i & 1 and not in_melds >> i & 1]
            return Arrangement(points, melds_, dead, {})

        return hand, arrangement

    def best_arrangement(hand, rules):
        hand, arrangement = _solve(hand, rules)
        return arrangement((1 << len(hand)) - 1)

    def deadwood(hand, rules):
        return best_arrangement(hand, rules).points

    def best_discards(hand, rules):
        hand, arrangement = _solve(hand, rules)
        full = (1 << len(hand)) - 1
        return {c: arrangement(full ^ (1 << i)).points for i, c in enumerate(hand)}

    def best_with_layoffs(hand, table_melds, rules):
        hand = list(hand)
        per_meld = []
        for meld in table_melds:
            extensions = [()]
            for size in range(1, len(hand) + 1):
                for combo in combinations(hand, size):
                    if is_valid_meld(list(meld) + list(combo), rules):
                        extensions.append(combo)
            per_meld.append(extensions)
        best = (best_arrangement(hand, rules), [])

        def walk(i, used, lays):
            nonlocal best
            if i == len(per_meld):
                if lays:
                    arr = best_arrangement([c for c in hand if c not in used], rules)
                    if arr.points < best[0].points:
                        best = (arr, list(lays))
                return
            for ext in per_meld[i]:
                if not used.intersection(ext):
                    walk(i + 1, used | set(ext), lays + [(c, i) for c in ext])

        walk(0, frozenset(), [])
        return best

    stub = types.ModuleType("engine.melds")
    stub.__doc__ = "Test stand-in for the meld solver (exhaustive, slow)."
    for name, obj in dict(locals()).items():
        if not name.startswith("_") and name != "stub":
            setattr(stub, name, obj)
    stub.STUB = True
    sys.modules["engine.melds"] = stub
    engine.melds = stub


SOLVER_API = ("thanasis_rules", "gin_rules", "card_value", "best_arrangement", "best_discards",
              "is_valid_meld", "best_with_layoffs")


def _solver_ready() -> bool:
    try:
        module = importlib.import_module("engine.melds")
    except ImportError:
        return False
    return all(hasattr(module, name) for name in SOLVER_API)


if os.environ.get("ENGINE_TESTS_STUB_MELDS") or not _solver_ready():
    _install_stub_solver()
