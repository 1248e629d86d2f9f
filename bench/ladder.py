"""The robots' ladder against outside play: every level against the reference opponent and the level below,
for each game and each match length its table form offers. One command measures and prints it:

    python -m bench.ladder --games gin --matches 400 --jobs 2
    python -m bench.ladder --games thanasis,rummikub --pairs 1-0,2-0 --matches 400
    python -m bench.ladder --table          # print the stored table (Markdown, for bench/RESULTS.md)
    python -m bench.ladder --games rami --pairs 1-0,2-0 --matches 400 --extend   # stored cells played on to 400

Each cell is `bench.bots.run` (whole matches from fixed seeds, seats swapped between matches, the strong side
first in the pairing; level 0 is the reference opponent of `bench.reference`, 4 an all-seeing player).
Measured cells are merged into `bench/ladder.json` (keyed by game, match length and pairing, with the date,
the matches and the 95 % Wilson interval), which `python -m bench.strength` publishes in
`engine/bots/strength.json`. Partnership Canasta is measured as the ladder always has (one deal played
twice with the teams swapped), so it has one length; Thunee plays whole matches to 12 balls.
"""

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from bench import bots as ladder_bots
from bench import reference
from engine import games

PATH = Path(__file__).with_name("ladder.json")
DEFAULT_PAIRS = "1-0,2-0,3-0,2-1,3-2"
TARGETS = {(3, 0): 0.60, (3, 2): 0.60, (2, 0): 0.55}  # issue #32: Expert vs reference and Confirmé, Confirmé vs ref


def lengths(slug: str) -> list[str | None]:
    """The match lengths the table form offers (None: the game has no length option, or the bench plays one)."""
    if slug in ladder_bots.TEAM_GAMES:
        return [None]
    info = games.get(slug).info
    for option in info.options:
        if option.name in ("match", "point_limit", "target", "rounds", "match_length"):
            return [value for value, _label in option.choices]
    return [None]


def measure(slug: str, length: str | None, pairs, matches: int, jobs: int, first: int) -> dict:
    options = ladder_bots.match_options(slug, length) if length is not None else ladder_bots.match_options(slug, None)
    summary = ladder_bots.run(slug, matches, jobs, pairs, options, None, first)
    cells = {}
    for (strong, weak), entry in summary["pairs"].items():
        low, high = ladder_bots.wilson(entry["score"], entry["n"])
        cells[f"{strong}-{weak}"] = {"win_rate": round(entry["score"] / entry["n"], 3), "score": entry["score"],
                                     "ci95": [round(low, 3), round(high, 3)], "matches": entry["n"],
                                     "stalled": entry["stalled"]}
    p99 = {str(level): round(ladder_bots.percentile(cpu, 99), 1)
           for level, cpu in summary["cpu"].items() if cpu and level in (1, 2, 3)}
    return {"cells": cells, "cpu_p99_ms": p99}


def extend(data: dict, slug: str, length, key: str, pairs, matches: int, jobs: int) -> dict | None:
    """Each stored cell of `pairs` (measured from seed 0) played on to `matches` in all; None if none is short."""
    cells, p99 = {}, {}
    for pair in pairs:
        name = f"{pair[0]}-{pair[1]}"
        old = (data.get(slug, {}).get(key, {}).get("cells") or {}).get(name)
        if old is None or old.get("first", 0) != 0 or old["matches"] >= matches:
            continue
        more = measure(slug, length, [pair], matches - old["matches"], jobs, old["matches"])
        cells[name] = extended(old, more["cells"][name])
        p99.update(more["cpu_p99_ms"])
    return {"cells": cells, "cpu_p99_ms": p99} if cells else None


def load(path: Path | None = None) -> dict:
    path = path or PATH
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def store(slug: str, length: str, result: dict, stamp: dict, path: Path | None = None) -> dict:
    """Merge one measured length into the file, re-read just before (another ladder may be writing)."""
    path = path or PATH
    data = load(path)
    entry = data.setdefault(slug, {}).setdefault(length, {"cells": {}, "cpu_p99_ms": {}})
    for pair, cell in result["cells"].items():
        entry["cells"][pair] = {**cell, **stamp}
    entry["cpu_p99_ms"].update(result["cpu_p99_ms"])
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return data


