"""This process's open sockets on seats: its id among the web server processes, its own registry of open table
sockets, and its share of each seat's count (`SeatPresence`, summed in `Seat.connections`). What happens when a
process dies without closing its sockets is tables.presence's business."""

import threading
import uuid
from collections import Counter

from django.db import connection

SERVER_ID = uuid.uuid4().hex


class OpenSockets:
    """Sockets this process holds open, by (table_id, user_id): what it counts again if it was taken for dead."""

    def __init__(self):
        self._open = Counter()
        self._lock = threading.Lock()

    def opened(self, table_id: int, user_id: int) -> None:
        with self._lock:
            self._open[(table_id, user_id)] += 1

    def closed(self, table_id: int, user_id: int) -> None:
        with self._lock:
            key = (table_id, user_id)
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]

    def held(self) -> list[tuple[tuple[int, int], int]]:
        with self._lock:
            return list(self._open.items())


SEATS = OpenSockets()  # the seats' sockets (a spectator's are tables.spectators')


def socket_opened(table_id: int, user_id: int) -> None:
    SEATS.opened(table_id, user_id)


def socket_closed(table_id: int, user_id: int) -> None:
    SEATS.closed(table_id, user_id)


def count(seat, delta: int) -> None:
    """Add `delta` sockets of this process to `seat` (locked by the caller, in its transaction). Plain SQL:
    a burst of pages (every player back after a restart) runs this once per socket."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, sockets FROM tables_seatpresence WHERE seat_id = %s AND server = %s",
                       [seat.pk, SERVER_ID])
        row = cursor.fetchone()
        before = row[1] if row else 0
        after = max(0, before + delta)
        if row is None:
            if after:
                cursor.execute("INSERT INTO tables_seatpresence (seat_id, server, sockets) VALUES (%s, %s, %s)",
                               [seat.pk, SERVER_ID, after])
        elif after:
            cursor.execute("UPDATE tables_seatpresence SET sockets = %s WHERE id = %s", [after, row[0]])
        else:
            cursor.execute("DELETE FROM tables_seatpresence WHERE id = %s", [row[0]])
    # only what this process really counted (a socket of a process wrongly reaped was taken off already)
    seat.connections = max(0, seat.connections + after - before)


def held() -> list[tuple[tuple[int, int], int]]:
    """((table_id, user_id), sockets) of the seats' sockets this process holds open."""
    return SEATS.held()
