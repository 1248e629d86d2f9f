"""A seat that changes hands: the former occupant's open sockets never see the new occupant's cards.

Found by an outside probe (issue 19): sockets joined a group per place at connect, and leaving a waiting table
deleted the seat without touching them, so the next player's hand went to the old page. Pushes are now
addressed to the player who holds the place (tables.broadcast.player_group), each names its recipient, and the
former occupant's pages are told and closed (4403). These run on the channel layer of the configured mode:
in-process by default, Redis pub/sub with REDIS_URL.

A player who presses « Quitter » during a match keeps his seat's row (`Seat.left`), and in a team game the
engine keeps the place in play (the autoplay plays it). Found by the same probe (126 frames of the played seat's
hand after « Quitter »): his pages went on getting the seat's pushes, a reload or a new socket showed the hand,
and he still wrote in the chat. He now holds no place: his pages are told and closed, he comes back as a
spectator only (the public view), his moves are refused, and he writes in the chat only as a spectator may.
"""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from engine import games
from tables import broadcast, coach, commands, scheduler, services, spectators
from tables.models import ChatMessage, Table
from tests.security.frames import error_message, is_french
from tests.security.replayed import frame_version, leaked_card, state_at
from tests.tables.helpers import create_table, play_out
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


# --- « Quitter » during a team match: the seat plays on (the autoplay), its former player sees none of it ----

# (game, robots, Bruno's place): Bruno as Alice's partner (Thunee), as her opponent (Canasta).
TEAM_MATCHES = [("thunee", {1: 1, 3: 1}, 2), ("canasta", {2: 1, 3: 1}, 1)]
TEAM_IDS = ["thunee-partner", "canasta-opponent"]


def team_match(alice, bruno, slug: str, bots: dict, **fields) -> Table:
    """Alice hosts a private four-seat table, Bruno joins (first free place), robots elsewhere; started."""
    table = create_table(alice, slug, seats=4, bots=bots, start=False)
    if fields:
        Table.objects.filter(pk=table.pk).update(**fields)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    return Table.objects.get(pk=table.pk)


def play_on(table_id: int, slug: str, moves: int) -> None:
    """Whoever is to act plays the rules' autoplay (the robots and the leaver's seat answer at once)."""
    engine = games.get(slug)
    for _ in range(moves):
        current = Table.objects.get(pk=table_id)
        if current.status != Table.Status.PLAYING or not engine.to_act(current.state):
            return
        seat = engine.to_act(current.state)[0]
        services.play_move(table_id=table_id, seat=seat, move=engine.autoplay(current.state, seat),
                           expected_version=current.version)


def hand_leaks(table_id: int, frames: list[str]) -> list:
    """Each frame with a version checked against the true state then, as nobody seated may see it: any card
    of any hand (or of the stock) in it is a leak."""
    return [(v, card) for f in frames if (v := frame_version(f)) is not None
            and (card := leaked_card(f, state_at(table_id, v), None))]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


@pytest.mark.parametrize(("slug", "bots", "place"), TEAM_MATCHES, ids=TEAM_IDS)
async def test_a_player_who_quit_a_match_has_his_open_page_closed(make_player, slug, bots, place):
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]
    table = await database_sync_to_async(team_match)(alice, bruno, slug, bots)
    comm = communicator(table.pk, bruno)
    assert (await comm.connect())[0]
    before, _ = await collect(comm, 0.5)
    assert await sync_to_async(hand_leaks)(table.pk, before), "seated, his page shows his hand (the check sees it)"

    await database_sync_to_async(services.seat_abandon)(table_id=table.pk, user=bruno)
    await sync_to_async(play_on)(table.pk, slug, 8)
    frames, code = await collect(comm)

    assert code == 4403, "the leaver's page is closed"
    assert any("quitté cette partie" in error_message(f) for f in frames), "and told why, in French"
    assert await sync_to_async(hand_leaks)(table.pk, frames) == []
    played = await database_sync_to_async(
        lambda: Table.objects.get(pk=table.pk).moves.filter(seat=place).exclude(move__action="leave").exists())()
    assert played, "the seat played on without him"


