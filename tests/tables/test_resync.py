"""tables/resync.py: a socket still behind its table on two looks in a row gets its full view again (a push
lost while Redis restarted); one behind on a single look only (a push in flight) does not."""

import asyncio

import pytest

from tables import resync
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db(transaction=True)


class Page:
    def __init__(self, table_id, shown):
        self.table_id, self.shown_version, self.resent = table_id, shown, 0

    async def resend(self):
        self.resent += 1
        self.shown_version = 10**6


def test_only_a_page_behind_twice_is_sent_its_view_again(player, settings, monkeypatch):
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"  # the check runs only with the Redis layer
    table = create_table(player, "gin", bots={1: 1})
    behind, current = Page(table.pk, table.version - 1), Page(table.pk, table.version)
    monkeypatch.setattr(resync, "_sockets", {behind, current})

    async def two_looks():
        stale = {}
        first = await resync.check_once(stale)
        second = await resync.check_once(stale)
        return first, second

    assert asyncio.run(two_looks()) == (0, 1)
    assert (behind.resent, current.resent) == (1, 0)


def test_the_version_shown_is_read_from_the_page():
    assert resync.version_in('<div id="table-status" class="x" data-version="42" data-phase="DRAW">') == 42
    assert resync.version_in("<p>rien</p>") is None
