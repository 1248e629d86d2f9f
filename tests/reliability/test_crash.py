"""Crash faults: real daphne and Celery worker processes killed with SIGKILL during bot matches.

PostgreSQL + Redis only (the embedded default runs everything in one process: there is nothing to kill
separately). The harness is bench/chaos.py; here 10 runs of « kill -9 daphne, restart; kill -9 the worker,
restart » (20 kills) on the test database. The long version: `python -m bench.chaos --runs 200`.
"""

import pytest
from django.db import connection

from bench.chaos import TIMINGS, run_chaos
from tests.server_logs import first_traceback
from tests.tables.helpers import assert_ledger_conserved

pytestmark = pytest.mark.django_db(transaction=True)

RUNS = 10


def test_kill_9_daphne_and_worker_loses_nothing(settings, make_player, tmp_path):
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("crash faults need separate processes: PostgreSQL + Redis mode only "
                    "(set DATABASE_URL and REDIS_URL)")
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    env = {"DATABASE_URL": f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "REDIS_URL": settings.REDIS_URL, **TIMINGS}
    host = make_player("hote")
    figures = run_chaos(env=env, host=host, runs=RUNS, seed=20261130, log_path=tmp_path / "site.log",
                        say=lambda *_: None)
    log = (tmp_path / "site.log").read_text()
    report = "\n".join([figures.result_line(), *figures.problems[:10]])
    assert figures.kills >= 2 * RUNS, report
    assert figures.lost_moves == 0, report
    assert figures.duplicate_moves == 0, report
    assert figures.replay_mismatches == 0, report
    assert figures.stalls == 0, report
    assert figures.max_resync_s < 2, report
    assert figures.moves > 50 and figures.acked > 10, report
    assert not (error := first_traceback(log, before=500)), error
    assert_ledger_conserved()


def site_env(settings) -> dict:
    """The environment that points server processes at the test database (either mode)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return {"SQLITE_PATH": str(db["NAME"]), "DATABASE_URL": "", "REDIS_URL": "", **TIMINGS}
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return {"DATABASE_URL": f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "REDIS_URL": settings.REDIS_URL, **TIMINGS}


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGKILL"])
def test_a_restarted_server_leaves_no_phantom_connection(settings, make_player, tmp_path, stop):
    """daphne never closes its consumers when it stops (even on SIGTERM): the sockets it held are taken off
    their seats once it has missed its heartbeats (tables.presence), so the player gets autoplayed again."""
    import asyncio
    import signal
    import time

    from bench.chaos import Servers, Socket, new_match, session_cookie
    from tables.models import Seat

    host = make_player("hote")
    table = new_match(host, "gin")
    cookie = session_cookie(host)
    env = {**site_env(settings), "PRESENCE_HEARTBEAT_SECONDS": "0.3"}
    servers = Servers(env, tmp_path / "site.log")
    try:
        servers.start_daphne()

        async def connect_then_stop():
            sock = Socket()
            await sock.connect(f"ws://127.0.0.1:{servers.port}/ws/tables/{table.pk}/", servers.url, cookie)
            await asyncio.wait_for(sock.messages.get(), 10)
            servers.daphne.send_signal(getattr(signal, stop))
            await asyncio.to_thread(servers.daphne.wait, 30)

        asyncio.run(connect_then_stop())
        servers.start_daphne()  # back up: no socket is open anywhere
        deadline = time.monotonic() + 20
        while Seat.objects.get(table=table, position=0).connections and time.monotonic() < deadline:
            time.sleep(0.2)
        assert Seat.objects.get(table=table, position=0).connections == 0
    finally:
        servers.stop()
