"""How much of a push changed for its seat: the lever « push only the pieces that changed » of issue 17, measured.

    python -m bench.push_pieces --game thanasis --moves 400

Plays a match of 4 human seats with the rules' autoplay on a scratch SQLite database and, after every move,
renders each seat's push as the site does (tables.rendering.render_push: every piece, tables.live.PARTS), then
counts the bytes of the pieces whose HTML differs from the same seat's previous push. Prints the bytes a push
carries now and the bytes it would carry with the unchanged pieces left out. What those bytes cost the server
is the echo floor at either size (`python -m bench.load --mode redis --echo-bytes N`).
"""

import argparse
import os
import statistics
import sys
import tempfile


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="thanasis")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--moves", type=int, default=400)
    args = parser.parse_args(argv)

    workdir = tempfile.mkdtemp(prefix="rummy-pieces-")
    for key in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    os.environ.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", SQLITE_PATH=f"{workdir}/db.sqlite3",
                      VAR_DIR=workdir, CELERY_TASK_ALWAYS_EAGER="1", LOG_LEVEL="ERROR")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.CELERY_EMBEDDED_WORKER = False
    call_command("migrate", verbosity=0)
    from accounts.services import bots_ensure, user_create
    from engine import games
    from tables import live, reads, services, tasks
    from tables.models import Game, Seat, Table
    from tables.presenters import table_context

    bots_ensure()
    users = [user_create(username=f"pieces{i}", password=None) for i in range(args.seats)]
    table = services.table_create(host=users[0], game=Game.objects.get(slug=args.game), seats_count=args.seats,
                                  bot_levels={}, options={}, stake=0, turn_timer_s=60, private=True)
    for user in users[1:]:
        services.seat_join(table=table, user=user)
    services.table_start(table=table, user=users[0])
    Seat.objects.filter(table=table).update(connections=1)
    engine = games.get(args.game)

    last: dict[int, list[str]] = {}
    full, changed, pieces_changed = [], [], []
    for _ in range(args.moves):
        table = reads.table(table.pk)
        seats = reads.seats_of(table.pk)
        for seat in seats:
            context = table_context(table, seats, seat)
            pieces = [str(live.render_part(part, context)) for part in live.PARTS]
            before = last.get(seat.position)
            sent = pieces if before is None else [p for p, b in zip(pieces, before, strict=True) if p != b]
            last[seat.position] = pieces
            full.append(sum(len(p.encode()) for p in pieces))
            changed.append(sum(len(p.encode()) for p in sent))
            pieces_changed.append(len(sent))
        if table.status != Table.Status.PLAYING:
            break
        to_act = engine.to_act(table.state)
        if not to_act:  # the round is over: the next one is dealt (as the Celery task does after its delay)
            tasks.next_round.run(table.pk, table.version)
            continue
        seat = to_act[0]
        services.play_move(table_id=table.pk, seat=seat, move=engine.autoplay(table.state, seat),
                           expected_version=table.version)
    pushes = len(full)
    print(f"pushes       : {pushes} ({args.game}, {args.seats} seats, every seat after every move)")
    print(f"bytes a push : now mean {statistics.mean(full):.0f} B (median {statistics.median(full):.0f}); "
          f"changed pieces only mean {statistics.mean(changed):.0f} B (median {statistics.median(changed):.0f}) "
          f"= {100 * sum(changed) / sum(full):.0f} % of the bytes; pieces sent mean "
          f"{statistics.mean(pieces_changed):.1f} of {len(live.PARTS)}")
    print(f"RESULT game={args.game} pushes={pushes} bytes_mean={statistics.mean(full):.0f} "
          f"changed_bytes_mean={statistics.mean(changed):.0f} share={sum(changed) / sum(full):.3f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
