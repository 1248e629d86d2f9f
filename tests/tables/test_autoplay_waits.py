"""A table where nobody is left to decide waits when the rules say so, instead of autoplaying for ever (Thunee:
four autoplay passes redeal without end, thunee.md §9)."""

from django.utils import timezone

from tables import tasks
from tables.models import Seat, Table
from tests.tables.helpers import create_table


def four_players_bidding(make_player):
    host, *others = (make_player(name) for name in ("alice", "bruno", "chloe", "denis"))
    table = create_table(host, "thunee", seats=4, bots={}, stake=0, start=False)
    from tables import services

    for user in others:
        services.seat_join(table=table, user=user)
    services.table_start(table=table, user=host)
    table.refresh_from_db()
    assert table.state["phase"] == "BIDDING"
    return table


def test_nobody_connected_in_the_bidding_waits_and_moves_the_deadline(make_player):
    table = four_players_bidding(make_player)
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    version = table.version
    for _ in range(8):
        tasks.expire_turns.run()
    table.refresh_from_db()
    assert table.version == version, "no pass was autoplayed for a table nobody sits at"
    assert table.deadline > timezone.now(), "the sweep looks again after one move's time"


def test_one_player_back_and_the_timer_plays_for_the_late_one(make_player):
    table = four_players_bidding(make_player)
    Seat.objects.filter(table=table, position=(table.state["current"] + 2) % 4).update(connections=1)
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    tasks.expire_turns.run()
    table.refresh_from_db()
    assert table.version > 1, "someone is at the table: the late player's pass is autoplayed"
