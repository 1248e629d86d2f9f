"""Spectators: a public table is watched from the lobby, a private one through its invitation link; a spectator
sees the engine's public view only (no card of any hand, no stock order), never acts, writes in the chat only
where the table allows it, and the seats see how many watch."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from engine import games
from tables import broadcast, commands, services, spectators, tasks
from tables.consumers import TableConsumer
from tables.families import live_slugs
from tables.models import Game, SpectatorPresence, Table

PASSWORD = "Tr3s-secret!"


def public_table(host, slug: str, *, private: bool = False, spectators_chat: bool = False) -> Table:
    """The host against robots, started: the robots play until the host's turn."""
    engine = games.get(slug)
    seats = engine.info.default_players
    table = services.table_create(host=host, game=Game.objects.get(slug=slug), seats_count=seats,
                                  bot_levels=dict.fromkeys(range(1, seats), 1), options={}, stake=0,
                                  turn_timer_s=30, private=private)
    if spectators_chat:
        Table.objects.filter(pk=table.pk).update(spectators_chat=True)
    services.table_start(table=table, user=host)
    table.refresh_from_db()
    return table


def hidden_cards(engine, state: dict, seats: int) -> set[str]:
    """Every card (or tile) id a spectator must not see: each seat's hand, and the stock (or the pool)."""
    hidden = set()
    for seat in range(seats):
        for card in engine.view(state, seat).get("hand") or []:
            hidden.add(card if isinstance(card, str) else card.get("id", ""))
    for key in ("stock", "pool"):
        hidden.update(c for c in state.get(key) or [] if isinstance(c, str))
    hidden.discard("")
    return hidden


def assert_no_hidden_card(html: str, cards: set[str]) -> None:
    shown = sorted(c for c in cards if f'"{c}"' in html or f"'{c}'" in html or f">{c}<" in html)
    assert not shown, f"hidden cards in the spectator's page: {shown}"


@pytest.fixture
def watcher_client(client, make_player):
    bob = make_player("bob")
    client.force_login(bob, backend="accounts.backends.HumanOnlyBackend")
    client.user = bob
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("slug", live_slugs())
def test_the_spectator_page_holds_no_card_of_any_hand(slug, player, watcher_client):
    table = public_table(player, slug)
    engine = games.get(slug)
    checked = 0
    for _ in range(6):  # a few moves into the round, still in it
        table.refresh_from_db()
        to_act = engine.to_act(table.state) if table.status == Table.Status.PLAYING else []
        if not to_act:
            break
        checked += 1
        hidden = hidden_cards(engine, table.state, table.seats_count)
        assert hidden, "the test must look at real hands"
        page = watcher_client.get(reverse("tables:watch", args=[table.pk]))
        assert page.status_code == 200
        html = page.content.decode()
        assert 'data-testid="spectating"' in html
        assert_no_hidden_card(html, hidden)
        # and what is pushed to the spectators: the same public view
        assert_no_hidden_card(commands.full_view(table.pk, watcher_client.user.pk), hidden)
        if 0 in to_act:
            tasks.autoplay_turn.run(table.pk, table.version, 0)
        else:
            tasks.bot_turn.run(table.pk, table.version, to_act[0])
    assert checked


@pytest.mark.django_db
def test_the_lobby_offers_to_watch_public_tables_being_played(player, make_player, watcher_client):
    watched = public_table(player, "gin")
    hidden = public_table(make_player("carla"), "gin", private=True)
    page = watcher_client.get(reverse("tables:lobby")).content.decode()
    assert reverse("tables:watch", args=[watched.pk]) in page and "Regarder" in page
    assert reverse("tables:watch", args=[hidden.pk]) not in page
    spectators.spectator_connected(table_id=watched.pk, user_id=make_player("dora").pk, delta=+1)
    assert "1 spectateur<" in watcher_client.get(reverse("tables:lobby")).content.decode()


