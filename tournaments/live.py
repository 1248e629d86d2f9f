"""The tournament page's live part: its open pages are told when something changed (a result, a new round, a
registration) and draw it again from the stored rows (tournaments.consumers)."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "tournament.changed"}
    try:
        if hasattr(type(layer), "group_send_many_threadsafe"):  # the in-process layer: no event loop needed
            layer.group_send_many_threadsafe([(group(tournament_id), message)])
        else:
            async_to_sync(layer.group_send)(group(tournament_id), message)
    except Exception:  # a page not told now shows the change at its next load; the rows are stored
        log.warning("tournament %s: its pages were not told", tournament_id, exc_info=True)
