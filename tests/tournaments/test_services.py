"""Tournaments through the real services, tables and ledger: registration (alone or as a pair), a Swiss
tournament's rounds and byes, a knock-out to its final, an Arena, forfeits, cancellation, and the prizes."""

from datetime import timedelta
from itertools import combinations

import pytest
from django.utils import timezone

from accounts.services import player_account, user_balance
from tables.models import Game, Table
from tests.tables.helpers import assert_ledger_conserved, play_out
from tournaments import services, standings
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Round, Tournament

pytestmark = pytest.mark.django_db


def new(slug="thanasis", **settings) -> Tournament:
    settings = {"table_size": 2, "format": Tournament.Format.SWISS, "rounds": 3, **settings}
    return services.tournament_create(name="Tournoi du dimanche", game=Game.objects.get(slug=slug),
                                      starts_at=timezone.now() + timedelta(hours=1), **settings)


def play_round(tournament: Tournament) -> None:
    """Every open table of the tournament played to its end (the autoplay for each player), then the next step."""
    for match in Match.objects.filter(tournament=tournament, places__isnull=True, table__isnull=False):
        assert play_out(match.table).status == Table.Status.FINISHED
        match.refresh_from_db()
        assert match.places is not None  # stored by the move that ended the match
    services.advance(tournament_id=tournament.pk)


def players(make_player, count: int, prefix="joueur"):
    return [make_player(f"{prefix}{i}") for i in range(count)]