@pytest.mark.django_db
def test_a_private_table_is_watched_only_through_its_invitation_link(player, watcher_client):
    table = public_table(player, "gin", private=True)
    watch = reverse("tables:watch", args=[table.pk])
    refused = watcher_client.get(watch, follow=True)
    assert refused.redirect_chain[-1][0] == reverse("tables:lobby")
    assert "privée" in refused.content.decode()
    # The table page of a table one does not sit at: still refused.
    assert watcher_client.get(reverse("tables:table", args=[table.pk])).url == reverse("tables:lobby")
    # The invitation link of a match already playing: watch it instead of an error.
    invited = watcher_client.get(reverse("tables:invite", args=[table.invite_token]), follow=True)
    assert invited.redirect_chain[-1][0] == watch
    assert "tu la regardes en spectateur" in invited.content.decode()
    assert watcher_client.get(watch).status_code == 200
    assert watcher_client.get(reverse("tables:table", args=[table.pk])).url == watch
    assert not table.seats.filter(user=watcher_client.user).exists()


@pytest.mark.django_db
def test_a_seated_player_opening_the_watch_page_gets_his_seat(player, player_client):
    table = public_table(player, "gin")
    assert player_client.get(reverse("tables:watch", args=[table.pk])).url == table.get_absolute_url()


@pytest.mark.django_db
def test_watching_needs_an_account(client, player):
    table = public_table(player, "gin")
    response = client.get(reverse("tables:watch", args=[table.pk]))
    assert response.status_code == 302 and reverse("accounts:login") in response.url


@pytest.mark.django_db
def test_a_waiting_table_has_nothing_to_watch(player, watcher_client):
    table = services.table_create(host=player, game=Game.objects.get(slug="gin"), seats_count=2, bot_levels={},
                                  options={}, stake=0, turn_timer_s=30, private=False)
    response = watcher_client.get(reverse("tables:watch", args=[table.pk]), follow=True)
    assert "rien à regarder" in response.content.decode()


@pytest.mark.django_db
def test_a_spectator_cannot_act_over_http(player, watcher_client):
    table = public_table(player, "gin")
    version = table.version
    response = watcher_client.post(reverse("tables:action", args=[table.pk]),
                                   {"kind": "move", "action": "draw", "source": "stock", "version": version})
    assert spectators.CANNOT_ACT in response.content.decode()
    table.refresh_from_db()
    assert table.version == version


@pytest.mark.django_db
def test_the_chat_refuses_spectators_unless_the_table_allows_them(player, watcher_client):
    table = public_table(player, "gin")
    response = watcher_client.post(reverse("tables:action", args=[table.pk]), {"kind": "chat", "text": "Bravo"})
    assert spectators.CANNOT_CHAT in response.content.decode()
    assert not table.chat.exists()
    page = watcher_client.get(reverse("tables:watch", args=[table.pk])).content.decode()
    assert "data-chat-form" not in page

    Table.objects.filter(pk=table.pk).update(spectators_chat=True)
    response = watcher_client.post(reverse("tables:action", args=[table.pk]), {"kind": "chat", "text": "Bravo"})
    assert response.status_code == 200
    assert list(table.chat.values_list("text", flat=True)) == ["Bravo"]
    assert "data-chat-form" in watcher_client.get(reverse("tables:watch", args=[table.pk])).content.decode()


