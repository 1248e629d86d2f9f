"""Every push of one scripted match of each game, kept, then drawn again by another version of the code and
compared byte for byte: the check that a restructuring changes nothing players see.

    python -m bench.push_snapshot --save /tmp/pushes          # plays, keeps the tables and draws their pushes
    python -m bench.push_snapshot --check /tmp/pushes         # on the new code: the same tables drawn again

`--save` plays one match per game (4 human seats with the rules' autoplay, as `bench.render`; Gin heads-up,
Rami with 3) on a scratch SQLite database, keeps the table as read after each move (`tables.pickle`) and writes
every seat's push and a spectator's (`tables.rendering.render_push`) to `pushes.json`. `--check` loads the same
tables into a copy of that database, draws them with the code it runs on and prints every push that differs
(game, move, seat, the first differing line); it exits 1 if any does. To compare two commits, run `--save` in a
worktree of the older one and `--check` in the newer.
"""

import argparse
import difflib
import json
import pickle
import shutil
import sys
import tempfile
from pathlib import Path

SEATS = {"gin": 2, "rami": 3}  # the other games: 4 seats
MOVES = 200  # kept per match at most


def draw(tables) -> list[dict]:
    """Every seat's push and a spectator's, the clock read as if 30 seconds were left on the move timer."""
    from datetime import UTC, datetime, timedelta
    from unittest import mock

    from tables.rendering import render_push

    pushes = []
    for index, (game, table, seats) in enumerate(tables):
        now = (table.deadline or datetime(2026, 1, 1, tzinfo=UTC)) - timedelta(seconds=30)
        with mock.patch("django.utils.timezone.now", return_value=now):
            for seat in [*seats, None]:
                pushes.append({"game": game, "move": index, "seat": None if seat is None else seat.position,
                               "html": render_push(table, seats, seat)})
    return pushes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--save", type=Path, help="folder to keep the tables and their pushes in")
    parser.add_argument("--check", type=Path, help="folder written by --save: draw its tables again and compare")
    parser.add_argument("--games", default="", help="comma-separated slugs (default: every game)")
    parser.add_argument("--moves", type=int, default=MOVES)
    args = parser.parse_args(argv)
    if bool(args.save) == bool(args.check):
        parser.error("one of --save or --check")

    from bench.render import play, setup_django

    workdir = Path(tempfile.mkdtemp(prefix="rummy-snapshot-"))
    if args.check:  # the database as the tables were drawn (players, balances, chat), not a fresh one
        shutil.copyfile(args.check / "db.sqlite3", workdir / "db.sqlite3")
    setup_django(str(workdir))
    from accounts.services import bots_ensure
    from engine import games

    bots_ensure()
    if args.save:
        slugs = [s for s in args.games.split(",") if s] or games.available()
        tables = [(slug, table, seats) for slug in slugs
                  for table, seats in play(slug, SEATS.get(slug, 4), args.moves)]
        args.save.mkdir(parents=True, exist_ok=True)
        (args.save / "tables.pickle").write_bytes(pickle.dumps(tables))
        pushes = draw(tables)
        (args.save / "pushes.json").write_text(json.dumps(pushes, ensure_ascii=False), encoding="utf-8")
        shutil.copyfile(workdir / "db.sqlite3", args.save / "db.sqlite3")
        print(f"kept {len(tables)} tables, {len(pushes)} pushes of {len(slugs)} games in {args.save}")
        return 0

    tables = pickle.loads((args.check / "tables.pickle").read_bytes())  # noqa: S301 - a file this bench wrote
    before = json.loads((args.check / "pushes.json").read_text(encoding="utf-8"))
    after = draw(tables)
    differ = 0
    for old, new in zip(before, after, strict=True):
        if old["html"] == new["html"]:
            continue
        differ += 1
        if differ <= 10:
            diff = difflib.unified_diff(old["html"].splitlines(), new["html"].splitlines(), lineterm="", n=0)
            line = next((d for d in diff if d[:1] in "+-" and d[:3] not in ("---", "+++")), "")
            print(f"DIFFERS {old['game']} move {old['move']} seat {old['seat']}: {line[:300]}")
            if differ == 1:  # the first one in full, with a line of context
                changed = difflib.unified_diff(old["html"].splitlines(), new["html"].splitlines(), lineterm="", n=1)
                print("\n".join(list(changed)[2:40]))
    games_seen = sorted({p["game"] for p in before})
    print(f"{len(after)} pushes of {len(games_seen)} games drawn again: {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
