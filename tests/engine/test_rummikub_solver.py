"""The exact Rummikub solver (engine/games/rummikub_solver.py) against brute force, and its worked examples."""

import itertools
import random
import time
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games import _tiles
from engine.games.rummikub_solver import solve

# ---------------------------------------------------------------- brute force


def _partitions_best(tiles: tuple, score) -> int | None:
    """Best total `score(reading)` over the partitions of `tiles` into valid sets; None if there is none."""

    @cache
    def best(rest: tuple):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        mates = [t for t in others if _tiles.is_joker(t) or _tiles.is_joker(first)
                 or t[0] == first[0] or _tiles.number_of(t) == _tiles.number_of(first)]
        found = None
        for size in range(2, len(mates) + 1):
            for combo in itertools.combinations(mates, size):
                for reading in _tiles.readings((first,) + combo):
                    sub = best(tuple(t for t in others if t not in combo))
                    if sub is not None and (found is None or score(reading) + sub > found):
                        found = score(reading) + sub
        return found

    return best(tuple(sorted(tiles, key=_tiles.sort_key)))


def brute(rack, table):
    """(count, value) of the best rack subset that joins the table tiles in valid sets."""
    best = None
    for size in range(len(rack), -1, -1):
        for sub in itertools.combinations(rack, size):
            if _partitions_best(tuple(table) + sub, lambda r: 0) is not None:
                key = (size, _tiles.rack_value(sub))
                best = key if best is None or key > best else best
        if best is not None:
            return best  # a larger subset always beats a smaller one
    return best


def brute_opening(rack):
    """(first-meld value, tiles) of the best lay-down from the rack alone."""
    best = (0, 0)
    for size in range(3, len(rack) + 1):
        for sub in itertools.combinations(rack, size):
            value = _partitions_best(sub, lambda r: r.value)
            if value is not None:
                best = max(best, (value, size))
    return best


def check_solution(sol, rack, table):
    flat = [t for r in sol.sets for t in r.tiles]
    assert len(flat) == len(set(flat))
    assert sorted(flat) == sorted(list(table) + list(sol.placed))
    assert set(sol.placed) <= set(rack)
    for reading in sol.sets:
        assert _tiles.is_valid_set(reading.tiles, reading.jokers), reading
    assert sol.count == len(sol.placed)


# ---------------------------------------------------------------- small random positions

@st.composite
def positions(draw):
    colours = draw(st.lists(st.sampled_from("RYBK"), min_size=1, max_size=4, unique=True))
    lo = draw(st.integers(1, 10))
    hi = min(13, lo + draw(st.integers(2, 5)))
    pool = [f"{c}{n}{k}" for c in colours for n in range(lo, hi + 1) for k in "ab"]
    pool += draw(st.lists(st.sampled_from(_tiles.JOKERS), max_size=2, unique=True))
    pool = draw(st.permutations(pool))
    table, used = [], set()
    for _ in range(draw(st.integers(0, 3))):
        size = draw(st.integers(3, 4))
        start = draw(st.integers(0, max(0, len(pool) - size)))
        cand = [t for t in pool[start:start + size] if t not in used]
        if len(cand) >= 3 and _tiles.is_valid_set(cand) and len(table) + len(cand) <= 9:
            table += cand
            used |= set(cand)
    rest = [t for t in pool if t not in used]
    rack = rest[:draw(st.integers(0, 5))]
    return rack, table


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_solver_matches_brute_force(position):
    rack, table = position
    sol = solve(rack, table)
    assert sol is not None  # the table is made of valid sets
    check_solution(sol, rack, table)
    assert (sol.count, sol.value) == brute(rack, table)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_opening_matches_brute_force(position):
    rack, table = position
    rack = (rack + table)[:7]
    sol = solve(rack, [], opening=True)
    check_solution(sol, rack, [])
    assert (sol.value, sol.count) == brute_opening(rack)
    assert sol.value == sum(r.value for r in sol.sets)


def test_random_wide_positions_against_brute_force():
    """Wider windows (all 13 numbers) with both jokers, fixed seeds."""
    rng = random.Random(13)
    for _ in range(40):
        tiles = rng.sample(_tiles.TILES, 9) + ["J1", "J2"]
        tiles = list(dict.fromkeys(tiles))
        rack, table = tiles[:5], []
        for size in (3, 4):
            for combo in itertools.combinations(tiles[5:], size):
                if not set(combo) & set(table) and _tiles.is_valid_set(combo):
                    table += combo
        sol = solve(rack, table)
        check_solution(sol, rack, table)
        assert (sol.count, sol.value) == brute(rack, table)


