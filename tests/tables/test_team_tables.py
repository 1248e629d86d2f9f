"""Team tables (issue 14): partners face to face at creation, any mix of friends and robots, a leaver's seat
played on by the autoplay, and a settlement paid per team."""

import pytest
from django.urls import reverse

from accounts.services import user_balance
from engine import games
from tables import services
from tables.forms import TableCreateForm
from tables.models import Game, Table
from tests.tables.helpers import assert_ledger_conserved, create_table, play_out
from tests.tables.team_fakes import install

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def team_game(monkeypatch):
    return install(monkeypatch, "thanasis", points=0, jokers=False)


def _winning_team(table) -> set[int]:
    result = games.get("thanasis").result(table.state)
    return set(result["winners"])


def test_the_creation_form_shows_each_place_as_partner_or_opponent(team_game, player_client):
    form = TableCreateForm(game=Game.objects.get(slug="thanasis"))
    assert form.fields["seat_1"].label == "Place 2 — adversaire"
    assert form.fields["seat_2"].label == "Place 3 — ton partenaire"
    assert form.fields["seat_3"].label == "Place 4 — adversaire"
    html = player_client.get(reverse("tables:lobby") + "?jeu=thanasis").content.decode()
    assert "Place 3 — ton partenaire" in html
    assert "Ton équipe : places 1 et 3" in html


def test_a_game_without_teams_keeps_plain_places(player):
    form = TableCreateForm(game=Game.objects.get(slug="gin"))
    assert form.fields["seat_2"].label == "Place 3"


def test_one_human_and_three_robots_win_or_lose_as_a_team(team_game, player):
    before = user_balance(player)
    table = play_out(create_table(player, "thanasis", seats=4, bots={1: 1, 2: 1, 3: 1}, stake=10))
    assert table.status == Table.Status.FINISHED and table.settled
    winners = _winning_team(table)
    assert winners in ({0, 2}, {1, 3}), "the winners are both seats of a team"
    if 0 in winners:
        # The robot partner takes no share: the human gets his stake back plus the whole payout (1 x stake).
        assert user_balance(player) == before + 10
    else:
        assert user_balance(player) == before - 10
    assert_ledger_conserved()


def test_two_humans_as_partners_against_robots_are_paid_alike(team_game, make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "thanasis", seats=4, bots={1: 2, 3: 2}, stake=20, start=False)
    seat = services.seat_join(table=table, user=bruno)
    assert seat.position == 2, "the friend sits in the place left for him: the host's partner"
    services.table_start(table=table, user=alice)
    table = play_out(table)
    if 0 in _winning_team(table):
        assert user_balance(alice) == user_balance(bruno) == 1000 + 30  # stake back + 1.5 x stake each
    else:
        assert user_balance(alice) == user_balance(bruno) == 1000 - 20
    assert_ledger_conserved()


def test_humans_on_both_teams_the_winning_side_takes_the_pot(team_game, make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "thanasis", seats=4, bots={2: 2, 3: 2}, stake=10, start=False)
    assert services.seat_join(table=table, user=bruno).position == 1
    services.table_start(table=table, user=alice)
    table = play_out(table)
    winner, loser = (alice, bruno) if 0 in _winning_team(table) else (bruno, alice)
    assert user_balance(winner) == 1010 and user_balance(loser) == 990, "the robot partner's share is not lost"
    assert_ledger_conserved()


def test_a_team_whose_player_leaves_plays_on_with_the_autoplay(team_game, make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    for _ in range(3):  # about one Thanasis match in 150 is won before the third seat's first turn: deal again
        before = user_balance(alice), user_balance(bruno)
        table = create_table(alice, "thanasis", seats=4, bots={1: 1, 3: 1}, stake=10, start=False)
        services.seat_join(table=table, user=bruno)
        services.table_start(table=table, user=alice)
        services.seat_abandon(table_id=table.pk, user=bruno)
        table.refresh_from_db()
        assert table.seats.get(position=2).left
        table = play_out(table)
        assert table.status == Table.Status.FINISHED
        if table.moves.filter(seat=2).exclude(move__action="leave").exists():
            break
    assert table.moves.filter(seat=2, actor="autoplay").exists(), "the leaver's seat was played by the autoplay"
    assert not table.moves.filter(seat=2, actor="player").exclude(move__action="leave").exists()
    assert services.replay(table) == table.state
    if 0 in _winning_team(table):
        assert user_balance(alice) == before[0] + 10, "alice's team won: she is paid"
        assert user_balance(bruno) == before[1] - 10 - 20, "who left is paid nothing and pays the abandon penalty"
    assert_ledger_conserved()


def test_the_table_page_and_the_lobby_show_who_partners_whom(team_game, make_player, client):
    alice = make_player("alice")
    table = create_table(alice, "thanasis", seats=4, bots={1: 1, 3: 3}, stake=10, start=False)
    Table.objects.filter(pk=table.pk).update(private=False)
    client.force_login(alice, backend="accounts.backends.HumanOnlyBackend")
    page = client.get(table.get_absolute_url()).content.decode()
    assert "alice et Place libre" in page and "Robot Débutant et Robot Expert" in page
    lobby = client.get(reverse("tables:lobby")).content.decode()
    assert "alice + Place libre" in lobby and "Robot Débutant + Robot Expert" in lobby


REAL = "canasta-tuiles"


def test_with_the_real_team_game_a_leavers_seat_plays_on_and_the_team_is_paid(make_player):
    from accounts.models import Counter
    from accounts.services import counter_balance

    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, REAL, seats=4, bots={1: 1, 3: 1}, stake=10, options={"match_length": "1"},
                         start=False)
    assert services.seat_join(table=table, user=bruno).position == 2
    services.table_start(table=table, user=alice)
    services.seat_abandon(table_id=table.pk, user=bruno)
    table = play_out(table)
    assert table.status == Table.Status.FINISHED
    assert table.moves.filter(seat=2, actor="autoplay").exists(), "the leaver's seat was played by the autoplay"
    result = games.get(REAL).result(table.state)
    assert set(result["winners"]) in ({0, 2}, {1, 3})
    points = 1000 * result["rounds"]
    assert counter_balance(bruno, Counter.Kind.POINTS) == -points, "who left loses, whatever his team did"
    if 0 in result["winners"]:
        assert user_balance(alice) == 1010 and counter_balance(alice, Counter.Kind.POINTS) == points
    else:
        assert user_balance(alice) == 990 and counter_balance(alice, Counter.Kind.POINTS) == -points
    assert services.replay(table) == table.state
    assert_ledger_conserved()
