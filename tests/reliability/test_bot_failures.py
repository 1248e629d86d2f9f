"""A bot that crashes or answers an illegal move must not stall its table: bot seats have no move timer."""

import types

import pytest

from engine import games
from tables import tasks
from tables.models import Table, TableMove
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db


def bot_to_act(player):
    """A Gin table (one human, one bot) stopped at the bot's decision."""
    engine = games.get("gin")
    table = create_table(player, "gin", seats=2, bots={1: 1}, start=False)
    from tables import services

    services.table_start(table=table, user=player)
    table = Table.objects.select_related("game").get(pk=table.pk)
    while engine.to_act(table.state) != [1]:
        seat = engine.to_act(table.state)[0]
        services.play_move(table_id=table.pk, seat=seat, move=engine.autoplay(table.state, seat),
                           expected_version=table.version)
        table.refresh_from_db()
    return table


@pytest.fixture
def quiet_scheduler(settings):
    settings.BOT_DELAY_SECONDS = 60  # the test fires the bot's task itself


@pytest.mark.parametrize("failure", ["raises", "illegal"])
def test_a_failing_bot_is_replaced_by_the_rules_autoplay(player, quiet_scheduler, monkeypatch, failure, caplog):
    table = bot_to_act(player)

    def choose(game, view, legal, level, rng):
        if failure == "raises":
            raise RuntimeError("bot bug")
        return {"action": "discard", "card": "ZZ9"}

    monkeypatch.setattr(tasks, "bots", types.SimpleNamespace(choose=choose))
    tasks.bot_turn.run(table.pk, table.version, 1)
    after = Table.objects.get(pk=table.pk)
    assert after.version == table.version + 1
    entry = TableMove.objects.get(table=table, seq=after.version)
    assert entry.seat == 1 and entry.actor == "autoplay"
    assert entry.move == games.get("gin").autoplay(table.state, 1)
    assert "autoplay" in caplog.text and "table" in caplog.text


def test_a_stale_bot_task_does_nothing_even_with_a_failing_bot(player, quiet_scheduler, monkeypatch):
    table = bot_to_act(player)
    monkeypatch.setattr(tasks, "bots", types.SimpleNamespace(choose=lambda *a: 1 / 0))
    tasks.bot_turn.run(table.pk, table.version - 1, 1)
    assert Table.objects.get(pk=table.pk).version == table.version
