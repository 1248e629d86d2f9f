"""The render of a move for every seat, alone: what tables.broadcast.table_changed draws after each move.

    python -m bench.render --game thanasis --matches 3
    python -m bench.render --save /tmp/states.pickle      # then, on another checkout of the code:
    python -m bench.render --load /tmp/states.pickle      # the same tables, drawn by that code

Plays matches of 4 human seats with the rules' autoplay on a scratch SQLite database, keeps the table as read
after every move, then draws every seat's push for every kept table (tables.rendering.render_push: the view,
its context, the pieces, with the piece memo) several times and prints the least CPU time per move. With
--save / --load two versions of the code draw the same tables: a change to the render is compared on the same
inputs, in one process each, without the load bench's noise (`bench.load --breakdown` gives the render's share
of a move under load).
"""

import argparse
import os
import pickle
import sys
import tempfile
import time


def setup_django(workdir: str) -> None:
    for key in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    os.environ.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", SQLITE_PATH=f"{workdir}/db.sqlite3",
                      VAR_DIR=workdir, DEBUG="0", CELERY_TASK_ALWAYS_EAGER="1", LOG_LEVEL="ERROR")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.CELERY_EMBEDDED_WORKER = False
    call_command("migrate", verbosity=0)


def play(game: str, seats: int, moves: int) -> list:
    """One match (up to `moves` moves): the table and its seats as read after every move."""
    from accounts.services import user_create
    from engine import games
    from tables import reads, services, tasks
    from tables.models import Game, Seat, Table

    users = [user_create(username=f"render{os.getpid()}x{time.monotonic_ns()}x{i}", password=None)
             for i in range(seats)]
    table = services.table_create(host=users[0], game=Game.objects.get(slug=game), seats_count=seats,
                                  bot_levels={}, options={}, stake=0, turn_timer_s=60, private=True)
    for user in users[1:]:
        services.seat_join(table=table, user=user)
    services.table_start(table=table, user=users[0])
    Seat.objects.filter(table=table).update(connections=1)
    engine = games.get(game)
    kept = []
    for _ in range(moves):
        table = reads.table(table.pk)
        kept.append((table, reads.seats_of(table.pk)))
        if table.status != Table.Status.PLAYING:
            break
        to_act = engine.to_act(table.state)
        if not to_act:  # the round is over: the next one is dealt (as the Celery task does after its delay)
            tasks.next_round.run(table.pk, table.version)
            continue
        services.play_move(table_id=table.pk, seat=to_act[0], move=engine.autoplay(table.state, to_act[0]),
                           expected_version=table.version)
    return kept


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="thanasis")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--moves", type=int, default=300, help="moves kept per match at most")
    parser.add_argument("--repeat", type=int, default=5, help="passes over the tables; the least CPU time counts")
    parser.add_argument("--save", metavar="FILE", help="keep the tables played in FILE")
    parser.add_argument("--load", metavar="FILE", help="draw the tables of FILE instead of playing new ones")
    args = parser.parse_args(argv)

    setup_django(tempfile.mkdtemp(prefix="rummy-render-"))
    from accounts.services import bots_ensure
    from tables.rendering import render_push

    bots_ensure()
    if args.load:
        with open(args.load, "rb") as source:
            tables = pickle.load(source)  # noqa: S301 - a file this bench wrote
    else:
        tables = [kept for _ in range(args.matches) for kept in play(args.game, args.seats, args.moves)]
    if args.save:
        with open(args.save, "wb") as target:
            pickle.dump(tables, target)

    def draw_all() -> None:
        for table, seats in tables:
            for seat in seats:
                render_push(table, seats, seat)

    draw_all()  # templates compiled, caches warm
    runs = []
    for _ in range(args.repeat):
        started = time.process_time()
        draw_all()
        runs.append(time.process_time() - started)
    best = min(runs)
    pushes = sum(len(seats) for _, seats in tables)
    print(f"tables       : {len(tables)} kept after moves ({args.game}, {args.seats} seats)"
          f"{' from ' + args.load if args.load else ''}")
    print(f"render       : {best * 1000 / len(tables):.3f} CPU-ms per move for every seat, "
          f"{best * 1e6 / pushes:.0f} µs per seat's push (least of {args.repeat} passes; all: "
          f"{', '.join(f'{r * 1000 / len(tables):.3f}' for r in runs)})")
    print(f"RESULT game={args.game} moves={len(tables)} ms_per_move={best * 1000 / len(tables):.3f} "
          f"us_per_push={best * 1e6 / pushes:.0f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