@pytest.mark.django_db
def test_the_seats_see_how_many_watch(player, make_player, player_client):
    table = public_table(player, "gin")
    bob, carla = make_player("bob"), make_player("carla")
    assert spectators.spectator_connected(table_id=table.pk, user_id=bob.pk, delta=+1) == 1
    assert spectators.spectator_connected(table_id=table.pk, user_id=bob.pk, delta=+1) == 1  # a second tab
    assert spectators.spectator_connected(table_id=table.pk, user_id=carla.pk, delta=+1) == 2
    page = player_client.get(table.get_absolute_url()).content.decode()
    assert "2 spectateurs" in page
    spectators.spectator_connected(table_id=table.pk, user_id=bob.pk, delta=-1)
    assert Table.objects.get(pk=table.pk).spectators == 2  # bob still has a tab open
    spectators.spectator_connected(table_id=table.pk, user_id=bob.pk, delta=-1)
    assert Table.objects.get(pk=table.pk).spectators == 1
    assert "1 spectateur<" in player_client.get(table.get_absolute_url()).content.decode()
    # A server process that died without closing its sockets: its spectators are no longer counted.
    SpectatorPresence.objects.update(server="dead")
    spectators.reap_server("dead")
    assert Table.objects.get(pk=table.pk).spectators == 0
    assert "spectateur" not in player_client.get(table.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_a_move_is_pushed_to_the_spectators_once(player, make_player, monkeypatch):
    table = public_table(player, "gin")
    spectators.spectator_connected(table_id=table.pk, user_id=make_player("bob").pk, delta=+1)
    sent = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message: sent.append((group, message)))
    broadcast.table_changed(table.pk)
    pushes = [m for g, m in sent if m["type"] == "table.push"]
    assert len(pushes) == 1 and [g for g, m in sent if m is pushes[0]] == [broadcast.public_group(table.pk)]
    table.refresh_from_db()
    assert_no_hidden_card(pushes[0][broadcast.PUBLIC_KEY], hidden_cards(games.get("gin"), table.state, 2))


async def receive_until(comm, text: str) -> str:
    """The pushes of the table (a presence push may come first) until the one that says `text`."""
    for _ in range(10):
        html = await comm.receive_from(timeout=5)
        if text in html:
            return html
    raise AssertionError(f"never received {text!r}")


def watcher_socket(table_id, user, session=None):
    comm = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table_id}/")
    comm.scope["user"] = user
    comm.scope["session"] = session or {}
    comm.scope["url_route"] = {"kwargs": {"table_id": table_id}}
    return comm


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_spectator_socket_gets_the_public_view_and_cannot_act_nor_chat(player, make_player):
    table = await database_sync_to_async(public_table)(player, "gin")
    bob = await database_sync_to_async(make_player)("bob")
    comm = watcher_socket(table.pk, bob)
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=5)
    assert 'id="table-status"' in first
    hidden = hidden_cards(games.get("gin"), table.state, 2)
    assert_no_hidden_card(first, hidden)
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).spectators == 1
    await comm.send_json_to({"kind": "move", "action": "draw", "source": "stock", "version": table.version})
    await receive_until(comm, spectators.CANNOT_ACT)
    await comm.send_json_to({"kind": "chat", "text": "Salut"})
    await receive_until(comm, spectators.CANNOT_CHAT)
    await comm.disconnect()
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).spectators == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_private_table_refuses_a_spectator_socket_without_the_link(player, make_player):
    table = await database_sync_to_async(public_table)(player, "gin", private=True)
    bob = await database_sync_to_async(make_player)("bob")
    connected, code = await watcher_socket(table.pk, bob).connect()
    assert not connected and code == 4403
    comm = watcher_socket(table.pk, bob, {spectators.SESSION_KEY: [table.pk]})
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=5)
    await comm.disconnect()


@pytest.mark.django_db
def test_the_host_may_let_spectators_write(player_client):
    from tables.forms import TableCreateForm

    empty = TableCreateForm(game=Game.objects.get(slug="gin"))
    form = {name: str(field.initial) for name, field in empty.fields.items() if field.initial is not None}
    form.update({"game": "gin", "seats_count": "2", "seat_1": "human", "stake": "0", "private": ""})
    form.pop("spectators_chat", None)
    player_client.post(reverse("tables:new"), form)
    player_client.post(reverse("tables:new"), {**form, "spectators_chat": "on"})
    assert list(Table.objects.order_by("pk").values_list("spectators_chat", flat=True)) == [False, True]
    assert "spectators_chat" in player_client.get(reverse("tables:lobby")).content.decode()
