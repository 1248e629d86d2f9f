"""Celery tasks keep their database connection from one task to the next (no new PostgreSQL server process
per bot turn), and drop it after a task that found it broken."""

from types import SimpleNamespace

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from rummy_site.celery import _close_broken_connections, app

pytestmark = pytest.mark.django_db(transaction=True)
WORKER_TASK = SimpleNamespace(request=SimpleNamespace(is_eager=False))


def run_task(fixup: DjangoWorkerFixup) -> None:
    fixup.on_task_prerun(WORKER_TASK)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    fixup.on_task_postrun(WORKER_TASK)
    _close_broken_connections(sender=WORKER_TASK)


def test_tasks_share_one_connection():
    fixup = DjangoWorkerFixup(app)
    run_task(fixup)
    first = connection.connection
    assert first is not None
    for _ in range(20):
        run_task(fixup)
        assert connection.connection is first


def test_a_broken_connection_is_replaced_after_the_task(monkeypatch):
    fixup = DjangoWorkerFixup(app)
    run_task(fixup)
    broken = connection.connection
    connection.errors_occurred = True
    monkeypatch.setattr(connection, "is_usable", lambda: False)
    _close_broken_connections(sender=WORKER_TASK)
    assert connection.connection is None
    monkeypatch.undo()
    run_task(fixup)
    assert connection.connection is not None and connection.connection is not broken


def test_the_embedded_worker_sees_a_robots_countdown_at_once():
    """The memory broker's worker has no event loop: its timer thread sleeps up to `worker_timer_precision`
    before it sees a new countdown task. At Celery's 1 s every robot move came a second late."""
    from django.conf import settings as live

    if live.CELERY_BROKER_URL != "memory://":
        pytest.skip("the Redis worker runs countdowns on its event loop")
    assert app.conf.worker_timer_precision <= 0.05
