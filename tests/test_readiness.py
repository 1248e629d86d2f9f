"""« /pret/ »: ready when the database and Redis answer and a worker took a task lately; 503 naming what fails.
Its answer is the last check of the process's readiness thread (one a second): a monitoring sees a change within
about a second, and a check that hangs is itself reported."""

import json
import threading
import time
from unittest import mock

import pytest
from django.core.cache import cache

from rummy_site import health
from rummy_site.celery import worker_beat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def monitor(monkeypatch):
    monkeypatch.setattr(health, "CHECK_EVERY_S", 0.05)
    monkeypatch.setattr(health, "LATE_AFTER_S", 1.0)
    yield health.MONITOR
    health.MONITOR.stop()


def ready(client):
    response = client.get("/pret/")
    return response.status_code, json.loads(response.content)


def ready_within(client, want, seconds: float = 3.0):
    """The answer once it matches `want` (a predicate), as a monitoring asking every few moments would see it."""
    deadline = time.monotonic() + seconds
    while True:
        status, body = ready(client)
        if want(status, body) or time.monotonic() > deadline:
            return status, body
        time.sleep(0.05)


def test_ready_once_a_worker_took_its_beat(client, settings):
    status, body = ready(client)
    assert status == 503 and body["worker"] == "muet" and body["database"] == "ok"
    worker_beat.run()  # what a worker does with the beat each one queues every few seconds
    status, body = ready_within(client, lambda status, _: status == 200)
    assert status == 200 and body == {"ready": True, "database": "ok", "worker": "ok",
                                      "redis": "ok" if settings.REDIS_URL else "sans objet"}


def test_a_silent_worker_or_a_database_away_is_named(client):
    cache.set(health.WORKER_BEAT_KEY, time.time() - 42)
    status, body = ready_within(client, lambda _, body: body.get("worker", "").startswith("muet depuis"))
    assert status == 503 and body["worker"] == "muet depuis 42 s"
    worker_beat.run()
    with mock.patch.object(health, "_database", return_value="injoignable"):
        status, body = ready_within(client, lambda _, body: body.get("database") == "injoignable")
    assert status == 503 and body["database"] == "injoignable" and body["worker"] == "ok"


def test_a_check_that_hangs_is_the_answer(client):
    """A database that neither answers nor refuses: /pret/ does not hang with it, it says so."""
    worker_beat.run()
    assert ready_within(client, lambda status, _: status == 200)[0] == 200
    release = threading.Event()
    with mock.patch.object(health, "_database", side_effect=lambda: release.wait(10) and "ok"):
        began = time.monotonic()
        status, body = ready_within(client, lambda status, _: status == 503)
        release.set()
    assert status == 503 and body["ready"] is False and body["checks"].startswith("sans réponse depuis "), body
    assert time.monotonic() - began < 5


def test_health_stays_free_of_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/sante/").content.startswith(b"ok")


def test_the_readiness_listener_answers_on_its_own_port(settings):
    """READINESS_PORT: the same answer from a thread of the process, on its own port (cartes-web@8001: 18001)."""
    import socket
    import urllib.error
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        settings.READINESS_PORT = probe.getsockname()[1]
    server = health.start_readiness_listener()
    try:
        url = f"http://127.0.0.1:{settings.READINESS_PORT}"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + "/pret/", timeout=5)
        assert refused.value.code == 503 and json.loads(refused.value.read())["worker"] == "muet"
        worker_beat.run()
        deadline = time.monotonic() + 3
        while True:
            try:
                with urllib.request.urlopen(url + "/pret/", timeout=5) as answer:
                    assert json.loads(answer.read())["ready"] is True
                    assert answer.headers["Content-Type"] == "application/json"
                    break
            except urllib.error.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        with pytest.raises(urllib.error.HTTPError) as elsewhere:
            urllib.request.urlopen(url + "/admin/", timeout=5)
        assert elsewhere.value.code == 404
    finally:
        server.shutdown()
        server.server_close()
