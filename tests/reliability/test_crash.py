"""Crash faults: real daphne and Celery worker processes killed with SIGKILL during bot matches.

PostgreSQL + Redis only (the embedded default runs everything in one process: there is nothing to kill
separately). The harness is bench/chaos.py; here 10 runs of « kill -9 daphne, restart; kill -9 the worker,
restart » (20 kills) on the test database. The long version: `python -m bench.chaos --runs 200`.
"""

import pytest
from django.db import connection

from bench.chaos import TIMINGS, run_chaos
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
    assert "Traceback" not in log, log[log.index("Traceback") - 500:][:3000] if "Traceback" in log else ""
    assert_ledger_conserved()