@pytest.mark.parametrize(("slug", "bots", "place"), TEAM_MATCHES, ids=TEAM_IDS)
async def test_a_new_socket_of_a_player_who_quit_is_a_spectators(make_player, slug, bots, place):
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]
    table = await database_sync_to_async(team_match)(alice, bruno, slug, bots)
    await database_sync_to_async(services.seat_abandon)(table_id=table.pk, user=bruno)

    # A private table without its link in this session: he may watch it, as the player he was.
    comm = communicator(table.pk, bruno)
    connected, _ = await comm.connect()
    assert connected
    first, _ = await collect(comm, 0.5)
    assert first and frame_version(first[0]) is not None, "the public view of the table"
    assert await sync_to_async(hand_leaks)(table.pk, first) == []
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).spectators == 1, "counted as a spectator"
    await sync_to_async(play_on)(table.pk, slug, 8)
    frames, code = await collect(comm)
    assert code is None
    assert await sync_to_async(hand_leaks)(table.pk, first + frames) == []

    version = (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version
    await comm.send_json_to({"kind": "move", "action": "pass", "version": version})
    await comm.send_json_to({"kind": "chat", "text": "Il a deux valets"})
    replies, _ = await collect(comm, 0.5)
    assert [error_message(r) for r in replies] == [spectators.CANNOT_ACT, spectators.CANNOT_CHAT]
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version == version
    await comm.disconnect()


async def test_a_socket_opening_as_its_player_quits_is_closed(make_player, monkeypatch):
    """« Quitter » in another tab between the handshake's read of his place and the socket's count: the socket
    would miss the close sent to his pages; it is closed when it finds the place no longer his."""
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]
    slug, bots, place = TEAM_MATCHES[0]
    table = await database_sync_to_async(team_match)(alice, bruno, slug, bots)
    await database_sync_to_async(services.seat_abandon)(table_id=table.pk, user=bruno)
    monkeypatch.setattr(commands, "seat_of", lambda table_id, user_id: place)  # as read before the commit
    comm = communicator(table.pk, bruno)
    assert (await comm.connect())[0]
    frames, code = await collect(comm, 0.5)
    assert code == 4403
    assert [error_message(f) for f in frames] == [commands.NOT_SEATED]


@pytest.mark.parametrize(("slug", "bots", "place"), TEAM_MATCHES, ids=TEAM_IDS)
async def test_the_table_page_of_a_player_who_quit_is_a_spectators(make_player, slug, bots, place):
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]

    def page():
        table = team_match(alice, bruno, slug, bots)
        services.seat_abandon(table_id=table.pk, user=bruno)
        response = logged_in(bruno).get(table.get_absolute_url(), follow=True)
        return table, response

    table, response = await database_sync_to_async(page)()
    html = response.content.decode()
    assert response.status_code == 200 and frame_version(html) is not None
    assert await sync_to_async(hand_leaks)(table.pk, [html]) == []
    assert response.redirect_chain == [(reverse("tables:watch", args=[table.pk]), 302)], "the spectator's page"
    assert reverse("tables:leave", args=[table.pk]) not in html, "no « Quitter » any more"
    assert "data-chat-form" not in html


# Canasta: Thunee's strict mode (on by default) closes every chat during a deal (tests/tables/test_strict_chat.py).
@pytest.mark.parametrize(("slug", "bots", "place"), TEAM_MATCHES[1:], ids=TEAM_IDS[1:])
async def test_a_player_who_quit_writes_in_the_chat_only_as_a_spectator_may(make_player, monkeypatch, slug, bots,
                                                                             place):
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]
    pushed = []
    monkeypatch.setattr(broadcast, "chat_posted", lambda table_id: pushed.append(table_id))

    def chat():
        table = team_match(alice, bruno, slug, bots)
        services.seat_abandon(table_id=table.pk, user=bruno)
        client, url = logged_in(bruno), reverse("tables:action", args=[table.pk])
        refused = client.post(url, {"kind": "chat", "text": "Il a deux valets"}).content.decode()
        # A page of his still open on the seat (its close not arrived yet) is refused too.
        stale = commands.handle_frame(table.pk, bruno.pk, {"kind": "chat", "text": "Il a deux valets"})
        stored_before = ChatMessage.objects.filter(table=table).count()
        pushed_before = len(pushed)
        Table.objects.filter(pk=table.pk).update(spectators_chat=True)
        allowed = client.post(url, {"kind": "chat", "text": "Bien joué"})
        lines = list(ChatMessage.objects.filter(table=table).values_list("user__username", "text"))
        return refused, stale, stored_before, pushed_before, allowed.status_code, lines

    refused, stale, stored_before, pushed_before, status, lines = await database_sync_to_async(chat)()
    assert error_message(refused) == spectators.CANNOT_CHAT and is_french(error_message(refused))
    assert error_message(stale) == commands.NOT_SEATED
    assert stored_before == 0 and pushed_before == 0, "nothing stored, nothing pushed"
    assert status == 200 and lines == [("bruno", "Bien joué")], "the table lets spectators write: he writes as one"
    assert len(pushed) == 1


