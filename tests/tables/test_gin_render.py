"""Gin Rami at the table: the cards an opponent took from the discard pile stay shown while he holds them."""

import pytest

from engine import cards, games
from tables import reads
from tables.models import Table
from tables.rendering import render_push
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db


def test_an_opponents_pickup_from_the_pile_is_shown_to_me(player):
    table = create_table(player, "gin", seats=2, bots={1: 1}, start=False)
    engine = games.get("gin")
    state = next(s for s in (engine.new_match(2, {}, f"pick{n}") for n in range(50)) if engine.to_act(s) == [1])
    upcard = state["discard"][-1]
    state, _ = engine.apply(state, 1, {"action": "take_discard"})
    Table.objects.filter(pk=table.pk).update(state=state, status=Table.Status.PLAYING, version=5)
    table.refresh_from_db()
    seats = reads.seats_of(table.pk)
    mine = next(s for s in seats if s.position == 0)
    html = render_push(table, seats, mine)
    assert "A pris dans la défausse" in html
    assert f'aria-label="{cards.name_fr(upcard)}">{cards.label(upcard)}</span>' in html
