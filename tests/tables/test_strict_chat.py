"""Thunee's « Mode strict » (../shared/rules/thunee.md §8, on by default): no table chat from the first card dealt to
the deal's score. The site asks the engine (`chat_closed`) and never names the game: a seat's line during a deal,
over the socket or the HTTP fallback, is refused with the rules' French reason, nothing is stored nor pushed (the
partner's socket gets no chat frame); a spectator's line is refused the same way; the chat form gives way to the
reason on the page and in every push, and comes back live once the deal is scored."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from engine import games
from engine.games.thunee import STRICT_CHAT
from tables import broadcast, chat, commands, services
from tables.models import ChatMessage, Game, Table
from tables.rendering import render_for_user
from tests.engine.test_chat_closed import match_states
from tests.security.test_seat_changes import collect
from tests.tables.test_consumers import communicator
from tests.tables.test_spectators import watcher_socket

ENGINE = games.get("thunee")
VERSION = 5


def deal_in_play(options=None, seed="strict-chat"):
    """A deal under way: bid 80 by the first seat asked, trumps named, the Thunee window passed: trick 1."""
    state = ENGINE.new_match(4, options or {}, seed)
    bidder = ENGINE.to_act(state)[0]
    state, _ = ENGINE.apply(state, bidder, {"action": "bid", "value": 80})
    while state["phase"] == "BIDDING":
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], {"action": "pass"})
    state, _ = ENGINE.apply(state, bidder, {"action": "choose_trump", "suit": "H"})
    while state["phase"] == "THUNEE_WINDOW":
        state, _ = ENGINE.apply(state, ENGINE.to_act(state)[0], {"action": "pass"})
    assert state["phase"] == "PLAY"
    return state


def between_deals(options=None):
    """The first deal scored, the next one not dealt yet."""
    state = next(s for s in match_states(options) if s["phase"] == "ROUND_OVER")
    assert ENGINE.chat_closed(state) is None
    return state


def last_card_by(seats=(0, 2)):
    """A state where one of `seats` is to play the card that ends the deal (autoplay's card), and that card."""
    for state in match_states():
        to_act = ENGINE.to_act(state) if state["phase"] == "PLAY" else []
        if len(to_act) == 1 and to_act[0] in seats:
            move = ENGINE.autoplay(state, to_act[0])
            after, _ = ENGINE.apply(state, to_act[0], move)
            if after["phase"] == "ROUND_OVER":
                return state, to_act[0], move
    raise AssertionError("no deal ended by a human's card")


def strict_table(alice, bruno, state, *, options=None, spectators_chat=False) -> Table:
    """Alice (seat 0) and Bruno (seat 2), partners, with robots at 1 and 3; a public table, at `state`."""
    table = services.table_create(host=alice, game=Game.objects.get(slug="thunee"), seats_count=4,
                                  bot_levels={1: 1, 3: 1}, options=options or {}, stake=0, turn_timer_s=30,
                                  private=False)
    assert services.seat_join(table=table, user=bruno).position == 2
    Table.objects.filter(pk=table.pk).update(state=state, status=Table.Status.PLAYING, version=VERSION,
                                             spectators_chat=spectators_chat)
    table.refresh_from_db()
    return table


def set_state(table: Table, state: dict) -> None:
    Table.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()


@pytest.fixture
def pushed(monkeypatch):
    """Every message handed to the channel layer (tables.broadcast._send)."""
    sent = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message: sent.append((group, message)))
    return sent


def chat_pushes(sent):
    return [m for _, m in sent if m.get("type") == "table.html" and "table-chat-log" in m.get("html", "")]


# ---------------------------------------------------------------- the service (one place: tables.chat.chat_post)

@pytest.mark.django_db
def test_a_seat_line_during_a_deal_is_refused_and_neither_stored_nor_pushed(player, make_player, pushed):
    bruno = make_player("bruno")
    table = strict_table(player, bruno, deal_in_play())
    reply = commands.handle_frame(table.pk, player.pk, {"kind": "chat", "text": "Joue atout !"})
    assert reply is not None and STRICT_CHAT in reply and 'id="table-error"' in reply
    assert ChatMessage.objects.count() == 0
    assert chat_pushes(pushed) == []


