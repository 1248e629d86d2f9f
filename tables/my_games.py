"""« Mes parties »: every table where a player holds a place and the match is not over, the ones where it is his
move first (soonest deadline first), then the others in play, then the tables still waiting for players."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch
from django.utils import timezone

from tables import table_types
from tables.models import Seat, Table, engine_for
from tables.presenters.frame import seat_names

SHOWN = 100


@dataclass
class MyGame:
    table: Table
    my_move: bool
    players: list[str]
    seconds_left: int | None

    @property
    def time_left(self) -> str:
        return "" if self.seconds_left is None else table_types.duration_fr(self.seconds_left)

    @property
    def deadline(self) -> datetime | None:
        return self.table.deadline


def my_games(user) -> list[MyGame]:
    others = Prefetch("table__seats", queryset=Seat.objects.select_related("user").order_by("position"))
    seats = (Seat.objects.filter(user=user, left=False, bot_level__isnull=True,
                                 table__status__in=[Table.Status.WAITING, Table.Status.PLAYING])
             .select_related("table__game").prefetch_related(others).order_by("-table__created")[:SHOWN])
    now = timezone.now()
    games = []
    for seat in seats:
        table = seat.table
        playing = table.status == Table.Status.PLAYING and table.state is not None
        to_act = engine_for(table).to_act(table.state) if playing else []
        left = max(0, int((table.deadline - now).total_seconds())) if playing and table.deadline and to_act else None
        names = seat_names(table.seats.all())
        players = [names[position] for position in sorted(names) if position != seat.position]
        games.append(MyGame(table=table, my_move=seat.position in to_act, players=players, seconds_left=left))
    games.sort(key=lambda g: (not g.my_move, g.table.status != Table.Status.PLAYING,
                              g.seconds_left if g.seconds_left is not None else float("inf")))
    return games
