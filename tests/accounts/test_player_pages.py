"""The players' public pages (issue 16): « /joueurs/<pseudo>/ » and the leaderboards « /classement/ », in
French, read from the stored statistics; unknown names are a 404, never a 500."""

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.links import replay_url
from accounts.models import MatchRecord, PlayerGameStats, Rating
from accounts.services import bots_ensure
from accounts.stats import Participant, RatedTeam, SeatLine, match_record
from tests.tables.helpers import create_table, play_out

pytestmark = pytest.mark.django_db


def _rate(table_id, ranking, game="gin"):
    teams = [RatedTeam([Participant(user_id=u.pk)], place) for place, u in enumerate(ranking, start=1)]
    lines = [SeatLine(user_id=u.pk, position=i, place=i + 1, won=i == 0, rounds=2, points=10 * i, best_round=i,
                      token_delta=10 if i == 0 else -10) for i, u in enumerate(ranking)]
    match_record(table_id=table_id, game=game, finished=timezone.now(), low_is_better=True, lines=lines,
                 rated_teams=teams)


def test_the_profile_shows_per_game_stats_and_the_last_matches(client, player):
    tables = [play_out(create_table(player, "gin", seats=2, bots={1: 1}, stake=10, options={"match": "1"}))
              for _ in range(2)]
    html = client.get(reverse("player_profile", args=[player.username])).content.decode()
    assert "alice" in html and "Par jeu" in html and "Dernières parties" in html
    assert "Gin Rami" in html and "Points par manche" in html and "Meilleure manche" in html
    assert "Gins" in html  # the family's counters, named by the engine
    stats = PlayerGameStats.objects.get(user=player, game="gin")
    assert f'data-testid="matches">{stats.matches}<' in html
    assert f'data-testid="tokens-won">{stats.tokens_won}<' in html
    assert f'data-testid="tokens-lost">{stats.tokens_lost}<' in html
    for table in tables:  # « Revoir »: the table's rounds, replayed
        assert f'href="{reverse("tables:replays", args=[table.pk])}"' in html
    assert html.count("Revoir<span") == 2
    assert "non classé" in html


def test_the_profile_lists_at_most_twenty_matches(client, player):
    for table_id in range(1, 26):
        MatchRecord.objects.create(user=player, table_id=table_id, game="thanasis", finished=timezone.now(),
                                   position=0, place=1, won=True, rounds=3, points=12)
    html = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert html.count("Revoir<span") == 20
    assert "/tables/25/" in html and "/tables/5/" not in html


def test_an_unknown_or_robot_name_is_a_404(client, db):
    bots = bots_ensure()
    for name in ("personne", bots[3].username):
        response = client.get(reverse("player_profile", args=[name]))
        assert response.status_code == 404
        assert "introuvable" in response.content.decode().lower() or "n'existe" in response.content.decode()


def test_a_player_without_a_match_gets_a_page_saying_so(client, player):
    html = client.get("/joueurs/alice/").content.decode()
    assert "n'a pas encore terminé de partie" in html and "Aucune partie terminée" in html


def test_my_account_page_links_my_public_page(player_client):
    html = player_client.get(reverse("accounts:profile")).content.decode()
    assert 'href="/joueurs/alice/"' in html
    assert 'href="/classement/"' in html  # the header's « Classement »


def test_the_leaderboard_lists_the_top_and_my_rank(player_client, player, make_player):
    others = [make_player(name) for name in ("bruno", "chloe")]
    _rate(1, [others[0], player, others[1]])
    html = player_client.get(reverse("leaderboard", args=["gin"])).content.decode()
    assert "Classement du Gin Rami" in html
    assert html.index("bruno") < html.index(">alice<") < html.index("chloe")
    assert "Ta place : <strong>2<sup>e</sup></strong>" in html
    assert 'href="/joueurs/bruno/"' in html
    assert "μ − 3σ" in html


def test_the_leaderboard_keeps_the_top_hundred(client, make_player, settings):
    from accounts import public_views

    settings.DEBUG = False
    public_views_size = public_views.LEADERBOARD_SIZE
    players = [make_player(f"joueur{i:03d}") for i in range(public_views_size + 3)]
    for index, user in enumerate(players):
        Rating.objects.create(user=user, game="thanasis", mu=25 + index / 10, sigma=3, score=16 + index / 10)
    html = client.get(reverse("leaderboard", args=["thanasis"])).content.decode()
    assert html.count('href="/joueurs/joueur') == public_views_size
    assert "joueur102" in html and "joueur000" not in html


def test_a_player_outside_the_top_still_sees_his_rank(client, make_player):
    players = [make_player(f"j{i}") for i in range(4)]
    for index, user in enumerate(players):
        Rating.objects.create(user=user, game="gin", mu=30 - index, sigma=2, score=24 - index)
    from accounts import public_views

    client.force_login(players[3], backend="accounts.backends.HumanOnlyBackend")
    original = public_views.LEADERBOARD_SIZE
    public_views.LEADERBOARD_SIZE = 2
    try:
        html = client.get(reverse("leaderboard", args=["gin"])).content.decode()
    finally:
        public_views.LEADERBOARD_SIZE = original
    assert "Ta place : <strong>4<sup>e</sup></strong>" in html
    assert 'href="/joueurs/j3/"' not in html


def test_equal_scores_share_a_rank(client, make_player):
    for name in ("a1", "a2", "a3"):
        Rating.objects.create(user=make_player(name), game="gin", mu=25, sigma=2, score=19 if name != "a3" else 10)
    html = client.get(reverse("leaderboard", args=["gin"])).content.decode()
    assert html.count("<td>1</td>") == 2 and "<td>3</td>" in html


def test_the_leaderboard_index_and_an_unknown_game(client, db):
    html = client.get(reverse("leaderboards")).content.decode()
    assert "Classement" in html and 'href="/classement/thanasis/"' in html and "Partie classée" in html
    assert client.get("/classement/belote/").status_code == 404
    anonymous = client.get(reverse("leaderboard", args=["gin"])).content.decode()
    assert "Personne n'est encore classé au Gin Rami" in anonymous


def test_every_live_game_page_links_its_leaderboard(client, db):
    html = client.get(reverse("rules_page", args=["thanasis"])).content.decode()
    assert 'href="/classement/thanasis/"' in html


def test_the_replay_link_is_the_replay_page():
    assert replay_url(7) == "/tables/7/revoir/"


@pytest.mark.parametrize("path", ["/joueurs/%00/", "/joueurs/" + "x" * 300 + "/", "/joueurs/a%0Ab/",
                                  "/joueurs/%F0%9F%83%8F/", "/classement/%00/", "/classement/x" * 3])
def test_odd_addresses_are_404s_not_500s(client, db, path):
    assert client.get(path).status_code == 404


def test_the_admin_lists_records_stats_and_ratings(admin_client, player):
    play_out(create_table(player, "gin", seats=2, bots={1: 1}, stake=0, options={"match": "1"}))
    Rating.objects.create(user=player, game="gin", mu=25, sigma=8, score=1)
    for model in ("matchrecord", "playergamestats", "rating"):
        assert admin_client.get(f"/admin/accounts/{model}/").status_code == 200


def test_the_profile_says_1er_for_the_first_place(client, make_player):
    first, second = make_player("chloe"), make_player("denis")
    _rate(901, [first, second])
    assert "(1<sup>er</sup>)" in client.get(reverse("player_profile", args=["chloe"])).content.decode()
    assert "(2<sup>e</sup>)" in client.get(reverse("player_profile", args=["denis"])).content.decode()
