"""Tournament pairing (tournaments/pairing.py, pure): match points and standings, Swiss rounds for tables of one or
several sizes (everybody seated once or given a bye, allowed sizes only, the fewest byes to the lowest entries
with the fewest byes, leaders together, no pair meeting twice where avoidable), knock-out brackets (snake
seeding, survivors, a one-table final) and arena tables, over random fields and random results (hypothesis)."""

import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Pairing,
    Result,
    Standing,
    arena_tables,
    knockout_is_final,
    knockout_plan,
    knockout_round,
    knockout_survivors,
    match_points,
    plan_tables,
    repeated_pairs,
    standings,
    swiss_round,
)

SIZES = [(2,), (3,), (4,), (3, 4), (2, 3, 4), (2, 4)]
LONG = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- helpers: random fields, random results, brute force on small fields ---


def random_places(rnd: random.Random, n: int) -> tuple[int, ...]:
    """Competition places with a tie now and then."""
    scores = [rnd.randint(0, 2 * n) for _ in range(n)]
    return tuple(1 + sum(other > mine for other in scores) for mine in scores)


def play(pairing: Pairing, rnd: random.Random, results: list, met: dict, byes: dict) -> None:
    """Random results for every table of `pairing`, recorded in `results`, `met` and `byes`."""
    for entry in pairing.byes:
        byes[entry] = byes.get(entry, 0) + 1
    for table in pairing.tables:
        results.append(Result(table, random_places(rnd, len(table))))
        for entry in table:
            met.setdefault(entry, set()).update(other for other in table if other != entry)


def random_history(rnd: random.Random, entries: list[int], rounds: int, sizes: tuple[int, ...]):
    """(results, met, byes) of `rounds` random earlier rounds (random tables, not Swiss ones)."""
    results, met, byes = [], {}, {}
    for _ in range(rounds):
        shuffled = rnd.sample(entries, len(entries))
        tables, bye_count = plan_tables(len(entries), sizes)
        seated, out = shuffled[bye_count:], shuffled[:bye_count]
        cut, groups = 0, []
        for size in tables:
            groups.append(tuple(seated[cut:cut + size]))
            cut += size
        play(Pairing(groups, out), rnd, results, met, byes)
    return results, met, byes


def representable(count: int, sizes: tuple[int, ...]) -> bool:
    reach = {0}
    for total in range(1, count + 1):
        if any(total - size in reach for size in sizes):
            reach.add(total)
    return count in reach


