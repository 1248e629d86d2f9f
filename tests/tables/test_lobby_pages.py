"""The lobby and its forms as a returning player meets them: a form's address opened after a login goes back to
the page of the form, a table quit is no longer « mine », and robots are named as at the table."""

import pytest
from django.urls import reverse

from tables import reads, services
from tables.models import Table
from tables.rendering import render_push
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["tables:new", "tables:quick"])
def test_a_form_address_opened_after_login_goes_back_to_the_lobby(player_client, name):
    response = player_client.get(reverse(name))
    assert response.status_code == 302 and response.url == reverse("tables:lobby")


@pytest.mark.parametrize("name", ["tables:leave", "tables:start", "tables:action", "tables:join"])
def test_a_table_form_address_opened_with_get_goes_back_to_the_table(player_client, player, name):
    table = create_table(player, "thanasis", seats=3, stake=0)
    response = player_client.get(reverse(name, args=[table.pk]))
    assert response.status_code == 302 and response.url == reverse("tables:table", args=[table.pk])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # nothing happened


def test_a_table_i_quit_leaves_my_tables(player_client, player):
    kept = create_table(player, "thanasis", seats=3, stake=0)
    quit_ = create_table(player, "thanasis", seats=3, stake=0)
    services.seat_abandon(table_id=quit_.pk, user=player)
    quit_.refresh_from_db()
    assert quit_.status == Table.Status.PLAYING  # the two robots play on
    page = player_client.get(reverse("tables:lobby")).content.decode()
    mine = page[page.index("Mes tables"):]
    mine = mine[:mine.index("<h2")]
    assert reverse("tables:table", args=[kept.pk]) in mine
    assert reverse("tables:table", args=[quit_.pk]) not in mine


def test_the_tables_being_played_name_their_robots_as_the_table_does(player_client, player):
    table = create_table(player, "thanasis", seats=3, bots={1: 2, 2: 2}, stake=0)
    Table.objects.filter(pk=table.pk).update(private=False)
    page = player_client.get(reverse("tables:lobby")).content.decode()
    assert f"{player.username}, Robot Confirmé 2, Robot Confirmé 3" in page


@pytest.mark.parametrize(("field", "value"), [("coach_limit", "99"), ("table_type", "zzz")])
def test_a_tampered_creation_form_says_what_is_wrong(player_client, player, field, value):
    data = {"table_type": "friends", "game": "gin", "seats_count": "2", "seat_1": "2", "turn_timer_s": "30",
            "stake": "0", "coach_limit": "3", field: value}
    response = player_client.post(reverse("tables:new"), data)
    assert response.status_code == 400 and not Table.objects.filter(host=player).exists()
    assert 'class="error" role="alert">Sélectionnez un choix valide' in response.content.decode()


@pytest.mark.parametrize(("slug", "seats"), [("thanasis", 2), ("rummikub", 2), ("thunee", 4), ("canasta", 4)])
def test_a_guest_at_a_cancelled_table_reads_only_that_it_is_cancelled(make_player, slug, seats):
    host, guest = make_player("hote"), make_player("invite")
    table = create_table(host, slug, seats=seats, bots={}, stake=0, start=False)
    services.seat_join(table=table, user=guest)
    services.seat_leave_waiting(table=table, user=host)
    table = reads.table(table.pk)
    assert table.status == Table.Status.CANCELLED
    seats_ = reads.seats_of(table.pk)
    html = render_push(table, seats_, next(s for s in seats_ if s.user_id == guest.pk))
    assert "Cette table a été annulée." in html and "Retour aux tables" in html
    assert "seront distribuées" not in html and "commencera dès que" not in html
