"""A rolling restart of every daphne during live tables: moves lost, pages back, how long.

    python -m bench.rolling_update --tables 100

The cluster shape (rummy_site/cluster.py: HAProxy, --processes daphne, --workers Celery workers) on a scratch
PostgreSQL database and Redis database. --tables Thanasis tables, each a scripted player (bench.chaos's HostTab:
real frames, deciding from the HTML it gets, reconnecting through the proxy 50 ms after a drop) and two robots
the workers play. After --warmup seconds, the rolling restart of docs/operations.md (rummy_site/rolling.py: drain,
SIGTERM, start, ready; one process after the other); then --after seconds of play. Measured:
- pages back: each page whose socket the restart closed (at the proxy, a few a second, or by its process's
  end), from that closure to its next full view: how long a player sees « Connexion perdue… »;
- moves lost, applied twice, replays that differ from the state (bench.chaos's check of every table);
- tables that did not move after the restart while still playing (stalls).
A browser waits up to 1 s more than this client before reconnecting (htmx's full-jitter delay, first retry).
Loopback only; every phase is bounded in time; the last line is machine-readable."""

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scratch(database: str, redis_url: str) -> None:
    import psycopg
    import redis

    name = database.rsplit("/", 1)[1]
    with psycopg.connect(database.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(redis_url).flushdb()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)


