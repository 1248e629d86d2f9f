"""The replay pages' cost: each step of a round is one request that replays the match from its seed up to that
round (tables.replays, the engine's own replay), then draws the public view with the live table's pieces.

    python -m bench.replays --game gin --matches 3
    python -m bench.replays --game rummikub --seats 4 --matches 2

Plays whole matches against robots in a throwaway test database (SQLite by default, or DATABASE_URL's server
with a test_ prefix), then asks for every step of the match's last round through Django's test client, as a
player of the table. Prints per game the moves per match, the replay of all rounds (ms), and the p50 / p99 /
max time of a step's page (ms, wall clock on this machine).
The last line: `RESULT game=… moves=… rounds_ms=… step_p50_ms=… step_p99_ms=… step_max_ms=…`.
"""

import argparse
import os
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gin")
    parser.add_argument("--seats", type=int, default=0, help="0: the game's default")
    parser.add_argument("--matches", type=int, default=2)
    in_scratch_database(run, parser.parse_args())


def in_scratch_database(run, args) -> None:
    """`run(args)` on a test database made for it (robots and next rounds at once, tasks run in place), dropped
    after."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CELERY_EMBEDDED_WORKER = False
    settings.BOT_DELAY_SECONDS = 0
    settings.NEXT_ROUND_DELAY_SECONDS = 0
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(args) -> None:
    from django.test import Client
    from django.urls import reverse

    from accounts.services import bots_ensure, user_create
    from engine import games
    from tables import catalogue, replays
    from tables.models import Game, RulesPage
    from tests.tables.helpers import create_table, play_out

    catalogue.seed(Game, RulesPage)
    bots_ensure()
    seats = args.seats or games.get(args.game).info.default_players
    player = user_create(username="bench", password="Tr3s-secret!", email="")
    client = Client()
    client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
    moves, rounds_ms, steps_ms = [], [], []
    for _ in range(args.matches):
        table = play_out(create_table(player, args.game, seats=seats, bots=dict.fromkeys(range(1, seats), 2), stake=0))
        moves.append(table.moves.count())
        start = time.perf_counter()
        rounds = replays.rounds(table)
        rounds_ms.append((time.perf_counter() - start) * 1000)
        last = rounds[-1]
        url = reverse("tables:replay", args=[table.pk, last.number])
        for index in range(len(last.steps)):
            start = time.perf_counter()
            response = client.get(f"{url}?etape={index}", HTTP_HX_REQUEST="true")
            steps_ms.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
    steps_ms.sort()
    p99 = steps_ms[min(len(steps_ms) - 1, int(len(steps_ms) * 0.99))]
    print(f"{args.game}: {args.matches} matches, {statistics.mean(moves):.0f} moves per match; replay of all rounds "
          f"{statistics.mean(rounds_ms):.0f} ms; a step's page (last round, {len(steps_ms)} steps): "
          f"p50 {statistics.median(steps_ms):.0f} ms, p99 {p99:.0f} ms, max {steps_ms[-1]:.0f} ms")
    print(f"RESULT game={args.game} moves={statistics.mean(moves):.0f} rounds_ms={statistics.mean(rounds_ms):.0f} "
          f"step_p50_ms={statistics.median(steps_ms):.0f} step_p99_ms={p99:.0f} step_max_ms={steps_ms[-1]:.0f}")


if __name__ == "__main__":
    main()