def test_one_colour_with_both_jokers_against_brute_force():
    """Many runs of one colour at once (both copies and both jokers): the two run slots per colour hold."""
    rng = random.Random(11)
    for _ in range(60):
        colour, lo = rng.choice("RYBK"), rng.randint(1, 9)
        pool = [f"{colour}{n}{k}" for n in range(lo, min(13, lo + rng.randint(3, 4)) + 1) for k in "ab"]
        tiles = rng.sample(pool + ["J1", "J2"], min(len(pool) + 2, rng.randint(6, 11)))
        rack, rest = tiles[:rng.randint(1, 6)], tiles[6:]
        table = []
        for size in (3, 4, 5):
            for combo in itertools.combinations(rest, size):
                if not set(combo) & set(table) and _tiles.is_valid_set(combo):
                    table += combo
        sol = solve(rack, table)
        check_solution(sol, rack, table)
        assert (sol.count, sol.value) == brute(rack, table)


# ---------------------------------------------------------------- worked examples (rummikub.md §11)

def test_e2_the_seeds_rearrangement():
    table = ["R7a", "B7a", "K7a", "R8a", "B8a", "K8a", "R9a", "B9a", "K9a"]
    sol = solve(["K6b"], table)
    assert (sol.count, sol.value, sol.placed) == (1, 6, ("K6b",))
    assert sorted(sorted(r.tiles) for r in sol.sets) == sorted(
        sorted(s) for s in (["R7a", "R8a", "R9a"], ["B7a", "B8a", "B9a"], ["K6b", "K7a", "K8a", "K9a"]))


def test_e3_the_joker_stays_on_the_table_and_is_reused():
    sol = solve(["Y5a", "B9a", "B10b"], ["Y4a", "J1", "Y6b"])
    assert sol.count == 3
    check_solution(sol, ["Y5a", "B9a", "B10b"], ["Y4a", "J1", "Y6b"])
    assert any("J1" in r.tiles and "B9a" in r.tiles for r in sol.sets)


def test_e1_first_meld_values():
    sol = solve(["R10a", "R11a", "R12b"], [], opening=True)
    assert sol.value == 33
    sol = solve(["B5a", "Y5b", "J1", "K1a", "K2a", "K3b"], [], opening=True)
    assert sol.value == 21 < 30  # the joker is a 5 in the group: 15 + 6


def test_tie_break_prefers_heavier_tiles_and_the_joker():
    # R3 R4 R5 on the table; the rack can add R6 or R2, or the joker: same count, the joker (30) wins.
    sol = solve(["R2a", "J1"], ["R3a", "R4a", "R5a"])
    assert (sol.count, sol.value) == (2, 32)  # both fit: R2-R3-R4-R5 and the joker at an end
    sol = solve(["R2a", "K9a"], ["R3a", "R4a", "R5a"])
    assert (sol.count, sol.value) == (1, 2)


def test_nothing_fits_and_an_unarrangeable_table():
    sol = solve(["K1a", "B13a"], ["R3a", "R4a", "R5a"])
    assert (sol.count, sol.placed) == (0, ())
    assert solve([], ["R3a", "R4a"]) is None
    assert solve([], []).sets == ()


def test_no_wrap_13_1():
    assert solve(["R13a", "R1a", "R2a"], []).count == 0
    assert solve(["R11a", "R12a", "R13a", "J1"], []).count == 4  # J1 stands for the 10


def test_three_copies_of_a_face_with_jokers():
    # R5a, R5b and a joker standing for a red 5 in a group at once
    table = ["R4a", "R5a", "R6a", "R4b", "R5b", "R6b", "Y5a", "B5a"]
    sol = solve(["J1"], table)
    assert sol.count == 1
    check_solution(sol, ["J1"], table)


def test_full_size_position_is_fast_enough():
    """A 14-tile rack against a 40-tile table: well under a second even on a loaded machine
    (bench/solver.py --game rummikub measures the percentiles)."""
    from bench.solver import rummikub_positions

    cases = rummikub_positions(10, random.Random(7))
    for rack, table in cases:
        t = time.process_time()
        sol = solve(rack, table)
        assert time.process_time() - t < 1.0
        check_solution(sol, rack, table)
