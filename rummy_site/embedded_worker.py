"""A Celery worker thread inside the web process, for the embedded default mode.

With no REDIS_URL the broker is Celery's in-memory transport, which only reaches
consumers in the same process; so daphne starts this worker next to itself. Bot turns,
timers and autoplay still run as Celery tasks, exactly as with separate workers.
"""

import logging
import threading

from django.conf import settings

log = logging.getLogger(__name__)
_started = threading.Event()


def start_embedded_worker() -> None:
    if not settings.CELERY_EMBEDDED_WORKER or settings.CELERY_TASK_ALWAYS_EAGER or _started.is_set():
        return
    _started.set()
    from rummy_site.celery import app

    worker = app.WorkController(
        pool_cls="threads",
        concurrency=4,
        loglevel="WARNING",
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        hostname="embedded@localhost",
    )
    threading.Thread(target=worker.start, name="celery-embedded", daemon=True).start()
    threading.Thread(target=_rearm, name="rearm-tables", daemon=True).start()
    log.info("Embedded Celery worker started (memory broker)")


def _rearm() -> None:
    """The memory broker forgets queued tasks on restart: re-arm every table in play."""
    from django.db import close_old_connections

    from tables.scheduler import reschedule_playing_tables

    try:
        count = reschedule_playing_tables()
        if count:
            log.info("Re-armed %d table(s) in play", count)
    except Exception:  # the database may not be migrated yet
        log.exception("Could not re-arm tables in play")
    finally:
        close_old_connections()
