"""The timers' sweep with thousands of « Partie lente » tables pending: its cost per minute stays flat.

    python -m bench.slow_timers [--tables 10000] [--sweeps 60]

Uses a scratch database of its own: with DATABASE_URL set, a PostgreSQL database named rummy_bench_timers on the
same server (dropped and created); otherwise a SQLite file under var/. In the same run, on the same database, it
times `tables.tasks.expire_turns` (what every worker queues once a second) with 0, 1,000 and then all the slow
tables pending (a day's deadline and a reminder ahead: nothing due), then with 10 tables due (their deadline and
reminder in the past). It prints per sweep: wall and CPU milliseconds, queries; and the CPU per minute of sweeps.
"""

import argparse
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRATCH_PG = "rummy_bench_timers"


def scratch_database() -> str:
    url = os.environ.get("DATABASE_URL")
    if url:
        import psycopg

        admin = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (SCRATCH_PG,))
            conn.execute(f'DROP DATABASE IF EXISTS "{SCRATCH_PG}"')
            conn.execute(f'CREATE DATABASE "{SCRATCH_PG}"')
        os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + SCRATCH_PG
        return "PostgreSQL"
    path = ROOT / "var" / "bench_timers.sqlite3"
    path.parent.mkdir(exist_ok=True)
    path.unlink(missing_ok=True)
    os.environ["SQLITE_PATH"] = str(path)
    return "SQLite"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--sweeps", type=int, default=60, help="sweeps timed per step (one a second: a minute)")
    args = parser.parse_args()

    engine_name = scratch_database()
    os.environ.setdefault("DJANGO_ENV", "development")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.models import User
    from engine import games
    from tables import scheduler, tasks
    from tables.models import Game, Seat, Table
    from tables.table_types import DAY

    call_command("migrate", verbosity=0)
    from accounts.services import bots_ensure
    from tables import catalogue
    from tables.models import RulesPage

    catalogue.seed(Game, RulesPage)
    bots_ensure()
    game = Game.objects.get(slug="gin")
    engine = games.get("gin")
    host = User.objects.create(username="hote", email="")
    guest = User.objects.create(username="invite", email="")
    now = timezone.now()

    def add_tables(count: int) -> None:
        state = engine.new_match(2, {}, "bench-seed")
        made = 0
        while made < count:
            batch = min(1000, count - made)
            tables = Table.objects.bulk_create([
                Table(game=game, host=host, seats_count=2, turn_timer_s=DAY, status=Table.Status.PLAYING, state=state,
                      seed="bench-seed", version=1, public_version=1, deadline=now + timedelta(hours=20),
                      remind_at=now + timedelta(hours=14), started_at=now) for _ in range(batch)])
            Seat.objects.bulk_create([Seat(table=t, position=p, user=(host, guest)[p]) for t in tables
                                      for p in (0, 1)])
            made += batch

    def time_sweeps(label: str) -> None:
        wall, cpu = [], []
        with CaptureQueriesContext(connection) as queries:
            for _ in range(args.sweeps):
                w, c = time.perf_counter(), time.process_time()
                tasks.expire_turns.run()
                wall.append(time.perf_counter() - w)
                cpu.append(time.process_time() - c)
        pending = Table.objects.filter(status=Table.Status.PLAYING).count()
        wall.sort()
        print(f"| {label} | {pending:,} | {1000 * wall[len(wall) // 2]:.2f} | {1000 * sum(cpu) / len(cpu):.2f} | "
              f"{len(queries) / args.sweeps:.1f} | {1000 * sum(cpu) / len(cpu) * 60:.0f} |")

    print(f"{engine_name}, {args.sweeps} sweeps per line (one a second: a minute's work)")
    print("| sweep | slow tables pending | wall ms (median) | CPU ms | queries | CPU ms per minute |")
    print("|---|---:|---:|---:|---:|---:|")
    time_sweeps("nothing due")
    add_tables(1000)
    time_sweeps("nothing due")
    add_tables(args.tables - 1000)
    time_sweeps("nothing due")

    # Ten due: their autoplay and reminders are real work, measured apart (the sweep after them is idle again).
    due = list(Table.objects.filter(status=Table.Status.PLAYING).values_list("id", flat=True)[:10])
    Table.objects.filter(pk__in=due).update(deadline=now - timedelta(seconds=1), remind_at=now - timedelta(hours=6))
    original = scheduler._enqueue
    scheduler._enqueue = lambda *a, **k: None  # no robot here; the next decisions need nothing queued
    try:
        w, c = time.perf_counter(), time.process_time()
        played = tasks.expire_turns.run()
        print(f"\nTen tables due: one sweep played {played} autoplays in {1000 * (time.perf_counter() - w):.1f} ms "
              f"wall, {1000 * (time.process_time() - c):.1f} ms CPU; the next sweeps are idle again:")
    finally:
        scheduler._enqueue = original
    time_sweeps("after them")
    if engine_name == "SQLite":
        Path(os.environ["SQLITE_PATH"]).unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
