"""bench.load end to end, small: the harness starts the site in this run's mode (PostgreSQL + Redis when
DATABASE_URL and REDIS_URL are set, else the embedded default), plays 3 tables of 4 scripted websocket
players for a few seconds, opens idle sockets and a small burst, and reports no lost push and no error.
No wall-clock assertion: the figures themselves are the benchmark's business (python -m bench.load)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_load_harness_runs_end_to_end():
    mode = "redis" if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL") else "default"
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    out = subprocess.run(
        [sys.executable, "-m", "bench.load", "--mode", mode, "--tables", "3", "--seconds", "5", "--warmup", "1",
         "--bot-tables", "1", "--echo-seconds", "2", "--idle", "12", "--burst", "40"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("RESULT "), out.stdout[-3000:]
    fields = dict(re.findall(r"(\w+)=(\S+)", last))
    assert fields["mode"] == mode
    assert fields["lost"] == "0", out.stdout
    assert fields["errors"] == "0", out.stdout
    assert float(fields["moves_per_s"]) > 0, out.stdout
    assert fields["burst_ok"] == "40/40", out.stdout
    assert "echo_p99_ms" in fields and "cpu_ms_per_move" in fields and "rss_kb_per_socket" in fields
