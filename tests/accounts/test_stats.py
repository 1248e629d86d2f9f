"""Players' statistics (issue 16): written once when a match ends, from the engine's match_stats and the
table's ledger entries; a retry or a second backfill never counts twice."""

import pytest
from django.core.management import call_command
from django.db.models import Sum

from accounts.models import MatchRecord, PlayerGameStats
from accounts.services import user_balance
from engine import games
from tables import services, stats
from tables.models import Table
from tests.tables.helpers import create_table, play_out

pytestmark = pytest.mark.django_db


def _finish_gin(player, stake=10, **kwargs):
    return play_out(create_table(player, "gin", seats=2, bots={1: 1}, stake=stake, options={"match": "1"}, **kwargs))


def test_a_finished_match_writes_one_record_and_the_totals(player):
    before = user_balance(player)
    table = _finish_gin(player)
    assert table.status == Table.Status.FINISHED
    record = MatchRecord.objects.get(user=player)
    engine = games.get("gin")
    result = engine.result(table.state)
    expected = engine.match_stats(table.state, result)[0]
    assert record.table_id == table.pk and record.game == "gin" and record.position == 0
    assert record.won == (0 in result["winners"])
    assert record.rounds == expected["rounds"] == 1
    assert record.points == expected["points"] and record.best_round == expected["best_round"]
    assert record.token_delta == user_balance(player) - before  # the stake, then the payout or nothing
    assert not record.rated and record.mu_after is None
    totals = PlayerGameStats.objects.get(user=player, game="gin")
    assert (totals.matches, totals.wins, totals.rounds) == (1, int(record.won), 1)
    if record.token_delta > 0:
        assert (totals.tokens_won, totals.tokens_lost) == (record.token_delta, 0)
    else:
        assert (totals.tokens_won, totals.tokens_lost) == (0, -record.token_delta)


def test_totals_add_up_over_several_matches(player):
    tables = [_finish_gin(player) for _ in range(3)]
    totals = PlayerGameStats.objects.get(user=player, game="gin")
    records = MatchRecord.objects.filter(user=player)
    assert totals.matches == 3 == records.count()
    assert totals.wins == records.filter(won=True).count()
    assert totals.points == records.aggregate(total=Sum("points"))["total"]
    assert totals.best_round == min(r.best_round for r in records)  # Gin counts penalty points: low is best
    assert totals.tokens_won - totals.tokens_lost == sum(r.token_delta for r in records)
    assert sorted(records.values_list("table_id", flat=True)) == sorted(t.pk for t in tables)


def test_a_retried_settlement_counts_nothing_twice(player):
    table = _finish_gin(player)
    result = games.get("gin").result(table.state)
    assert stats.match_record(table=table, result=result) is False
    services.Table.objects.filter(pk=table.pk).update(settled=False)
    stats.match_record_safe(table=table, result=result)
    assert MatchRecord.objects.filter(user=player).count() == 1
    assert PlayerGameStats.objects.get(user=player, game="gin").matches == 1


def test_a_thanasis_close_at_zero_is_counted(player):
    table = play_out(create_table(player, "thanasis", seats=2, bots={1: 1}, stake=0))
    engine = games.get("thanasis")
    history = table.state["history"]
    closes = sum(1 for row in history if row.get("closer") == 0 and row.get("thanasis"))
    record = MatchRecord.objects.get(user=player)
    assert record.counters.get("thanasis", 0) == closes
    assert record.rounds == sum(1 for row in history if not row["void"] and row["points"][0] is not None)
    totals = PlayerGameStats.objects.get(user=player, game="thanasis")
    assert totals.counters.get("thanasis", 0) == closes
    assert totals.counters.get("rounds_won", 0) == sum(1 for row in history if row.get("closer") == 0)
    assert set(totals.counters) <= set(engine.stats_labels)


def test_two_humans_each_get_their_line(player, make_player):
    bruno = make_player("bruno")
    table = create_table(player, "gin", seats=2, bots={}, stake=10, options={"match": "1"}, start=False)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=player)
    play_out(table)
    lines = {r.user_id: r for r in MatchRecord.objects.filter(table_id=table.pk)}
    assert set(lines) == {player.pk, bruno.pk}
    assert sorted(r.won for r in lines.values()) == [False, True]
    assert sum(r.token_delta for r in lines.values()) == 0  # the winner takes the pot: tokens only moved
    assert lines[bruno.pk].position == 1


def test_backfill_counts_old_matches_once(player):
    table = _finish_gin(player)
    first = MatchRecord.objects.get(user=player)
    MatchRecord.objects.all().delete()
    PlayerGameStats.objects.all().delete()
    call_command("backfill_stats")
    again = MatchRecord.objects.get(user=player)
    assert (again.table_id, again.points, again.token_delta, again.won) == (table.pk, first.points,
                                                                           first.token_delta, first.won)
    call_command("backfill_stats")
    assert MatchRecord.objects.filter(user=player).count() == 1
    assert PlayerGameStats.objects.get(user=player, game="gin").matches == 1


def test_backfill_skips_tables_without_a_result_or_a_human(player):
    waiting = create_table(player, "gin", seats=2, bots={}, start=False)
    playing = create_table(player, "gin", seats=2, bots={1: 1}, stake=0)
    Table.objects.filter(pk=playing.pk).update(status=Table.Status.FINISHED)  # finished without a result
    call_command("backfill_stats")
    assert not MatchRecord.objects.filter(table_id__in=[waiting.pk, playing.pk]).exists()


def test_a_statistics_failure_never_stops_the_match_from_ending(player, monkeypatch):
    def broken(state, result):
        raise RuntimeError("boom")

    monkeypatch.setattr(games.get("gin"), "match_stats", broken)
    table = _finish_gin(player)
    assert table.status == Table.Status.FINISHED and table.settled
    assert not MatchRecord.objects.exists()
    monkeypatch.undo()
    call_command("backfill_stats")
    assert MatchRecord.objects.filter(table_id=table.pk).count() == 1
