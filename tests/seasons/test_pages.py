"""The seasons' pages: the games, a game's current season (opened on demand) with its leagues, the player's own
line stated and highlighted, the zones in words; a past season's outcomes; the links from the leaderboards and
the player's page. In French, with no inline style (the CSP)."""

import re
from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from seasons import services
from seasons.models import Membership, Season, SeasonResult, Tier
from tests.seasons.test_services import PARIS, member

pytestmark = pytest.mark.django_db


def logged(user) -> Client:
    client = Client()
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    text = response.content.decode()
    assert "style=" not in text and "<script>" not in text
    return text


def test_the_current_season_opens_on_demand_and_says_where_i_am(make_player):
    people = [make_player(f"joueur{i}") for i in range(7)]
    season = services.current("rami")
    for i, person in enumerate(people):  # joueur0 first … joueur6 last, all in Or
        member(season, person, Tier.GOLD, [1] * (7 - i) + [2] * 5, joined_minutes=i)
    html = page(logged(people[3]), "/saisons/rami/")
    assert f"Saison {season.number} du Rami (13 cartes)" in html
    assert "Tu es <strong>4e</strong> de la ligue <strong>Or</strong>" in html
    assert "tu resterais en ligue Or" in html
    mine = re.search(r'<tr class="[^"]*is-me[^"]*" aria-current="true">(.*?)</tr>', html, re.S).group(1)
    assert "joueur3" in mine and "(toi)" in mine
    # The zones in words: 20 % of 7 go up (2), 20 % down (1)
    assert html.count("Zone de montée") == 2 and html.count("Zone de descente") == 1
    assert "Ligue Élite" in html and "Personne dans cette ligue pour l'instant." in html
    assert "Les règles des saisons" in html and "au moins 5 parties classées" in html
    assert '<th scope="col">Rang</th>' in html and "<caption" in html

    first = page(logged(people[0]), "/saisons/rami/")
    assert "Tu es <strong>1er</strong> de la ligue <strong>Or</strong>" in first
    assert "tu monterais en ligue Diamant" in first


def test_a_newcomer_is_told_where_he_will_enter(make_player, client):
    alice = make_player("alice")
    html = page(logged(alice), "/saisons/gin/")
    assert Season.objects.filter(game="gin", closed_at__isnull=True).count() == 1  # opened by the page
    assert "Tu n'es pas encore dans une ligue cette saison" in html and "ligue <strong>Bronze</strong>" in html
    assert "Connecte-toi" in page(client, "/saisons/gin/")
    assert client.get("/saisons/pas-un-jeu/").status_code == 404


def test_a_past_season_shows_each_outcome(make_player):
    start = datetime(2026, 1, 1, tzinfo=PARIS)
    season = Season.objects.create(game="gin", number=1, starts_at=start, ends_at=datetime(2026, 4, 1, tzinfo=PARIS))
    people = [make_player(f"joueur{i}") for i in range(5)]
    for i, person in enumerate(people):
        member(season, person, Tier.SILVER, [1] * (5 - i) + [2] * 5, joined_minutes=i)
    services.close(season.pk, now=season.ends_at)
    client = logged(people[4])
    html = page(client, "/saisons/gin/1/")
    assert "Saison 1 du Gin Rami (terminée)" in html and "Du 1er janvier 2026 au 31 mars 2026" in html
    assert "Tu as fini <strong>5e</strong> de la ligue <strong>Argent</strong>" in html
    assert "relégué en ligue Bronze" in html
    assert "Promu" in html and "Maintenu" in html and "Relégué" in html
    # The current season links to it; a season still running has no past page
    current = page(client, "/saisons/gin/")
    assert "/saisons/gin/1/" in current and "Saison 2 du Gin Rami" in current
    assert client.get("/saisons/gin/2/").status_code == 302
    assert client.get("/saisons/gin/9/").status_code == 404


def test_the_list_and_the_links_from_the_leaderboards_and_the_player_page(make_player, client):
    alice = make_player("alice")
    season = services.current("thanasis")
    member(season, alice, Tier.DIAMOND, [1, 2])
    html = page(logged(alice), "/saisons/")
    assert "Saisons et ligues" in html and 'href="/saisons/thanasis/"' in html and "Diamant" in html
    assert 'href="/saisons/"' in page(client, "/classement/")
    assert 'href="/saisons/thanasis/"' in page(client, "/classement/thanasis/")
    profile = page(client, "/joueurs/alice/")
    assert "Ligues de la saison" in profile and "ligue Diamant, 1er sur 1" in profile


def test_the_pages_count_what_the_results_say(make_player):
    """Standings are sums of the rows: a row added shows at once."""
    alice, bruno = make_player("alice"), make_player("bruno")
    season = services.current("gin")
    member(season, alice, Tier.BRONZE, [2])
    member(season, bruno, Tier.BRONZE, [1])
    assert "Tu es <strong>2e</strong>" in page(logged(alice), "/saisons/gin/")
    for table in (1, 2):
        SeasonResult.objects.create(season=season, user=alice, table_id=table, place=1, sides=2, points=3, won=True,
                                    finished=timezone.now() - timedelta(minutes=table))
    assert "Tu es <strong>1er</strong>" in page(logged(alice), "/saisons/gin/")
    assert Membership.objects.filter(season=season).count() == 2
