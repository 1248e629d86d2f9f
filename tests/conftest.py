import pytest
from django.core.cache import cache


def pytest_configure(config):
    """No Celery worker thread inside the test process (importing the ASGI app would start one): tests run
    tasks eagerly, and the browser tests' site runs in processes of its own, with its worker."""
    from django.conf import settings

    settings.CELERY_EMBEDDED_WORKER = False
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
