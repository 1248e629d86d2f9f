"""Pairing for tournaments: scores and standings, Swiss rounds, knock-out brackets and arena tables.

Pure: the standard library only (no Django). Entries are plain ids (a player, or a team of a partnership game);
a table is a tuple of entries. The tournaments app stores the results and calls these functions each round.

Seating (Swiss rounds and arena tables) works on the entries' positions in the standing: a greedy pass fills the
tables from the top, each seat taking the best-placed waiting entry who has met nobody at the table yet; a repair
pass then swaps entries between nearby tables while that removes repeated pairs. When repeats remain beyond a
lower bound (forced ones), a tabu search over swaps (the social golfer's local search) and a bounded
branch-and-bound search (on the whole field when it is small, else on blocks of tables) look for fewer; a last
pass moves entries back towards the standing without adding a repeat. Everything is deterministic: the same
input gives the same tables.
"""

import contextlib
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement

# The branch-and-bound search (only when the greedy and repair passes leave repeated pairs) stops after this many
# candidate checks: about 0.1 s of CPU. Enough to be exact on fields of a dozen entries.
SEARCH_BUDGET = 150_000
# The search reseats at most this many entries at once: the whole field when it is small, else blocks of
# neighbouring tables around those that still seat a repeated pair.
SEARCH_ENTRIES = 48
# Before it, a tabu search weighs at most this many swaps (about 0.05 s of CPU).
TABU_BUDGET = 50_000


@dataclass(frozen=True)
class Result:
    """One finished match of a tournament: the entries at the table and their places (1 = first; equal places
    for a tie)."""

    entries: tuple[int, ...]
    places: tuple[int, ...]  # same order as entries


def match_points(places: tuple[int, ...]) -> tuple[float, ...]:
    """Tournament points of each entry at one table: (n - place) / (n - 1) with ties sharing the average of the
    points of the places they cover: 1 for the first, 0 for the last, 0.5 each for a 2-player draw. A table of
    one (a bye) is scored by the caller, not here.

    Places may be given as competition ranks (1, 1, 3) or dense ranks (1, 1, 2): only their order counts."""
    n = len(places)
    if n < 2:
        raise ValueError("a table of one is a bye: the caller scores it")
    order = sorted(range(n), key=lambda i: places[i])
    points = [0.0] * n
    start = 0
    while start < n:
        end = start
        while end + 1 < n and places[order[end + 1]] == places[order[start]]:
            end += 1
        # positions start..end (0-based) share the average of (n - 1 - position) / (n - 1)
        share = sum(n - 1 - position for position in range(start, end + 1)) / ((end - start + 1) * (n - 1))
        for position in range(start, end + 1):
            points[order[position]] = share
        start = end + 1
    return tuple(points)


@dataclass(frozen=True)
class Standing:
    entry: int
    points: float  # sum of match points + bye points
    buchholz: float  # sum over the entry's matches of the average final points of its opponents at that table
    wins: int  # matches finished first (alone or tied)
    played: int
    byes: int
    rank: int  # 1-based and strict: the last tie-break is the seed order (lower seed index first)


def _same(x: float) -> float:
    """Sums of thirds and the like compare equal when they are equal on paper."""
    return round(x, 9)


def standings(entries: list[int], results: list[Result], byes: dict[int, int] | None = None,
              bye_points: float = 1.0, seeds: dict[int, int] | None = None) -> list[Standing]:
    """Ordered best first by points, then Buchholz, then wins, then seed (seeds: entry -> seed index, lower is
    better, e.g. by rating; default: entry id order). `byes`: entry -> number of byes received.

    Entries that appear in `results` but not in `entries` (withdrawn) are not ranked, but their points still
    count in their opponents' Buchholz."""
    byes = byes or {}
    seeds = seeds or {}
    points: dict[int, float] = {}
    wins: dict[int, int] = {}
    played: dict[int, int] = {}
    for result in results:
        if len(result.entries) != len(result.places):
            raise ValueError(f"{result}: as many places as entries")
        best = min(result.places)
        for entry, place, score in zip(result.entries, result.places, match_points(result.places), strict=True):
            points[entry] = points.get(entry, 0.0) + score
            played[entry] = played.get(entry, 0) + 1
            wins[entry] = wins.get(entry, 0) + (place == best)
    for entry, count in byes.items():
        points[entry] = points.get(entry, 0.0) + bye_points * count
    buchholz: dict[int, float] = {}
    for result in results:
        for entry in result.entries:
            others = [points.get(other, 0.0) for other in result.entries if other != entry]
            buchholz[entry] = buchholz.get(entry, 0.0) + sum(others) / len(others)

    def key(entry: int):
        return (-_same(points.get(entry, 0.0)), -_same(buchholz.get(entry, 0.0)), -wins.get(entry, 0),
                seeds.get(entry, math.inf), entry)

    ranked = sorted(dict.fromkeys(entries), key=key)
    return [Standing(entry=entry, points=points.get(entry, 0.0), buchholz=buchholz.get(entry, 0.0),
                     wins=wins.get(entry, 0), played=played.get(entry, 0), byes=byes.get(entry, 0), rank=rank)
            for rank, entry in enumerate(ranked, start=1)]


