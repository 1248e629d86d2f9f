"""Ratings (issue 16): OpenSkill Plackett-Luce per game, updated once when a rated match ends; humans rated,
robots at their published fixed rating; teams rated as teams; ties; rated off changes nothing."""

import pytest
from django.core.management import call_command
from django.urls import reverse
from openskill.models import PlackettLuce

from accounts.models import MatchRecord, Rating
from accounts.stats import DEFAULT_MU, DEFAULT_SIGMA, Participant, RatedTeam, SeatLine, match_record
from engine import games
from engine.bots import strength
from tables import services
from tables.models import Game, Table
from tests.tables.helpers import create_table, play_out
from tests.tables.team_fakes import install

pytestmark = pytest.mark.django_db


def _record(table_id, teams, lines, game="gin"):
    from django.utils import timezone

    return match_record(table_id=table_id, game=game, finished=timezone.now(), low_is_better=True, lines=lines,
                        rated_teams=teams)


def _line(user, position, place):
    return SeatLine(user_id=user.pk, position=position, place=place, won=place == 1)


def test_heads_up_the_winner_climbs_and_the_loser_falls(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    teams = [RatedTeam([Participant(user_id=alice.pk)], 1), RatedTeam([Participant(user_id=bruno.pk)], 2)]
    assert _record(1, teams, [_line(alice, 0, 1), _line(bruno, 1, 2)])
    a, b = Rating.objects.get(user=alice, game="gin"), Rating.objects.get(user=bruno, game="gin")
    assert a.mu > DEFAULT_MU > b.mu
    assert a.sigma < DEFAULT_SIGMA and b.sigma < DEFAULT_SIGMA
    assert a.score == pytest.approx(a.mu - 3 * a.sigma)
    assert (a.matches, b.matches) == (1, 1)
    record = MatchRecord.objects.get(user=alice)
    assert record.rated and record.mu_before == DEFAULT_MU and record.mu_after == pytest.approx(a.mu)


def test_a_tie_moves_equal_players_alike(make_player):
    alice, bruno, chloe = make_player("alice"), make_player("bruno"), make_player("chloe")
    teams = [RatedTeam([Participant(user_id=alice.pk)], 1), RatedTeam([Participant(user_id=bruno.pk)], 1),
             RatedTeam([Participant(user_id=chloe.pk)], 3)]
    _record(2, teams, [_line(alice, 0, 1), _line(bruno, 1, 1), _line(chloe, 2, 3)])
    a, b, c = (Rating.objects.get(user=u, game="gin") for u in (alice, bruno, chloe))
    assert a.mu == pytest.approx(b.mu) and a.sigma == pytest.approx(b.sigma)
    assert a.mu > DEFAULT_MU > c.mu


def test_a_ranking_of_three_orders_the_ratings(make_player):
    players = [make_player(n) for n in ("alice", "bruno", "chloe")]
    teams = [RatedTeam([Participant(user_id=p.pk)], place) for place, p in enumerate(players, start=1)]
    _record(3, teams, [_line(p, i, i + 1) for i, p in enumerate(players)])
    mus = [Rating.objects.get(user=p, game="gin").mu for p in players]
    assert mus[0] > mus[1] > mus[2]


def test_partners_are_rated_as_a_team(make_player):
    a, b, c, d = (make_player(n) for n in ("alice", "bruno", "chloe", "denis"))
    teams = [RatedTeam([Participant(user_id=a.pk), Participant(user_id=c.pk)], 1),
             RatedTeam([Participant(user_id=b.pk), Participant(user_id=d.pk)], 2)]
    _record(4, teams, [_line(a, 0, 1), _line(b, 1, 2), _line(c, 2, 1), _line(d, 3, 2)], game="canasta")
    r = {u.username: Rating.objects.get(user=u, game="canasta") for u in (a, b, c, d)}
    assert r["alice"].mu == pytest.approx(r["chloe"].mu)
    assert r["bruno"].mu == pytest.approx(r["denis"].mu)
    assert r["alice"].mu > DEFAULT_MU > r["bruno"].mu


def test_robots_play_at_their_published_rating_and_are_not_rated(make_player):
    alice = make_player("alice")
    mu, sigma = strength.bot_rating("gin", 3)
    teams = [RatedTeam([Participant(user_id=alice.pk)], 1), RatedTeam([Participant(mu=mu, sigma=sigma)], 2)]
    _record(5, teams, [_line(alice, 0, 1)])
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating(mu=mu, sigma=sigma)]], ranks=[1, 2])[0][0]
    mine = Rating.objects.get(user=alice, game="gin")
    assert mine.mu == pytest.approx(expected.mu) and mine.sigma == pytest.approx(expected.sigma)
    assert Rating.objects.count() == 1
    assert strength.bot_rating("gin", 3) == (mu, sigma)


