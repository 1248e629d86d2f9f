"""The bell's socket: a logged-in player's pages get the bell again as soon as a notification is committed."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from accounts import notifications
from accounts.consumers import BellConsumer
from accounts.models import Notification

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def bell_socket(user):
    comm = WebsocketCommunicator(BellConsumer.as_asgi(), "/ws/notifications/")
    comm.scope["user"] = user
    return comm


async def test_a_visitor_gets_no_bell():
    connected, code = await bell_socket(AnonymousUser()).connect()
    assert not connected and code == 4401


async def test_the_bell_rings_on_the_commit_of_a_notification_and_only_for_its_player(make_player):
    alice = await database_sync_to_async(make_player)("alice")
    bruno = await database_sync_to_async(make_player)("bruno")
    mine, theirs = bell_socket(alice), bell_socket(bruno)
    assert (await mine.connect())[0] and (await theirs.connect())[0]
    assert 'data-count="0"' in await mine.receive_from(timeout=5)
    assert 'data-count="0"' in await theirs.receive_from(timeout=5)

    await database_sync_to_async(notifications.notify)(
        user=alice, kind=Notification.Kind.INVITATION, text="bruno t'invite à sa table de Rami.",
        url="/tables/invitation/abc/", key="invite:1:alice")
    html = await mine.receive_from(timeout=5)
    assert 'id="bell"' in html and 'data-count="1"' in html and "t&#x27;invite à sa table de Rami." in html
    assert await theirs.receive_nothing(timeout=0.3)
    await mine.disconnect()
    await theirs.disconnect()


async def test_a_table_page_gets_the_bell_through_its_own_socket(make_player):
    """A table page holds one socket: the table's carries the bell too (swapped in by its id)."""
    from tables.consumers import TableConsumer
    from tests.tables.helpers import create_table

    alice = await database_sync_to_async(make_player)("alice")
    table = await database_sync_to_async(create_table)(alice, "gin", seats=2, bots={1: 1})
    comm = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table.pk}/")
    comm.scope["user"] = alice
    comm.scope["url_route"] = {"kwargs": {"table_id": table.pk}}
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)  # the table
    await database_sync_to_async(notifications.notify)(
        user=alice, kind=Notification.Kind.FRIEND_REQUEST, text="bruno veut être ton ami.", url="/amis/",
        key="friend_request:1")
    for _ in range(5):
        html = await comm.receive_from(timeout=5)
        if 'id="bell"' in html:
            break
    assert 'data-count="1"' in html and html.lstrip().startswith('<a id="bell"')
    await comm.disconnect()
