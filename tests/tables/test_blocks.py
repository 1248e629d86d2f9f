"""What blocks and mutes do at a table (tables.chat): the lines of a player I blocked never reach my sockets, at any
table, nor my pages; « Masquer sa discussion » hides a writer's lines from me at one table only, and « Afficher sa
discussion » shows them again; the other readers see everything. Forged mutes change nothing."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts import friends
from tables import commands, rendering, services
from tables.consumers import TableConsumer
from tables.models import ChatMessage, ChatMute, Game, Table


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


def gin_match(host, *guests, private: bool = True) -> Table:
    """A Gin table of the host and his guests, started."""
    table = services.table_create(host=host, game=Game.objects.get(slug="gin"), seats_count=1 + len(guests),
                                  bot_levels={}, options={}, stake=0, turn_timer_s=30, private=private)
    for guest in guests:
        services.seat_join(table=table, user=guest)
    services.table_start(table=table, user=host)
    table.refresh_from_db()
    return table


def write(table: Table, user, text: str) -> None:
    assert commands.handle_frame(table.pk, user.pk, {"kind": "chat", "text": text}) is None


def chat_log(html: str) -> str:
    """The chat log of a page or frame."""
    return html.split('id="table-chat-log"')[1].split("</ol>")[0]


def communicator(table_id: int, user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table_id}/")
    comm.scope["user"] = user
    comm.scope["url_route"] = {"kwargs": {"table_id": table_id}}
    comm.scope["session"] = {}
    return comm


async def opened(table_id: int, user) -> tuple[WebsocketCommunicator, str]:
    comm = communicator(table_id, user)
    connected, _ = await comm.connect()
    assert connected
    return comm, await comm.receive_from(timeout=10)  # the full view


async def next_chat(comm: WebsocketCommunicator, timeout: float = 5) -> str:
    """The chat log of the next frame that carries one (the seats' presence pushes come and go meanwhile)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        frame = await comm.receive_from(timeout=max(0.1, end - loop.time()))
        if 'id="table-chat-log"' in frame:
            return chat_log(frame)


async def no_chat(comm: WebsocketCommunicator, wait: float = 0.5) -> None:
    """No frame with a chat log arrives within `wait` (receive_nothing: a timed-out receive would end the app)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + wait
    while loop.time() < end:
        if await comm.receive_nothing(timeout=0.1):
            continue
        frame = await comm.receive_from(timeout=1)
        assert 'id="table-chat-log"' not in frame, f"a chat frame arrived: {chat_log(frame)}"


# ------------------------------------------------------------------------------------------ sockets

@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_blocked_players_lines_never_reach_the_blockers_sockets(make_player):
    alice, bruno, carla, dora = [await database_sync_to_async(make_player)(n)
                                 for n in ("alice", "bruno", "carla", "dora")]

    def setup():
        table = gin_match(alice, bruno, carla, private=False)
        write(table, bruno, "Ligne d'avant")
        friends.player_block(user=alice, pseudo="bruno")
        friends.player_block(user=dora, pseudo="bruno")  # a spectator who blocked him
        return table

    table = await database_sync_to_async(setup)()
    (a, a_first), (c, c_first), (d, d_first) = [await opened(table.pk, u) for u in (alice, carla, dora)]
    assert "Ligne d&#x27;avant" not in chat_log(a_first) and "Ligne d&#x27;avant" not in chat_log(d_first)
    assert "Ligne d&#x27;avant" in chat_log(c_first)

    await database_sync_to_async(write)(table, bruno, "Coucou")
    seen_by = {name: await next_chat(comm) for name, comm in (("alice", a), ("carla", c), ("dora", d))}
    assert "Coucou" in seen_by["carla"] and "bruno" in seen_by["carla"]
    for reader in ("alice", "dora"):
        assert "Coucou" not in seen_by[reader] and "bruno" not in seen_by[reader], f"{reader} got his line"
    # Their own lines and carla's still reach them.
    await database_sync_to_async(write)(table, carla, "Bien joué")
    assert "Bien joué" in await next_chat(a) and "Bien joué" in await next_chat(d)
    for comm in (a, c, d):
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_blocking_or_muting_with_the_table_open_redraws_my_chat_alone(make_player):
    alice, bruno, carla = [await database_sync_to_async(make_player)(n) for n in ("alice", "bruno", "carla")]

    def setup():
        table = gin_match(alice, bruno, carla)
        write(table, bruno, "Bonjour")
        return table

    table = await database_sync_to_async(setup)()
    (a, a_first), (c, _) = [await opened(table.pk, u) for u in (alice, carla)]
    assert "Bonjour" in chat_log(a_first)

    await database_sync_to_async(friends.player_block)(user=alice, pseudo="bruno")
    assert "Bonjour" not in await next_chat(a)
    await no_chat(c)  # carla's chat is not drawn again: nothing changed for her
    await database_sync_to_async(write)(table, bruno, "Tu m'entends ?")
    assert "entends" not in await next_chat(a)
    assert "entends" in await next_chat(c)

    await database_sync_to_async(friends.player_unblock)(user=alice, pseudo="bruno")
    back = await next_chat(a)
    assert "Bonjour" in back and "entends" in back

    # « Masquer sa discussion » at this table: the same, for this table.
    client = await database_sync_to_async(logged_in)(alice)
    await database_sync_to_async(client.post)(reverse("tables:mute", args=[table.pk]), {"pseudo": "bruno", "hide": "1"})
    assert "Bonjour" not in await next_chat(a)
    await database_sync_to_async(client.post)(reverse("tables:mute", args=[table.pk]), {"pseudo": "bruno", "hide": "0"})
    assert "Bonjour" in await next_chat(a)
    for comm in (a, c):
        await comm.disconnect()


# ------------------------------------------------------------------------------------------ mutes

@pytest.mark.django_db
def test_a_mute_hides_his_lines_from_me_at_that_table_only(player, make_player):
    bruno, carla = make_player("bruno"), make_player("carla")
    first, second = gin_match(player, bruno, carla), gin_match(player, bruno)
    for table in (first, second):
        write(table, bruno, f"Salut de la table {table.pk}")
    alice = logged_in(player)
    response = alice.post(reverse("tables:mute", args=[first.pk]), {"pseudo": "bruno", "hide": "1"})
    assert response.status_code == 302 and response.url == reverse("tables:table", args=[first.pk])
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "La discussion de bruno est masquée pour toi à cette table."]
    assert ChatMute.objects.filter(table=first, user=player, muted=bruno).count() == 1

    page = alice.get(reverse("tables:table", args=[first.pk])).content.decode()
    assert f"Salut de la table {first.pk}" not in chat_log(page)
    assert "Afficher sa discussion" in page.split('id="chat-people"')[1]
    assert f"Salut de la table {first.pk}" not in chat_log(rendering.render_for_user(first.pk, player.pk))
    assert f"Salut de la table {second.pk}" in chat_log(alice.get(reverse("tables:table", args=[second.pk]))
                                                        .content.decode()), "another table: not hidden"
    assert f"Salut de la table {first.pk}" in chat_log(rendering.render_for_user(first.pk, carla.pk)), "carla sees it"
    # The HTTP fallback's answers are drawn for me too.
    answer = alice.post(reverse("tables:action", args=[first.pk]), {"kind": "chat", "text": "Et toi ?"})
    assert "Et toi ?" in chat_log(answer.content.decode()) and "Salut de la table" not in chat_log(
        answer.content.decode())

    # htmx: the list of the table's people comes back, with what was done.
    response = alice.post(reverse("tables:mute", args=[first.pk]), {"pseudo": "bruno", "hide": "0"},
                          headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<details id="chat-people"')
    assert "Masquer sa discussion" in html and "de nouveau visible" in html
    assert not ChatMute.objects.exists()
    assert f"Salut de la table {first.pk}" in chat_log(rendering.render_for_user(first.pk, player.pk))


@pytest.mark.django_db
def test_the_tables_people_link_to_their_pages_and_show_my_blocks(player, make_player):
    bruno, carla = make_player("bruno"), make_player("carla")
    table = gin_match(player, bruno, carla)
    friends.player_block(user=player, pseudo="carla")
    people = logged_in(player).get(reverse("tables:table", args=[table.pk])).content.decode().split(
        'id="chat-people"')[1].split("</details>")[0]
    assert reverse("player_profile", args=["bruno"]) in people and reverse("player_profile", args=["carla"]) in people
    assert "alice" not in people, "not myself"
    assert "bloqué" in people.split('data-pseudo="carla"')[1].split("</li>")[0]


@pytest.mark.django_db
@pytest.mark.parametrize(("pseudo", "reader"), [
    ("personne", "alice"), ("alice", "alice"), ("dora", "alice"), ("", "alice"), ("Robot Expert", "alice"),
    ("bruno", "dora"),
])
def test_a_forged_mute_is_refused_and_changes_nothing(player, make_player, pseudo, reader):
    bruno, dora = make_player("bruno"), make_player("dora")
    table = gin_match(player, bruno)
    user = {"alice": player, "dora": dora}[reader]
    response = logged_in(user).post(reverse("tables:mute", args=[table.pk]), {"pseudo": pseudo, "hide": "1"})
    assert response.status_code == 302
    message = [str(m) for m in get_messages(response.wsgi_request)][-1]
    if reader == "dora":  # not at this private table
        assert response.url == reverse("tables:lobby") and message == "Tu n'es pas à cette table."
    else:
        assert message == "Ce joueur ne participe pas à la discussion de cette table."
    assert not ChatMute.objects.exists()
    assert logged_in(player).get(reverse("tables:mute", args=[table.pk])).status_code == 302, "GET: back to it"


# ------------------------------------------------------------------------------------------ the push

@pytest.mark.django_db
def test_the_chat_push_is_drawn_again_only_for_a_reader_hiding_one_of_its_writers(player, make_player):
    bruno = make_player("bruno")
    table = gin_match(player, bruno)
    write(table, player, "Premier")
    write(table, bruno, "Second")
    message = rendering.chat_push(table.pk)
    assert set(message["authors"].split(",")) == {str(player.pk), str(bruno.pk)}
    assert [line["text"] for line in json.loads(message["lines"])] == ["Premier", "Second"]
    assert rendering.chat_for(message, frozenset()) is message["html"]
    assert rendering.chat_for(message, frozenset({999999})) is message["html"], "nobody hidden wrote: no render"
    mine = rendering.chat_for(message, frozenset({bruno.pk}))
    assert "Premier" in mine and "Second" not in mine
    only_bruno = rendering.chat_for(message, frozenset({player.pk, bruno.pk}))
    assert "Pas encore de message" in only_bruno
    assert ChatMessage.objects.count() == 2


@pytest.mark.django_db
def test_the_mute_form_needs_its_csrf_token(player, make_player):
    table = gin_match(player, make_player("bruno"))
    client = Client(enforce_csrf_checks=True)
    client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
    assert client.post(reverse("tables:mute", args=[table.pk]), {"pseudo": "bruno", "hide": "1"}).status_code == 403
    assert not ChatMute.objects.exists()


@pytest.mark.django_db
def test_the_admin_lists_the_hidden_discussions(admin_client, player, make_player):
    bruno = make_player("bruno")
    table = gin_match(player, bruno)
    ChatMute.objects.create(table=table, user=player, muted=bruno)
    response = admin_client.get(reverse("admin:tables_chatmute_changelist"))
    assert response.status_code == 200 and "bruno" in response.content.decode()
