"""A seat that changes hands: the former occupant's open sockets never see the new occupant's cards.

Found by an outside probe (issue 19): sockets joined a group per place at connect, and leaving a waiting table
deleted the seat without touching them, so the next player's hand went to the old page. Pushes are now
addressed to the player who holds the place (tables.broadcast.player_group), each names its recipient, and the
former occupant's pages are told and closed (4403). These run on the channel layer of the configured mode:
in-process by default, Redis pub/sub with REDIS_URL.
"""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from engine import games
from tables import broadcast, services
from tables.models import Table
from tests.security.frames import error_message
from tests.security.replayed import frame_version, leaked_card, state_at
from tests.tables.helpers import create_table
from tests.tables.test_consumers import communicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def collect(comm, seconds: float = 1.0) -> tuple[list[str], int | None]:
    """Every frame the socket gets within `seconds` of quiet, and its close code (None: still open)."""
    frames = []
    while True:
        if await comm.receive_nothing(timeout=seconds):  # (receive_output's timeout would end the consumer)
            return frames, None
        output = await comm.receive_output()
        if output["type"] == "websocket.close":
            return frames, output.get("code")
        frames.append(output.get("text", ""))


def cards_in(text: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', text))


async def test_a_player_who_left_a_waiting_table_never_sees_the_next_occupants_hand(make_player):
    host = await database_sync_to_async(make_player)("chloe")
    bruno = await database_sync_to_async(make_player)("bruno")
    alice = await database_sync_to_async(make_player)("alice")
    table = await database_sync_to_async(create_table)(host, "gin", seats=2, bots={}, start=False)
    await database_sync_to_async(services.seat_join)(table=table, user=bruno)

    stale = communicator(table.pk, bruno)
    assert (await stale.connect())[0]
    await collect(stale, 0.5)

    # Bruno leaves from another tab; Alice takes his place; the host starts.
    await database_sync_to_async(services.seat_leave_waiting)(table=table, user=bruno)
    seat = await database_sync_to_async(services.seat_join)(table=table, user=alice)
    assert seat.position == 1
    fresh = communicator(table.pk, alice)
    assert (await fresh.connect())[0]
    await database_sync_to_async(services.table_start)(table=table, user=host)
    started = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    alices_hand = set(started.state["hands"][1])

    frames, code = await collect(stale)
    assert code == 4403, "the former occupant's page is closed"
    assert any("quitté cette table" in error_message(f) for f in frames), "and told why"
    assert not any(cards_in(f) & alices_hand for f in frames)
    alice_frames, _ = await collect(fresh)
    assert any(alices_hand <= cards_in(f) for f in alice_frames), "the new occupant gets her hand"
    await fresh.disconnect()


async def test_a_player_who_moved_to_another_place_sees_his_own_hand_only(make_player):
    """Three places: Bruno leaves place 1, Alice takes it, Bruno sits again at place 2 and plays on."""
    host, bruno, alice = [await database_sync_to_async(make_player)(n) for n in ("chloe", "bruno", "alice")]
    table = await database_sync_to_async(create_table)(host, "thanasis", seats=3, bots={}, start=False)
    await database_sync_to_async(services.seat_join)(table=table, user=bruno)
    stale = communicator(table.pk, bruno)
    assert (await stale.connect())[0]
    await collect(stale, 0.5)
    await database_sync_to_async(services.seat_leave_waiting)(table=table, user=bruno)
    assert (await database_sync_to_async(services.seat_join)(table=table, user=alice)).position == 1
    assert (await database_sync_to_async(services.seat_join)(table=table, user=bruno)).position == 2
    again = communicator(table.pk, bruno)
    assert (await again.connect())[0]
    await database_sync_to_async(services.table_start)(table=table, user=host)
    state = (await database_sync_to_async(Table.objects.get)(pk=table.pk)).state

    frames, code = await collect(stale)
    assert code == 4403
    assert not any(cards_in(f) & set(state["hands"][1]) for f in frames)
    new_frames, code = await collect(again)
    assert code is None, "his page at his new place stays open"
    seen = set().union(*(cards_in(f) for f in new_frames))
    assert set(state["hands"][2]) <= seen
    assert not seen & (set(state["hands"][0]) | set(state["hands"][1]))
    await again.disconnect()


async def test_a_push_for_another_player_is_dropped_by_the_socket(make_player):
    """The consumer's own check, should a socket ever stay in a group it no longer belongs to."""
    alice = await database_sync_to_async(make_player)("alice")
    table = await database_sync_to_async(create_table)(alice, "gin", seats=2, bots={1: 1})
    comm = communicator(table.pk, alice)
    assert (await comm.connect())[0]
    await collect(comm, 0.5)
    layer = get_channel_layer()
    group = broadcast.player_group(table.pk, alice.pk)
    await layer.group_send(group, {"type": "table.html", "html": "<p>pour quelqu'un d'autre</p>", "user": alice.pk + 1})
    await layer.group_send(group, {"type": "table.html", "html": "<p>pour moi</p>", "user": alice.pk})
    frames, _ = await collect(comm, 0.5)
    assert frames == ["<p>pour moi</p>"]
    await comm.disconnect()


async def test_a_player_who_abandons_a_match_gets_nothing_of_the_others(make_player):
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]

    def setup():
        table = create_table(alice, "thanasis", seats=3, bots={2: 1}, start=False)
        services.seat_join(table=table, user=bruno)
        services.table_start(table=table, user=alice)
        return Table.objects.get(pk=table.pk)

    table = await database_sync_to_async(setup)()
    comm = communicator(table.pk, bruno)
    assert (await comm.connect())[0]
    await collect(comm, 0.5)
    await database_sync_to_async(services.seat_abandon)(table_id=table.pk, user=bruno)
    engine = games.get("thanasis")

    @sync_to_async
    def play_some(n: int) -> None:
        """A few moves of Alice (the rules' autoplay); the bot answers each at once."""
        for _ in range(n):
            current = Table.objects.get(pk=table.pk)
            if current.status != Table.Status.PLAYING or not engine.to_act(current.state):
                return
            seat = engine.to_act(current.state)[0]
            services.play_move(table_id=table.pk, seat=seat, move=engine.autoplay(current.state, seat),
                               expected_version=current.version)

    await play_some(6)
    frames, _ = await collect(comm)

    @sync_to_async
    def leaks() -> list:
        """Each frame against the true state at its version, as seen from Bruno's former place."""
        return [(v, card) for f in frames if (v := frame_version(f)) is not None
                and (card := leaked_card(f, state_at(table.pk, v), 1))]

    assert frames
    assert await leaks() == []
    await comm.disconnect()