@pytest.mark.django_db
def test_the_line_is_judged_on_the_committed_state_not_on_an_earlier_read(player, make_player):
    """The frame read the table between deals; the next deal started before the line was written: refused."""
    table = strict_table(player, make_player("bruno"), between_deals())
    stale = Table.objects.get(pk=table.pk)
    set_state(table, deal_in_play())
    with pytest.raises(services.TableError) as refused:
        chat.chat_post(table=stale, user=player, text="Trop tard")
    assert refused.value.message == STRICT_CHAT and refused.value.code == "chat_closed"
    assert ChatMessage.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize("phase", ["BIDDING", "TRUMP", "THUNEE_WINDOW", "PLAY", "JODHI", "TRICK6_CALLS"])
def test_every_phase_of_a_deal_refuses_the_chat(phase, player, make_player, pushed):
    state = next(s for s in match_states() if s["phase"] == phase)
    table = strict_table(player, make_player("bruno"), state)
    assert STRICT_CHAT in commands.handle_frame(table.pk, player.pk, {"kind": "chat", "text": "Salut"})
    assert ChatMessage.objects.count() == 0 and chat_pushes(pushed) == []


@pytest.mark.django_db
def test_between_deals_and_at_the_match_end_the_chat_is_open(player, make_player, pushed):
    table = strict_table(player, make_player("bruno"), between_deals())
    assert commands.handle_frame(table.pk, player.pk, {"kind": "chat", "text": "Bien joué"}) is None
    set_state(table, match_states()[-1])
    assert table.state["phase"] == "MATCH_OVER"
    assert commands.handle_frame(table.pk, player.pk, {"kind": "chat", "text": "Merci"}) is None
    assert list(ChatMessage.objects.order_by("pk").values_list("text", flat=True)) == ["Bien joué", "Merci"]
    assert len(chat_pushes(pushed)) == 2


@pytest.mark.django_db
def test_with_mode_strict_off_the_chat_is_open_during_a_deal(player, make_player, pushed):
    options = {"mode_strict": False}
    table = strict_table(player, make_player("bruno"), deal_in_play(options), options=options)
    assert commands.handle_frame(table.pk, player.pk, {"kind": "chat", "text": "Salut"}) is None
    assert ChatMessage.objects.count() == 1 and len(chat_pushes(pushed)) == 1
    assert "data-chat-form" in render_for_user(table.pk, player.pk)


@pytest.mark.django_db
def test_a_spectator_line_during_a_deal_is_refused_too(player, make_player, client, pushed):
    table = strict_table(player, make_player("bruno"), deal_in_play(), spectators_chat=True)
    bob = make_player("bob")
    client.force_login(bob, backend="accounts.backends.HumanOnlyBackend")
    response = client.post(reverse("tables:action", args=[table.pk]), {"kind": "chat", "text": "Il a l'As"})
    assert STRICT_CHAT in response.content.decode()
    assert ChatMessage.objects.count() == 0 and chat_pushes(pushed) == []
    page = client.get(reverse("tables:watch", args=[table.pk])).content.decode()
    assert STRICT_CHAT in page and "data-chat-form" not in page

    set_state(table, between_deals())
    response = client.post(reverse("tables:action", args=[table.pk]), {"kind": "chat", "text": "Bravo"})
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["Bravo"]
    assert "data-chat-form" in client.get(reverse("tables:watch", args=[table.pk])).content.decode()


# ---------------------------------------------------------------- HTTP: the fallback and the page

@pytest.mark.django_db
def test_the_http_fallback_is_refused_the_same_way(player, make_player, player_client, pushed):
    table = strict_table(player, make_player("bruno"), deal_in_play())
    response = player_client.post(reverse("tables:action", args=[table.pk]), {"kind": "chat", "text": "Coupe !"})
    assert response.status_code == 200 and STRICT_CHAT in response.content.decode()
    assert ChatMessage.objects.count() == 0 and chat_pushes(pushed) == []

    set_state(table, between_deals())
    player_client.post(reverse("tables:action", args=[table.pk]), {"kind": "chat", "text": "Bien joué"})
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["Bien joué"]
    assert len(chat_pushes(pushed)) == 1


