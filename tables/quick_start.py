"""« Partie rapide »: a player is seated at a quick-start table of the game that still has a free place, or
opens one; once every place is taken, or after a short wait (settings.QUICK_START_WAIT_SECONDS), robots take the
empty places and the match starts. The wait is the table's `deadline`, swept by tables.tasks.expire_turns like
the move timers, so it survives a restart."""

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from engine import games
from tables import services
from tables.models import Game, Seat, Table

FILL_BOT_LEVEL = 2  # Confirmé, the rules files' default robot level


def _waiting(game: Game):
    return Table.objects.filter(game=game, table_type=Table.Type.QUICK, status=Table.Status.WAITING)


def quick_start_join(*, user: User, game: Game) -> Table:
    """The quick-start table where `user` now sits (already seated at one of this game: that one)."""
    with transaction.atomic():
        # One quick start of a game at a time: two players pressing together meet at one table.
        list(Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True))
        mine = _waiting(game).filter(seats__user=user).first()
        if mine is not None:
            return mine
        for table in _waiting(game).select_for_update().order_by("created"):
            if table.seats.count() < table.seats_count:
                services.seat_join(table=table, user=user)
                table.refresh_from_db()
                return table
        info = games.get(game.slug).info
        table = services.table_create(host=user, game=game, seats_count=info.default_players, stake=0,
                                      table_type=Table.Type.QUICK, private=False)
        table.deadline = timezone.now() + timezone.timedelta(seconds=settings.QUICK_START_WAIT_SECONDS)
        table.save(update_fields=["deadline"])
        return table


def quick_start_fill(*, table_id: int) -> bool:
    """The wait is over: robots take the empty places and the match starts. False if the table no longer
    waits (started when full, cancelled, or filled by another sweep)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None or table.status != Table.Status.WAITING or table.table_type != Table.Type.QUICK:
            return False
        taken = set(table.seats.values_list("position", flat=True))
        for position in range(table.seats_count):
            if position not in taken:
                Seat.objects.create(table=table, position=position, bot_level=FILL_BOT_LEVEL)
        services.match_start(table=table)
        return True


def due_tables() -> list[int]:
    """Quick-start tables whose wait is over."""
    return list(Table.objects.filter(status=Table.Status.WAITING, table_type=Table.Type.QUICK,
                                     deadline__lte=timezone.now()).values_list("id", flat=True)[:200])
