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


@pytest.fixture
def axe_page(browser):
    """A page for axe (tests/e2e/test_accessibility.py): the CSP bypassed so that the axe script can be added."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()
