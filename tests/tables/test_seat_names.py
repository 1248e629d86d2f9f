"""Robots of one level share a name: at a table with several of them each also carries its place, on the seats,
in « what just happened » and in the lobby's teams, so a player can tell who took a trick or who won."""

import pytest
from django.urls import reverse

from tables import reads
from tables.models import Table
from tables.presenters.frame import seat_names
from tables.rendering import render_push
from tests.tables.helpers import create_table, play_out

pytestmark = pytest.mark.django_db


def test_robots_of_one_level_carry_their_place(player):
    table = create_table(player, "thanasis", seats=4, bots={1: 3, 2: 3, 3: 1}, stake=0)
    names = seat_names(reads.seats_of(table.pk))
    assert names == {0: player.username, 1: "Robot Expert 2", 2: "Robot Expert 3", 3: "Robot Débutant"}


def test_every_push_and_the_story_of_the_moves_use_those_names(player):
    table = create_table(player, "thanasis", seats=3, bots={1: 2, 2: 2}, stake=0)
    table = play_out(table)
    seats = reads.seats_of(table.pk)
    html = render_push(reads.table(table.pk), seats, next(s for s in seats if s.position == 0))
    assert "Robot Confirmé 2" in html and "Robot Confirmé 3" in html
    assert "Robot Confirmé<" not in html and "Robot Confirmé " not in html.replace("Robot Confirmé 2", "").replace(
        "Robot Confirmé 3", "")


def test_the_table_page_and_the_lobby_name_the_teams_robots_by_place(player, player_client):
    table = create_table(player, "thunee", seats=4, bots={1: 1, 2: 1}, stake=0, start=False)
    Table.objects.filter(pk=table.pk).update(private=False)
    page = player_client.get(table.get_absolute_url()).content.decode()
    assert f"{player.username} et Robot Débutant 3" in page and "Robot Débutant 2 et Place libre" in page
    lobby = player_client.get(reverse("tables:lobby")).content.decode()
    assert "Robot Débutant 2 + Place libre" in lobby