def extended(old: dict, new: dict) -> dict:
    """A cell measured on seeds 0…n−1 and its continuation on seeds n…: one cell over all of them. (A cell stored
    before the score was kept gives it back from its rate: a score is a whole or half number of matches.)"""
    old_score = old.get("score", round(old["win_rate"] * old["matches"] * 2) / 2)
    score, n = old_score + new["score"], old["matches"] + new["matches"]
    low, high = ladder_bots.wilson(score, n)
    return {"win_rate": round(score / n, 3), "score": score, "ci95": [round(low, 3), round(high, 3)], "matches": n,
            "stalled": old.get("stalled", 0) + new["stalled"]}


def label(pair: str) -> str:
    strong, weak = (int(x) for x in pair.split("-"))
    return f"{ladder_bots.name(strong)} vs {ladder_bots.name(weak)}"


def table(data: dict) -> str:
    """The stored cells as a Markdown table: one row per game and length, one column per pairing."""
    pairs = DEFAULT_PAIRS.split(",")
    extra = sorted({p for g in data.values() for cells in g.values() for p in cells["cells"]} - set(pairs))
    columns = pairs + extra
    lines = ["| game | length | " + " | ".join(label(p) for p in columns) + " |",
             "|---|---|" + "---|" * len(columns)]
    for slug in sorted(data):
        for length, entry in sorted(data[slug].items(), key=lambda kv: _length_order(kv[0])):
            row = []
            for pair in columns:
                cell = entry["cells"].get(pair)
                if cell is None:
                    row.append("—")
                    continue
                strong, weak = (int(x) for x in pair.split("-"))
                target = TARGETS.get((strong, weak))
                mark = "" if target is None else (" ✓" if cell["win_rate"] >= target else " ✗")
                row.append(f"{cell['win_rate']:.1%} ({cell['ci95'][0]:.0%}–{cell['ci95'][1]:.0%}, "
                           f"n={cell['matches']}){mark}")
            lines.append(f"| {slug} | {length} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def _length_order(length: str):
    return (0, int(length)) if length.isdigit() else (1, length)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated slugs (default: every game with a reference)")
    parser.add_argument("--lengths", default="", help="comma-separated match lengths (default: every one offered)")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="pairings strong-weak; 0 = the reference opponent")
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first match seed")
    parser.add_argument("--table", action="store_true", help="only print the stored table")
    parser.add_argument("--dry-run", action="store_true", help="measure and print, do not store")
    parser.add_argument("--store", type=Path, default=None, help="the file to merge into (default bench/ladder.json)")
    parser.add_argument("--extend", action="store_true",
                        help="play each stored cell on from its last seed up to --matches in all, and merge")
    args = parser.parse_args(argv)
    data = load(args.store)
    if args.table:
        print(table(data))
        return 0
    slugs = [s for s in args.games.split(",") if s] or sorted(reference.MODULES)
    pairs = [tuple(int(x) for x in p.split("-")) for p in args.pairs.split(",")]
    today = datetime.date.today().isoformat()
    for slug in slugs:
        wanted = [x for x in args.lengths.split(",") if x]
        for length in lengths(slug):
            if wanted and str(length) not in wanted:
                continue
            t0 = time.perf_counter()
            key = "—" if length is None else length
            if args.extend:
                result = extend(data, slug, length, key, pairs, args.matches, args.jobs)
                if result is None:
                    continue
            else:
                result = measure(slug, length, pairs, args.matches, args.jobs, args.first)
            if not args.dry_run:
                first = 0 if args.extend else args.first
                data = store(slug, key, result, {"date": today, "first": first}, args.store)
            cells = ", ".join(f"{label(p)} {c['win_rate']:.1%} ({c['ci95'][0]:.1%}–{c['ci95'][1]:.1%})"
                              for p, c in sorted(result["cells"].items()))
            print(f"{slug} length={key}: {cells}; CPU p99 {result['cpu_p99_ms']} ms; "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)
    print(table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