def test_a_swiss_tournament_plays_its_rounds_with_byes_and_pays_its_prizes(make_player):
    tournament = new(rounds=3, entry_stake=10, prizes=[50, 30, 20])
    people = players(make_player, 5)
    before = {p.pk: user_balance(p) for p in people}
    for person in people:
        services.register(tournament_id=tournament.pk, user=person)
    assert services.register(tournament_id=tournament.pk, user=people[0]).user_id == people[0].pk  # twice is once
    assert Entry.objects.filter(tournament=tournament).count() == 5

    services.start(tournament_id=tournament.pk)
    for number in (1, 2, 3):
        round_ = Round.objects.get(tournament=tournament, number=number)
        matches = list(round_.matches.all())
        assert sorted(len(m.entries) for m in matches) == [1, 2, 2]  # two tables of two, one bye
        play_round(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    # Three different players had the bye, and nobody met the same opponent twice
    byes = [m.entries[0] for m in Match.objects.filter(tournament=tournament, table__isnull=True)]
    assert len(set(byes)) == 3
    pairs = [frozenset(m.entries) for m in Match.objects.filter(tournament=tournament, table__isnull=False)]
    assert len(pairs) == len(set(pairs)) == 6

    # Standings come from the stored results; the prize pool (50) went 25 / 15 / 10 by rank
    table = standings.compute(tournament)
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]
    assert all(a.points >= b.points for a, b in zip(table, table[1:], strict=False))
    entries = {e.pk: e.user_id for e in Entry.objects.filter(tournament=tournament)}
    won = {entries[s.entry]: user_balance(entries[s.entry]) - before[entries[s.entry]] for s in table}
    assert [won[entries[s.entry]] for s in table] == [15, 5, 0, -10, -10]
    assert assert_ledger_conserved() is None
    assert player_account(people[0]).balance == user_balance(people[0])

    # Advancing again changes nothing
    services.advance(tournament_id=tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 3


def test_pairs_register_together_in_a_partnership_game(make_player):
    tournament = new("canasta-tuiles", rounds=1)
    a, b, c, d = players(make_player, 4)
    with pytest.raises(TournamentError, match="par équipes"):
        services.register(tournament_id=tournament.pk, user=a)
    with pytest.raises(TournamentError, match="autre joueur"):
        services.register(tournament_id=tournament.pk, user=a, partner=a)
    entry = services.register(tournament_id=tournament.pk, user=a, partner=b)
    with pytest.raises(TournamentError, match="déjà inscrit"):
        services.register(tournament_id=tournament.pk, user=c, partner=b)
    assert services.register(tournament_id=tournament.pk, user=b, partner=d) == entry  # b is in already
    services.register(tournament_id=tournament.pk, user=c, partner=d)
    for partner in (b, d):  # each named partner accepts (nobody is entered, or charged, by another)
        services.partner_answer(tournament_id=tournament.pk, user=partner, accept=True)

    services.start(tournament_id=tournament.pk)
    match = Match.objects.get(tournament=tournament, table__isnull=False)
    seats = {s.position: s.user_id for s in match.table.seats.all()}
    first, second = (Entry.objects.get(pk=e) for e in match.entries)
    # partners face to face: seats 0 and 2, 1 and 3
    assert {seats[0], seats[2]} == set(first.user_ids()) and {seats[1], seats[3]} == set(second.user_ids())


def test_a_knockout_goes_to_its_final_and_the_final_makes_the_podium(make_player):
    tournament = new(format=Tournament.Format.KNOCKOUT, advance=1)
    people = players(make_player, 5)
    for person in people:
        services.register(tournament_id=tournament.pk, user=person)
    services.start(tournament_id=tournament.pk)
    rounds = 0
    while Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING:
        rounds += 1
        assert rounds < 6
        play_round(tournament)
    table = standings.compute(tournament)
    final = Round.objects.filter(tournament=tournament).order_by("-number").first().matches.get()
    winner = next(int(e) for e, p in final.places.items() if p == 1)
    assert table[0].entry == winner
    alive = Entry.objects.filter(tournament=tournament, eliminated_in__isnull=True).count()
    assert alive == 2  # the two finalists; everybody else went out in a round
    assert_ledger_conserved()


def test_an_arena_seats_players_again_until_its_time_is_up(make_player):
    tournament = new(format=Tournament.Format.ARENA, arena_minutes=30)
    people = players(make_player, 4)
    for person in people:
        services.register(tournament_id=tournament.pk, user=person)
    services.start(tournament_id=tournament.pk)
    assert Match.objects.filter(tournament=tournament, places__isnull=True).count() == 2
    play_round(tournament)  # after the results, everyone is seated again
    assert Match.objects.filter(tournament=tournament, places__isnull=True).count() == 2
    Tournament.objects.filter(pk=tournament.pk).update(started_at=timezone.now() - timedelta(minutes=31))
    play_round(tournament)  # time is up: the tables in play finish, nobody is seated again, it ends
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Match.objects.filter(tournament=tournament).count() == 4


def test_an_absent_player_forfeits_when_the_tournament_says_so(make_player):
    tournament = new(absent=Tournament.Absent.FORFEIT, rounds=1)
    here, away = players(make_player, 2)
    type(here).objects.filter(pk=here.pk).update(last_seen=timezone.now())
    for person in (here, away):
        services.register(tournament_id=tournament.pk, user=person)
    before = user_balance(away)
    services.start(tournament_id=tournament.pk)
    match = Match.objects.get(tournament=tournament)
    assert match.table.status == Table.Status.FINISHED  # the absent one left at once: the other won
    entry = services.entry_of(tournament, here)
    assert match.places[str(entry.pk)] == 1
    assert user_balance(away) == before  # a forfeit is not charged the site's abandon penalty
    services.advance(tournament_id=tournament.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_too_few_entries_cancel_the_tournament_and_refund_the_stakes(make_player):
    tournament = new(entry_stake=20)
    alone = make_player("seul")
    before = user_balance(alone)
    services.register(tournament_id=tournament.pk, user=alone)
    assert user_balance(alone) == before - 20
    services.start(tournament_id=tournament.pk)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.CANCELLED
    assert user_balance(alone) == before
    assert_ledger_conserved()


def test_registration_closes_at_the_start_and_withdrawal_refunds(make_player):
    tournament = new(entry_stake=10)
    a, b, c = players(make_player, 3)
    before = user_balance(a)
    services.register(tournament_id=tournament.pk, user=a)
    services.withdraw(tournament_id=tournament.pk, user=a)
    assert user_balance(a) == before and not Entry.objects.filter(tournament=tournament).exists()
    for person in (a, b):
        services.register(tournament_id=tournament.pk, user=person)
    services.start(tournament_id=tournament.pk)
    with pytest.raises(TournamentError, match="sont closes"):
        services.register(tournament_id=tournament.pk, user=c)
    with pytest.raises(TournamentError, match="commencé"):
        services.withdraw(tournament_id=tournament.pk, user=a)


def test_no_pair_meets_twice_in_a_swiss_of_four_player_tables(make_player):
    tournament = new(table_size=4, rounds=3)
    for person in players(make_player, 16):
        services.register(tournament_id=tournament.pk, user=person)
    services.start(tournament_id=tournament.pk)
    for _ in range(3):
        play_round(tournament)
    met = [frozenset(p) for m in Match.objects.filter(tournament=tournament, table__isnull=False)
           for p in combinations(m.entries, 2)]
    assert len(met) == len(set(met)) == 3 * 4 * 6


def test_a_schedule_announces_the_next_tournament_once(make_player):
    from datetime import datetime, time
    from zoneinfo import ZoneInfo

    from tournaments.models import Schedule

    template = new(format=Tournament.Format.ARENA, arena_minutes=45, entry_stake=5)
    Tournament.objects.filter(pk=template.pk).update(status=Tournament.Status.CANCELLED)
    schedule = Schedule.objects.create(name="Arène du soir", every=Schedule.Every.DAY, time=time(21, 0),
                                       template=template)
    now = datetime(2026, 12, 7, 18, 0, tzinfo=ZoneInfo("Europe/Paris"))
    made = services.schedules_due(now)
    assert [t.starts_at for t in made] == [datetime(2026, 12, 7, 21, 0, tzinfo=ZoneInfo("Europe/Paris"))]
    assert made[0].format == Tournament.Format.ARENA and made[0].entry_stake == 5 and not made[0].private
    assert services.schedules_due(now) == []  # once per start
    later = datetime(2026, 12, 7, 21, 30, tzinfo=ZoneInfo("Europe/Paris"))
    assert [t.starts_at.day for t in services.schedules_due(later)] == [8]
    assert Tournament.objects.filter(schedule=schedule).count() == 2


def test_the_tile_canasta_arena_tournament_plays_its_arena_matches(make_player):
    """A game whose engine has an Arena format of its own (tile Canasta: three deals) plays it at every table of
    an Arena tournament: the one-table Arena of the lobby is a case of the tournament's."""
    from engine import games

    tournament = new("canasta-tuiles", format=Tournament.Format.ARENA, options={"match_length": "10000"})
    assert tournament.options["match_length"] == games.get("canasta-tuiles").info.arena_options["match_length"]
    swiss = new("canasta-tuiles", options={"match_length": "10000"})
    assert swiss.options["match_length"] == "10000"  # the other formats keep the organiser's choice



def test_a_named_partner_pays_only_if_he_accepts_and_a_pair_he_never_answered_does_not_play(make_player):
    tournament = new("thunee", rounds=1, entry_stake=10)
    a, b, c, d, e, f = players(make_player, 6)
    start = {p.pk: user_balance(p) for p in (a, b, c, d, e, f)}
    services.register(tournament_id=tournament.pk, user=a, partner=b)
    assert user_balance(a) == start[a.pk] - 10 and user_balance(b) == start[b.pk]  # b not charged by a
    services.partner_answer(tournament_id=tournament.pk, user=b, accept=False)
    assert user_balance(a) == start[a.pk] and not Entry.objects.filter(tournament=tournament).exists()

    services.register(tournament_id=tournament.pk, user=a, partner=b)
    services.partner_answer(tournament_id=tournament.pk, user=b, accept=True)
    services.register(tournament_id=tournament.pk, user=c, partner=d)
    services.partner_answer(tournament_id=tournament.pk, user=d, accept=True)
    services.register(tournament_id=tournament.pk, user=e, partner=f)  # f never answers
    services.start(tournament_id=tournament.pk)
    assert Entry.objects.filter(tournament=tournament).count() == 2
    assert user_balance(e) == start[e.pk] and user_balance(f) == start[f.pk]
    assert user_balance(b) == start[b.pk] - 10
    assert_ledger_conserved()
