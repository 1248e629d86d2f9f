"""Bot levels against each other, heads-up: win rates with 95 % Wilson intervals, decision times.

    python -m bench.bots --game thanasis --matches 1000
    python -m bench.bots --game gin --matches 400 --jobs 2
    python -m bench.bots --game gin --quick

Each pairing (level 2 vs level 1, level 3 vs level 2) plays whole matches from fixed seeds
(`bench:<game>:<i>`); the stronger level sits at seat i % 2, so seats alternate. Thanasis matches go
to 101 (last one standing); Gin matches use the option `match="100"` (penalty limit 100), or single
rounds with `--gin-match 1`. Decision times are measured around `engine.bots.choose` for real
decisions only (two legal moves or more), per level: CPU time of the deciding thread (one core,
what the RESULT line reports, robust to other load on the machine) and wall-clock time.
The last line is machine-readable: `RESULT game=… l2_vs_l1=… l3_vs_l2=… l1_p99_ms=… l2_p99_ms=… l3_p99_ms=…`.
"""

import argparse
import hashlib
import math
import random
import sys
import time
from multiprocessing import Pool

from engine import bots, games

PAIRS = ((2, 1), (3, 2))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q / 100 * len(s)) - 1))
    return s[k]


def match_seed(game: str, index: int) -> str:
    return hashlib.sha256(f"bench:{game}:{index}".encode()).hexdigest()


def play_match(task: tuple) -> dict:
    """One heads-up match; returns the strong level's score (1 win, 0.5 shared) and timings."""
    slug, index, strong, weak, options, budget = task
    game = games.get(slug)
    seed = match_seed(slug, index)
    strong_seat = index % 2
    levels = {strong_seat: strong, 1 - strong_seat: weak}
    state = game.new_match(seats=2, options=options, seed=seed)
    times = {strong: [], weak: []}
    cpu = {strong: [], weak: []}
    step = 0
    rounds = 0
    while game.result(state) is None:
        to_act = game.to_act(state)
        if not to_act:  # ROUND_OVER: the table service plays « Manche suivante »
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            continue
        for seat in to_act:
            legal = game.legal_moves(state, seat)
            view = game.view(state, seat)
            rng = random.Random(f"{seed}:{step}:{seat}")
            t0, c0 = time.perf_counter(), time.thread_time()
            move = bots.choose(game, view, legal, levels[seat], rng, budget=budget if levels[seat] == 3 else None)
            elapsed, used = time.perf_counter() - t0, time.thread_time() - c0
            if len(legal) > 1:
                times[levels[seat]].append(elapsed * 1000)
                cpu[levels[seat]].append(used * 1000)
            state, _ = game.apply(state, seat, move)
            step += 1
        rounds = state["round"]
    result = game.result(state)
    winners = result["winners"]
    score = 1.0 if winners == [strong_seat] else (0.5 if strong_seat in winners else 0.0)
    return {"pair": (strong, weak), "score": score, "times": times, "cpu": cpu, "rounds": rounds, "steps": step}


def run(slug: str, matches: int, jobs: int, pairs, options: dict, budget, first: int = 0,
        l3_matches: int | None = None) -> dict:
    tasks = [(slug, first + i, s, w, options, budget) for (s, w) in pairs
             for i in range(l3_matches if (l3_matches is not None and 3 in (s, w)) else matches)]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(play_match, tasks, chunksize=1)
    else:
        results = [play_match(t) for t in tasks]
    summary = {"pairs": {}, "times": {1: [], 2: [], 3: []}, "cpu": {1: [], 2: [], 3: []}}
    for r in results:
        entry = summary["pairs"].setdefault(r["pair"], {"score": 0.0, "n": 0, "rounds": 0, "steps": 0})
        entry["score"] += r["score"]
        entry["n"] += 1
        entry["rounds"] += r["rounds"]
        entry["steps"] += r["steps"]
        for level, ts in r["times"].items():
            summary["times"][level].extend(ts)
        for level, ts in r["cpu"].items():
            summary["cpu"][level].extend(ts)
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("thanasis", "gin"), required=True)
    parser.add_argument("--matches", "--rounds", dest="matches", type=int, default=1000,
                        help="matches per pairing (alias --rounds)")
    parser.add_argument("--l3-matches", type=int, default=None,
                        help="matches for pairings with level 3 (default: --matches); level 3 thinks ~0.2 s a move")
    parser.add_argument("--quick", action="store_true", help="a short run (20 matches per pairing)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (multiprocessing)")
    parser.add_argument("--gin-match", choices=("1", "100"), default="100",
                        help="Gin match option: 100 (penalty limit, default) or 1 (single round)")
    parser.add_argument("--pairs", default="2-1,3-2", help="pairings strong-weak, e.g. 2-1,3-2")
    parser.add_argument("--iterations", type=int, default=None,
                        help="level 3 determinizations (default: the production budget)")
    parser.add_argument("--first", type=int, default=0, help="index of the first match seed")
    args = parser.parse_args(argv)
    matches = 20 if args.quick else args.matches
    l3_matches = 20 if args.quick else args.l3_matches
    pairs = [tuple(int(x) for x in p.split("-")) for p in args.pairs.split(",")]
    options = {"match": args.gin_match} if args.game == "gin" else {}
    budget = None if args.iterations is None else bots.Budget(iterations=args.iterations)
    t0 = time.perf_counter()
    summary = run(args.game, matches, args.jobs, pairs, options, budget, args.first, l3_matches)
    wall = time.perf_counter() - t0

    kind = f"match={args.gin_match}" if args.game == "gin" else "match to 101"
    sizes = f"{matches} matches per pairing" + (f" ({l3_matches} with level 3)" if l3_matches else "")
    print(f"game={args.game} ({kind}), {sizes}, heads-up, seats alternate, jobs={args.jobs}, wall {wall:.0f} s")
    rates = {}
    for (s, w), e in sorted(summary["pairs"].items()):
        lo, hi = wilson(e["score"], e["n"])
        rate = e["score"] / e["n"]
        rates[(s, w)] = rate
        print(f"  L{s} vs L{w}: L{s} wins {rate:.1%} of {e['n']} matches  (95% CI {lo:.1%} – {hi:.1%}), "
              f"{e['rounds'] / e['n']:.1f} rounds/match")
    p99 = {}
    for level in (1, 2, 3):
        ts, cs = summary["times"][level], summary["cpu"][level]
        if ts:
            p99[level] = percentile(cs, 99)
            print(f"  L{level} decision time over {len(ts)} decisions: CPU p50 {percentile(cs, 50):.2f} ms, "
                  f"p99 {p99[level]:.2f} ms, max {max(cs):.1f} ms; wall p50 {percentile(ts, 50):.2f} ms, "
                  f"p99 {percentile(ts, 99):.2f} ms, max {max(ts):.1f} ms")

    def fmt(x, digits=3):
        return "na" if x is None else f"{x:.{digits}f}"

    print(f"RESULT game={args.game} l2_vs_l1={fmt(rates.get((2, 1)))} l3_vs_l2={fmt(rates.get((3, 2)))} "
          f"l1_p99_ms={fmt(p99.get(1), 2)} l2_p99_ms={fmt(p99.get(2), 2)} l3_p99_ms={fmt(p99.get(3), 2)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
