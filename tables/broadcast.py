"""Push HTML to the sockets: one render per connected seat, sent to that seat's group only."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.models import Table


def seat_group(table_id: int, position: int) -> str:
    return f"table.{table_id}.seat.{position}"


def public_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def table_changed(table_id: int) -> None:
    """Render each connected seat's own view and push it; other hands never leave the server."""
    from tables.rendering import render_push

    table = Table.objects.select_related("game", "host").filter(pk=table_id).first()
    if table is None:
        return
    seats = list(table.seats.select_related("user"))
    for seat in seats:
        if seat.is_bot or seat.connections == 0:
            continue
        html = render_push(table, seats, seat)
        _send(seat_group(table_id, seat.position), {"type": "table.html", "html": html, "version": table.version})


def chat_posted(table_id: int, html: str) -> None:
    _send(public_group(table_id), {"type": "table.html", "html": html, "version": None})


def lobby_changed() -> None:
    _send(LOBBY_GROUP, {"type": "lobby.changed"})
