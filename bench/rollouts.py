"""What the Expert's search gets from the solver: determinizations (rollouts) per decision.

    python -m bench.rollouts --game gin --decisions 150

(Thanasis' Expert plays no rollouts since 2026-12-05: it weighs its next draw exactly, engine.bots.thanasis.)

Positions: heads-up matches of two Confirmé bots from fixed seeds; every decision with two legal
moves or more, until `--decisions` of them made the Expert search (more than one candidate). On each:
- capped: the Expert with the production time cap (engine.bots.search.DEFAULT_BUDGET.time_limit, CPU
  time of the thread) and no cap on determinizations: how many it plays within the cap;
- budget: the production budget (48 determinizations, same cap): CPU per decision, on other deals
  than the capped run's (the bots' caches, warm from earlier decisions as in a server, must not
  replay the very same deals).
The same command run on another commit gives the same positions as long as the solver answers the
same (the Confirmé bots play from it), so the two figures compare like with like.
"""

import argparse
import random
import statistics
import sys
import time

from bench.bots import match_options, match_seed
from engine import bots, games
from engine.bots import search


def positions(slug: str):
    """(view, legal moves, rng seed) of Confirmé decisions, in play order, from fixed match seeds."""
    game = games.get(slug)
    options = match_options(slug, None)
    index = 0
    while True:
        seed = match_seed(slug, 10_000 + index)
        state = game.new_match(seats=2, options=options, seed=seed)
        step = 0
        while game.result(state) is None and step < 3000:
            to_act = game.to_act(state)
            if not to_act:
                state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
                continue
            for seat in to_act:
                legal = game.legal_moves(state, seat)
                view = game.view(state, seat)
                rng_seed = f"{seed}:{step}:{seat}"
                if len(legal) > 1:
                    yield view, legal, rng_seed
                move = bots.choose(game, view, legal, 2, random.Random(rng_seed))
                state, _ = game.apply(state, seat, move)
                step += 1
        index += 1
        if index >= 200:
            return


def expert(game, view, legal, rng_seed, budget) -> tuple[int, float]:
    """(determinizations played, CPU seconds) of one Expert decision."""
    search.last_stats = search.SearchStats()
    t = time.thread_time()
    bots.choose(game, view, legal, 3, random.Random(rng_seed), budget=budget)
    return search.last_stats.iterations, time.thread_time() - t


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("gin",), default="gin")
    parser.add_argument("--decisions", type=int, default=150, help="searched decisions to measure (default 150)")
    args = parser.parse_args(argv)
    game = games.get(args.game)
    cap = search.DEFAULT_BUDGET.time_limit
    capped = search.Budget(iterations=10**6, time_limit=cap)
    played, cpu_capped, cpu_budget, its_budget = [], [], [], []
    for view, legal, rng_seed in positions(args.game):
        n, dt = expert(game, view, legal, rng_seed, capped)
        if n == 0:
            continue  # no search here (one candidate, or the level-2 rule decides)
        played.append(n)
        cpu_capped.append(dt)
        n, dt = expert(game, view, legal, rng_seed + ":budget", None)  # other deals: no replay of warm caches
        its_budget.append(n)
        cpu_budget.append(dt)
        if len(played) >= args.decisions:
            break
    q = statistics.quantiles(played, n=10) if len(played) >= 10 else [float("nan")] * 9
    rate = sum(played) / sum(cpu_capped)
    print(f"Python {sys.version.split()[0]}, {args.game}: {len(played)} searched decisions (Confirmé positions)")
    print(f"capped at {cap * 1000:.0f} ms CPU, no cap on determinizations: mean {statistics.mean(played):.1f} "
          f"per decision (p10 {q[0]:.0f}, median {statistics.median(played):.0f}, p90 {q[8]:.0f}), "
          f"{rate:.0f} determinizations per CPU second")
    print(f"production budget ({search.DEFAULT_BUDGET.iterations} determinizations, same cap): "
          f"mean {statistics.mean(its_budget):.1f} played, CPU per decision mean "
          f"{statistics.mean(cpu_budget) * 1000:.1f} ms, max {max(cpu_budget) * 1000:.1f} ms")
    print(f"RESULT game={args.game} decisions={len(played)} rollouts_in_cap_mean={statistics.mean(played):.1f} "
          f"rollouts_per_cpu_s={rate:.0f} budget_cpu_ms_mean={statistics.mean(cpu_budget) * 1000:.1f}")


if __name__ == "__main__":
    main()
