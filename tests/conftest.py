import os
from pathlib import Path

import pytest
from django.core.cache import cache


def pytest_configure(config):
    """No Celery worker thread inside the test process (importing the ASGI app would start one): tests run
    tasks eagerly, and the browser tests' site runs in processes of its own, with its worker."""
    from django.conf import settings

    settings.CELERY_EMBEDDED_WORKER = False
    # The cheapest password hasher, here and in the servers the tests start (they inherit the environment).
    os.environ["FAST_PASSWORD_HASHER_FOR_TESTS"] = "1"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                                 "django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    settings.PRESENCE_HEARTBEAT_SECONDS = 0  # no heartbeat thread either (tests call tables.presence directly)


@pytest.fixture(autouse=True)
def _catalogue(request):
    """Transactional tests flush the database: put the seeded games, pages and bots back."""
    marker = request.node.get_closest_marker("django_db")
    transactional = "transactional_db" in request.fixturenames or "live_site" in request.fixturenames
    if transactional or (marker is not None and marker.kwargs.get("transaction")):
        request.getfixturevalue("transactional_db")
        from accounts.services import bots_ensure
        from tables import catalogue
        from tables.models import Game, RulesPage

        catalogue.seed(Game, RulesPage)
        bots_ensure()
    yield


@pytest.fixture(scope="session", autouse=True)
def _no_lingering_postgresql_sessions(request, django_db_blocker):
    """Consumers run their queries in thread pools whose threads keep a connection open: end those sessions
    before the test database is dropped (else PostgreSQL refuses to drop it)."""
    from django.conf import settings

    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        yield
        return
    request.getfixturevalue("django_db_setup")
    yield
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture(autouse=True)
def _clear_cache():
    """Rate limits live in the cache: each test starts with fresh counters."""
    cache.clear()
    yield


@pytest.fixture
def player(db):
    from accounts.services import user_create

    return user_create(username="alice", password="Tr3s-secret!", email="")


@pytest.fixture
def player_client(client, player):
    client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
    return client


@pytest.fixture(autouse=True)
def _fast_tables(settings):
    """Tasks run eagerly through the scheduler's trampoline; bots and rounds don't wait."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_DELAY_SECONDS = 0
    settings.NEXT_ROUND_DELAY_SECONDS = 0


@pytest.fixture
def make_player(db):
    from accounts.services import user_create

    def make(name: str):
        return user_create(username=name, password="Tr3s-secret!", email="")

    return make


def pytest_collection_modifyitems(config, items):
    """Browser tests last: Playwright keeps an event loop running in the main thread for the rest
    of the session, which sync code using async_to_sync (pushes) must not share."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def live_site_env() -> dict:
    """Environment the live site's processes get on top of the suite's (a test module overrides it: an SMTP
    server of its own, say)."""
    return {}


@pytest.fixture
def live_site(transactional_db, settings, tmp_path, live_site_env):
    """The real site in its own processes: daphne (+ a Celery worker process in Redis mode),
    on the test database, so websockets, pushes and bot tasks run as in production."""
    import subprocess
    import sys
    import time
    import urllib.request

    from django.db import connection

    root = Path(__file__).resolve().parents[1]
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "rummy_site.settings", "BOT_DELAY_SECONDS": "0.05",
           "NEXT_ROUND_DELAY_SECONDS": "1", "DISCONNECT_GRACE_SECONDS": "30", "CELERY_TASK_ALWAYS_EAGER": "0",
           "PROBLEMS_HARVEST": "0", "DEBUG": "1", "SITE_URL": f"http://127.0.0.1:{port}", **live_site_env}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        env["SQLITE_PATH"] = str(db["NAME"])
    else:
        env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    logs = open(tmp_path / "site.log", "w")  # noqa: SIM115 - closed at teardown
    procs = [subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "rummy_site.asgi:application"], cwd=root, env=env, stdout=logs, stderr=logs)]
    if settings.REDIS_URL:
        procs.append(subprocess.Popen([sys.executable, "-m", "celery", "-A", "rummy_site", "worker", "-P", "threads",
                                       "-c", "4", "-l", "WARNING", "-Q", "celery", "-n", f"e2e-{port}@localhost"],
                                      cwd=root, env=env, stdout=logs, stderr=logs))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/regles/", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or procs[0].poll() is not None:
                for proc in procs:
                    proc.kill()
                raise RuntimeError((tmp_path / "site.log").read_text()) from None
            time.sleep(0.2)
    yield url
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    logs.close()
