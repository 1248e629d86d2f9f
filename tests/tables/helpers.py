"""Helpers for table tests: play a table to its end with the rules' autoplay for humans."""

from accounts.models import Account, LedgerEntry
from engine import games
from tables import services, tasks
from tables.models import Game, Table


def create_table(host, slug="thanasis", seats=3, bots=None, stake=10, options=None, start=True):
    bots = dict.fromkeys(range(1, seats), 2) if bots is None else bots
    table = services.table_create(host=host, game=Game.objects.get(slug=slug), seats_count=seats, bot_levels=bots,
                                  options=options or {}, stake=stake, turn_timer_s=30, private=True)
    if start and len(bots) == seats - 1:
        services.table_start(table=table, user=host)
    table.refresh_from_db()
    return table


def play_out(table: Table, max_steps: int = 5000) -> Table:
    """Humans are played by the autoplay policy (as if their timer ran out); bots play themselves."""
    engine = games.get(table.game.slug)
    for _ in range(max_steps):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return table
        to_act = engine.to_act(table.state)
        if not to_act:
            tasks.next_round.run(table.pk, table.version)
            continue
        humans = {s.position for s in table.seats.all() if not s.is_bot}
        seat = next((s for s in to_act if s in humans), None)
        if seat is None:
            tasks.bot_turn.run(table.pk, table.version, to_act[0])
        else:
            tasks.autoplay_turn.run(table.pk, table.version, seat)
    raise AssertionError("the match did not end")


def assert_ledger_conserved():
    """Every transfer nets to zero, and every cached balance equals the sum of its entries."""
    from django.db.models import Sum

    assert (LedgerEntry.objects.aggregate(total=Sum("amount"))["total"] or 0) == 0
    for account in Account.objects.all():
        total = account.entries.aggregate(total=Sum("amount"))["total"] or 0
        assert account.balance == total, account
        if not account.allow_negative:
            assert account.balance >= 0
