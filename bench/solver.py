"""Meld solver benchmark: `python -m bench.solver` from the repository root.

Every timed hand is a fresh random hand (fixed seed). Times are CPU time of this process per call
(time.process_time), so other load on the machine inflates them less than wall-clock would. Two
figures per workload:
- "cold": the solver's memo (per-suit solutions and set options, shared by all hands) is cleared
  before every hand, so each hand pays for everything it needs; only the rule tables built once
  per rule set stay. The RESULT line uses these figures.
- "steady": the memo stays warm across hands, as in a running server (it holds ~15k entries after
  100k hands).

rlcard's gin rummy meld utility (get_best_meld_clusters) is timed on the same Gin hands when
rlcard is installed (`pip install rlcard`; it is not a project dependency).

`python -m bench.solver --game rummikub [--positions N]`: the exact Rummikub solver
(engine/games/rummikub_solver.py) on random positions of a 14-tile rack against a 40-tile table made of
valid sets (fixed seed), CPU time per position, split by the number of jokers in play (they cost the
most), then a RESULT line.
"""

import argparse
import random
import statistics
import sys
import time

from engine.cards import RANKS, deck
from engine.melds import best_arrangement, best_discards, deadwood, gin_rules, thanasis_rules
from engine.melds.solver import clear_memo

SEED = 20240601


def thanasis_hands(n: int, size: int, rng: random.Random) -> list[tuple[list[str], object]]:
    pool = deck(copies=2, jokers=2)
    out = []
    for _ in range(n):
        rank = rng.choice(RANKS)
        indicator = f"{rank}{rng.choice('SHDC')}{rng.choice('12')}"  # out of play, as in a real deal
        hand = rng.sample([c for c in pool if c != indicator], size)
        out.append((hand, thanasis_rules(rank)))
    return out


def gin_hands(n: int, rng: random.Random) -> list[tuple[list[str], object]]:
    pool = deck(copies=1)
    rules = gin_rules()
    return [(rng.sample(pool, 10), rules) for _ in range(n)]


def eleven_solves(hand: list[str], rules) -> dict[str, int]:
    """What best_discards replaces: one independent solve per card."""
    return {card: deadwood([c for c in hand if c != card], rules) for card in hand}


def time_each(func, cases, cold: bool) -> list[float]:
    """Seconds per call, one timing per hand."""
    times = []
    clock = time.process_time
    for hand, rules in cases:
        if cold:
            clear_memo()
        t = clock()
        func(hand, rules)
        times.append(clock() - t)
    return times


def summary(name: str, times: list[float]) -> dict:
    total = sum(times)
    q = statistics.quantiles(times, n=100)
    row = {"name": name, "per_s": len(times) / total, "p50_us": q[49] * 1e6, "p99_us": q[98] * 1e6,
           "max_us": max(times) * 1e6}
    print(f"{name:<34} {row['per_s']:>10.0f} hands/s   p50 {row['p50_us']:>8.1f} µs   "
          f"p99 {row['p99_us']:>8.1f} µs   max {row['max_us']:>9.1f} µs")
    return row


