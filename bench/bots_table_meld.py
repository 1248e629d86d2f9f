"""Table-meld rummy bots against each other, heads-up: win rates with 95 % Wilson intervals, decision times.

    python -m bench.bots_table_meld --game rami --rounds 400 --limit 1
    python -m bench.bots_table_meld --game rami40 --matches 200 --l3-matches 100 --limit 100 --jobs 2
    python -m bench.bots_table_meld --game kalooki --quick

Same output as `bench.bots` (whose `--game` takes Thanasis and Gin): each pairing (level 2 vs level 1,
level 3 vs level 2) plays whole matches from fixed seeds (`bench:<game>:<i>`), the stronger level at
seat i % 2. `--limit` is the match option: `point_limit` for Rami, Rami 40 and Kalooki (1: the first
round decides, every loser being over 1 point; 50; 100), `target` for Rami traditionnel (1: one round;
100; 250; 500). A match that has not ended after `--max-steps` moves (a round can stall in Rami 40 /
Kalooki when every table meld is full and every hand is down to one card: see the report) counts as a
draw, and the count is printed. Decision times are measured around `engine.bots.choose` for real
decisions (two legal moves or more): CPU time of the deciding thread (the RESULT line's p99) and wall.
The last line is machine-readable: `RESULT game=… l2_vs_l1=… l3_vs_l2=… l1_p99_ms=… l2_p99_ms=… l3_p99_ms=…`.
"""

import argparse
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool

from bench.bots import match_seed, percentile, wilson
from engine import bots, games

SLUGS = ("rami", "rami40", "kalooki", "rami-traditionnel")
MAX_STEPS = 6000


def options_for(slug: str, limit: str) -> dict:
    return {"target": limit} if slug == "rami-traditionnel" else {"point_limit": limit}


def play_match(task: tuple) -> dict:
    """One heads-up match; the strong level's score (1 win, 0.5 shared or stalled) and timings."""
    slug, index, strong, weak, options, budget, max_steps = task
    game = games.get(slug)
    seed = match_seed(slug, index)
    strong_seat = index % 2
    levels = {strong_seat: strong, 1 - strong_seat: weak}
    state = game.new_match(seats=2, options=options, seed=seed)
    wall = {strong: [], weak: []}
    cpu = {strong: [], weak: []}
    step = 0
    while game.result(state) is None and step < max_steps:
        to_act = game.to_act(state)
        if not to_act:  # ROUND_OVER: the table service plays « Manche suivante »
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        rng = random.Random(f"{seed}:{step}:{seat}")
        t0, c0 = time.perf_counter(), time.thread_time()
        move = bots.choose(game, view, legal, levels[seat], rng, budget=budget if levels[seat] == 3 else None)
        elapsed, used = time.perf_counter() - t0, time.thread_time() - c0
        if len(legal) > 1:
            wall[levels[seat]].append(elapsed * 1000)
            cpu[levels[seat]].append(used * 1000)
        state, _ = game.apply(state, seat, move)
        step += 1
    result = game.result(state)
    if result is None:
        score, stalled = 0.5, True
    else:
        winners = result["winners"]
        score = 1.0 if winners == [strong_seat] else (0.5 if strong_seat in winners else 0.0)
        stalled = False
    endings = Counter((row["ending"], "strong" if row["winner"] == strong_seat else "weak")
                      for row in state["history"])
    return {"pair": (strong, weak), "score": score, "wall": wall, "cpu": cpu, "rounds": state["round"],
            "steps": step, "stalled": stalled, "endings": endings}


def run(slug: str, matches: int, jobs: int, pairs, options: dict, budget, first: int = 0,
        l3_matches: int | None = None, max_steps: int = MAX_STEPS) -> dict:
    tasks = [(slug, first + i, s, w, options, budget, max_steps) for (s, w) in pairs
             for i in range(l3_matches if (l3_matches is not None and 3 in (s, w)) else matches)]
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(play_match, tasks, chunksize=1)
    else:
        results = [play_match(t) for t in tasks]
    summary = {"pairs": {}, "wall": {1: [], 2: [], 3: []}, "cpu": {1: [], 2: [], 3: []}}
    for r in results:
        entry = summary["pairs"].setdefault(r["pair"], {"score": 0.0, "n": 0, "rounds": 0, "steps": 0,
                                                        "stalled": 0, "endings": Counter()})
        entry["score"] += r["score"]
        entry["n"] += 1
        entry["rounds"] += r["rounds"]
        entry["steps"] += r["steps"]
        entry["stalled"] += r["stalled"]
        entry["endings"].update(r["endings"])
        for level in r["cpu"]:
            summary["wall"][level].extend(r["wall"][level])
            summary["cpu"][level].extend(r["cpu"][level])
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=SLUGS, required=True)
    parser.add_argument("--matches", "--rounds", dest="matches", type=int, default=400,
                        help="matches per pairing (alias --rounds)")
    parser.add_argument("--l3-matches", type=int, default=None,
                        help="matches for pairings with level 3 (default: --matches)")
    parser.add_argument("--quick", action="store_true", help="a short run (20 matches per pairing)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (multiprocessing)")
    parser.add_argument("--limit", default="1",
                        help="point_limit (Rami, Rami 40, Kalooki: 1, 50, 100) or target (Rami traditionnel: "
                             "1, 100, 250, 500); default 1: one round decides")
    parser.add_argument("--pairs", default="2-1,3-2", help="pairings strong-weak, e.g. 2-1,3-2")
    parser.add_argument("--iterations", type=int, default=None,
                        help="level 3 determinizations (default: the production budget)")
    parser.add_argument("--first", type=int, default=0, help="index of the first match seed")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS, help="moves before a match counts as a draw")
    args = parser.parse_args(argv)
    matches = 20 if args.quick else args.matches
    l3_matches = 20 if args.quick else args.l3_matches
    pairs = [tuple(int(x) for x in p.split("-")) for p in args.pairs.split(",")]
    options = games.get(args.game).info.clean_options(options_for(args.game, args.limit))
    budget = None if args.iterations is None else bots.Budget(iterations=args.iterations)
    t0 = time.perf_counter()
    summary = run(args.game, matches, args.jobs, pairs, options, budget, args.first, l3_matches, args.max_steps)
    wall = time.perf_counter() - t0

    sizes = f"{matches} matches per pairing" + (f" ({l3_matches} with level 3)" if l3_matches else "")
    print(f"game={args.game} ({options}), {sizes}, heads-up, seats alternate, jobs={args.jobs}, wall {wall:.0f} s")
    rates = {}
    for (s, w), e in sorted(summary["pairs"].items()):
        lo, hi = wilson(e["score"], e["n"])
        rate = e["score"] / e["n"]
        rates[(s, w)] = rate
        stalled = f", {e['stalled']} stalled (draws)" if e["stalled"] else ""
        print(f"  L{s} vs L{w}: L{s} wins {rate:.1%} of {e['n']} matches  (95% CI {lo:.1%} – {hi:.1%}), "
              f"{e['rounds'] / e['n']:.1f} rounds/match, {e['steps'] / e['n']:.0f} moves/match{stalled}")
        endings = ", ".join(f"{ending} by L{s if who == 'strong' else w}: {n}"
                            for (ending, who), n in sorted(e["endings"].items()))
        print(f"    round endings: {endings}")
    p99 = {}
    for level in (1, 2, 3):
        ts, cs = summary["wall"][level], summary["cpu"][level]
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
