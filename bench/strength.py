"""The published strength of the robots: writes engine/bots/strength.json from the bot ladders' figures.

    python -m bench.strength          # rewrite the file
    python -m bench.strength --check  # exit 1 if the file differs from these figures

The figures are those `python -m bench.bots` printed (bench/RESULTS.md, « Robots level against level »): per
game, the win rate of each level against the level below, its 95 % interval and the number of matches. Where
bench/RESULTS.md gives no interval, the Wilson interval of the same figure is computed here (bench.bots.wilson).

Ratings (OpenSkill Plackett-Luce, the site's rating model, accounts.stats): the Confirmé is anchored at
mu = 25 (a new player's prior), each robot's sigma fixed at 1; the gap between two levels is the one under
which the model's own prediction (`PlackettLuce.predict_win`) gives the measured win rate heads-up:
P(a beats b) = Phi((mu_a - mu_b) / c), c = sqrt(2 beta^2 + sigma_a^2 + sigma_b^2). In a team game the ladder
plays two robots of a level against two of the other: a team's mu is the sum of its two and its variance the
sum of theirs, c = sqrt(2 beta^2 + 4 sigma^2), so each robot's gap is half the team's. A measured 100 % is
taken as 99 % (the model has no finite gap for certainty).
"""

import argparse
import json
import math
import sys
from pathlib import Path
from statistics import NormalDist

from bench.bots import wilson

PATH = Path(__file__).resolve().parent.parent / "engine" / "bots" / "strength.json"
LADDER = Path(__file__).with_name("ladder.json")  # python -m bench.ladder: each level against the reference
BETA = 25 / 6
SIGMA = 1.0
ANCHOR = 25.0  # the Confirmé's mu

# game: (date, command, team ladder, [(level, win rate vs level - 1, matches, ci low, ci high or None)])
FIGURES = {
    "thanasis": ("2026-12-05", "python -m bench.bots --game thanasis --rounds 1000 ; --pairs 3-2 --matches 2000",
                 False, [(2, 0.607, 1000, None, None), (3, 0.524, 2000, 0.502, 0.546)]),
    "gin": ("2026-12-06", "python -m bench.bots --game gin --pairs 2-1,3-2 --matches 400 --jobs 2 (matches to 100; "
            "python -m bench.ladder --games gin --lengths 100)",
            False, [(2, 0.657, 400, 0.610, 0.702), (3, 0.632, 400, 0.584, 0.678)]),
    "rami": ("2026-11-30", "python -m bench.bots --game rami --pairs 2-1 --matches 200 ; --pairs 3-2 --matches 100",
             False, [(2, 0.925, 200, 0.880, 0.954), (3, 0.690, 100, 0.594, 0.772)]),
    "rami40": ("2026-12-03", "python -m bench.bots --game rami40 --pairs 2-1 --matches 200 ; --pairs 3-2 --matches 300",
               False, [(2, 0.872, 200, None, None), (3, 0.610, 300, 0.554, 0.663)]),
    "kalooki": ("2026-12-03", "python -m bench.bots --game kalooki --pairs 2-1 --matches 200 ; "
                "--pairs 3-2 --matches 300",
                False, [(2, 0.915, 200, None, None), (3, 0.660, 300, 0.605, 0.711)]),
    "rami-traditionnel": ("2026-11-30", "python -m bench.bots --game rami-traditionnel --pairs 2-1 --matches 200 ; "
                          "--pairs 3-2 --matches 60",
                          False, [(2, 0.985, 200, None, None), (3, 0.883, 60, 0.778, 0.942)]),
    "rummikub": ("2026-12-02", "python -m bench.bots --game rummikub --matches 300 --jobs 1",
                 False, [(2, 0.800, 300, 0.751, 0.841), (3, 1.000, 300, 0.987, 1.000)]),
    "canasta": ("2026-12-03", "python -m bench.bots --game canasta --pairs 2-1 --matches 200 --jobs 1 ; "
                "--pairs 3-2 --matches 100",
                True, [(2, 0.875, 200, 0.822, 0.914), (3, 0.615, 100, 0.517, 0.704)]),
    "canasta-tuiles": ("2026-12-03", "python -m bench.bots --game canasta-tuiles --pairs 2-1 --matches 200 --jobs 1 ; "
                       "--pairs 3-2 --matches 200 --first 1000 --jobs 2",
                       True, [(2, 0.760, 200, 0.696, 0.814), (3, 0.637, 200, 0.569, 0.701)]),
    "thunee": ("2026-12-02", "python -m bench.bots --game thunee --matches 200 --l3-matches 60 --jobs 1",
               True, [(2, 0.980, 200, 0.950, 0.992), (3, 0.833, 60, 0.720, 0.907)]),
}


def gap(win_rate: float, team: bool) -> float:
    """The mu gap between two robots of adjacent levels under which the model predicts `win_rate`."""
    z = NormalDist().inv_cdf(min(max(win_rate, 0.01), 0.99))
    if team:
        return math.sqrt(2 * BETA ** 2 + 4 * SIGMA ** 2) * z / 2
    return math.sqrt(2 * BETA ** 2 + 2 * SIGMA ** 2) * z


def vs_reference(lengths: dict) -> dict:
    """Per match length and level, the level's record against the reference opponent (bench/ladder.json); level 4
    is the all-seeing player (the ceiling of a race), where measured."""
    out = {}
    for length, entry in lengths.items():
        cells = {pair.split("-")[0]: {k: cell[k] for k in ("win_rate", "ci95", "matches", "date")}
                 for pair, cell in entry["cells"].items() if pair.endswith("-0") and pair[0] in "1234"}
        if cells:
            out[length] = dict(sorted(cells.items()))
    return out


def build() -> dict:
    ladder = json.loads(LADDER.read_text(encoding="utf-8")) if LADDER.exists() else {}
    games = {}
    for slug, (date, command, team, rows) in FIGURES.items():
        by_level = {level: (rate, n, low, high) for level, rate, n, low, high in rows}
        mus = {2: ANCHOR}
        mus[1] = ANCHOR - gap(by_level[2][0], team)
        mus[3] = ANCHOR + gap(by_level[3][0], team)
        levels = {}
        for level in (1, 2, 3):
            entry = {"rating": {"mu": round(mus[level], 2), "sigma": SIGMA,
                                "score": round(mus[level] - 3 * SIGMA, 1)}}
            if level in by_level:
                rate, n, low, high = by_level[level]
                if low is None:
                    low, high = wilson(rate * n, n)
                entry["vs_below"] = {"win_rate": rate, "ci95": [round(low, 3), round(high, 3)], "matches": n}
            levels[str(level)] = entry
        games[slug] = {"date": date, "command": command, "teams": team, "levels": levels}
        if slug in ladder:
            games[slug]["vs_reference"] = vs_reference(ladder[slug])
    return {
        "about": "Robots' strength: win rate of each level against the level below (bench.bots), against the "
                 "reference opponent per match length (bench.ladder, vs_reference), and the fixed OpenSkill "
                 "Plackett-Luce rating the site rates players against (bench/strength.py).",
        "games": games,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = json.dumps(build(), ensure_ascii=False, indent=2) + "\n"
    if args.check:
        same = PATH.exists() and PATH.read_text(encoding="utf-8") == text
        print("strength.json is up to date" if same else "strength.json differs: run python -m bench.strength")
        return 0 if same else 1
    PATH.write_text(text, encoding="utf-8")
    for slug, entry in build()["games"].items():
        print(slug, " ".join(f"L{lv}={e['rating']['mu']}" for lv, e in entry["levels"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
