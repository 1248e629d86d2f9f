"""Seasons through the real tables and services: a rated match counted for its humans (once), an unrated one not;
the entry into a league (by rating, by the previous season); a season's end (promotions, relegations, the next
season, the notifications, idempotent sweeps); the points and the dates."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from accounts.models import Notification, Rating, User
from engine import games
from seasons import rules, services, tasks
from seasons.models import Membership, Season, SeasonResult, SeasonSettings, Tier
from tables import services as table_services
from tables import signals
from tables.models import Game, Table
from tests.tables.helpers import play_out

pytestmark = pytest.mark.django_db
PARIS = rules.SEASON_TZ


def played(alice, bruno, *, rated=True, slug="gin") -> Table:
    """A match of Gin to one round: alice at place 0, bruno at place 1, an Expert robot at place 2."""
    table = table_services.table_create(host=alice, game=Game.objects.get(slug=slug), seats_count=3,
                                        bot_levels={2: 3}, options={"match": "1"}, stake=0, turn_timer_s=60,
                                        private=True, rated=rated)
    table_services.seat_join(table=table, user=bruno)
    table_services.table_start(table=table, user=alice)
    table = play_out(table)
    assert table.status == Table.Status.FINISHED
    return table


def places_of(table: Table) -> dict[int, int]:
    engine = games.get(table.game.slug)
    return engine.match_places(table.state, engine.result(table.state))


def test_a_rated_match_counts_once_for_its_humans_and_not_its_robot(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = played(alice, bruno)
    season = Season.objects.get(game="gin")
    assert season.number == 1 and not season.closed and season.starts_at <= timezone.now() < season.ends_at
    places = places_of(table)
    rows = {r.user_id: r for r in SeasonResult.objects.filter(season=season)}
    assert set(rows) == {alice.pk, bruno.pk}  # the robot is no member
    for seat, user in ((0, alice), (1, bruno)):
        assert rows[user.pk].place == places[seat] and rows[user.pk].sides == 3
        assert rows[user.pk].points == rules.match_points(places[seat], 3)
        assert rows[user.pk].won == (places[seat] == 1)
    assert set(Membership.objects.filter(season=season).values_list("user_id", flat=True)) == {alice.pk, bruno.pk}
    robot = next(s.user_id for s in table.seats.all() if s.is_bot)
    assert not Membership.objects.filter(user_id=robot).exists()

    # The end told again (a retried task, a second sender): counted once
    signals.match_finished.send(sender=Table, table=table, places=places)
    assert SeasonResult.objects.filter(season=season).count() == 2
    totals = services.totals(season)
    assert totals[alice.pk]["played"] == 1 and totals[alice.pk]["points"] == rows[alice.pk].points

    # A second match adds up
    played(alice, bruno)
    assert services.totals(season)[alice.pk]["played"] == 2
    assert Season.objects.filter(game="gin").count() == 1


def test_an_unrated_match_does_not_count(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    played(alice, bruno, rated=False)
    assert not SeasonResult.objects.exists() and not Membership.objects.exists()


def rated_table(users: list, slug: str, seats: int, bots: dict) -> Table:
    """A rated table seated but not played: the signal is then sent by the test with the places it wants."""
    table = table_services.table_create(host=users[0], game=Game.objects.get(slug=slug), seats_count=seats,
                                        bot_levels=bots, stake=0, turn_timer_s=60, private=True, rated=True)
    for user in users[1:]:
        table_services.seat_join(table=table, user=user)
    return Table.objects.get(pk=table.pk)


def test_partners_both_get_their_team_points(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = rated_table([alice, bruno], "thunee", 4, {1: 2, 3: 2})
    seats = {s.user_id: s.position for s in table.seats.all() if not s.is_bot}
    assert sorted(seats.values()) == [0, 2]  # partners face to face
    signals.match_finished.send(sender=Table, table=table, places={0: 1, 1: 2, 2: 1, 3: 2})
    rows = list(SeasonResult.objects.filter(user__in=[alice, bruno]))
    assert [(r.points, r.won, r.sides) for r in rows] == [(3, True, 2), (3, True, 2)]


def test_match_points_by_place():
    assert [rules.match_points(p, 2) for p in (1, 2)] == [3, 0]
    assert [rules.match_points(p, 3) for p in (1, 2, 3)] == [3, 2, 0]
    assert [rules.match_points(p, 4) for p in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert [rules.match_points(p, 7) for p in (1, 2, 6, 7)] == [3, 3, 1, 0]  # 2.5 and 0.5 rounded up
    assert [rules.match_points(p, 3) for p in (1, 1, 3)] == [3, 3, 0]  # two winners share the first place


def test_seasons_follow_the_calendar_in_paris():
    start, end = rules.period(datetime(2026, 5, 17, 12, tzinfo=PARIS), 3)
    assert (start, end) == (datetime(2026, 4, 1, tzinfo=PARIS), datetime(2026, 7, 1, tzinfo=PARIS))
    # New Year's night, 00:30 in Paris, is still 23:30 UTC on December 31
    new_year = datetime(2026, 12, 31, 23, 30, tzinfo=UTC)
    assert rules.period(new_year, 3) == (datetime(2027, 1, 1, tzinfo=PARIS), datetime(2027, 4, 1, tzinfo=PARIS))
    assert rules.period(datetime(2026, 11, 3, tzinfo=PARIS), 1)[1] == datetime(2026, 12, 1, tzinfo=PARIS)
    assert rules.period(datetime(2026, 11, 3, tzinfo=PARIS), 12) == (datetime(2026, 1, 1, tzinfo=PARIS),
                                                                     datetime(2027, 1, 1, tzinfo=PARIS))


def test_a_newcomer_enters_by_his_rating(make_player):
    season = services.current("gin")
    people = {name: make_player(name) for name in ("elite", "diamant", "or", "argent", "faible", "nouveau")}
    for name, score in (("elite", 30), ("diamant", 23), ("or", 18), ("argent", 12.5), ("faible", 3)):
        Rating.objects.create(user=people[name], game="gin", mu=score + 3, sigma=1, score=score, matches=10)
    Rating.objects.create(user=people["nouveau"], game="rami", mu=40, sigma=1, score=37, matches=10)  # another game
    tiers = {name: services.join(season, user.pk).tier for name, user in people.items()}
    assert tiers == {"elite": Tier.ELITE, "diamant": Tier.DIAMOND, "or": Tier.GOLD, "argent": Tier.SILVER,
                     "faible": Tier.BRONZE, "nouveau": Tier.BRONZE}
    assert Membership.objects.get(user=people["elite"]).placed_by == Membership.PlacedBy.RATING
    # Entered once: a later rating changes nothing this season
    Rating.objects.filter(user=people["faible"]).update(score=40)
    assert services.join(season, people["faible"].pk).tier == Tier.BRONZE


def member(season: Season, user: User, tier: int, results: list[int], joined_minutes: int = 0) -> Membership:
    """A membership with one result row per place in `results` (two-player tables: 1 = a win, 3 points)."""
    m = Membership.objects.create(season=season, user=user, tier=tier,
                                  joined_at=season.starts_at + timedelta(minutes=joined_minutes))
    table = 10_000 * user.pk
    for index, place in enumerate(results):
        SeasonResult.objects.create(season=season, user=user, table_id=table + index, place=place, sides=2,
                                    points=rules.match_points(place, 2), won=place == 1,
                                    finished=season.starts_at + timedelta(hours=1))
    return m


def old_season(game="gin") -> Season:
    start = datetime(2026, 1, 1, tzinfo=PARIS)
    return Season.objects.create(game=game, number=1, starts_at=start, ends_at=datetime(2026, 4, 1, tzinfo=PARIS))


def test_the_end_of_a_season_promotes_and_relegates(make_player):
    settings = SeasonSettings.current()
    settings.promote_percent, settings.relegate_percent, settings.min_matches = 20, 20, 5
    settings.save()
    season = old_season()
    gold = [make_player(f"or{i}") for i in range(10)]
    # Ten players in Or. or0 has the most points but played 4 matches only: not promoted; or1 and or2 go up
    # (20 % of 10); or8 and or9, the last two, go down.
    wins_losses = [(4, 0), (3, 2), (3, 3), (2, 3), (2, 4), (1, 4), (1, 5), (0, 5), (0, 6), (0, 7)]
    for i, (won, lost) in enumerate(wins_losses):
        member(season, gold[i], Tier.GOLD, [1] * won + [2] * lost, joined_minutes=i)
    # Equal points and wins: the one with fewer matches first, then the earlier arrival
    ties = [make_player(f"bronze{i}") for i in range(3)]
    member(season, ties[0], Tier.BRONZE, [1] * 5 + [2] * 2, joined_minutes=1)
    member(season, ties[1], Tier.BRONZE, [1] * 5 + [2], joined_minutes=2)
    member(season, ties[2], Tier.BRONZE, [1] * 5 + [2], joined_minutes=3)
    elite = make_player("champion")
    member(season, elite, Tier.ELITE, [1] * 6)

    assert services.sweep(now=datetime(2026, 3, 31, 23, 59, tzinfo=PARIS)) == 0  # not over yet
    after = datetime(2026, 4, 1, 0, 1, tzinfo=PARIS)
    assert services.sweep(now=after) == 1
    season.refresh_from_db()
    assert season.closed_at == after

    outcome = {m.user.username: (m.rank, m.outcome, m.next_tier) for m in Membership.objects.filter(season=season)}
    Out = Membership.Outcome
    assert outcome["or0"] == (1, Out.MAINTAINED, Tier.GOLD)
    assert outcome["or1"] == (2, Out.PROMOTED, Tier.DIAMOND) and outcome["or2"] == (3, Out.PROMOTED, Tier.DIAMOND)
    assert [outcome[f"or{i}"][1] for i in range(3, 8)] == [Out.MAINTAINED] * 5
    assert outcome["or8"] == (9, Out.RELEGATED, Tier.SILVER) and outcome["or9"] == (10, Out.RELEGATED, Tier.SILVER)
    assert [outcome[f"bronze{i}"][0] for i in (1, 2, 0)] == [1, 2, 3]
    assert outcome["bronze1"][1] == Out.PROMOTED  # ceil(20 % of 3) = 1; Bronze relegates nobody
    assert {outcome[f"bronze{i}"][1] for i in (0, 2)} == {Out.MAINTAINED}
    assert outcome["champion"] == (1, Out.MAINTAINED, Tier.ELITE)  # nothing above the Élite
    stored = Membership.objects.get(season=season, user=gold[1])
    assert (stored.points, stored.played, stored.wins) == (9, 5, 3)

    # The next season is open, right after; every member was told once
    following = Season.objects.get(game="gin", number=2)
    assert following.starts_at == season.ends_at and following.ends_at == datetime(2026, 7, 1, tzinfo=PARIS)
    note = Notification.objects.get(user=gold[1])
    assert note.text == "Saison 1 du Gin Rami terminée : 2e de la ligue Or, tu montes en ligue Diamant."
    assert note.url == "/saisons/gin/1/"
    assert "tu descends en ligue Argent" in Notification.objects.get(user=gold[9]).text
    assert services.sweep(now=after + timedelta(minutes=1)) == 0
    assert not services.close(season.pk, now=after + timedelta(minutes=2))
    assert Notification.objects.count() == 14

    # Next season's leagues come from the outcomes, whatever the rating says
    Rating.objects.create(user=gold[9], game="gin", mu=40, sigma=1, score=37, matches=50)
    assert services.join(following, gold[9].pk).tier == Tier.SILVER
    assert services.join(following, gold[1].pk).tier == Tier.DIAMOND
    assert Membership.objects.get(season=following, user=gold[1]).placed_by == Membership.PlacedBy.PREVIOUS


def test_a_league_over_its_target_size_sends_its_idle_players_down_first(make_player):
    settings = SeasonSettings.current()
    settings.elite_size, settings.relegate_percent, settings.promote_percent, settings.min_matches = 4, 10, 20, 5
    settings.save()
    season = old_season()
    people = [make_player(f"elite{i}") for i in range(6)]
    member(season, people[0], Tier.ELITE, [1] * 6)
    member(season, people[1], Tier.ELITE, [1, 1, 1])  # 9 points but 3 matches: idle
    member(season, people[2], Tier.ELITE, [1] * 2 + [2] * 4)
    member(season, people[3], Tier.ELITE, [1] + [2] * 5)
    member(season, people[4], Tier.ELITE, [2] * 5)
    member(season, people[5], Tier.ELITE, [2])  # idle, last
    services.close(season.pk, now=season.ends_at)
    outcome = {m.user.username: m.outcome for m in Membership.objects.filter(season=season)}
    # 6 players for 4 places: two go down, the idle ones before elite4, last of the active players
    assert outcome == {"elite0": "maintained", "elite1": "relegated", "elite2": "maintained",
                       "elite3": "maintained", "elite4": "maintained", "elite5": "relegated"}


def test_a_match_after_the_end_closes_the_season_before_counting(make_player):
    season = old_season()
    alice, bruno = make_player("alice"), make_player("bruno")
    member(season, alice, Tier.BRONZE, [1] * 5)
    table = rated_table([alice, bruno], "gin", 2, {})
    Table.objects.filter(pk=table.pk).update(finished_at=datetime(2026, 4, 2, tzinfo=PARIS))
    table.refresh_from_db()
    signals.match_finished.send(sender=Table, table=table, places={0: 1, 1: 2})
    season.refresh_from_db()
    assert season.closed and Membership.objects.get(season=season, user=alice).outcome == "promoted"
    following = Season.objects.get(game="gin", closed_at__isnull=True)
    assert following.number == 2
    assert Membership.objects.get(season=following, user=alice).tier == Tier.SILVER
    assert SeasonResult.objects.filter(season=following).count() == 2


def test_the_sweep_task_runs():
    assert tasks.sweep.run() is None
    ended = timezone.now() - timedelta(minutes=1)
    Season.objects.create(game="gin", number=1, starts_at=ended - timedelta(days=90), ends_at=ended)
    tasks.sweep.run()
    assert Season.objects.filter(game="gin", closed_at__isnull=True).get().number == 2
