"""Push HTML to the sockets: one render per connected seat, sent to that seat's group only."""

import threading
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.models import Table


def seat_group(table_id: int, position: int) -> str:
    return f"table.{table_id}.seat.{position}"


def public_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


def _send_all(messages: list[tuple[str, dict]]) -> None:
    """Hand the messages to the channel layer in one go.

    Called from sync code (a database thread, a Celery worker): each async_to_sync is a round trip to an
    event loop and back, so all of a move's pushes share one. The in-process layer takes them without
    waiting at all (`group_send_threadsafe`)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    if hasattr(type(layer), "group_send_threadsafe"):  # on the class: the Redis layers proxy attributes
        for group, message in messages:
            layer.group_send_threadsafe(group, message)
        return

    async def send_all():
        for group, message in messages:
            await layer.group_send(group, message)

    async_to_sync(send_all)()


_local = threading.local()


@contextmanager
def _one_hop():
    """Messages `_send` gets inside this block leave together at its end (one event-loop round trip)."""
    if getattr(_local, "batch", None) is not None:
        yield
        return
    _local.batch = batch = []
    try:
        yield
    finally:
        _local.batch = None
        _send_all(batch)


def _send(group: str, message: dict) -> None:
    """Every push goes through here (tests record them here)."""
    batch = getattr(_local, "batch", None)
    if batch is not None:
        batch.append((group, message))
    else:
        _send_all([(group, message)])


def table_changed(table_id: int, *, also: list[tuple[str, dict]] = ()) -> tuple[Table | None, list]:
    """Render each connected seat's own view and push it; other hands never leave the server.
    `also`: more messages to send in the same hop (the lobby's). Returns the table and seats it read."""
    from tables.rendering import render_push

    with _one_hop():
        table = Table.objects.select_related("game", "host").filter(pk=table_id).first()
        seats = [] if table is None else list(table.seats.select_related("user"))
        for seat in seats:
            if seat.is_bot or seat.connections == 0:
                continue
            html = render_push(table, seats, seat)
            _send(seat_group(table_id, seat.position), {"type": "table.html", "html": html, "version": table.version})
        for group, message in also:
            _send(group, message)
    return table, seats


def chat_posted(table_id: int, html: str) -> None:
    _send(public_group(table_id), {"type": "table.html", "html": html, "version": None})


LOBBY_MESSAGE = (LOBBY_GROUP, {"type": "lobby.changed"})


def lobby_changed() -> None:
    _send(*LOBBY_MESSAGE)