@pytest.mark.parametrize(("slug", "bots", "place"), TEAM_MATCHES, ids=TEAM_IDS)
async def test_the_moves_of_a_player_who_quit_are_refused(make_player, monkeypatch, slug, bots, place):
    """At the moment his former place is to act (the engine keeps it in play): his own move would be legal."""
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]
    engine = games.get(slug)

    def moves():
        monkeypatch.setattr(scheduler, "schedule_decisions", lambda *args, **kwargs: None)  # nobody plays by himself
        table = team_match(alice, bruno, slug, bots)
        for _ in range(200):
            current = Table.objects.get(pk=table.pk)
            to_act = engine.to_act(current.state)
            if place in to_act:
                break
            services.play_move(table_id=table.pk, seat=to_act[0], move=engine.autoplay(current.state, to_act[0]),
                               expected_version=current.version)
        services.seat_abandon(table_id=table.pk, user=bruno)
        current = Table.objects.get(pk=table.pk)
        assert place in engine.to_act(current.state)
        move = engine.autoplay(current.state, place)
        outcome = services.play_move(table_id=table.pk, user_id=bruno.pk, move=move,
                                     expected_version=current.version)
        frame = {"kind": "move", **move, "version": current.version}
        by_socket = commands.handle_frame(table.pk, bruno.pk, frame)  # a page of his still open on the seat
        advice = commands.handle_frame(table.pk, bruno.pk, {"kind": "coach", "version": current.version})
        by_http = logged_in(bruno).post(reverse("tables:action", args=[table.pk]), json.dumps(frame),
                                        content_type="application/json").content.decode()
        return current.version, Table.objects.get(pk=table.pk).version, outcome, by_socket, advice, by_http

    before, after, outcome, by_socket, advice, by_http = await database_sync_to_async(moves)()
    assert not outcome.applied and outcome.error.code == services.NOT_SEATED
    assert error_message(by_socket) == commands.NOT_SEATED
    assert error_message(advice) == coach.NOT_SEATED, "no advice drawn from his former hand"
    assert error_message(by_http) == spectators.CANNOT_ACT
    assert after == before


async def test_a_player_who_quit_may_still_replay_the_match_once_it_is_over(make_player):
    """A guard, not the bug: a player who left holds no place, but he played the match and may replay it."""
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]

    def replay_pages():
        table = create_table(alice, "canasta-tuiles", seats=4, bots={1: 1, 3: 1}, options={"match_length": "1"},
                             start=False)
        services.seat_join(table=table, user=bruno)
        services.table_start(table=table, user=alice)
        services.seat_abandon(table_id=table.pk, user=bruno)
        table = play_out(table)
        client = logged_in(bruno)
        rounds = client.get(reverse("tables:replays", args=[table.pk]))
        last = client.get(reverse("tables:replay", args=[table.pk, 1]) + "?etape=100000")
        return table.status, rounds.status_code, last.status_code, last.content.decode()

    status, rounds, last, html = await database_sync_to_async(replay_pages)()
    assert status == Table.Status.FINISHED
    assert rounds == 200 and last == 200
    assert 'data-testid="replay-hands"' in html, "the hands at the round's end, the match being over"