@dataclass(frozen=True)
class Pairing:
    tables: list[tuple[int, ...]]  # each table's entries, best standing first
    byes: list[int]  # entries sitting out this round (they get bye_points)


def _check_sizes(sizes: Iterable[int]) -> tuple[int, ...]:
    sizes = tuple(sorted(set(sizes), reverse=True))
    if not sizes or any(not isinstance(size, int) or size < 2 for size in sizes):
        raise ValueError(f"table sizes must be integers of 2 or more: {sizes}")
    return sizes


@cache
def _compositions(seated: int, sizes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The ways to seat exactly `seated` entries at tables of `sizes` (descending), best first: fewest tables
    smaller than the largest size, then the most even small tables. Only the candidates with fewer small tables
    than the largest size are listed (more can always be traded for large tables)."""
    large, small = sizes[0], sizes[1:]
    found = []
    for count in range(large if small else 1):
        options = []
        for combo in combinations_with_replacement(small, count):
            rest = seated - sum(combo)
            if rest >= 0 and rest % large == 0:
                options.append((large,) * (rest // large) + combo)
        # most even first: the largest smallest table, then the largest tables first
        options.sort(key=lambda tables: (-min(tables, default=0), [-size for size in tables]))
        found.extend(options)
    return tuple(found)


def plan_tables(count: int, sizes: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """(table sizes, largest first; number of byes) for `count` entries: as many entries as possible play, then
    the fewest tables smaller than the largest size. 10 entries at (3, 4): ((4, 3, 3), 0); 7 at (2,): ((2, 2, 2),
    1); 6 at (4,): ((4,), 2)."""
    sizes = _check_sizes(sizes)
    for seated in range(count, -1, -1):
        options = _compositions(seated, sizes)
        if options:
            return options[0], count - seated
    return (), count


# --- Seating: entries are the positions 0..n-1 in the standing, `adj[i]` the positions i has already met. ---


def _conflicts(table: Sequence[int], adj: list[set[int]]) -> int:
    return sum(1 for a, b in combinations(table, 2) if b in adj[a])


def _greedy(n: int, table_sizes: Sequence[int], adj: list[set[int]]) -> list[list[int]]:
    """Fill the tables from the top: each table opens with the best-placed entry still waiting, and each seat
    takes the best-placed waiting entry who has met nobody at the table, or, when everybody has, the one with the
    fewest such meetings."""
    rest = list(range(n))
    tables = []
    for size in table_sizes:
        table = [rest.pop(0)]
        blocked = set(adj[table[0]])
        while len(table) < size:
            pick = next((j for j, entry in enumerate(rest) if entry not in blocked), None)
            if pick is None:
                pick = min(range(len(rest)), key=lambda j: (sum(m in adj[rest[j]] for m in table), j))
            table.append(rest.pop(pick))
            blocked |= adj[table[-1]]
        tables.append(table)
    return tables


def _repair(tables: list[list[int]], adj: list[set[int]], reserve: list[int] | None = None,
            leave_first: Callable[[int], object] | None = None) -> None:
    """Swap entries between tables (nearest tables first, then the closest in standing) while a swap lowers the
    number of repeated pairs; with a `reserve`, also swap a seated entry with a waiting one (the reserve holds no
    table: its entries meet nobody), the seated entries sorted by `leave_first` for that. In place."""

    def met(entry: int, table: Sequence[int], without: int) -> int:
        near = adj[entry]
        return sum(1 for other in table if other != without and other in near)

    improved = True
    while improved:
        improved = False
        for ti in range(len(tables)):
            while True:
                table = tables[ti]
                meeting = [(x, met(x, table, x)) for x in table]
                meeting = [(x, loss) for x, loss in meeting if loss]
                if not meeting:
                    break
                if any(_swap_away(ti, x, loss, tables, met) for x, loss in meeting):
                    improved = True
                    continue
                if reserve and any(_swap_reserve(ti, x, loss, tables, reserve, met)
                                   for x, loss in sorted(meeting, key=lambda item: leave_first(item[0])
                                                         if leave_first else 0)):
                    improved = True
                    continue
                break


def _polish(tables: list[list[int]], adj: list[set[int]], reach: int = 4) -> None:
    """Bring the seating back towards the standing after the passes against repeats moved entries around: swap
    a better-placed entry seated at a lower table (up to `reach` tables down) with a worse-placed one of a higher
    table whenever that seats no more repeated pairs. In place (each swap raises sum(position * table index), so it
    ends)."""

    def met(entry: int, table: Sequence[int], without: int) -> int:
        near = adj[entry]
        return sum(1 for other in table if other != without and other in near)

    moved = True
    while moved:
        moved = False
        for ti, table in enumerate(tables):
            for tj in range(ti + 1, min(len(tables), ti + 1 + reach)):
                other = tables[tj]
                for x in sorted(table, reverse=True):
                    for y in sorted(other):
                        if y > x or x not in table:
                            break
                        delta = (met(y, table, x) + met(x, other, y)) - (met(x, table, x) + met(y, other, y))
                        if delta <= 0:
                            table[table.index(x)] = y
                            other[other.index(y)] = x
                            moved = True
                            break


def _swap_away(ti: int, x: int, loss: int, tables: list[list[int]], met: Callable[..., int]) -> bool:
    """Swap `x` (who met `loss` entries at table `ti`) with an entry of the nearest table where that lowers the
    repeated pairs, trying the entries closest to `x` in standing first."""
    table = tables[ti]
    for distance in range(1, len(tables)):
        for tj in (ti - distance, ti + distance):
            if not 0 <= tj < len(tables):
                continue
            other = tables[tj]
            for y in sorted(other, key=lambda y: (abs(y - x), y)):
                gain = loss + met(y, other, y) - met(y, table, x) - met(x, other, y)
                if gain > 0:
                    table[table.index(x)] = y
                    other[other.index(y)] = x
                    return True
    return False


def _swap_reserve(ti: int, x: int, loss: int, tables: list[list[int]], reserve: list[int],
                  met: Callable[..., int]) -> bool:
    """Swap `x` with the first entry of the reserve who met fewer of `x`'s table."""
    table = tables[ti]
    for k, y in enumerate(reserve):
        if loss - met(y, table, x) > 0:
            table[table.index(x)] = y
            reserve[k] = x
            return True
    return False


def _tabu(tables: list[list[int]], adj: list[set[int]], budget: list[int], seed: int, tenure: int = 8) -> None:
    """Tabu search over swaps that move an entry who met somebody at its table (the social golfer's local
    search): each step makes the best swap, worsening if it must, and the entries swapped may not go back to their
    tables for a few steps; keeps the best seating seen. Deterministic: ties are drawn from a generator seeded by
    the caller. Stops at no repeat or when `budget[0]` (decremented by the swaps weighed) runs out. In place."""
    rnd = random.Random(seed)

    def met(entry: int, table: Sequence[int], without: int) -> int:
        near = adj[entry]
        return sum(1 for other in table if other != without and other in near)

    cost = sum(_conflicts(table, adj) for table in tables)
    best, best_cost = [list(table) for table in tables], cost
    banned: dict[tuple[int, int], int] = {}
    step = 0
    while cost and budget[0] > 0:
        step += 1
        chosen: list[tuple[int, int, int, int]] = []
        low = None
        for ti, table in enumerate(tables):
            for x in table:
                loss = met(x, table, x)
                if not loss:
                    continue
                for tj, other in enumerate(tables):
                    if tj == ti:
                        continue
                    budget[0] -= len(other)
                    for y in other:
                        delta = met(y, table, x) + met(x, other, y) - loss - met(y, other, y)
                        if (banned.get((x, tj), 0) > step or banned.get((y, ti), 0) > step) and \
                                cost + delta >= best_cost:
                            continue
                        if low is None or delta < low:
                            low, chosen = delta, [(ti, x, tj, y)]
                        elif delta == low:
                            chosen.append((ti, x, tj, y))
        if not chosen:
            break
        ti, x, tj, y = rnd.choice(chosen)
        tables[ti][tables[ti].index(x)] = y
        tables[tj][tables[tj].index(y)] = x
        banned[(x, ti)] = banned[(y, tj)] = step + tenure + rnd.randrange(tenure)
        cost += low
        if cost < best_cost:
            best, best_cost = [list(table) for table in tables], cost
    tables[:] = best


class _Stop(Exception):
    pass


def _search(n: int, table_sizes: Sequence[int], adj: list[set[int]], best: list[list[int]], best_cost: int,
            budget: list[int], bench: int = 0) -> tuple[list[list[int]], int]:
    """Branch and bound over the seatings with fewer repeated pairs than `best_cost`, in standing order: the
    best-placed unseated entry opens a table (or, while there is room on the `bench` of entries left unseated,
    sits there) and the table takes its other entries in standing order, so the first seating found at a cost is
    the one closest to the standing. Stops at no repeat or when the checks have used up `budget[0]`
    (decremented)."""
    remaining: dict[int, int] = {}
    for size in table_sizes:
        remaining[size] = remaining.get(size, 0) + 1
    seated = [False] * n
    tables: list[list[int]] = []
    state = {"best": best, "cost": best_cost, "bench": bench}

    def open_table(cost: int, first: int) -> None:
        while first < n and seated[first]:
            first += 1
        if not any(remaining.values()):  # everybody else on the bench
            state["best"], state["cost"] = [list(t) for t in tables], cost
            if cost == 0:
                raise _Stop
            return
        seated[first] = True
        for size in sorted(remaining, reverse=True):
            if remaining[size]:
                remaining[size] -= 1
                table = [first]
                tables.append(table)
                fill(table, size, first + 1, cost, first)
                tables.pop()
                remaining[size] += 1
        if state["bench"]:
            state["bench"] -= 1
            open_table(cost, first)
            state["bench"] += 1
        seated[first] = False

    def fill(table: list[int], size: int, start: int, cost: int, first: int) -> None:
        if len(table) == size:
            open_table(cost, first)
            return
        for c in range(start, n):
            if seated[c]:
                continue
            budget[0] -= len(table)
            if budget[0] < 0:
                raise _Stop
            near = adj[c]
            added = cost + sum(1 for m in table if m in near)
            if added >= state["cost"]:
                continue
            seated[c] = True
            table.append(c)
            fill(table, size, c + 1, added, first)
            table.pop()
            seated[c] = False

    with contextlib.suppress(_Stop):
        open_table(0, 0)
    return state["best"], state["cost"]


def _improve(tables: list[list[int]], adj: list[set[int]], budget: list[int]) -> list[list[int]]:
    """The same tables' entries reseated by the search (renumbered 0.. in standing order), when it finds fewer
    repeated pairs."""
    cost = sum(_conflicts(table, adj) for table in tables)
    seated = sorted(i for table in tables for i in table)
    local = {i: k for k, i in enumerate(seated)}
    sub_adj = [{local[j] for j in adj[i] if j in local} for i in seated]
    sub_tables = [[local[i] for i in table] for table in tables]
    found, _ = _search(len(seated), [len(table) for table in tables], sub_adj, sub_tables, cost, budget)
    return [[seated[k] for k in table] for table in found]


def _fewest_repeats(n: int, table_sizes: Sequence[int], adj: list[set[int]], reserve: list[int] | None) -> int:
    """A lower bound of the repeated pairs of any seating: the pairs seated together beyond those who have not
    met, and each entry's seats beside somebody beyond those it has not met (halved: a pair has two ends)."""
    if reserve:
        return 0
    together = sum(size * (size - 1) // 2 for size in table_sizes)
    fresh = n * (n - 1) // 2 - sum(len(near) for near in adj) // 2
    beside = min(table_sizes, default=1) - 1
    forced = sum(max(0, beside - (n - 1 - len(near))) for near in adj)
    return max(0, together - fresh, (forced + 1) // 2)


def _cost(tables: Iterable[Sequence[int]], adj: list[set[int]]) -> int:
    return sum(_conflicts(table, adj) for table in tables)


def _ordered(tables: Iterable[Sequence[int]]) -> list[list[int]]:
    """Each table by position, the tables by their best position."""
    return sorted((sorted(table) for table in tables), key=lambda table: table[0])


def _seat(n: int, table_sizes: Sequence[int], adj: list[set[int]], budget: int,
          reserve: list[int] | None = None, leave_first: Callable[[int], object] | None = None) -> list[list[int]]:
    """Tables of positions (each sorted, the tables by their best position) with as few repeated pairs as the
    passes find, close to the standing. Positions 0..n-1 are to be seated; with a `reserve` (the positions from n
    on), any of them may take a seat instead, and `leave_first` orders who gives up a seat. `budget` > 0 lets the
    tabu and branch-and-bound searches run when the greedy and repair passes leave repeats."""
    tables = _greedy(n, table_sizes, adj)
    fewest = _fewest_repeats(n, table_sizes, adj, reserve)
    if _cost(tables, adj) <= fewest:
        return _ordered(tables)  # nothing can do better
    _repair(tables, adj, reserve, leave_first)
    if _cost(tables, adj) > fewest and budget > 0:
        _tabu(tables, adj, [TABU_BUDGET], seed=len(adj) * 1_000_003 + _cost(tables, adj))
        tables = _ordered(tables)
        if _cost(tables, adj) > fewest:
            _branch_and_bound(n, table_sizes, adj, tables, [budget])
    tables = _ordered(tables)
    _polish(tables, adj)
    return _ordered(tables)


def _branch_and_bound(n: int, table_sizes: Sequence[int], adj: list[set[int]], tables: list[list[int]],
                      budget: list[int]) -> None:
    """The search on the whole field when it is small (the reserve, positions from n on, as its bench), else on
    blocks of neighbouring tables around each table that still seats a repeated pair. In place."""
    if len(adj) <= SEARCH_ENTRIES:
        tables[:], _ = _search(len(adj), table_sizes, adj, tables, _cost(tables, adj), budget, bench=len(adj) - n)
        return
    for ti in range(len(tables)):
        if budget[0] <= 0:
            break
        if not _conflicts(tables[ti], adj):
            continue
        low = high = ti
        count = len(tables[ti])
        grown = True
        while grown:
            grown = False
            for tj in (high + 1, low - 1):
                if 0 <= tj < len(tables) and count + len(tables[tj]) <= SEARCH_ENTRIES:
                    count += len(tables[tj])
                    low, high = min(low, tj), max(high, tj)
                    grown = True
        tables[low:high + 1] = _improve(tables[low:high + 1], adj, budget)


def _adjacency(order: Sequence[int], met: dict[int, set[int]] | dict[int, Iterable[int]]) -> list[set[int]]:
    """Who met whom among `order`, by positions, both ways (a one-sided record counts for both)."""
    position = {entry: i for i, entry in enumerate(order)}
    adj: list[set[int]] = [set() for _ in order]
    for entry, others in met.items():
        i = position.get(entry)
        if i is None:
            continue
        for other in others:
            j = position.get(other)
            if j is not None and j != i:
                adj[i].add(j)
                adj[j].add(i)
    return adj


def repeated_pairs(tables: Iterable[Sequence[int]], met: dict[int, set[int]]) -> int:
    """How many pairs seated together at `tables` had met before (by `met`, read both ways)."""
    return sum(1 for table in tables for a, b in combinations(table, 2)
               if b in met.get(a, ()) or a in met.get(b, ()))


def swiss_round(standing: list[Standing] | list[int], sizes: tuple[int, ...], met: dict[int, set[int]],
                byes_had: dict[int, int] | None = None, *, search_budget: int = SEARCH_BUDGET) -> Pairing:
    """One Swiss round. `standing`: entries best first (Standing objects or plain ids). `sizes`: the table sizes
    the game allows in ENTRIES per table (e.g. (2,) for a 2-player game or for a 4-seat partnership game where an
    entry is a team of two; (3, 4) for a rummy played at 3 or 4; (4,) for 4 only). Rules, in order:
    1. As many entries as possible play: tables use the largest size, and smaller allowed sizes absorb the
       remainder (e.g. 10 entries with sizes (3, 4) -> 4+3+3); byes only when no combination of allowed sizes
       covers the count (e.g. 7 entries with (2,) -> one bye; 6 with (4,) -> 4 + 2 byes). Fewest byes, then
       fewest small tables.
    2. Byes go to the lowest-standing entries that have had the fewest byes (byes_had).
    3. Tables seat entries of similar standing: the leaders together (the top table holds the top entries
       where rule 4 allows).
    4. No two entries meet twice (met[e] = the set of entries e has already played) where avoidable; when not,
       as few repeated pairs as possible.
    Deterministic for the same input. The small tables are the bottom ones (before the repeat avoidance moves
    anybody); `search_budget` bounds the last-resort search for fewer repeats (0: none)."""
    order = [item.entry if isinstance(item, Standing) else item for item in standing]
    if len(set(order)) != len(order):
        raise ValueError("an entry appears twice in the standing")
    byes_had = byes_had or {}
    table_sizes, bye_count = plan_tables(len(order), sizes)
    by_bye = sorted(range(len(order)), key=lambda i: (byes_had.get(order[i], 0), -i))
    bye_positions = set(by_bye[:bye_count])
    byes = [order[i] for i in range(len(order)) if i in bye_positions]
    playing = [entry for i, entry in enumerate(order) if i not in bye_positions]
    tables = _seat(len(playing), table_sizes, _adjacency(playing, met), search_budget)
    return Pairing(tables=[tuple(playing[i] for i in table) for table in tables], byes=byes)


# --- Knock-out ---


def knockout_is_final(count: int, sizes: tuple[int, ...]) -> bool:
    """True when `count` entries fit one table (the final): `count` is an allowed table size (or 1 or fewer:
    nothing left to play)."""
    return count <= 1 or count in _check_sizes(sizes)


def _knockout_sizes(sizes: tuple[int, ...], advance: int) -> tuple[int, ...]:
    if advance < 1:
        raise ValueError("at least one entry of each table goes through")
    usable = tuple(size for size in _check_sizes(sizes) if size > advance)
    if not usable:
        raise ValueError(f"tables of {sizes} cannot let {advance} of each through and eliminate anybody")
    return usable


@cache
def _knockout_plan(count: int, sizes: tuple[int, ...], advance: int) -> tuple[tuple[int, ...], int] | None:
    """(table sizes, byes) of the round for `count` entries that leads to a one-table final: the fewest byes,
    then the fewest small tables; None when no plan leads to a final."""
    if knockout_is_final(count, sizes):
        return ((count,), 0) if count > 1 else ((), count)
    usable = _knockout_sizes(sizes, advance)
    # fewer than two tables' worth of byes: a round where most of the field sits out is no round (and the search
    # stays short)
    for seated in range(count, max(usable[-1], count - 2 * usable[0]) - 1, -1):
        for tables in _compositions(seated, usable):
            following = count - seated + advance * len(tables)
            if following < count and _knockout_plan(following, sizes, advance) is not None:
                return tables, count - seated
    return None


def knockout_plan(count: int, sizes: tuple[int, ...], advance: int) -> list[tuple[tuple[int, ...], int]]:
    """The whole bracket from `count` entries: each round's (table sizes, byes), the final last."""
    rounds = []
    while True:
        plan = _knockout_plan(count, tuple(sizes), advance)
        if plan is None:
            raise ValueError(f"{count} entries at tables of {sizes} (advance {advance}) cannot reach a final")
        rounds.append(plan)
        if knockout_is_final(count, sizes):
            return rounds
        tables, byes = plan
        count = byes + advance * len(tables)


def knockout_round(standing: list[int], sizes: tuple[int, ...], advance: int) -> Pairing:
    """One knock-out round: `standing` best first (seeds); tables of the largest allowed size, seeds spread
    (snake: table 1 gets seeds 1, 2k, 2k+1, ...) so the best do not meet early; when the count is not a
    combination of sizes, the best seeds get byes (they go through). `advance`: how many of each table go
    through (1 or 2; at most size - 1).

    The byes are as few as possible such that the bracket still ends with one table of an allowed size (e.g. 6
    entries at (3, 4) with one through: a table of 4 and 2 byes, then a final of 3; 3 + 3 would leave 2). When
    `standing` is a final (knockout_is_final), one table of everybody. ValueError when no bracket reaches a
    final (e.g. 3 entries at tables of 4)."""
    standing = list(standing)
    if len(set(standing)) != len(standing):
        raise ValueError("an entry appears twice in the standing")
    plan = _knockout_plan(len(standing), tuple(sizes), advance)
    if plan is None:
        raise ValueError(f"{len(standing)} entries at tables of {sizes} (advance {advance}) cannot reach a final")
    table_sizes, bye_count = plan
    byes, seeded = standing[:bye_count], standing[bye_count:]
    tables: list[list[int]] = [[] for _ in table_sizes]
    seeds = iter(seeded)
    for row in range(max(table_sizes, default=0)):
        columns = range(len(tables)) if row % 2 == 0 else range(len(tables) - 1, -1, -1)
        for column in columns:
            if table_sizes[column] > row:
                tables[column].append(next(seeds))
    return Pairing(tables=[tuple(table) for table in tables], byes=byes)


def knockout_survivors(pairing: Pairing, results: list[Result], advance: int) -> list[int]:
    """Who goes through: the byes, then the best `advance` of each table by place (ties broken by seed order =
    their order in the table tuple), ordered for the next round's seeding (table winners first, in table order,
    then seconds...)."""
    by_table = {frozenset(result.entries): dict(zip(result.entries, result.places, strict=True))
                for result in results}
    ranked = []
    for table in pairing.tables:
        places = by_table.get(frozenset(table))
        if places is None:
            raise ValueError(f"no result for the table {table}")
        ranked.append(sorted(table, key=lambda entry: (places[entry], table.index(entry))))
    survivors = list(pairing.byes)
    for place in range(advance):
        survivors.extend(table[place] for table in ranked if place < len(table))
    return survivors


# --- Arena ---


def arena_tables(waiting: list[int], scores: dict[int, float], size: int, last_opponents: dict[int, set[int]],
                 *, repeat_ok: bool = True) -> tuple[list[tuple[int, ...]], list[int]]:
    """Arena: among the entries waiting for a table (in the order they started waiting), seat as many full
    tables of `size` as possible, grouping entries of similar score (sort by score, chunk), avoiding seating an
    entry with its last match's opponents where another grouping of the same waiting entries allows it. Returns
    (tables, still_waiting).

    The longest waiting are seated first; the others wait (in their order) unless swapping one in avoids a
    repeat. Tables best score first. `repeat_ok=False`: a table that still seats last opponents together is not
    seated (its entries keep waiting) rather than replaying at once."""
    if size < 2:
        raise ValueError("tables of 2 or more")
    waiting = list(dict.fromkeys(waiting))
    since = {entry: i for i, entry in enumerate(waiting)}
    count = len(waiting) // size * size
    if not count:
        return [], waiting
    # positions = score order of everybody waiting, the reserve (the last to arrive) after the seated
    seated = sorted(waiting[:count], key=lambda e: (-scores.get(e, 0.0), since[e]))
    later = waiting[count:]
    order = seated + later
    adj = _adjacency(order, last_opponents)
    reserve = list(range(count, len(order)))
    # of two last opponents, the one who arrived later gives his seat to a waiting entry
    positions = _seat(count, [size] * (count // size), adj, SEARCH_BUDGET, reserve=reserve,
                      leave_first=lambda i: -since[order[i]])
    rows = [sorted(table, key=lambda i: (-scores.get(order[i], 0.0), since[order[i]])) for table in positions]
    rows.sort(key=lambda table: (-scores.get(order[table[0]], 0.0), since[order[table[0]]]))
    if not repeat_ok:
        rows = [table for table in rows if not _conflicts(table, adj)]
    tables = [tuple(order[i] for i in table) for table in rows]
    placed = {entry for table in tables for entry in table}
    return tables, [entry for entry in waiting if entry not in placed]