def test_recording_twice_rates_once(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    teams = [RatedTeam([Participant(user_id=alice.pk)], 1), RatedTeam([Participant(user_id=bruno.pk)], 2)]
    lines = [_line(alice, 0, 1), _line(bruno, 1, 2)]
    assert _record(6, teams, lines)
    once = Rating.objects.get(user=alice, game="gin").mu
    assert not _record(6, teams, lines)
    assert Rating.objects.get(user=alice, game="gin").mu == once
    assert Rating.objects.get(user=alice, game="gin").matches == 1


def _rated_table(player, slug="gin", seats=2, bots=None, options=None):
    table = create_table(player, slug, seats=seats, bots=bots or {1: 2}, stake=0, options=options, start=False)
    Table.objects.filter(pk=table.pk).update(rated=True)
    services.table_start(table=table, user=player)
    return play_out(table)


def test_a_rated_table_rates_its_human_when_the_match_ends(player):
    table = _rated_table(player, options={"match": "1"})
    rating = Rating.objects.get(user=player, game="gin")
    won = 0 in games.get("gin").result(table.state)["winners"]
    assert (rating.mu > DEFAULT_MU) == won
    assert rating.matches == 1
    assert MatchRecord.objects.get(user=player).rated


def test_an_unrated_table_changes_no_rating(player):
    play_out(create_table(player, "gin", seats=2, bots={1: 2}, stake=0, options={"match": "1"}))
    assert MatchRecord.objects.filter(user=player, rated=False).count() == 1
    assert not Rating.objects.exists()


def test_a_rated_team_table_rates_the_human_with_his_robot_partner(player, monkeypatch):
    install(monkeypatch, "thanasis", points=0, jokers=False)
    table = _rated_table(player, "thanasis", seats=4, bots={1: 1, 2: 3, 3: 1})
    result = games.get("thanasis").result(table.state)
    rating = Rating.objects.get(user=player, game="thanasis")
    model = PlackettLuce()
    team = [model.rating(), model.rating(*strength.bot_rating("thanasis", 3))]
    other = [model.rating(*strength.bot_rating("thanasis", 1)), model.rating(*strength.bot_rating("thanasis", 1))]
    ranks = [1, 2] if 0 in result["winners"] else [2, 1]
    expected = model.rate([team, other], ranks=ranks)[0][0]
    assert rating.mu == pytest.approx(expected.mu) and rating.sigma == pytest.approx(expected.sigma)


def test_backfill_rates_a_rated_match_as_its_end_did(player):
    _rated_table(player, options={"match": "1"})
    live = Rating.objects.get(user=player, game="gin")
    MatchRecord.objects.all().delete()
    Rating.objects.all().delete()
    call_command("backfill_stats")
    call_command("backfill_stats")
    again = Rating.objects.get(user=player, game="gin")
    assert (again.mu, again.sigma, again.matches) == (pytest.approx(live.mu), pytest.approx(live.sigma), 1)


def test_the_creation_form_offers_a_rated_table_and_the_lobby_marks_it(player_client, player):
    html = player_client.get(reverse("tables:lobby") + "?jeu=gin").content.decode()
    assert "Partie classée" in html and 'name="rated"' in html
    response = player_client.post(reverse("tables:new"), {
        "table_type": "friends", "game": "gin", "seats_count": 2, "seat_1": "human", "turn_timer_s": 30,
        "stake": 0, "rated": "on", "opt_match": "1"})
    assert response.status_code == 302
    table = Table.objects.get(host=player)
    assert table.rated and not table.private
    lobby = player_client.get(reverse("tables:lobby")).content.decode()
    assert "classée" in lobby and 'data-testid="rated-badge"' in lobby


def test_unticked_the_table_is_not_rated(player_client, player):
    player_client.post(reverse("tables:new"), {
        "table_type": "friends", "game": Game.objects.get(slug="gin").slug, "seats_count": 2, "seat_1": "2",
        "turn_timer_s": 30, "stake": 0, "private": "on", "opt_match": "1"})
    assert Table.objects.get(host=player).rated is False
