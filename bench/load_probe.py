"""Celery timings for bench.load, recorded with Celery signals (nothing in the site's code changes).

The publishing process stamps each task message with its send time (a custom header); the worker
appends one line per task start to $LOAD_PROBE_DIR/celery.<pid>.log:
``<task name> <sent> <eta or -> <started>`` (wall-clock seconds; every process runs on this machine).
"""

import atexit
import os
import threading
import time
from datetime import datetime

_lock = threading.Lock()
_lines: list[str] = []
_installed = False


def _flush() -> None:
    directory = os.environ.get("LOAD_PROBE_DIR")
    with _lock:
        lines, _lines[:] = list(_lines), []
    if directory and lines:
        with open(os.path.join(directory, f"celery.{os.getpid()}.log"), "a") as out:
            out.write("".join(lines))


def _flusher() -> None:
    while True:
        time.sleep(1.0)
        _flush()


def install() -> None:
    global _installed
    if _installed or not os.environ.get("LOAD_PROBE_DIR"):
        return
    _installed = True
    from celery.signals import before_task_publish, task_prerun

    @before_task_publish.connect(weak=False)
    def stamp(headers=None, **kwargs):
        if headers is not None:
            headers["bench_sent"] = time.time()

    @task_prerun.connect(weak=False)
    def started(task=None, **kwargs):
        now = time.time()
        request = task.request
        sent = getattr(request, "bench_sent", None)
        eta = request.eta
        if isinstance(eta, str):
            eta = datetime.fromisoformat(eta).timestamp()
        elif isinstance(eta, datetime):
            eta = eta.timestamp()
        with _lock:
            _lines.append(f"{task.name} {sent if sent is not None else '-'} {eta if eta else '-'} {now}\n")

    threading.Thread(target=_flusher, name="load-probe", daemon=True).start()
    atexit.register(_flush)
