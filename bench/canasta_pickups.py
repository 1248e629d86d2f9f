"""Canasta's pile pick-ups: `python -m bench.canasta_pickups [--positions N]` from the repository root.

`legal_moves` searches every legal way to take the pile (engine/games/_canasta_pickup.py) on random first-meld
positions with the pile's top takeable (the generator of tests/engine/test_canasta_pickup.py, fixed seeds), for
both games. Times are CPU time of this process per call (time.process_time, best of 3 calls per position: the
machine is shared), with the number of pick-ups offered."""

import argparse
import os
import random
import statistics
import sys
import time


def measure(game, positions: int) -> dict:
    from tests.engine.test_canasta_pickup import first_meld_position

    times, offers = [], []
    for i in range(positions):
        state = first_meld_position(game, random.Random(i * 7919 + 13))
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            moves = game.legal_moves(state, 0)
            best = min(best, time.process_time() - start)
        times.append(best * 1000)
        offers.append(sum(1 for m in moves if m.get("action") == "take_pile"))
    times.sort()
    return {"p50": statistics.median(times), "p99": times[int(len(times) * 0.99) - 1], "max": times[-1],
            "offers_mean": statistics.mean(offers), "offers_max": max(offers)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1500)
    args = parser.parse_args(argv)
    sys.path.insert(0, os.getcwd())
    from engine import games

    for slug in ("canasta", "canasta-tuiles"):
        r = measure(games.get(slug), args.positions)
        print(f"{slug}: {args.positions} positions, legal_moves CPU p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms, "
              f"max {r['max']:.2f} ms; pick-ups offered: mean {r['offers_mean']:.1f}, max {r['offers_max']}")


if __name__ == "__main__":
    main()