def drop(database: str) -> None:
    import psycopg

    name = database.rsplit("/", 1)[1]
    with psycopg.connect(database.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def tab_class():
    from bench.chaos import HostTab

    class Tab(HostTab):
        """HostTab, noting when each of its connections ended (the server closed it)."""

        closed: list[float]

        async def session(self, url, origin, stop):
            try:
                await super().session(url, origin, stop)
            finally:
                self.__dict__.setdefault("closed", []).append(time.monotonic())

    return Tab


def tables_and_tabs(count: int, think: tuple[float, float]):
    from accounts.services import bots_ensure, user_create
    from bench.chaos import new_match, session_cookie

    HostTab = tab_class()  # noqa: N806

    bots_ensure()
    tabs = []
    for i in range(count):
        host = user_create(username=f"roulement-{i}", password=None)
        table = new_match(host, "thanasis")
        tabs.append(HostTab(table.pk, "thanasis", session_cookie(host), rng=random.Random(i), think=think))
    return tabs


def versions(table_ids: list[int]) -> dict[int, tuple[int, str]]:
    from django.db import connection

    from tables.models import Table

    try:
        return {pk: (version, status) for pk, version, status in
                Table.objects.filter(pk__in=table_ids).values_list("pk", "version", "status")}
    finally:
        connection.close()


def run(args) -> dict:
    from bench.chaos import Figures, check_closing
    from rummy_site.cluster import Cluster, free_port

    env = {**os.environ, "DATABASE_URL": args.database, "REDIS_URL": args.redis, "DEBUG": "0",
           "DJANGO_SETTINGS_MODULE": "rummy_site.settings", "CELERY_TASK_ALWAYS_EAGER": "0", "LOG_LEVEL": "WARNING",
           "PYTHONUNBUFFERED": "1"}
    log = open(ROOT / "var" / "rolling_update.log", "w")  # noqa: SIM115 - closed below
    cluster = Cluster(env=env, processes=args.processes, workers=args.workers, port=free_port(), output=log,
                      daphne_ports=[free_port() for _ in range(args.processes)])
    tabs = tables_and_tabs(args.tables, (args.think * 0.5, args.think * 1.5))
    ids = [tab.table_id for tab in tabs]
    window: list[float] = []
    result: dict = {}
    try:
        cluster.start()
        print(f"# {args.tables} tables, {args.processes} daphne, {args.workers} workers behind HAProxy at "
              f"{cluster.url}", flush=True)

        def restart(name: str, address: str) -> None:
            cluster.restart_daphne([f"{cluster.host}:{port}" for port in cluster.daphne_ports].index(address))

        async def scenario():
            stop = asyncio.Event()
            tasks = [asyncio.create_task(tab.run(cluster, stop)) for tab in tabs]
            await asyncio.sleep(args.warmup)
            servers = await asyncio.to_thread(cluster.servers)
            result["sessions_before"] = {name: server["sessions"] for name, server in servers.items()}
            before = await asyncio.to_thread(versions, ids)
            views_before = [len(tab.full_views) for tab in tabs]
            started = time.monotonic()
            window.append(started)
            from rummy_site import rolling

            steps = await asyncio.to_thread(
                rolling.rolling_restart, cluster.stats_socket, restart, grace=args.grace, close_rate=args.close_rate,
                say=lambda text: print("#", text, flush=True))
            result["restart_s"] = round(time.monotonic() - started, 1)
            window.append(time.monotonic())
            result["steps"] = [(s.server, s.back_s) for s in steps]
            after_restart = await asyncio.to_thread(versions, ids)
            await asyncio.sleep(args.after)
            end = await asyncio.to_thread(versions, ids)
            # every page shows its table's last version (a finished match's result page has no version line)
            shown = {pk: version - (status == "finished") for pk, (version, status) in end.items()}
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and any(
                    not tab.seen or tab.seen[-1].version < shown[tab.table_id] for tab in tabs):
                await asyncio.sleep(0.1)
            result["pages_behind"] = sum(1 for tab in tabs
                                         if not tab.seen or tab.seen[-1].version < shown[tab.table_id])
            result["stalls"] = sum(1 for pk in ids if end[pk][1] == "playing" and end[pk][0] == after_restart[pk][0])
            result["moves_during"] = sum(after_restart[pk][0] - before[pk][0] for pk in ids)
            result["moves_after"] = sum(end[pk][0] - after_restart[pk][0] for pk in ids)
            stop.set()
            await asyncio.gather(*tasks)
            return views_before

        views_before = asyncio.run(scenario())
        # Pages back: each socket the restart closed (at the proxy, or by its process's end), from its closure to
        # the page's next full view (a page may be dropped twice: moved to the second process, then that one's turn)
        back, gone = [], []
        begin, finish = window
        for tab in tabs:
            for closed in tab.__dict__.get("closed", []):
                if begin <= closed <= finish:
                    later = [t for t in tab.full_views if t > closed]
                    (back.append(later[0] - closed) if later else gone.append(tab.table_id))
        reconnected = sum(len(tab.full_views) - before for tab, before in zip(tabs, views_before, strict=True))
        figures = Figures()
        for tab in tabs:
            check_closing(tab.table_id, tab, figures)
        result.update(
            tables=args.tables, pages_dropped=len(back), reconnections=reconnected,
            back_p50_s=round(statistics.median(back), 2) if back else float("nan"),
            back_max_s=round(max(back), 2) if back else float("nan"),
            never_back=len(gone),
            lost_moves=figures.lost_moves, duplicate_moves=figures.duplicate_moves,
            replay_mismatches=figures.replay_mismatches, moves=figures.moves, acked=figures.acked)
        for problem in figures.problems[:10]:
            print("problem:", problem)
        return result
    finally:
        cluster.stop()
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before the player answers")
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--after", type=float, default=10.0)
    parser.add_argument("--grace", type=float, default=1.0)
    parser.add_argument("--close-rate", type=float, default=20.0, help="sockets closed a second at the proxy")
    parser.add_argument("--database", default=os.environ.get("ROLLING_DATABASE_URL",
                                                             "postgres://postgres@127.0.0.1:5432/rummy_rolling"))
    parser.add_argument("--redis", default=os.environ.get("ROLLING_REDIS_URL", "redis://127.0.0.1:6379/13"))
    args = parser.parse_args()
    os.environ.update({"DATABASE_URL": args.database, "REDIS_URL": args.redis,
                       "DJANGO_SETTINGS_MODULE": "rummy_site.settings"})
    (ROOT / "var").mkdir(exist_ok=True)
    scratch(args.database, args.redis)
    import django

    django.setup()
    try:
        result = run(args)
    finally:
        drop(args.database)
    print(f"rolling restart of {args.processes} daphne in {result['restart_s']} s during {args.tables} live tables "
          f"({result['sessions_before']} sockets per process before): {result['pages_dropped']} pages dropped, back in "
          f"p50 {result['back_p50_s']} s, max {result['back_max_s']} s (from the socket's closure to the page's next "
          f"view), {result['never_back']} never back, {result['pages_behind']} behind at the end; "
          f"{result['moves_during']} moves during the "
          f"restart, {result['moves_after']} in the "
          f"{args.after:.0f} s after; stalls {result['stalls']}")
    print("RESULT " + " ".join(f"{key}={result[key]}" for key in (
        "tables", "pages_dropped", "pages_behind", "back_p50_s", "back_max_s", "never_back", "lost_moves",
        "duplicate_moves", "replay_mismatches", "stalls", "moves", "acked", "restart_s")))


if __name__ == "__main__":
    main()