def partitions(items: list[int], sizes: list[int]):
    """Every way to seat `items` at tables of the multiset `sizes`."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [entry for entry in rest if entry not in others]
            for tail in partitions(remaining, left):
                yield [(first, *others), *tail]


# --- match points ---


def test_match_points_give_one_to_the_first_and_nothing_to_the_last():
    assert match_points((1, 2)) == (1.0, 0.0)
    assert match_points((2, 1)) == (0.0, 1.0)
    assert match_points((1, 2, 3, 4)) == pytest.approx((1, 2 / 3, 1 / 3, 0))


def test_tied_entries_share_the_points_of_the_places_they_cover():
    assert match_points((1, 1)) == (0.5, 0.5)
    assert match_points((1, 1, 3, 4)) == pytest.approx((5 / 6, 5 / 6, 1 / 3, 0))
    assert match_points((1, 1, 2, 3)) == match_points((1, 1, 3, 4))  # dense or competition places alike
    assert match_points((2, 1, 2)) == pytest.approx((0.25, 1, 0.25))


def test_a_table_of_one_is_not_scored_here():
    with pytest.raises(ValueError):
        match_points((1,))


@given(st.lists(st.integers(1, 6), min_size=2, max_size=8))
def test_match_points_sum_to_half_the_table_and_follow_the_places(places):
    points = match_points(tuple(places))
    assert sum(points) == pytest.approx(len(places) / 2)
    assert all(0 <= p <= 1 for p in points)
    for i, j in combinations(range(len(places)), 2):
        if places[i] < places[j]:
            assert points[i] > points[j]
        elif places[i] == places[j]:
            assert points[i] == points[j]


# --- standings ---


def test_standings_break_ties_by_buchholz_then_wins_then_seed():
    results = [Result((1, 2), (1, 2)), Result((3, 4), (1, 1)), Result((1, 3), (2, 1))]
    table = standings([1, 2, 3, 4, 5], results, byes={5: 1})
    assert [s.entry for s in table] == [3, 1, 5, 4, 2]
    assert table[0] == Standing(entry=3, points=1.5, buchholz=1.5, wins=2, played=2, byes=0, rank=1)
    # 1 and 5 have 1 point each: 1 played stronger opponents
    assert (table[1].points, table[2].points) == (1.0, 1.0) and table[1].buchholz > table[2].buchholz
    # nothing played: the seeds decide, then the ids
    assert [s.entry for s in standings([7, 8, 9], [], seeds={9: 0, 7: 1})] == [9, 7, 8]
    assert [s.entry for s in standings([9, 8, 7], [])] == [7, 8, 9]


def test_a_bye_is_worth_bye_points_and_no_buchholz():
    table = standings([1, 2, 3], [Result((1, 2), (1, 2))], byes={3: 1}, bye_points=0.5)
    assert {s.entry: s.points for s in table} == {1: 1.0, 2: 0.0, 3: 0.5}
    assert {s.entry: s.buchholz for s in table} == {1: 0.0, 2: 1.0, 3: 0.0}
    assert [s.entry for s in table] == [1, 3, 2]


@LONG
@given(count=st.integers(1, 40), sizes=st.sampled_from(SIZES), rounds=st.integers(0, 5), seed=st.integers(0, 2**32))
def test_standings_are_ordered_by_points_buchholz_wins_then_seed(count, sizes, rounds, seed):
    rnd = random.Random(seed)
    entries = rnd.sample(range(1000), count)
    seeds = {entry: rnd.randint(0, 5) for entry in entries}
    results, _, byes = random_history(rnd, entries, rounds, sizes)
    table = standings(entries, results, byes, seeds=seeds)
    assert sorted(s.entry for s in table) == sorted(entries)
    assert [s.rank for s in table] == list(range(1, count + 1))
    keys = [(-round(s.points, 9), -round(s.buchholz, 9), -s.wins, seeds[s.entry], s.entry) for s in table]
    assert keys == sorted(keys)
    total_points = sum(s.points for s in table)
    assert total_points == pytest.approx(sum(len(r.entries) / 2 for r in results) + sum(byes.values()))
    assert sum(s.played for s in table) == sum(len(r.entries) for r in results)
    assert sum(s.wins for s in table) >= len(results)


# --- Swiss rounds ---


def test_table_plans_follow_the_examples():
    assert plan_tables(10, (3, 4)) == ((4, 3, 3), 0)
    assert plan_tables(7, (2,)) == ((2, 2, 2), 1)
    assert plan_tables(6, (4,)) == ((4,), 2)
    assert plan_tables(10, (2, 3, 4)) == ((4, 4, 2), 0)  # one small table rather than two
    assert plan_tables(3, (4,)) == ((), 3)


@given(count=st.integers(0, 300), sizes=st.sampled_from(SIZES))
def test_table_plans_seat_as_many_as_possible_with_the_fewest_small_tables(count, sizes):
    tables, byes = plan_tables(count, sizes)
    assert sum(tables) + byes == count
    assert all(size in sizes for size in tables)
    assert not any(representable(seated, sizes) for seated in range(count - byes + 1, count + 1))
    assert sum(size != max(sizes) for size in tables) == fewest_small_tables(count - byes, sizes)
    assert list(tables) == sorted(tables, reverse=True)


def fewest_small_tables(total: int, sizes: tuple[int, ...]) -> int:
    """The fewest tables smaller than the largest size among the ways to seat `total` entries."""
    fewest = [0] + [None] * total
    for t in range(1, total + 1):
        options = [fewest[t - size] + (size != max(sizes)) for size in sizes
                   if size <= t and fewest[t - size] is not None]
        fewest[t] = min(options, default=None)
    return fewest[total]


@LONG
@given(count=st.integers(1, 300), sizes=st.sampled_from(SIZES), rounds=st.integers(0, 4), seed=st.integers(0, 2**32))
@example(count=4, sizes=(3,), rounds=2, seed=5)  # the greedy's fallback seats 3 before 1: tables are re-sorted
def test_every_entry_is_seated_once_or_has_a_bye_at_allowed_tables(count, sizes, rounds, seed):
    rnd = random.Random(seed)
    entries = rnd.sample(range(1, 10_000), count)
    results, met, byes_had = random_history(rnd, entries, rounds, sizes)
    standing = standings(entries, results, byes_had)
    pairing = swiss_round(standing, sizes, met, byes_had)
    seated = [entry for table in pairing.tables for entry in table]
    assert sorted(seated + pairing.byes) == sorted(entries)
    assert all(len(table) in sizes for table in pairing.tables)
    # rule 1: the fewest byes any combination of sizes allows
    assert not any(representable(n, sizes) for n in range(len(seated) + 1, count + 1))
    # rule 2: byes to the lowest entries among those with the fewest byes
    position = {s.entry: i for i, s in enumerate(standing)}
    for out in pairing.byes:
        for entry in seated:
            assert (byes_had.get(out, 0), -position[out]) < (byes_had.get(entry, 0), -position[entry])
    # each table best standing first, and the top table holds the best entry seated
    for table in pairing.tables:
        assert [position[e] for e in table] == sorted(position[e] for e in table)
    if pairing.tables:
        assert pairing.tables[0][0] == min(seated, key=position.get)
    assert swiss_round(standing, sizes, met, byes_had) == pairing  # deterministic


@given(count=st.integers(1, 120), sizes=st.sampled_from(SIZES))
def test_a_first_round_seats_the_standing_in_order(count, sizes):
    """Nobody has met yet: the tables are consecutive slices of the standing, the big tables on top."""
    entries = list(range(100, 100 + count))
    pairing = swiss_round(entries, sizes, {})
    tables, byes = plan_tables(count, sizes)
    assert pairing.byes == entries[count - byes:]
    cut = 0
    for table, size in zip(pairing.tables, tables, strict=True):
        assert table == tuple(entries[cut:cut + size])
        cut += size


@LONG
@given(count=st.integers(2, 11), sizes=st.sampled_from(SIZES), density=st.floats(0, 1), seed=st.integers(0, 2**32))
def test_repeats_are_as_few_as_possible_on_small_fields(count, sizes, density, seed):
    """Checked against every possible seating of the same entries at the same tables."""
    rnd = random.Random(seed)
    entries = list(range(count))
    met = {entry: set() for entry in entries}
    for a, b in combinations(entries, 2):
        if rnd.random() < density:
            met[a].add(b)
            met[b].add(a)
    pairing = swiss_round(entries, sizes, met)
    seated = sorted(entry for table in pairing.tables for entry in table)
    best = min(repeated_pairs(tables, met) for tables in partitions(seated, [len(t) for t in pairing.tables]))
    assert repeated_pairs(pairing.tables, met) == best


def swiss_tournament(count: int, sizes: tuple[int, ...], rounds: int, seed: int) -> list[int]:
    """Repeated pairs of each round of a Swiss tournament with random results."""
    rnd = random.Random(seed)
    entries = rnd.sample(range(1, 10_000), count)
    results, met, byes = [], {}, {}
    repeats = []
    for _ in range(rounds):
        pairing = swiss_round(standings(entries, results, byes), sizes, met, byes)
        repeats.append(repeated_pairs(pairing.tables, met))
        play(pairing, rnd, results, met, byes)
    return repeats


@LONG
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_no_pair_meets_twice_in_seven_rounds_of_a_large_enough_field(data, seed):
    """Bounds with a margin over what the pairing reaches (none seen from 36 entries at 4-tables, 10 at 2-tables,
    24 at 3-tables); from 76 entries at 4-tables a seating without repeats always exists (Hajnal–Szemerédi: after
    6 rounds everyone has met at most 18 others)."""
    sizes, low = data.draw(st.sampled_from([((4,), 48), ((2,), 16), ((3,), 36), ((3, 4), 48), ((2, 3, 4), 48),
                                            ((2, 4), 48)]))
    count = data.draw(st.integers(low, 200))
    assert swiss_tournament(count, sizes, 7, seed) == [0] * 7


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(1, 63), seed=st.integers(0, 2**32))
def test_smaller_fields_play_seven_rounds_with_few_repeats(count, seed):
    """Below the bound repeats may be forced (8 entries at 4-tables have 28 pairs for 84 seats beside another);
    the first round still has none, nor the second from 16 entries (one entry of each first-round table)."""
    repeats = swiss_tournament(count, (4,), 7, seed)
    assert repeats[0] == 0
    if count >= 16:
        assert repeats[1] == 0


def test_a_thousand_players_play_seven_rounds_at_four_tables_without_repeats():
    assert swiss_tournament(1000, (4,), 7, seed=1) == [0] * 7


def test_swiss_round_rejects_an_entry_listed_twice():
    with pytest.raises(ValueError):
        swiss_round([1, 2, 1], (2,), {})


# --- knock-out ---


def test_knockout_seeds_are_snaked_across_the_tables():
    pairing = knockout_round(list(range(1, 17)), (4,), 2)
    assert pairing.tables == [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)]
    assert pairing.byes == []
    two = knockout_round(list(range(1, 9)), (2,), 1)
    assert two.tables == [(1, 8), (2, 7), (3, 6), (4, 5)]


def test_the_best_seeds_get_the_byes_and_the_bracket_reaches_a_final():
    pairing = knockout_round(list(range(1, 11)), (4,), 1)
    assert pairing.byes == [1, 2]
    assert pairing.tables == [(3, 6, 7, 10), (4, 5, 8, 9)]
    # 6 at (3, 4) with one through: 3 + 3 would leave 2, which no table seats
    assert knockout_plan(6, (3, 4), 1) == [((4,), 2), ((3,), 0)]


def test_knockout_survivors_are_the_byes_then_the_winners_then_the_seconds():
    pairing = Pairing(tables=[(3, 6, 7, 10), (4, 5, 8, 9)], byes=[1, 2])
    results = [Result((10, 7, 6, 3), (1, 2, 2, 4)), Result((4, 5, 8, 9), (2, 2, 1, 4))]
    assert knockout_survivors(pairing, results, 1) == [1, 2, 10, 8]
    assert knockout_survivors(pairing, results, 2) == [1, 2, 10, 8, 6, 4]  # ties: the better seed
    with pytest.raises(ValueError):
        knockout_survivors(pairing, results[:1], 1)


def test_the_final_is_one_table():
    assert knockout_is_final(4, (4,)) and knockout_is_final(3, (3, 4)) and knockout_is_final(2, (2,))
    assert not knockout_is_final(8, (4,)) and not knockout_is_final(3, (4,)) and not knockout_is_final(4, (2,))
    assert knockout_round([5, 6, 7], (3, 4), 1) == Pairing(tables=[(5, 6, 7)], byes=[])


def test_a_bracket_that_cannot_reach_a_final_is_refused():
    with pytest.raises(ValueError):
        knockout_round([1, 2, 3], (4,), 1)
    with pytest.raises(ValueError):
        knockout_round([1, 2, 3, 4], (3,), 1)  # one through per table of 3 keeps the count's parity
    with pytest.raises(ValueError):
        knockout_plan(8, (2,), 2)


@LONG
@given(count=st.integers(2, 300), sizes=st.sampled_from(SIZES), advance=st.sampled_from([1, 2]),
       seed=st.integers(0, 2**32))
def test_a_knockout_ends_with_one_table_and_eliminates_each_entry_once(count, sizes, advance, seed):
    assume(max(sizes) > advance)
    try:
        plan = knockout_plan(count, sizes, advance)
    except ValueError:
        assume(False)
    rnd = random.Random(seed)
    alive = rnd.sample(range(1, 10_000), count)
    eliminated: set[int] = set()
    for number, (tables, byes) in enumerate(plan):
        pairing = knockout_round(alive, sizes, advance)
        assert [len(table) for table in pairing.tables] == list(tables) and len(pairing.byes) == byes
        seated = [entry for table in pairing.tables for entry in table]
        assert sorted(seated + pairing.byes) == sorted(alive)
        assert pairing.byes == alive[:byes]  # the best seeds
        if number == 0 and len(pairing.tables) >= 2:
            assert not any(alive[0] in table and alive[1] in table for table in pairing.tables)
        if knockout_is_final(len(alive), sizes):
            assert len(pairing.tables) == 1 and not pairing.byes and number == len(plan) - 1
            break
        assert all(len(table) in sizes and len(table) > advance for table in pairing.tables)
        results = [Result(table, random_places(rnd, len(table))) for table in pairing.tables]
        survivors = knockout_survivors(pairing, results, advance)
        assert len(survivors) == byes + advance * len(pairing.tables) < len(alive)
        assert len(set(survivors)) == len(survivors) and set(survivors) <= set(alive)
        out = set(alive) - set(survivors)
        assert not out & eliminated
        eliminated |= out
        alive = survivors
    else:
        pytest.fail("the bracket had no final")
    assert len(eliminated) + len(alive) == count


# --- arena ---


def test_arena_groups_by_score_and_avoids_the_last_opponents():
    scores = {1: 3, 2: 3, 3: 1, 4: 1, 5: 0}
    last = {1: {2}, 2: {1}, 3: {4}, 4: {3}}
    assert arena_tables([1, 2, 3, 4, 5], scores, 2, last) == ([(1, 3), (2, 4)], [5])
    assert arena_tables([1, 2, 3, 4, 5], scores, 2, {}) == ([(1, 2), (3, 4)], [5])
    # of two last opponents, the later arrival waits for somebody else
    assert arena_tables([1, 2, 3], {}, 2, {1: {2}, 2: {1}}) == ([(1, 3)], [2])
    # only each other to play: they play, unless repeats are refused
    assert arena_tables([1, 2], {}, 2, {1: {2}, 2: {1}}) == ([(1, 2)], [])
    assert arena_tables([1, 2], {}, 2, {1: {2}, 2: {1}}, repeat_ok=False) == ([], [1, 2])
    assert arena_tables([1, 2, 3], {}, 4, {}) == ([], [1, 2, 3])


@LONG
@given(count=st.integers(0, 60), size=st.integers(2, 4), seed=st.integers(0, 2**32), repeat_ok=st.booleans())
def test_arena_seats_full_tables_once_each_and_the_rest_waits(count, size, seed, repeat_ok):
    rnd = random.Random(seed)
    waiting = rnd.sample(range(1, 1000), count)
    scores = {entry: rnd.randint(0, 10) for entry in waiting}
    last: dict[int, set[int]] = {}
    pool = rnd.sample(waiting, count)
    while pool:
        group, pool = pool[:rnd.randint(1, size)], pool[size:]
        for entry in group:
            last[entry] = set(group) - {entry}
    tables, still = arena_tables(waiting, scores, size, last, repeat_ok=repeat_ok)
    seated = [entry for table in tables for entry in table]
    assert all(len(table) == size for table in tables)
    assert len(set(seated)) == len(seated)
    assert still == [entry for entry in waiting if entry not in seated]
    if repeat_ok:
        assert len(tables) == count // size
    else:
        assert repeated_pairs(tables, last) == 0
    if count <= 10 and repeat_ok and tables:
        best = min(repeated_pairs(grouping, last) for chosen in combinations(waiting, len(seated))
                   for grouping in partitions(list(chosen), [size] * len(tables)))
        assert repeated_pairs(tables, last) == best
