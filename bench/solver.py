"""Meld solver benchmark: `python -m bench.solver` from the repository root.

Every timed hand is a fresh random hand (fixed seed). Times are CPU time of this process
(time.process_time), and every figure is the best of several rounds, taken per slice of hands
(`--reps`): the machine is shared, and a round that another job preempted tells nothing about the
code. The peers are timed in the same rounds, slice by slice in turn with ours, on the same hands,
so a ratio compares like with like.

Gin (10 cards): the value (least deadwood) and the best arrangement (the melds), side by side with
- OpenSpiel's C++ `GinRummyUtils.min_deadwood` (value) and `best_meld_group` (arrangement), when
  `pip install open_spiel` works;
- rlcard's `get_best_meld_clusters` (arrangement; rlcard's own value is that plus a count), when
  `pip install rlcard` works.
Neither is a project dependency. Every hand's value is checked to be the same for all of them.
Gin hands have no wilds: engine.melds.plain answers them without a memo, so "cold" is moot there.

Thanasis (wilds, 10 and 11 cards): value, arrangement and best_discards, in two memo modes:
- "cold": the solver's memo (per-suit solutions and set options, shared by all hands) is cleared
  before every hand, so each hand pays for everything it needs; only the rule tables built once per
  rule set stay. The RESULT line uses these figures.
- "steady": the memo stays warm across hands, as in a running server.

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


def gin_hands(n: int, rng: random.Random) -> list[list[str]]:
    pool = deck(copies=1)
    return [rng.sample(pool, 10) for _ in range(n)]


def best_times(workloads: dict, reps: int, chunk: int, cold: bool = False) -> dict[str, list[float]]:
    """{name: seconds per slice of `chunk` cases, the best of `reps` rounds}.

    workloads = {name: (func, cases, arg)}: each case is timed as `func(case)`, or `func(case, arg)`
    when arg is not None (so a two-argument call has no lambda around it). Each round walks the slices
    in order and times every workload on a slice before the next slice, starting with a different
    workload each round. With `cold`, the memo is cleared before each case (outside the timing) and a
    slice is one case.
    """
    clock = time.process_time
    if cold:
        chunk = 1
    n = min(len(w[1]) for w in workloads.values())
    slices = [(i, min(i + chunk, n)) for i in range(0, n, chunk)]
    names = list(workloads)
    best = {name: [float("inf")] * len(slices) for name in names}
    for rep in range(reps):
        order = names[rep % len(names):] + names[: rep % len(names)]
        for k, (lo, hi) in enumerate(slices):
            for name in order:
                func, cases, arg = workloads[name]
                part = cases[lo:hi]
                if cold:
                    clear_memo()
                if arg is None:
                    t = clock()
                    for case in part:
                        func(case)
                    dt = clock() - t
                else:
                    t = clock()
                    for case in part:
                        func(case, arg)
                    dt = clock() - t
                if dt < best[name][k]:
                    best[name][k] = dt
    return best


def summary(name: str, times: list[float], per_slice: int = 1) -> dict:
    total = sum(times)
    row = {"name": name, "per_s": len(times) * per_slice / total, "mean_us": total / (len(times) * per_slice) * 1e6}
    line = f"{name:<50} {row['per_s']:>10.0f} hands/s   mean {row['mean_us']:>7.2f} µs"
    if per_slice == 1 and len(times) >= 100:
        q = statistics.quantiles(times, n=100)
        row.update(p50_us=q[49] * 1e6, p99_us=q[98] * 1e6, max_us=max(times) * 1e6)
        line += f"   p50 {row['p50_us']:>7.1f}   p99 {row['p99_us']:>7.1f}   max {row['max_us']:>8.1f} µs"
    print(line)
    return row


# ----- Gin: ours and the peers on the same hands ------------------------------------------------------


def _openspiel():
    try:
        import pyspiel
    except ImportError as exc:
        print(f"OpenSpiel not available ({exc}); `pip install open_spiel` to compare.")
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size


def _rlcard():
    try:
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError as exc:
        print(f"rlcard not available ({exc}); `pip install rlcard` to compare.")
        return None
    return melding, utils


def _peer_face(card: str) -> str:
    """"10H1" -> "TH" (rlcard's text; OpenSpiel's is the same with a lower-case suit)."""
    rank = "T" if card[:-2] == "10" else card[:-2]
    return rank + card[-2]


def run_gin(n: int, reps: int) -> dict:
    rules = gin_rules()
    hands = gin_hands(n, random.Random(SEED))
    workloads = {
        "ours value: engine.melds.deadwood": (deadwood, hands, rules),
        "ours arrangement: engine.melds.best_arrangement": (best_arrangement, hands, rules),
    }
    values = [deadwood(h, rules) for h in hands]
    for h, v in zip(hands, values, strict=True):
        if best_arrangement(h, rules).points != v:
            raise SystemExit(f"engine.melds: arrangement and value disagree on {h}")
    os_utils, rl = _openspiel(), _rlcard()
    if os_utils is not None:
        os_hands = [os_utils.card_strings_to_card_ints([f[0] + f[1].lower() for f in map(_peer_face, h)])
                    for h in hands]
        if [os_utils.min_deadwood(h) for h in os_hands] != values:
            raise SystemExit("OpenSpiel min_deadwood and engine.melds disagree")
        workloads["OpenSpiel C++ value: min_deadwood"] = (os_utils.min_deadwood, os_hands, None)
        workloads["OpenSpiel C++ arrangement: best_meld_group"] = (os_utils.best_meld_group, os_hands, None)
    if rl is not None:
        melding, utils = rl
        rl_hands = [[utils.card_from_text(_peer_face(c)) for c in h] for h in hands]
        for cards, v in zip(rl_hands, values, strict=True):
            clusters = melding.get_best_meld_clusters(hand=cards)
            if utils.get_deadwood_count(hand=cards, meld_cluster=clusters[0] if clusters else []) != v:
                raise SystemExit(f"rlcard and engine.melds disagree on {cards}")
        workloads["rlcard arrangement: get_best_meld_clusters"] = (
            lambda h: melding.get_best_meld_clusters(hand=h), rl_hands, None)  # it takes hand= only
    peers = " and ".join(p for p, x in (("OpenSpiel", os_utils), ("rlcard", rl)) if x is not None)
    print(f"-- Gin, 10 cards: {n} hands, best of {reps} rounds per slice of 100"
          + (f"; same value as {peers} on every hand --" if peers else " --"))
    out = {}
    for group in ("value", "arrangement"):  # each timed with its peers only: alike in cache footprint
        chosen = {name: w for name, w in workloads.items() if group in name}
        for name, t in best_times(chosen, reps, chunk=100).items():
            out[name] = summary(name, t, per_slice=100)
    return out


# ----- Thanasis -----------------------------------------------------------------------------------------


def run_thanasis(n: int, reps: int) -> dict:
    rng = random.Random(SEED)
    h10, h11 = thanasis_hands(n, 10, rng), thanasis_hands(n, 11, rng)
    few = max(100, n // 4)

    def eleven_solves(case):
        hand, rules = case
        return {card: deadwood([c for c in hand if c != card], rules) for card in hand}

    workloads = {
        "thanasis 10 cards value (deadwood)": (lambda c: deadwood(*c), h10, None),
        "thanasis 10 cards best_arrangement": (lambda c: best_arrangement(*c), h10, None),
        "thanasis 11 cards value (deadwood)": (lambda c: deadwood(*c), h11, None),
        "thanasis 11 cards best_arrangement": (lambda c: best_arrangement(*c), h11, None),
        "thanasis 11 cards best_discards": (lambda c: best_discards(*c), h11, None),
    }
    results = {}
    for mode in ("steady", "cold"):
        print(f"-- Thanasis (wilds), {n} hands, {mode} memo, best of {reps} rounds per hand --")
        if mode == "steady":
            for func, cases, _ in workloads.values():
                for case in thanasis_hands(n, len(cases[0][0]), random.Random(SEED + 1)):
                    func(case)  # other hands than the timed ones
        times = best_times(workloads, reps, chunk=100, cold=mode == "cold")
        for name, t in times.items():
            results[(mode, name)] = summary(name, t, per_slice=1 if mode == "cold" else 100)
        if mode == "cold":
            t = best_times({"  same hands, 11 separate solves": (eleven_solves, h11[:few], None)}, 1, 1, cold=True)
            summary("  (best_discards) same hands, 11 separate solves", t["  same hands, 11 separate solves"])
    return results


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
    parser.add_argument("--hands", type=int, default=3000, help="hands per workload (default 3000)")
    parser.add_argument("--reps", type=int, default=5, help="rounds; each figure is the best (default 5)")
    parser.add_argument("--game", choices=("melds", "rummikub"), default="melds",
                        help="melds: the card meld solver (default); rummikub: the tile solver")
    parser.add_argument("--positions", type=int, default=500, help="rummikub positions (default 500)")
    args = parser.parse_args(argv)
    if args.game == "rummikub":
        run_rummikub(args.positions)
        return
    print(f"Python {sys.version.split()[0]}, {args.hands} hands per workload, seed {SEED}")
    gin = run_gin(args.hands, 3 * args.reps)  # cheap: more rounds, steadier minima
    than = run_thanasis(args.hands, max(1, args.reps - 2))

    def rate(name):
        row = gin.get(name)
        return row["per_s"] if row else None

    value, arr = rate("ours value: engine.melds.deadwood"), rate("ours arrangement: engine.melds.best_arrangement")
    os_value, rl_arr = rate("OpenSpiel C++ value: min_deadwood"), rate("rlcard arrangement: get_best_meld_clusters")
    value_ratio = f"{value / os_value:.2f}" if os_value else "na"
    arr_ratio = f"{arr / rl_arr:.2f}" if rl_arr else "na"
    print(f"Gin value: {value_ratio}x OpenSpiel's C++ min_deadwood (target >= 0.5); "
          f"Gin arrangement: {arr_ratio}x rlcard's get_best_meld_clusters (target >= 1)")
    cold = {name.removeprefix("thanasis "): row for (mode, name), row in than.items() if mode == "cold"}
    print("RESULT " + " ".join([
        f"gin10_value_per_s={value:.0f}", f"gin10_arrangement_per_s={arr:.0f}",
        f"openspiel_value_per_s={os_value:.0f}" if os_value else "openspiel_value_per_s=na",
        f"rlcard_arrangement_per_s={rl_arr:.0f}" if rl_arr else "rlcard_arrangement_per_s=na",
        f"value_vs_openspiel={value_ratio}", f"arrangement_vs_rlcard={arr_ratio}",
        f"thanasis10_hands_per_s={cold['10 cards value (deadwood)']['per_s']:.0f}",
        f"thanasis10_arrangement_per_s={cold['10 cards best_arrangement']['per_s']:.0f}",
        f"thanasis11_p99_us={cold['11 cards value (deadwood)']['p99_us']:.0f}",
        f"thanasis11_arrangement_per_s={cold['11 cards best_arrangement']['per_s']:.0f}",
        f"thanasis11_discards_per_s={cold['11 cards best_discards']['per_s']:.0f}",
    ]))


if __name__ == "__main__":
    main()
