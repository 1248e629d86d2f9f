import pytest
from django.core.cache import cache


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