def run_ours(n: int) -> dict:
    rng = random.Random(SEED)
    discard_hands = thanasis_hands(n // 4, 11, rng)
    workloads = [
        ("thanasis 10 cards deadwood", deadwood, thanasis_hands(n, 10, rng)),
        ("thanasis 11 cards deadwood", deadwood, thanasis_hands(n, 11, rng)),
        ("thanasis 11 cards best_discards", best_discards, discard_hands),
        ("  same hands, 11 separate solves", eleven_solves, discard_hands),
        ("thanasis 10 cards best_arrangement", best_arrangement, thanasis_hands(n // 4, 10, rng)),
        ("gin 10 cards deadwood", deadwood, gin_hands(n, rng)),
    ]
    results = {}
    warm = thanasis_hands(n, 10, random.Random(SEED + 1)) + gin_hands(n, random.Random(SEED + 1))
    for mode in ("steady", "cold"):
        print(f"-- {mode} memo --")
        if mode == "steady":
            time_each(deadwood, warm, cold=False)  # other hands than the timed ones
        for name, func, cases in workloads:
            results[(mode, name)] = summary(name, time_each(func, cases, cold=mode == "cold"))
    return results


def rlcard_gin(n: int) -> dict | None:
    try:
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError as exc:
        print(f"rlcard not available ({exc}); `pip install rlcard` to compare.")
        return None
    rng = random.Random(SEED)
    cases = gin_hands(n, rng)
    to_rl = {}
    for card in deck(copies=1):
        rank = "T" if card[:-2] == "10" else card[:-2]
        to_rl[card] = utils.card_from_text(rank + card[-2])

    def rl_deadwood(hand, _rules):
        cards = [to_rl[c] for c in hand]
        clusters = melding.get_best_meld_clusters(hand=cards)
        cluster = clusters[0] if clusters else []
        return utils.get_deadwood_count(hand=cards, meld_cluster=cluster)

    for hand, rules in cases[:500]:  # same answers, or the comparison means nothing
        if rl_deadwood(hand, rules) != deadwood(hand, rules):
            raise SystemExit(f"rlcard and engine.melds disagree on {hand}")
    print("-- rlcard gin_rummy melding (agrees with engine.melds on 500 hands) --")
    return summary("rlcard gin 10 cards", time_each(rl_deadwood, cases, cold=False))


def _random_set(rng: random.Random) -> list[str]:
    """The faces of a random run (3-5 tiles) or group (3-4 colours)."""
    if rng.random() < 0.5:
        colour, size = rng.choice("RYBK"), rng.choice((3, 3, 3, 4, 4, 5))
        start = rng.randint(1, 14 - size)
        return [f"{colour}{n}" for n in range(start, start + size)]
    number, size = rng.randint(1, 13), rng.choice((3, 4))
    return [f"{c}{number}" for c in rng.sample("RYBK", size)]


def rummikub_positions(n: int, rng: random.Random, rack_size: int = 14, table_size: int = 40):
    """`n` (rack, table tiles): a table of exactly `table_size` tiles in random valid sets, the rack drawn
    from the other tiles. Each joker is where a uniformly random tile would be: on the table with
    probability 40/106, on the rack 14/106, else in the pool (on the table it stands in a random set)."""
    from engine.games import _tiles

    total = len(_tiles.TILES)
    out = []
    while len(out) < n:
        where = {}
        for joker in _tiles.JOKERS:
            x = rng.random() * total
            where[joker] = "table" if x < table_size else ("rack" if x < table_size + rack_size else "pool")
        to_table = [j for j in _tiles.JOKERS if where[j] == "table"]
        left = {t for t in _tiles.TILES if not _tiles.is_joker(t)}
        table: list[str] = []
        for _ in range(3000):
            if len(table) == table_size:
                break
            faces = _random_set(rng)
            if len(table) + len(faces) > table_size:
                continue
            tiles = []
            for face in faces:
                copies = [t for t in (face + "a", face + "b") if t in left]
                if not copies:
                    break
                tiles.append(rng.choice(copies))
            else:
                late = len(table) + len(tiles) + len(to_table) >= table_size - 4
                if to_table and (late or rng.random() < 0.1):
                    tiles[rng.randrange(len(tiles))] = to_table.pop()
                table += tiles
                left -= set(tiles)
        if len(table) != table_size or to_table:
            continue
        rack = rng.sample(sorted(left, key=_tiles.sort_key), rack_size - sum(w == "rack" for w in where.values()))
        rack += [j for j in _tiles.JOKERS if where[j] == "rack"]
        out.append((rack, table))
    return out


def run_rummikub(n: int) -> None:
    from engine.games import rummikub_solver

    rng = random.Random(SEED)
    cases = rummikub_positions(n, rng)
    times, by_jokers = [], {0: [], 1: [], 2: []}
    placed = 0
    for rack, table in cases:
        t = time.process_time()
        sol = rummikub_solver.solve(rack, table)
        dt = time.process_time() - t
        times.append(dt)
        by_jokers[sum(x in ("J1", "J2") for x in rack + table)].append(dt)
        placed += sol.count
    print(f"Python {sys.version.split()[0]}, {n} positions (rack 14, table 40), seed {SEED}, "
          f"mean rack tiles placed {placed / n:.2f}")
    for jokers, ts in by_jokers.items():
        if len(ts) >= 2:
            q = statistics.quantiles(ts, n=100)
            print(f"  {jokers} joker(s) in play: {len(ts):>4} positions   p50 {q[49] * 1e3:7.1f} ms   "
                  f"p99 {q[98] * 1e3:7.1f} ms   max {max(ts) * 1e3:7.1f} ms")
    row = summary("rummikub 14 vs 40", times)
    print(f"RESULT rummikub_positions={n} rummikub_p50_ms={row['p50_us'] / 1e3:.1f} "
          f"rummikub_p99_ms={row['p99_us'] / 1e3:.1f} rummikub_max_ms={row['max_us'] / 1e3:.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20000, help="hands per workload (default 20000)")
    parser.add_argument("--game", choices=("melds", "rummikub"), default="melds",
                        help="melds: the card meld solver (default); rummikub: the tile solver")
    parser.add_argument("--positions", type=int, default=500, help="rummikub positions (default 500)")
    args = parser.parse_args(argv)
    if args.game == "rummikub":
        run_rummikub(args.positions)
        return
    print(f"Python {sys.version.split()[0]}, {args.hands} hands per workload, seed {SEED}")
    ours = run_ours(args.hands)
    theirs = rlcard_gin(args.hands // 4)
    t10 = ours[("cold", "thanasis 10 cards deadwood")]["per_s"]
    t11 = ours[("cold", "thanasis 11 cards deadwood")]["p99_us"]
    g10 = ours[("cold", "gin 10 cards deadwood")]["per_s"]
    rl = f"{theirs['per_s']:.0f}" if theirs else "na"
    ratio = f"{g10 / theirs['per_s']:.1f}" if theirs else "na"
    if theirs:
        print(f"engine.melds (cold memo) is {ratio}x faster than rlcard on 10-card Gin hands")
    print(f"RESULT thanasis10_hands_per_s={t10:.0f} thanasis11_p99_us={t11:.0f} "
          f"gin10_hands_per_s={g10:.0f} rlcard_gin10_hands_per_s={rl} gin_ratio={ratio}")


if __name__ == "__main__":
    main()
