"""Push HTML to the sockets: one render per connected seat, all of a move's renders in one message to the table.

A move is one channel-layer message (`table.push`) to the table's group, whatever the number of seats: with
Redis, one published message per move instead of one per seat (bench/load.py --mode redis). The message holds
each connected seat's render under a key naming both its player and his place (`seat_key`), and the public
render for the spectators. The per-seat HTML travels inside the server (the channel layer, Redis) only: a
socket forwards to its page the part under its own player's key at its own place and nothing else, and a
spectator's socket the public part only (tables.consumers.TableConsumer.part_of). A page kept open by a player
who left his place can therefore never get what is rendered for the new occupant, nor his own render at
another place: its key names the place it was opened on.
"""

import asyncio
import logging
import threading
import time
from contextlib import contextmanager

from channels.layers import get_channel_layer
from django.db import close_old_connections

from tables import reads
from tables.models import Table
from tables.rendering import chat_push, render_push


def player_group(table_id: int, user_id: int) -> str:
    """Every socket a player has open at this table."""
    return f"table.{table_id}.user.{user_id}"


def public_group(table_id: int) -> str:
    """Every socket open at the table, seats and spectators: the table's pushes (each socket takes its own
    part) and the chat (alike for all)."""
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


def _send_all(messages: list[tuple[str, dict]]) -> None:
    """Hand the messages to the channel layer in one go, without waiting for their delivery.

    Called from sync code (the thread that applied a move, a Celery worker). The in-process layer takes them at
    once, all in one wake-up of its loop (`group_send_many_threadsafe`). A layer that needs an event loop (Redis) gets
    them through the publisher thread: the thread that applied the move goes on to the next one instead of
    waiting for an event loop and a round trip to Redis per group (measured under bench/load.py --mode redis:
    4 ms of every move's 14 ms on the database thread, which plays the moves one after the other)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    if hasattr(type(layer), "group_send_many_threadsafe"):  # on the class: the Redis layers proxy attributes
        layer.group_send_many_threadsafe(messages)
        return
    _publisher().put(layer, messages)


class Publisher:
    """A thread with its own event loop that sends the batches it is given, one after the other, in order."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.queue: asyncio.Queue | None = None
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), name="channel-publisher", daemon=True)
        self.thread.start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.queue = asyncio.Queue()
        ready.set()
        self.loop.run_until_complete(self._drain())

    async def _drain(self) -> None:
        while True:
            layer, messages, sent = await self.queue.get()
            try:
                for group, message in messages:  # in order: a seat's pushes never overtake each other
                    await layer.group_send(group, message)
            except Exception:  # noqa: BLE001 - a failed push is lost like any push (the page resyncs on reconnect)
                logging.getLogger(__name__).exception("push to the channel layer failed")
            if sent is not None:
                sent.set()

    def put(self, layer, messages: list[tuple[str, dict]], sent: threading.Event | None = None) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (layer, messages, sent))

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every batch put so far is sent."""
        sent = threading.Event()
        self.put(None, [], sent)
        return sent.wait(timeout)


_publisher_lock = threading.Lock()
_the_publisher: Publisher | None = None


def _publisher() -> Publisher:
    global _the_publisher
    with _publisher_lock:
        if _the_publisher is None or not _the_publisher.thread.is_alive():
            _the_publisher = Publisher()
        return _the_publisher


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


def seat_key(user_id: int, position: int) -> str:
    """The key of a seat's render in a table push: the player and his place (tables.consumers reads it)."""
    return f"seat.{user_id}.{position}"


PUBLIC_KEY = "public"  # the spectators' render in a table push


def table_changed(table_id: int, *, table: Table | None = None, only: int | None = None,
                  also: list[tuple[str, dict]] = ()) -> tuple[Table | None, list]:
    """Render each connected seat's own view (not a seat its player left: a robot plays it), and the public view
    if anyone watches, and push them in one message to the table (each socket forwards its own part only).
    `table`: as just committed (else read). `only`: the place of the player whose private move this is
    (tables.services.move_is_private): his render alone is pushed, no other seat's and no public one, so the others
    learn nothing of it, not even that it happened. `also`: more messages to send in the same hop. Returns the
    table and seats it used."""
    with _one_hop():
        if table is None:
            table = reads.table(table_id)
        seats = [] if table is None else reads.seats_of(table_id)
        parts = {}
        for seat in seats:
            if seat.is_bot or seat.connections == 0 or seat.left:
                continue  # a player who left the match holds no place: nothing is rendered for him
            if only is not None and seat.position != only:
                continue
            parts[seat_key(seat.user_id, seat.position)] = render_push(table, seats, seat)
        if table is not None and getattr(table, "spectators", 0) and only is None:
            # One render of the public view for every spectator: no hand, no stock order, no staged work.
            parts[PUBLIC_KEY] = render_push(table, seats, None)
        if parts:
            # Flat values only: the in-process layer copies a flat message without a deepcopy, and msgpack
            # (Redis) wants string keys.
            _send(public_group(table_id), {"type": "table.push", "version": table.version, **parts})
        for group, extra in also:
            _send(group, extra)
    return table, seats


def seat_released(table_id: int, user_id: int, position: int, message: str) -> None:
    """The player no longer sits at `position`: his pages opened on that place say why and close their sockets."""
    _send(player_group(table_id, user_id),
          {"type": "seat.released", "user": user_id, "position": position, "message": message})


def seat_moved(table_id: int, user_id: int, position: int, to: int) -> None:
    """The player now sits at `to` (a waiting table's places turned: tables.rematch): his pages opened on
    `position` take their part of the pushes at `to` from now on, starting with the full view."""
    _send(player_group(table_id, user_id), {"type": "seat.moved", "user": user_id, "position": position, "to": to})


def chat_posted(table_id: int) -> None:
    """The chat log, drawn once for every socket of the table; a socket whose reader hides a writer of it draws
    its own from the push (tables.rendering.chat_for), so the hidden lines never reach that page."""
    _send(public_group(table_id), {"type": "table.html", "version": None, **chat_push(table_id)})


LOBBY_MESSAGE = (LOBBY_GROUP, {"type": "lobby.changed"})


def lobby_changed() -> None:
    _send(*LOBBY_MESSAGE)


# --- presence: grouped pushes ------------------------------------------------------------------

PRESENCE_DELAY = 0.2  # seconds: every arrival or departure at a table within it costs one push
_presence = threading.Condition()
_presence_pending: set[int] = set()
_presence_thread: threading.Thread | None = None


def presence_changed(table_id: int) -> None:
    """A page opened or closed a socket: push the table (the « en ligne » dots) a moment later, once for
    all the changes of that moment. A reload, or a thousand players arriving together, then costs one
    render per seat rather than one per socket, and never holds a websocket handshake."""
    global _presence_thread
    with _presence:
        _presence_pending.add(table_id)
        if _presence_thread is None or not _presence_thread.is_alive():
            _presence_thread = threading.Thread(target=_push_presence, name="presence-pushes", daemon=True)
            _presence_thread.start()
        _presence.notify()


def _push_presence() -> None:
    while True:
        with _presence:
            while not _presence_pending:
                _presence.wait()
        time.sleep(PRESENCE_DELAY)
        with _presence:
            tables = sorted(_presence_pending)
            _presence_pending.clear()
        for table_id in tables:
            try:
                table_changed(table_id)
            except Exception:  # noqa: BLE001 - one table's failure must not stop the others' pushes
                logging.getLogger(__name__).exception("presence push of table %s", table_id)
        close_old_connections()
