"""Scratch database for bench.load: created, migrated and filled with real accounts, tables and sessions.

Run by bench.load in a subprocess (the load client itself never imports Django):

    python -m bench.load_setup --tables N --burst-tables B --bot-tables K

with the site's environment (SQLITE_PATH, or DATABASE_URL + REDIS_URL). It prints one JSON line:
every table with, per human seat, the user id and a session key (a real Django session in the
database, as a login would create; passwords are unusable, so nobody hashes 2,000 passwords).
"""

import argparse
import json
import os
import sys
import time

GAME = "thanasis"
SEATS = 4
TURN_TIMER_S = 60  # the longest Thanasis offers: connected humans are never autoplayed in a run
# PostgreSQL: table ids (hence pub/sub channel names, global to a Redis server) that nobody else uses.
FIRST_TABLE_ID = int(os.environ.get("LOAD_FIRST_TABLE_ID", "7000001"))


def recreate_postgres(url: str) -> None:
    """Drop and create the scratch database named in `url` (never the site's own database)."""
    from urllib.parse import urlparse

    import psycopg

    name = urlparse(url).path.lstrip("/")
    if not name.startswith("rummy_load"):
        sys.exit(f"refusing to drop {name!r}: the load database must be named rummy_load…")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,))
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def session_for(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "accounts.backends.HumanOnlyBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--burst-tables", type=int, default=0)
    parser.add_argument("--bot-tables", type=int, default=0)
    args = parser.parse_args()

    started = time.monotonic()
    if os.environ.get("DATABASE_URL"):
        recreate_postgres(os.environ["DATABASE_URL"])
    if os.environ.get("REDIS_URL"):
        flush_redis(os.environ["REDIS_URL"])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    call_command("migrate", verbosity=0, interactive=False)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT setval(pg_get_serial_sequence('tables_table', 'id'), %s, false)",
                           [FIRST_TABLE_ID])

    # Nothing is delivered while setting up: no socket is open yet, and no worker runs.
    import tables.scheduler as scheduler
    from accounts.services import bots_ensure, user_create
    from tables import services
    from tables.models import Game

    scheduler._enqueue = lambda *a, **k: None
    bots = bots_ensure()
    game = Game.objects.get(slug=GAME)
    out = {"game": GAME, "tables": [], "burst": [], "bots": []}

    def make_table(kind: str, index: int, bot_seats: int = 0) -> dict:
        humans = SEATS - bot_seats
        users = [user_create(username=f"{kind}{index}_{p}", password=None) for p in range(humans)]
        table = services.table_create(
            host=users[0], game=game, seats_count=SEATS, bot_levels=dict.fromkeys(range(humans, SEATS), 1),
            options={}, stake=game.default_stake, turn_timer_s=TURN_TIMER_S, private=True)
        for user in users[1:]:
            services.seat_join(table=table, user=user)
        services.table_start(table=table, user=users[0])
        return {"id": table.pk, "seats": [{"pos": p, "user": u.pk, "session": session_for(u)}
                                          for p, u in enumerate(users)]}

    for kind, count, key, bot_seats in (("load", args.tables, "tables", 0), ("burst", args.burst_tables, "burst", 0),
                                        ("bot", args.bot_tables, "bots", SEATS - 1)):
        for start in range(0, count, 50):
            with transaction.atomic():
                for index in range(start, min(count, start + 50)):
                    out[key].append(make_table(kind, index, bot_seats))
    assert len(bots) == 3
    out["setup_s"] = round(time.monotonic() - started, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
