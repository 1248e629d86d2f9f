"""How soon a notification reaches an open page after the move that caused it, against that move's own push.

    python -m bench.notify_latency [--moves 40]

In one process on a scratch SQLite database and the in-process channel layer (the embedded default): per move, a
new « Partie lente » table of Thanasis with two players; the player whose move it is has the table open (the
table's socket), the other has another page of the site open (the bell's socket only). The mover draws and throws
a card through his socket. Timed from the frame that throws the card: his own page's push of the move, and the
other player's bell. Prints the medians and the worst, in milliseconds.
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup() -> None:
    path = ROOT / "var" / "bench_notify.sqlite3"
    path.parent.mkdir(exist_ok=True)
    path.unlink(missing_ok=True)
    os.environ["SQLITE_PATH"] = str(path)
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_ENV", "development")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ["CELERY_EMBEDDED_WORKER"] = "0"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.BOT_DELAY_SECONDS = 0
    call_command("migrate", verbosity=0)


def new_table(alice, bruno):
    from tables import services
    from tables.models import Game
    from tables.table_types import DAY

    table = services.table_create(host=alice, game=Game.objects.get(slug="thanasis"), seats_count=2, stake=0,
                                  turn_timer_s=DAY)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    table.refresh_from_db()
    return table


async def receive_until(comm, predicate, timeout=5.0) -> float:
    end = time.perf_counter() + timeout
    while True:
        frame = await comm.receive_from(timeout=max(0.01, end - time.perf_counter()))
        if predicate(frame):
            return time.perf_counter()


async def one_move(alice, bruno) -> tuple[float, float]:
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from accounts.consumers import BellConsumer
    from engine import games
    from tables.consumers import TableConsumer

    table = await database_sync_to_async(new_table)(alice, bruno)
    engine = games.get("thanasis")
    first = engine.to_act(table.state)[0]
    mover, other = (alice, bruno) if first == 0 else (bruno, alice)
    desk = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table.pk}/")
    desk.scope["user"], desk.scope["url_route"] = mover, {"kwargs": {"table_id": table.pk}}
    bell = WebsocketCommunicator(BellConsumer.as_asgi(), "/ws/notifications/")
    bell.scope["user"] = other
    assert (await desk.connect())[0] and (await bell.connect())[0]
    await desk.receive_from(timeout=5)  # the table as it is
    await bell.receive_from(timeout=5)  # the bell as it is
    await desk.send_to(text_data=json.dumps({"kind": "move", "action": "draw_stock", "version": table.version}))
    await receive_until(desk, lambda html: f'data-version="{table.version + 1}"' in html)
    await database_sync_to_async(table.refresh_from_db)()
    discard = next(m for m in engine.legal_moves(table.state, first) if m["action"] == "discard")
    sent = time.perf_counter()
    await desk.send_to(text_data=json.dumps({"kind": "move", **discard, "version": table.version}))
    pushed_task = asyncio.create_task(receive_until(desk, lambda html: f'data-version="{table.version + 1}"' in html))
    rung = await receive_until(bell, lambda html: 'data-count="1"' in html)
    pushed = await pushed_task
    await desk.disconnect()
    await bell.disconnect()
    return pushed - sent, rung - sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    setup()
    from accounts.services import user_create
    from tables import catalogue
    from tables.models import Game, RulesPage

    catalogue.seed(Game, RulesPage)
    pushes, bells = [], []
    for i in range(args.moves):
        alice = user_create(username=f"alice{i}", password=None, email="")
        bruno = user_create(username=f"bruno{i}", password=None, email="")
        push, bell = asyncio.run(one_move(alice, bruno))
        pushes.append(1000 * push)
        bells.append(1000 * bell)
    gaps = [b - p for b, p in zip(bells, pushes, strict=True)]
    print(f"{args.moves} moves, SQLite + in-process layer; ms from the frame that throws the card")
    print("| | median | worst |")
    print("|---|---:|---:|")
    print(f"| the mover's own push of the move | {statistics.median(pushes):.1f} | {max(pushes):.1f} |")
    print(f"| the other player's bell (another page) | {statistics.median(bells):.1f} | {max(bells):.1f} |")
    print(f"| bell minus push | {statistics.median(gaps):+.1f} | {max(gaps):+.1f} |")
    (ROOT / "var" / "bench_notify.sqlite3").unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
