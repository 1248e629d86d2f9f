"""One message per move for a table (tables.broadcast.table_changed): every connected seat's render travels in
it, and each socket forwards to its page its own part only — its player's at its own place — and a spectator's
socket the public part only. Run on the configured mode's channel layer: in-process by default, Redis pub/sub
(with the direct delivery of rummy_site.redis_layer) with REDIS_URL.
"""

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from engine import games
from tables import broadcast, services
from tables.models import Seat, Table
from tests.security.replayed import frame_version, leaked_card
from tests.security.test_seat_changes import cards_in, collect
from tests.tables.helpers import create_table
from tests.tables.test_consumers import communicator
from tests.tables.test_spectators import public_table, watcher_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def ours(comm) -> list[str]:
    """The frames this test's pushes sent (the table's own renders, the first view or a presence push
    late on a busy machine, start with its status)."""
    frames, _ = await collect(comm, 1.0)
    return [f for f in frames if f.startswith("<p>")]


async def opened(comm) -> None:
    """Connected, and its first view received (the socket is in its groups and reads its pushes)."""
    assert (await comm.connect())[0]
    assert 'id="table-status"' in await comm.receive_from(timeout=20)


def push(table_id: int, version: int, **parts) -> dict:
    return {"type": "table.push", "version": version, **parts}


async def test_a_socket_forwards_only_its_players_part_at_its_place(make_player):
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]
    table = await database_sync_to_async(create_table)(alice, "gin", seats=2, bots={1: 1})
    comm = communicator(table.pk, alice)
    await opened(comm)
    mine = broadcast.seat_key(alice.pk, 0)
    await get_channel_layer().group_send(broadcast.public_group(table.pk), push(
        table.pk, table.version + 1, **{
            broadcast.seat_key(bruno.pk, 1): "<p>main de Bruno</p>",
            broadcast.seat_key(alice.pk, 1): "<p>Alice à une autre place</p>",
            broadcast.seat_key(bruno.pk, 0): "<p>Bruno à la place d'Alice</p>",
            broadcast.PUBLIC_KEY: "<p>vue publique</p>",
            mine: "<p>main d'Alice</p>"}))
    # A push with nothing for her: nothing is sent.
    await get_channel_layer().group_send(broadcast.public_group(table.pk), push(
        table.pk, table.version + 2, **{broadcast.seat_key(bruno.pk, 1): "<p>encore Bruno</p>",
                                        broadcast.PUBLIC_KEY: "<p>vue publique</p>"}))
    assert await ours(comm) == ["<p>main d'Alice</p>"]
    await comm.disconnect()


async def test_a_spectator_socket_forwards_only_the_public_part(player, make_player):
    table = await database_sync_to_async(public_table)(player, "gin")
    bob = await database_sync_to_async(make_player)("bob")
    comm = watcher_socket(table.pk, bob)
    await opened(comm)
    await get_channel_layer().group_send(broadcast.public_group(table.pk), push(
        table.pk, table.version + 1, **{broadcast.seat_key(player.pk, 0): "<p>main de l'hôte</p>",
                                        broadcast.seat_key(bob.pk, 0): "<p>une place de Bob ?</p>",
                                        broadcast.PUBLIC_KEY: "<p>vue publique</p>"}))
    await get_channel_layer().group_send(broadcast.public_group(table.pk), push(
        table.pk, table.version + 2, **{broadcast.seat_key(player.pk, 0): "<p>main de l'hôte</p>"}))
    assert await ours(comm) == ["<p>vue publique</p>"]
    await comm.disconnect()


async def test_a_real_move_reaches_each_seat_with_its_own_hand_and_the_spectator_with_none(make_player):
    alice, bruno, bob = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno", "bob")]

    def setup() -> Table:
        table = create_table(alice, "gin", seats=2, bots={}, start=False)
        services.seat_join(table=table, user=bruno)
        Table.objects.filter(pk=table.pk).update(private=False)
        services.table_start(table=table, user=alice)
        return Table.objects.get(pk=table.pk)

    table = await database_sync_to_async(setup)()
    socks = {0: communicator(table.pk, alice), 1: communicator(table.pk, bruno), None: watcher_socket(table.pk, bob)}
    for comm in socks.values():
        await opened(comm)
    engine = games.get("gin")
    seat = engine.to_act(table.state)[0]
    await database_sync_to_async(services.play_move)(table_id=table.pk, seat=seat,
                                                     move=engine.autoplay(table.state, seat),
                                                     expected_version=table.version)
    after = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert await database_sync_to_async(Seat.objects.filter(table=table, connections=1).count)() == 2
    for position, comm in socks.items():
        frames, _ = await collect(comm, 1.0)
        pushed = [f for f in frames if frame_version(f) == after.version]
        assert pushed, f"place {position} got the move"
        for frame in pushed:
            assert leaked_card(frame, after.state, position) is None
        if position is not None:
            assert set(after.state["hands"][position]) <= set().union(*(cards_in(f) for f in pushed))
        await comm.disconnect()
