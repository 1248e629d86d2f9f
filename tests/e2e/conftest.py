"""Browser tests: Playwright driving Debian's chromium (/usr/bin/chromium), never a downloaded build."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"


def pytest_collection_modifyitems(config, items):
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("E2E_REQUIRED"):
        raise pytest.UsageError(f"chromium not found at {CHROMIUM}: apt-get install chromium")
    skip = pytest.mark.skip(reason="Debian's chromium is not installed (apt-get install chromium)")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _orm_beside_playwright():
    """Playwright's sync API runs an event loop in this thread; the ORM calls made by
    fixtures (database flush) are still synchronous and safe here. Browser tests run last
    (tests/conftest.py), so no other test runs with this flag."""
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
        ],
    }


@pytest.fixture
def artifacts_dir():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def outside_requests(page):
    """Every request the page makes to a host other than 127.0.0.1/localhost."""
    from urllib.parse import urlparse

    seen = []

    def record(request):
        host = urlparse(request.url).hostname
        if request.url.startswith(("data:", "blob:", "about:")):
            return
        if host not in ("127.0.0.1", "localhost"):
            seen.append(request.url)

    page.on("request", record)
    return seen


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def live_site(transactional_db, settings, tmp_path):
    """The real site in its own processes: daphne (+ a Celery worker process in Redis mode),
    on the test database, so websockets, pushes and bot tasks run as in production."""
    import subprocess
    import sys
    import time
    import urllib.request

    from django.db import connection

    root = Path(__file__).resolve().parents[2]
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "rummy_site.settings", "BOT_DELAY_SECONDS": "0.05",
           "NEXT_ROUND_DELAY_SECONDS": "1", "DISCONNECT_GRACE_SECONDS": "30", "CELERY_TASK_ALWAYS_EAGER": "0",
           "DEBUG": "1"}
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
