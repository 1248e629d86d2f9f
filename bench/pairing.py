"""The Swiss pairing's cost and quality: random tournaments paired round after round by tournaments.pairing.

    python -m bench.pairing --players 1000 --size 4 --rounds 7 --tournaments 20
    python -m bench.pairing --players 301 --size 3,4 --rounds 9

Each tournament draws random results for every table (places at random, a tie now and then), ranks the entries
(`standings`) and pairs the next round (`swiss_round`) from that standing, what has been met and the byes had.
Prints the CPU time of one round's pairing (p50 and max over every round, time.process_time) and of the standing,
and the pairs seated together again over the tournament (the pairing avoids them where it can), in total and per
tournament. The last line: `RESULT players=… sizes=… rounds=… tournaments=… pair_p50_ms=… pair_max_ms=…
standings_p50_ms=… repeats=… tournaments_with_repeats=…`.
"""

import argparse
import random
import statistics
import time

from tournaments.pairing import Result, repeated_pairs, standings, swiss_round


def random_places(rnd: random.Random, n: int) -> tuple[int, ...]:
    """Competition places (1 = first) with a tie now and then."""
    scores = [rnd.randint(0, 2 * n) for _ in range(n)]
    return tuple(1 + sum(other > mine for other in scores) for mine in scores)


def tournament(players: int, sizes: tuple[int, ...], rounds: int, seed: int) -> dict:
    rnd = random.Random(seed)
    entries = rnd.sample(range(1, 10 * players + 1), players)
    results: list[Result] = []
    met: dict[int, set[int]] = {}
    byes: dict[int, int] = {}
    pair_seconds, standing_seconds, repeats = [], [], []
    for _ in range(rounds):
        start = time.process_time()
        standing = standings(entries, results, byes)
        standing_seconds.append(time.process_time() - start)
        start = time.process_time()
        pairing = swiss_round(standing, sizes, met, byes)
        pair_seconds.append(time.process_time() - start)
        repeats.append(repeated_pairs(pairing.tables, met))
        for entry in pairing.byes:
            byes[entry] = byes.get(entry, 0) + 1
        for table in pairing.tables:
            results.append(Result(table, random_places(rnd, len(table))))
            for entry in table:
                met.setdefault(entry, set()).update(other for other in table if other != entry)
    return {"pair": pair_seconds, "standings": standing_seconds, "repeats": repeats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--size", default="4", help="allowed table sizes in entries, e.g. 4 or 3,4")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sizes = tuple(int(size) for size in args.size.split(","))

    pair, standing, per_tournament = [], [], []
    for number in range(args.tournaments):
        run = tournament(args.players, sizes, args.rounds, args.seed * 1_000_003 + number)
        pair += run["pair"]
        standing += run["standings"]
        per_tournament.append(run["repeats"])
    totals = [sum(repeats) for repeats in per_tournament]
    ms = 1000
    print(f"{args.tournaments} tournaments of {args.players} entries at tables of {args.size}, {args.rounds} rounds")
    print(f"pairing one round (CPU): p50 {statistics.median(pair) * ms:.1f} ms, max {max(pair) * ms:.1f} ms "
          f"over {len(pair)} rounds")
    print(f"standings before a round (CPU): p50 {statistics.median(standing) * ms:.1f} ms, "
          f"max {max(standing) * ms:.1f} ms")
    print(f"pairs meeting again: {sum(totals)} in all; per tournament {totals}")
    worst = max(range(len(totals)), key=totals.__getitem__)
    if totals[worst]:
        print(f"worst tournament (#{worst}), per round: {per_tournament[worst]}")
    print(f"RESULT players={args.players} sizes={args.size} rounds={args.rounds} tournaments={args.tournaments} "
          f"pair_p50_ms={statistics.median(pair) * ms:.1f} pair_max_ms={max(pair) * ms:.1f} "
          f"standings_p50_ms={statistics.median(standing) * ms:.1f} repeats={sum(totals)} "
          f"tournaments_with_repeats={sum(1 for total in totals if total)}")


if __name__ == "__main__":
    main()
