"""The hot path's reads (tables.reads) build the same model instances as the ORM, on either database."""

import pytest
from django.db import transaction

from tables import reads
from tables.models import Seat, Table
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def test_a_table_read_is_the_orms_table_with_its_games_slug_and_penalty(player):
    table = create_table(player, "thanasis", seats=3)
    orm = Table.objects.select_related("game").get(pk=table.pk)
    read = reads.table(table.pk)
    assert _fields(read) == _fields(orm)
    assert isinstance(read.state, dict) and read.state["hands"] == orm.state["hands"]  # JSON decoded
    assert read.created == orm.created and read.created.tzinfo is not None  # dates converted
    assert (read.game_slug, read.game_abandon_penalty) == ("thanasis", orm.game.abandon_penalty)
    assert read._state.db == "default" and not read._state.adding  # saved as the ORM would save it
    read.save(update_fields=["turn_timer_s"])
    assert reads.table(table.pk + 1000) is None


def test_a_locked_read_tells_the_place_of_the_user(player, make_player):
    table = create_table(player, "thanasis", seats=3)
    stranger = make_player("passant")
    with transaction.atomic():
        assert _fields(reads.table_locked(table.pk)) == _fields(Table.objects.get(pk=table.pk))
        assert reads.table_locked(table.pk, user_id=player.pk).user_position == 0
        assert reads.table_locked(table.pk, user_id=stranger.pk).user_position is None
        seat = reads.seat_locked(table.pk, player.pk)
        assert _fields(seat) == _fields(Seat.objects.get(table=table, user=player))
        assert reads.seat_locked(table.pk, stranger.pk) is None


def test_the_seats_read_are_the_orms_seats_in_order_with_name_and_balance(player):
    table = create_table(player, "thanasis", seats=3)
    seats = reads.seats_of(table.pk)
    orm = list(Seat.objects.filter(table=table).order_by("position"))
    assert [_fields(s) for s in seats] == [_fields(s) for s in orm]
    assert [(s.username, s.is_bot) for s in seats] == [(player.username, False), (None, True), (None, True)]
    player.account.refresh_from_db()
    assert seats[0].balance == player.account.balance and seats[1].balance is None
