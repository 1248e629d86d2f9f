"""Problem generation from robot self-play (engine.problems.generate), per game, as `manage.py problems_generate`
does it (without storing).

    python -m bench.problems --count 1000                  # every game with a finder, one process per core
    python -m bench.problems --game gin --count 200 --workers 1

Each worker self-plays matches between « Confirmé » robots and puts decisions to the game's finder until its share
of `--count` problems is accepted. Prints per game: problems accepted, decisions examined, the rejection rate (the
decisions of a theme that were judged and refused, the « not a problem » ones aside) and the count of each reason,
the wall time, and the CPU time per accepted problem (self-play included). Last line per game: `RESULT game=…
accepted=… examined=… rejection_rate=… seconds=… cpu_ms_per_problem=… themes=…`.
"""

import argparse
import multiprocessing
import time
from collections import Counter

from engine import games
from engine.problems.generate import generate


def _share(args) -> dict:
    slug, count, seed = args
    start = time.process_time()
    report = generate(slug, count, seed=seed)
    return {"accepted": len(report.accepted), "examined": report.examined, "rejected": dict(report.rejected),
            "cpu": time.process_time() - start, "themes": Counter(f.candidate.theme for f in report.accepted),
            "gaps": [f.candidate.gap for f in report.accepted], "matches": report.matches}


def run(slug: str, count: int, workers: int, seed: int) -> dict:
    shares = [(slug, count // workers + (1 if i < count % workers else 0), seed * 1000 + i) for i in range(workers)]
    start = time.perf_counter()
    if workers == 1:
        parts = [_share(shares[0])]
    else:
        with multiprocessing.Pool(workers) as pool:
            parts = pool.map(_share, shares)
    wall = time.perf_counter() - start
    rejected: Counter = Counter()
    themes: Counter = Counter()
    for part in parts:
        rejected.update(part["rejected"])
        themes.update(part["themes"])
    accepted = sum(p["accepted"] for p in parts)
    examined = sum(p["examined"] for p in parts)
    judged = examined - rejected["declined"]
    return {"game": slug, "accepted": accepted, "examined": examined, "matches": sum(p["matches"] for p in parts),
            "rejected": dict(rejected), "rejection_rate": (judged - accepted) / judged if judged else 0.0,
            "seconds": wall, "cpu_ms_per_problem": 1000 * sum(p["cpu"] for p in parts) / max(accepted, 1),
            "themes": dict(themes)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    slugs = args.game or [s for s in games.available() if games.get(s).info.problems]
    for slug in slugs:
        row = run(slug, args.count, args.workers, args.seed)
        print(f"{slug}: {row['accepted']} acceptés sur {row['examined']} décisions examinées "
              f"({row['matches']} parties), rejetés {row['rejection_rate']:.0%} des décisions jugées "
              f"{row['rejected']}, {row['seconds']:.0f} s, {row['cpu_ms_per_problem']:.0f} ms CPU par problème, "
              f"thèmes {row['themes']}", flush=True)
        print(f"RESULT game={slug} accepted={row['accepted']} examined={row['examined']} "
              f"rejection_rate={row['rejection_rate']:.3f} seconds={row['seconds']:.1f} "
              f"cpu_ms_per_problem={row['cpu_ms_per_problem']:.0f} "
              f"themes={','.join(f'{k}:{v}' for k, v in sorted(row['themes'].items()))}", flush=True)


if __name__ == "__main__":
    main()
