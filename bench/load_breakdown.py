"""Where a move's server CPU goes, for `python -m bench.load --breakdown` (nothing in the site's code changes).

Installed by the bench's ASGI and Celery entry points when $LOAD_BREAKDOWN_DIR is set: a few functions of the
move's path are wrapped to add up the CPU time of the thread that runs them (time.thread_time: CPU only, not
the waits), and the totals are written to $LOAD_BREAKDOWN_DIR/breakdown.<pid>.json four times a second. bench.load
reads them at the edges of its measured window and prints CPU-ms per move for each stage.
"""

import functools
import json
import os
import threading
import time

# (module, attribute, label, what the stage is). Each stage counts its own time only: a wrapped call inside
# another (a move's push inside the move) is counted in its own stage, not in its caller's.
WRAPPED = (
    ("tables.commands", "handle_frame", "frame", "a player's frame around its move: seat, rate limit, parsing"),
    ("tables.services", "play_move", "move", "a move: its reads, the rules, its writes, what it schedules"),
    ("tables.broadcast", "table_changed", "push", "a push: the seats read, handed to the channel layer"),
    ("tables.rendering", "table_context", "context", "render: each seat's view and context"),
    ("tables.live", "render_push", "templates", "render: the templates"),
)

_totals: dict[str, float] = {}
_lock = threading.Lock()
_local = threading.local()
_installed = False


def _wrap(module, name: str, label: str) -> None:
    function = getattr(module, name)

    @functools.wraps(function)
    def timed(*args, **kwargs):
        stack = _local.__dict__.setdefault("stack", [])
        stack.append(0.0)  # CPU of the wrapped calls inside this one
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent = time.thread_time() - started
            inner = stack.pop()
            if stack:
                stack[-1] += spent
            with _lock:
                _totals[label] = _totals.get(label, 0.0) + spent - inner

    setattr(module, name, timed)


def _writer(directory: str) -> None:
    path = os.path.join(directory, f"breakdown.{os.getpid()}.json")
    while True:
        time.sleep(0.25)
        with _lock:
            data = json.dumps(_totals)
        with open(path + ".tmp", "w") as out:
            out.write(data)
        os.replace(path + ".tmp", path)


def install() -> None:
    global _installed
    directory = os.environ.get("LOAD_BREAKDOWN_DIR")
    if _installed or not directory:
        return
    _installed = True
    import importlib

    for module_name, name, label, _ in WRAPPED:
        _wrap(importlib.import_module(module_name), name, label)
    threading.Thread(target=_writer, args=(directory,), name="load-breakdown", daemon=True).start()


def read(directory) -> dict[str, float]:
    """Every process's totals, summed (CPU seconds per label)."""
    totals: dict[str, float] = {}
    for path in directory.glob("breakdown.*.json"):
        try:
            for label, seconds in json.loads(path.read_text()).items():
                totals[label] = totals.get(label, 0.0) + seconds
        except (OSError, ValueError):
            continue
    return totals


def report(start: dict[str, float], end: dict[str, float], server_cpu: float, moves: int) -> list[str]:
    """Lines of CPU-ms per player move, stage by stage; the rest is daphne, Channels, the websocket frames and
    Celery (bots' decisions included)."""
    lines, accounted = [], 0.0
    for _, _, label, text in WRAPPED:
        own = end.get(label, 0.0) - start.get(label, 0.0)
        accounted += own
        lines.append(f"  {own * 1000 / moves:6.2f} ms  {text}")
    lines.append(f"  {(server_cpu - accounted) * 1000 / moves:6.2f} ms  the rest: daphne, Channels, websocket "
                 f"frames, Celery")
    return lines
