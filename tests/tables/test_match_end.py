"""The end of a match on the page: my tokens once settled reach the page with the last push (the header shows them
without a reload), and nobody else's balance does."""

import pytest

from accounts.services import user_balance
from tables import reads, services
from tables.rendering import render_push
from tests.tables.helpers import create_table, play_out

pytestmark = pytest.mark.django_db


def test_the_last_push_carries_my_balance_after_the_settlement(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "gin", seats=2, bots={}, stake=10, options={"match": "1"}, start=False)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    table = play_out(table)
    seats = reads.seats_of(table.pk)
    for seat in seats:
        html = render_push(reads.table(table.pk), seats, seat)
        mine = user_balance(seat.user)
        assert f'data-my-balance="{mine}"' in html
        assert html.count("data-my-balance") == 1


def test_no_balance_while_the_match_is_played(player):
    table = create_table(player, "thanasis", seats=3, stake=10)
    seats = reads.seats_of(table.pk)
    html = render_push(reads.table(table.pk), seats, next(s for s in seats if s.position == 0))
    assert "data-my-balance" not in html
