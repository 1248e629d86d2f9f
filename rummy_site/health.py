"""« /sante/ »: the proxy's health check of one daphne process (answering at all is the test: no database
query, so a slow database does not take every process out of the pool at once).

« /pret/ »: the readiness an operator's monitoring asks for: the database answers, Redis answers (in that mode),
and a Celery worker took a task lately (each worker queues a beat every few seconds: rummy_site.celery). 200 when
all three hold, 503 naming what does not; it says nothing else about the site. Its answer is the last check of a
thread of the process (one a second, from the first question on), so it comes at once under load; a check that
hangs for 5 s is itself the answer (503)."""

import asyncio
import functools
import json
import os
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import never_cache

PROCESS_TOKEN = uuid.uuid4().hex[:12]


@never_cache
def health(request):
    # SITE_INSTANCE names the process in a cluster (manage.py serve --processes): the cluster's tests read it
    # to know which process answered.
    response = HttpResponse(f"ok {os.environ.get('SITE_INSTANCE', '')}".strip(), content_type="text/plain")
    # which process answered, so a rolling restart tells the new process from the old one still stopping
    response["X-Process"] = PROCESS_TOKEN
    return response


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links: the site's icon, not a 404 on every page. Its
    address is read at the request (with the production storage it carries the file's hash)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


WORKER_BEAT_KEY = "rummy:worker-beat"
WORKER_SILENT_AFTER_S = 20  # four beats missed


def record_worker_beat() -> None:
    cache.set(WORKER_BEAT_KEY, time.time(), timeout=3600)


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception:
        return "injoignable"


@functools.cache
def _redis_client(url: str):
    import redis

    return redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)


def _redis() -> str:
    if not settings.REDIS_URL:
        return "sans objet"
    import redis

    try:
        _redis_client(settings.REDIS_URL).ping()
        return "ok"
    except redis.RedisError:
        return "injoignable"


def _worker() -> str:
    try:
        beat = cache.get(WORKER_BEAT_KEY)
    except Exception:  # the cache is Redis, away: said by the Redis line
        return "inconnu"
    if beat is None:
        return "muet"
    age = time.time() - beat
    return "ok" if age <= WORKER_SILENT_AFTER_S else f"muet depuis {int(age)} s"


def _checks() -> dict[str, str]:
    try:
        return {"database": _database(), "redis": _redis(), "worker": _worker()}
    finally:
        connection.close()  # none kept between checks (nor left open when a test database is dropped)


CHECK_EVERY_S = 1.0
LATE_AFTER_S = 5.0  # no check finished for this long: the database or Redis hangs rather than refuses


class ReadinessMonitor:
    """Checks the database, Redis and the workers every second on a thread of this process, from the first question
    on, so that /pret/ answers from the last check at once, whatever the process is busy with (bench/RESULTS.md,
    « Readiness under load »), and says so when the checks themselves hang."""

    def __init__(self):
        self._lock = threading.Lock()
        self._latest: tuple[dict[str, str], float] | None = None
        self._first = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def latest(self) -> tuple[dict[str, str], float] | None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(target=self._loop, name="readiness", daemon=True)
                self._thread.start()
            return self._latest

    def wait_first(self, timeout: float) -> None:
        self._first.wait(timeout)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        with self._lock:
            self._thread, self._latest = None, None
            self._first.clear()

    def _loop(self) -> None:
        while not self._stop.is_set():
            checks = _checks()
            with self._lock:
                self._latest = (checks, time.monotonic())
            self._first.set()
            self._stop.wait(CHECK_EVERY_S)


MONITOR = ReadinessMonitor()


def _answer(latest: tuple[dict[str, str], float] | None) -> dict:
    late = LATE_AFTER_S if latest is None else time.monotonic() - latest[1]
    if late >= LATE_AFTER_S:
        return {"ready": False, "checks": f"sans réponse depuis {int(late)} s"}
    return {"ready": all(value in ("ok", "sans objet") for value in latest[0].values()), **latest[0]}


@never_cache
async def ready(request):
    latest = MONITOR.latest()
    if latest is None:  # this process's first question: its first check
        await asyncio.to_thread(MONITOR.wait_first, LATE_AFTER_S)
        latest = MONITOR.latest()
    body = _answer(latest)
    return JsonResponse(body, status=200 if body["ready"] else 503, json_dumps_params={"ensure_ascii": False})


class _ReadinessHandler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        if self.path.split("?")[0] not in ("/pret/", "/pret"):
            self.send_error(404)
            return
        latest = MONITOR.latest()
        if latest is None:
            MONITOR.wait_first(LATE_AFTER_S)
            latest = MONITOR.latest()
        body = _answer(latest)
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(200 if body["ready"] else 503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):  # a monitoring asks every few seconds: no log line each time
        pass


def start_readiness_listener() -> ThreadingHTTPServer | None:
    """READINESS_PORT set: /pret/ also answered on 127.0.0.1 (READINESS_HOST) at that port, by a thread of its own,
    not by the event loop that carries the tables' sockets (bench/RESULTS.md, « Readiness under load »)."""
    port = settings.READINESS_PORT
    if not port:
        return None
    server = ThreadingHTTPServer((settings.READINESS_HOST, port), _ReadinessHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="readiness-listener", daemon=True).start()
    return server
