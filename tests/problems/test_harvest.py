"""Finished public matches feed the collection: the players' decisions put to the finder after the match, the clear
ones stored once with their table; private tables and robots' decisions give none."""

import pytest

from problems import tasks
from problems.models import Problem
from tables.models import Table
from tests.tables.helpers import create_table, play_out

pytestmark = pytest.mark.django_db


def _finished(player, private: bool) -> Table:
    table = create_table(player, "gin", seats=2, bots={1: 2}, stake=0, options={"match": "1"})
    Table.objects.filter(pk=table.pk).update(private=private)
    table = play_out(table)
    assert table.status == Table.Status.FINISHED
    return table


def test_a_finished_public_match_gives_problems_from_its_players_decisions_once(player, settings):
    settings.PROBLEMS_HARVEST = True
    for _ in range(8):  # a short match may hold no clear decision: another one
        table = _finished(player, private=False)
        assert not Problem.objects.exists()  # the match's end queued the task (delayed: never run eagerly)
        if tasks.harvest.run(table.pk):
            break
    problems = list(Problem.objects.filter(source_table=table))
    assert problems and all(p.source == Problem.Source.MATCH for p in problems)
    assert all(p.seat == 0 for p in problems)  # the human's decisions, never the robot's
    assert tasks.harvest.run(table.pk) == 0 and Problem.objects.filter(source_table=table).count() == len(problems)


def test_a_private_match_gives_none(player):
    table = _finished(player, private=True)
    assert tasks.harvest.run(table.pk) == 0
    assert not Problem.objects.exists()