@pytest.mark.django_db
def test_the_page_during_a_deal_shows_the_reason_instead_of_the_form(player, make_player, player_client):
    table = strict_table(player, make_player("bruno"), deal_in_play())
    page = player_client.get(table.get_absolute_url()).content.decode()
    assert STRICT_CHAT in page and "data-chat-closed" in page
    assert "data-chat-form" not in page and 'id="chat-text"' not in page
    assert 'id="table-chat-form"' in page  # the piece the pushes swap

    set_state(table, between_deals())
    page = player_client.get(table.get_absolute_url()).content.decode()
    assert "data-chat-form" in page and STRICT_CHAT not in page


@pytest.mark.django_db
def test_every_push_carries_the_chat_piece_with_the_phase(player, make_player, pushed):
    table = strict_table(player, make_player("bruno"), deal_in_play())
    during = render_for_user(table.pk, player.pk)
    assert 'id="table-chat-form"' in during and STRICT_CHAT in during and "data-chat-form" not in during
    set_state(table, between_deals())
    after = render_for_user(table.pk, player.pk)
    assert 'id="table-chat-form"' in after and "data-chat-form" in after and STRICT_CHAT not in after


# ---------------------------------------------------------------- websockets (the configured channel layer)

async def drained(comm) -> None:
    """Connected, its first view received, and the arrivals' pushes gone by."""
    assert (await comm.connect())[0]
    assert 'id="table-status"' in await comm.receive_from(timeout=20)
    await collect(comm, 1.0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_partner_socket_gets_no_chat_during_a_deal_and_the_form_comes_back_live(make_player, settings):
    settings.NEXT_ROUND_DELAY_SECONDS = 60  # the scored deal stays on the table: the next one is not dealt
    alice, bruno = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno")]
    table = await database_sync_to_async(strict_table)(alice, bruno, deal_in_play())
    sockets = {0: communicator(table.pk, alice), 2: communicator(table.pk, bruno)}
    for comm in sockets.values():
        await drained(comm)

    await sockets[0].send_json_to({"kind": "chat", "text": "J'ai le Valet d'atout"})
    refusal = await sockets[0].receive_from(timeout=10)
    assert STRICT_CHAT in refusal and 'id="table-error"' in refusal
    frames, _ = await collect(sockets[2], 1.0)
    assert not [f for f in frames if "table-chat-log" in f or "Valet d'atout" in f], "the partner got the line"
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0

    # The card that ends the deal: the scored deal reaches both seats with the chat form back.
    state, seat, move = last_card_by((0, 2))
    await database_sync_to_async(set_state)(table, state)
    await sockets[seat].send_json_to({"kind": "move", **move, "version": VERSION})
    other = 2 - seat
    frames, _ = await collect(sockets[other], 1.0)
    pushes = [f for f in frames if f'data-version="{VERSION + 1}"' in f]
    assert pushes and "data-chat-form" in pushes[-1] and STRICT_CHAT not in pushes[-1]

    await sockets[other].send_json_to({"kind": "chat", "text": "Bien joué"})
    frames, _ = await collect(sockets[seat], 1.0)
    assert [f for f in frames if "table-chat-log" in f and "Bien joué" in f]
    for comm in sockets.values():
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_spectator_socket_line_during_a_deal_is_refused(make_player):
    alice, bruno, bob = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno", "bob")]
    table = await database_sync_to_async(strict_table)(alice, bruno, deal_in_play(), spectators_chat=True)
    seat_socket, watcher = communicator(table.pk, alice), watcher_socket(table.pk, bob)
    await drained(seat_socket)
    await drained(watcher)
    await watcher.send_json_to({"kind": "chat", "text": "Il a l'As de cœur"})
    assert STRICT_CHAT in await watcher.receive_from(timeout=10)
    frames, _ = await collect(seat_socket, 1.0)
    assert not [f for f in frames if "table-chat-log" in f or "l'As de cœur" in f]
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    for comm in (seat_socket, watcher):
        await comm.disconnect()
