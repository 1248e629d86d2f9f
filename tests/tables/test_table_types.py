"""Table types (issue 14): friends, quick start (whoever waits, then robots), Arena (three rounds plus
tie-breaks, an entry stake won or lost)."""

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Counter
from accounts.services import counter_balance, user_balance
from engine import games
from tables import services, tasks
from tables.forms import TableCreateForm
from tables.models import Game, Table
from tests.tables.helpers import assert_ledger_conserved, play_out
from tests.tables.team_fakes import install

pytestmark = pytest.mark.django_db(transaction=True)


def _login(client, user):
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


def _quick(client, slug="thanasis"):
    response = client.post(reverse("tables:quick"), {"jeu": slug})
    assert response.status_code == 302
    return Table.objects.get(pk=int(response.url.strip("/").split("/")[-1]))


def _wait_is_over(table):
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    tasks.expire_turns()
    table.refresh_from_db()
    return table


@pytest.fixture
def robots_wait(settings):
    """The robots' turns are queued with a delay, which the suite's eager tasks never run: a match the wait filled
    with robots stays at its start. Played at once instead, they go on until a human must decide, and in Thanasis
    they may close every round before his first turn (the rules allow it), burn him and finish the match inside
    the sweep (1 deal in 150 or so, for a player left alone with three robots)."""
    settings.BOT_DELAY_SECONDS = 1


def test_quick_start_seats_players_together_then_fills_with_robots(make_player, client, settings, robots_wait):
    settings.QUICK_START_WAIT_SECONDS = 20
    alice, bruno = make_player("alice"), make_player("bruno")
    table = _quick(_login(client, alice))
    assert table.table_type == Table.Type.QUICK and table.status == Table.Status.WAITING
    assert not table.private and table.stake == 0
    assert table.seats_count == games.get("thanasis").info.default_players
    assert 19 <= (table.deadline - timezone.now()).total_seconds() <= 20
    assert _quick(_login(client, alice)) == table, "pressing again keeps my place"
    assert _quick(_login(client, bruno)) == table, "the next player joins the one waiting"
    tasks.expire_turns()
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING, "still within the wait"
    table = _wait_is_over(table)
    assert table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("position"))
    assert [s.user_id for s in seats[:2]] == [alice.pk, bruno.pk]
    assert all(s.bot_level == 2 for s in seats[2:])


def test_a_full_quick_start_table_starts_without_waiting(make_player, client):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = _quick(_login(client, alice), "gin")
    assert table.seats_count == 2
    assert _quick(_login(client, bruno), "gin") == table
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert _quick(_login(client, alice), "gin") != table, "a new quick start opens a new table"


def test_the_first_player_leaving_a_quick_start_hands_it_to_the_next(make_player, client, robots_wait):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = _quick(_login(client, alice))
    _quick(_login(client, bruno))
    services.seat_leave_waiting(table=table, user=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.host_id == bruno.pk
    assert _wait_is_over(table).status == Table.Status.PLAYING


def test_the_lobby_offers_a_quick_start_per_playable_game(player_client):
    html = player_client.get(reverse("tables:lobby")).content.decode()
    assert html.count("data-quick-start=") >= 2
    assert 'name="jeu" value="gin"' in html


def test_quick_start_of_an_unknown_game_says_so(player_client):
    response = player_client.post(reverse("tables:quick"), {"jeu": "nope"}, follow=True)
    assert "pas encore jouable" in response.content.decode()


def test_arena_forces_the_three_round_format_and_an_entry_stake(monkeypatch, player):
    fake = install(monkeypatch, "thanasis")
    game = Game.objects.get(slug="thanasis")
    table = services.table_create(host=player, game=game, seats_count=4, bot_levels={1: 2, 2: 2, 3: 2},
                                  options={"match_length": "10000"}, stake=20, private=True,
                                  table_type=Table.Type.ARENA)
    assert table.options["match_length"] == "3" and not table.private
    with pytest.raises(services.TableError, match="mise d'entrée"):
        services.table_create(host=player, game=game, seats_count=4, stake=0, table_type=Table.Type.ARENA)
    with pytest.raises(services.TableError, match="ne se joue pas en Arène"):
        services.table_create(host=player, game=Game.objects.get(slug="gin"), seats_count=2, stake=10,
                              table_type=Table.Type.ARENA)
    assert [v for v, _ in TableCreateForm(game=game).fields["table_type"].choices] == ["friends", "arena"]
    # an Arena is always public: the choice says so, whatever « Table privée » shows
    assert "table publique" in dict(TableCreateForm(game=game).fields["table_type"].choices)["arena"]
    assert [v for v, _ in TableCreateForm(game=Game.objects.get(slug="gin")).fields["table_type"].choices] == [
        "friends"]
    assert fake.info.options[-1].name == "match_length"


def test_arena_is_listed_in_the_lobby_with_its_stake(monkeypatch, make_player, client):
    install(monkeypatch, "thanasis")
    alice = make_player("alice")
    _login(client, alice)
    response = client.post(reverse("tables:new"), {
        "table_type": "arena", "game": "thanasis", "seats_count": 4, "seat_1": "human", "seat_2": "2",
        "seat_3": "2", "turn_timer_s": 30, "stake": 50, "opt_match_length": "1"})
    assert response.status_code == 302
    table = Table.objects.get(host=alice)
    assert table.table_type == Table.Type.ARENA and table.options["match_length"] == "3"
    html = _login(client, make_player("bruno")).get(reverse("tables:lobby")).content.decode()
    assert "Arène" in html and "entrée 50 jetons" in html


@pytest.mark.parametrize("humans", [1, 2])
def test_arena_winners_gain_the_stake_losers_lose_theirs(monkeypatch, make_player, humans):
    install(monkeypatch, "thanasis")
    players = [make_player(name) for name in ("alice", "bruno")[:humans]]
    bots = {1: 2, 2: 2, 3: 2} if humans == 1 else {2: 2, 3: 2}
    table = services.table_create(host=players[0], game=Game.objects.get(slug="thanasis"), seats_count=4,
                                  bot_levels=bots, stake=20, table_type=Table.Type.ARENA)
    if humans == 2:
        services.seat_join(table=table, user=players[1])  # place 2: the other team
    services.table_start(table=table, user=players[0])
    table = play_out(table)
    winners = games.get("thanasis").result(table.state)["winners"]
    for seat in table.seats.exclude(user__isnull=True).filter(bot_level__isnull=True):
        expected = 1020 if seat.position in winners else 980
        assert user_balance(seat.user) == expected, "the stake once, whatever the tie-break rounds"
        assert counter_balance(seat.user, Counter.Kind.POINTS) == 0, "an Arena pays stakes only"
    assert_ledger_conserved()


def test_the_tile_canasta_offers_the_arena_at_its_three_round_value(player):
    from tables.table_types import arena_options

    assert arena_options(games.get("canasta-tuiles").info) == {"match_length": "3"}
    assert arena_options(games.get("canasta").info) is None, "a game without a round count has no Arena"
    form = TableCreateForm(game=Game.objects.get(slug="canasta-tuiles"))
    assert [v for v, _ in form.fields["table_type"].choices] == ["friends", "arena"]
    assert form.fields["seat_2"].label == "Place 3 — ton partenaire"
