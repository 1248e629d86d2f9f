"""The tournaments' pages: the list, a tournament's page (public, or private behind its invitation link),
registration from the page, a tournament between friends created by a player, and the live standings socket."""

from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from tables.models import Game
from tests.tables.helpers import play_out
from tournaments import services
from tournaments.models import Entry, Match, Tournament

pytestmark = pytest.mark.django_db


def public(**settings) -> Tournament:
    return services.tournament_create(name="Grand tournoi de Thanasis", game=Game.objects.get(slug="thanasis"),
                                      starts_at=timezone.now() + timedelta(hours=2), **settings)


def logged(user) -> Client:
    client = Client()
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


def test_the_list_and_a_page_in_french_for_anyone(client):
    tournament = public()
    page = client.get("/tournois/").content.decode()
    assert "Grand tournoi de Thanasis" in page and "Système suisse" in page and "Buchholz" in page
    page = client.get(f"/tournois/{tournament.pk}/").content.decode()
    assert "Inscriptions ouvertes" in page and "Connecte-toi" in page
    assert 'ws-connect="/ws/tournois/' in page and "style=" not in page


def test_a_player_registers_from_the_page_and_sees_himself_in_the_standings(make_player):
    tournament = public(entry_stake=10)
    alice = make_player("alice")
    client = logged(alice)
    answer = client.post(f"/tournois/{tournament.pk}/inscription/", follow=True).content.decode()
    assert "Tu es inscrit" in answer and "Me désinscrire" in answer
    assert Entry.objects.filter(tournament=tournament, user=alice).exists()
    assert 'class="mine"' in answer


def test_a_partnership_game_asks_for_the_partner_by_pseudo(make_player):
    tournament = services.tournament_create(name="Thunee en paires", game=Game.objects.get(slug="thunee"),
                                            starts_at=timezone.now() + timedelta(hours=2))
    alice, bruno = make_player("alice"), make_player("bruno")
    client = logged(alice)
    assert "Pseudo de ton partenaire" in client.get(f"/tournois/{tournament.pk}/").content.decode()
    answer = client.post(f"/tournois/{tournament.pk}/inscription/", {"partner": "personne"}, follow=True)
    assert "Aucun joueur ne porte ce pseudo" in answer.content.decode()
    client.post(f"/tournois/{tournament.pk}/inscription/", {"partner": "Bruno"})
    entry = Entry.objects.get(tournament=tournament)
    assert entry.partner == bruno and not entry.partner_confirmed
    partner = logged(bruno)
    page = partner.get(f"/tournois/{tournament.pk}/").content.decode()
    assert "alice veut jouer ce tournoi avec toi" in page and "Accepter" in page
    partner.post(f"/tournois/{tournament.pk}/partenaire/", {"answer": "accept"})
    entry.refresh_from_db()
    assert entry.partner_confirmed


def test_a_tournament_between_friends_is_reached_by_its_link_only(make_player):
    host, friend, stranger = make_player("hote"), make_player("ami"), make_player("inconnu")
    client = logged(host)
    starts = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    answer = client.post("/tournois/nouveau/", {
        "name": "Entre nous", "game": "rami", "format": "swiss", "table_size": "4", "rounds": "3", "advance": "1",
        "arena_minutes": "60", "starts_at": starts, "entry_stake": "0", "prizes": "first", "absent": "autoplay",
        "rated": "on"}, follow=True)
    tournament = Tournament.objects.get(name="Entre nous")
    assert tournament.private and tournament.created_by == host
    page = answer.content.decode()
    assert f"/tournois/invitation/{tournament.invite_token}/" in page
    assert logged(stranger).get(f"/tournois/{tournament.pk}/").status_code == 404
    assert "Entre nous" not in logged(stranger).get("/tournois/").content.decode()
    invited = logged(friend)
    invited.get(f"/tournois/invitation/{tournament.invite_token}/")
    invited.post(f"/tournois/{tournament.pk}/inscription/")
    assert Entry.objects.filter(tournament=tournament, user=friend).exists()
    assert "Entre nous" in invited.get("/tournois/").content.decode()


def test_a_bad_form_says_why_in_french_and_creates_nothing(make_player):
    client = logged(make_player("hote"))
    past = (timezone.localtime() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    answer = client.post("/tournois/nouveau/", {
        "name": "Trop tard", "game": "rami", "format": "knockout", "table_size": "4", "rounds": "3", "advance": "1",
        "arena_minutes": "60", "starts_at": past, "entry_stake": "0", "prizes": "first", "absent": "autoplay"})
    assert answer.status_code == 200
    assert "Le début doit être dans le futur." in answer.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_standings_are_pushed_to_an_open_page_when_a_result_comes(make_player, settings):
    from channels.db import database_sync_to_async
    from django.contrib.auth.models import AnonymousUser

    from tournaments.consumers import TournamentConsumer

    settings.CELERY_TASK_ALWAYS_EAGER = True

    def prepare():
        tournament = public(rounds=1)
        for name in ("alice", "bruno"):
            services.register(tournament_id=tournament.pk, user=make_player(name))
        services.start(tournament_id=tournament.pk)
        return tournament, Match.objects.get(tournament=tournament).table

    tournament, table = await database_sync_to_async(prepare)()
    comm = WebsocketCommunicator(TournamentConsumer.as_asgi(), f"/ws/tournois/{tournament.pk}/")
    comm.scope["user"] = AnonymousUser()
    comm.scope["url_route"] = {"kwargs": {"tournament_id": tournament.pk}}
    assert (await comm.connect())[0]
    first = await comm.receive_from(timeout=10)
    assert 'id="tournament-live"' in first and "hx-swap-oob" in first and "(1er)" not in first
    await database_sync_to_async(play_out)(table)
    pushed = ""
    for _ in range(5):  # the result, then the tournament's end: each pushes the live part again
        pushed = await comm.receive_from(timeout=10)
        if "(1er)" in pushed:
            break
    assert "(1er)" in pushed  # the finished table's places, drawn again from the stored result
    await comm.disconnect()


def test_a_players_page_links_to_his_tournaments_with_his_place(make_player, client):
    from tests.tables.helpers import play_out as finish

    tournament = public(rounds=1)
    alice, bruno = make_player("alice"), make_player("bruno")
    for person in (alice, bruno):
        services.register(tournament_id=tournament.pk, user=person)
    services.start(tournament_id=tournament.pk)
    finish(Match.objects.get(tournament=tournament).table)
    services.advance(tournament_id=tournament.pk)
    assert "/tournois/joueur/alice/" in client.get("/joueurs/alice/").content.decode()
    page = client.get("/tournois/joueur/alice/").content.decode()
    assert "Grand tournoi de Thanasis" in page and "sur 2" in page
    assert client.get("/tournois/joueur/personne/").status_code == 404


def test_anyone_logged_in_watches_a_public_tournaments_table_not_a_private_ones(make_player):
    for private, status in ((False, 200), (True, 302)):
        tournament = public(rounds=1, private=private)
        a, b = make_player(f"a{int(private)}"), make_player(f"b{int(private)}")
        for person in (a, b):
            services.register(tournament_id=tournament.pk, user=person)
        services.start(tournament_id=tournament.pk)
        table = Match.objects.get(tournament=tournament).table
        watcher = logged(make_player(f"spectateur{int(private)}"))
        assert watcher.get(f"/tables/{table.pk}/regarder/").status_code == status
