import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from engine import games
from rummy_site.asgi import application
from tables import commands
from tables.consumers import TableConsumer
from tables.models import Seat
from tests.tables.helpers import create_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def communicator(table_id, user):
    comm = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table_id}/")
    comm.scope["user"] = user
    comm.scope["url_route"] = {"kwargs": {"table_id": table_id}}
    return comm


async def test_anonymous_socket_is_refused(player):
    table = await database_sync_to_async(create_table)(player, "gin", seats=2, bots={1: 1})
    comm = communicator(table.pk, AnonymousUser())
    connected, code = await comm.connect()
    assert not connected and code == 4401


async def test_foreign_table_is_refused(player, make_player):
    table = await database_sync_to_async(create_table)(player, "gin", seats=2, bots={1: 1})
    stranger = await database_sync_to_async(make_player)("intrus")
    comm = communicator(table.pk, stranger)
    connected, code = await comm.connect()
    assert not connected and code == 4403


async def test_foreign_origin_is_refused(player):
    table = await database_sync_to_async(create_table)(player, "gin", seats=2, bots={1: 1})
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await comm.connect()
    assert not connected


async def test_each_seat_receives_only_its_own_hand(make_player):
    alice = await database_sync_to_async(make_player)("alice")
    bruno = await database_sync_to_async(make_player)("bruno")

    def setup():
        from tables import services

        table = create_table(alice, "gin", seats=2, bots={}, start=False)
        services.seat_join(table=table, user=bruno)
        services.table_start(table=table, user=alice)
        table.refresh_from_db()
        return table

    table = await database_sync_to_async(setup)()
    hands = {s: table.state["hands"][s] for s in (0, 1)}
    received = {}
    for user, seat in ((alice, 0), (bruno, 1)):
        comm = communicator(table.pk, user)
        connected, _ = await comm.connect()
        assert connected
        received[seat] = await comm.receive_from(timeout=5)
        await comm.disconnect()
    for seat, other in ((0, 1), (1, 0)):
        for card in hands[seat]:
            assert f'data-card="{card}"' in received[seat]
        for card in hands[other]:
            assert f'data-card="{card}"' not in received[seat], "another seat's card leaked"


async def test_a_move_is_pushed_to_the_other_seat(make_player):
    alice = await database_sync_to_async(make_player)("alice")
    bruno = await database_sync_to_async(make_player)("bruno")

    def setup():
        from tables import services

        table = create_table(alice, "gin", seats=2, bots={}, start=False)
        services.seat_join(table=table, user=bruno)
        services.table_start(table=table, user=alice)
        table.refresh_from_db()
        return table

    table = await database_sync_to_async(setup)()
    engine = games.get("gin")
    actor = engine.to_act(table.state)[0]
    users = {0: alice, 1: bruno}
    comms = {}
    layer = get_channel_layer()
    direct = hasattr(type(layer), "deliver_to")  # the embedded layer hands pushes straight to the sockets
    direct_before = len(layer.handlers) if direct else 0
    for seat in (0, 1):
        comms[seat] = communicator(table.pk, users[seat])
        assert (await comms[seat].connect())[0]
        await comms[seat].receive_from(timeout=5)
    assert not direct or len(layer.handlers) == direct_before + 2
    move = engine.autoplay(table.state, actor)
    await comms[actor].send_json_to({"kind": "move", **move, "version": table.version})
    other = 1 - actor
    pushes = [await comms[other].receive_from(timeout=5)]
    while f'data-version="{table.version + 1}"' not in pushes[-1]:  # earlier pushes: the seats' arrivals
        pushes.append(await comms[other].receive_from(timeout=5))
    assert 'id="table-status"' in pushes[-1]
    for comm in comms.values():
        await comm.disconnect()
    assert not direct or len(layer.handlers) == direct_before


async def test_disconnect_marks_the_seat(player):
    table = await database_sync_to_async(create_table)(player, "gin", seats=2, bots={1: 1})
    comm = communicator(table.pk, player)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=10)  # the full view: sent once the socket is counted
    seat = await database_sync_to_async(Seat.objects.get)(table=table, position=0)
    assert seat.connections == 1
    await comm.disconnect()
    seat = await database_sync_to_async(Seat.objects.get)(table=table, position=0)
    assert seat.connections == 0


async def test_a_consumer_that_crashes_leaves_nothing_behind_in_the_layer(player, monkeypatch):
    layer = get_channel_layer()
    if not hasattr(type(layer), "deliver_to"):
        pytest.skip("the in-process layer of the embedded mode")
    table = await database_sync_to_async(create_table)(player, "gin", seats=2, bots={1: 1})
    groups_before = {group: set(members) for group, members in layer.groups.items()}
    handlers_before = set(layer.handlers)
    comm = communicator(table.pk, player)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=10)
    assert len(layer.handlers) == len(handlers_before) + 1

    def crash(*args, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(commands, "handle_frame", crash)
    await comm.send_json_to({"kind": "move", "action": "draw_stock"})
    with pytest.raises(RuntimeError):
        await comm.wait(timeout=5)
    assert set(layer.handlers) == handlers_before
    assert {group: set(members) for group, members in layer.groups.items()} == groups_before


async def test_a_page_follows_its_player_when_the_teams_of_a_rematch_change(make_player):
    """« Changer d'équipes » (tables.rematch) moves a player who accepted: his open page takes its part of the
    pushes at his new place (seat.moved), starting with the full view."""
    alice, bruno, chloe = [await database_sync_to_async(make_player)(name) for name in ("alice", "bruno", "chloe")]

    def setup():
        from tables import rematch, services
        from tables.models import Game, Table

        old = services.table_create(host=alice, game=Game.objects.get(slug="canasta"), seats_count=4,
                                    bot_levels={1: 2}, stake=0)
        for user in (bruno, chloe):
            services.seat_join(table=old, user=user)
        Table.objects.filter(pk=old.pk).update(status=Table.Status.FINISHED)
        new = rematch.rematch_offer(table_id=old.pk, user=alice)
        rematch.rematch_accept(table_id=old.pk, user=bruno)  # place 3, facing alice; chloe has not answered
        return old, new

    old, new = await database_sync_to_async(setup)()
    comm = communicator(new.pk, bruno)
    assert (await comm.connect())[0]
    first = await comm.receive_from(timeout=5)
    assert "Place 3 : <strong>toi</strong>" in first

    def turn():
        from tables import rematch

        rematch.rematch_teams_change(table_id=new.pk, user=alice)

    await database_sync_to_async(turn)()
    seen = await comm.receive_from(timeout=5)
    while "Place 4 : <strong>toi</strong>" not in seen:  # the push may come before the full view at the new place
        seen = await comm.receive_from(timeout=5)
    seat = await database_sync_to_async(Seat.objects.get)(table=new, user=bruno)
    assert seat.position == 3

    def push():
        from tables import broadcast

        broadcast.table_changed(new.pk)

    await database_sync_to_async(push)()
    assert "Place 4 : <strong>toi</strong>" in await comm.receive_from(timeout=5)
    await comm.disconnect()
