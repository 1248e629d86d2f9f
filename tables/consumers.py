"""One websocket per open table page. Routing only: every move goes to services.play_move."""

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from accounts.consumers import bell_html
from accounts.friends import hides_group
from accounts.notifications import bell_group
from tables import broadcast, commands, log_context, rendering, resync, socket_registry, spectators

MAX_FRAME = 4096
FLOOD_LIMIT = 20  # frames per FLOOD_WINDOW seconds before the socket is closed (1008)
FLOOD_WINDOW = 5.0


# Threads of their own for the handshake's one read, so that a burst of pages never waits behind the renders
# of the pages already open (daphne drops a handshake not accepted within 5 s).
HANDSHAKE_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ws-handshake")


def writer(func):
    """A call that writes: on the one database thread, in order. (Measured with PostgreSQL: writers side by
    side in a thread pool took the GIL from the event loop, and a burst of 1,000 pages lost most of its
    handshakes to daphne's 5 s timeout.)"""
    return database_sync_to_async(func)


@cache
def _move_threads() -> ThreadPoolExecutor | None:
    count = settings.MOVE_THREADS
    return ThreadPoolExecutor(max_workers=count, thread_name_prefix="ws-move") if count > 1 else None


def move_handler(func):
    """A player's move: with PostgreSQL, on one of a few threads (settings.MOVE_THREADS), so that while a move
    waits for the database another one uses the core. A socket's frames stay in order (the consumer awaits each
    before the next), and moves at one table one after the other (its row lock). With one thread (SQLite): on
    the database thread, as every other write."""
    threads = _move_threads()
    if threads is None:
        return writer(func)
    return database_sync_to_async(func, thread_sensitive=False, executor=threads)


class TableConsumer(AsyncWebsocketConsumer):
    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            # However the consumer ended (closed, crashed, cancelled), the in-process layer stops delivering
            # to it.
            forget = getattr(self.channel_layer, "forget", None)
            if forget is not None and getattr(self, "channel_name", None):
                forget(self.channel_name)

    async def connect(self):
        user = self.scope.get("user")
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        log_context.at_table(self.table_id)  # this socket's task: its log lines name the table
        self.seat = None
        self.watching = False
        self.hidden: frozenset[int] = frozenset()  # the writers whose chat lines this page never gets
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        # The handshake waits for one read, on a thread of its own. Counting the socket (a write: `writer`)
        # and rendering the view come after it, and the others'
        # pages learn of the arrival a moment later (presence pushes are grouped per table:
        # tables.broadcast.presence_changed). So a thousand pages arriving at once all get their handshake
        # in time instead of queueing behind each other's writes and renders.
        seat = await database_sync_to_async(commands.seat_of, thread_sensitive=False,
                                            executor=HANDSHAKE_THREADS)(self.table_id, user.pk)
        if seat is None:  # not seated, or left the match (« Quitter »): a spectator, if he may watch
            may_watch = database_sync_to_async(commands.may_watch, thread_sensitive=False, executor=HANDSHAKE_THREADS)
            allowed = await may_watch(self.table_id, self.scope.get("session"), user.pk)
            if not allowed:
                await self.close(code=4403)
                return
            await self._watch(user)
            return
        self.seat = seat
        self.user_id = user.pk
        self.released = False
        self.frames: list[float] = []
        # The player's group, not the place's: what is rendered for whoever sits at this place later never
        # reaches this socket (tables.broadcast).
        await self.channel_layer.group_add(broadcast.player_group(self.table_id, user.pk), self.channel_name)
        await self.channel_layer.group_add(broadcast.public_group(self.table_id), self.channel_name)
        await self.accept()
        socket_registry.socket_opened(self.table_id, user.pk)
        # Counted before anything the page can send next (Channels handles a socket's messages in order).
        if await writer(commands.connect_seat)(self.table_id, user.pk) is None:
            # He left the place since the handshake's read (« Quitter » in another tab): this page is not the seat's.
            self.released = True
            await self.send(text_data=commands.error_html(commands.NOT_SEATED))
            await self.close(code=4403)
            return
        await self._hide()
        await self.channel_layer.group_add(bell_group(self.user_id), self.channel_name)  # `bell_changed`
        # Channels delivers at most once: a (re)connected page always gets the full current view.
        self.shown_version = None
        await self.resend()
        resync.watch(self)
        # In-process layer (embedded mode): pushes go straight to the socket (rummy_site.channel_layer).
        self._sending: set[asyncio.Task] = set()
        deliver_to = getattr(self.channel_layer, "deliver_to", None)
        if deliver_to is not None:
            deliver_to(self.channel_name, self._push_now)

    async def _hide(self) -> None:
        """Who this reader hides in the chat (his blocks, his mutes at this table: tables.chat), kept for the
        socket's life and read again when he changes it (`hides_changed`)."""
        await self.channel_layer.group_add(hides_group(self.user_id), self.channel_name)
        self.hidden = await database_sync_to_async(commands.chat_hidden, thread_sensitive=False)(self.table_id,
                                                                                                 self.user_id)

    async def hides_changed(self, event):
        """He blocked, unblocked, hid or showed a writer again (accounts.friends.hides_changed): his chat log is
        drawn again without the writers he hides now."""
        if self.released:
            return
        self.hidden, html = await database_sync_to_async(commands.chat_again, thread_sensitive=False)(
            self.table_id, self.user_id)
        await self.send(text_data=html)

    async def bell_changed(self, event):
        """His notifications changed (accounts.notifications): the header's bell, swapped in by its id like every
        piece of a push. The table page's one socket carries it: a page holds no second socket for the bell."""
        if self.released:
            return
        await self.send(text_data=await database_sync_to_async(bell_html, thread_sensitive=False)(self.user_id))

    async def resend(self) -> None:
        html = await database_sync_to_async(commands.full_view, thread_sensitive=False)(self.table_id, self.user_id,
                                                                                        self.hidden)
        if html:
            self.shown_version = resync.version_in(html)
            await self.send(text_data=html)

    def _shown(self, message: dict) -> None:
        version = message.get("version")
        if version is not None and (self.shown_version is None or version > self.shown_version):
            self.shown_version = version

    async def _watch(self, user) -> None:
        """A spectator's socket (tables.spectators): the public view's pushes and the chat, never a seat's."""
        self.watching = True
        self.user_id = user.pk
        self.released = False
        self.frames = []
        await self.channel_layer.group_add(broadcast.public_group(self.table_id), self.channel_name)
        await self.accept()
        spectators.socket_opened(self.table_id, user.pk)
        # Counted before the first view is rendered: that render and every push after it are the spectators'.
        await writer(spectators.spectator_connected)(table_id=self.table_id, user_id=user.pk, delta=+1)
        await self._hide()
        await self.channel_layer.group_add(bell_group(self.user_id), self.channel_name)  # `bell_changed`
        self.shown_version = None
        await self.resend()
        resync.watch(self)
        self._sending = set()
        deliver_to = getattr(self.channel_layer, "deliver_to", None)
        if deliver_to is not None:
            deliver_to(self.channel_name, self._push_now)

    async def _unwatch(self) -> None:
        resync.forget(self)
        stop = getattr(self.channel_layer, "stop_delivering_to", None)
        if stop is not None:
            stop(self.channel_name)
        await self.channel_layer.group_discard(broadcast.public_group(self.table_id), self.channel_name)
        await self.channel_layer.group_discard(hides_group(self.user_id), self.channel_name)
        await self.channel_layer.group_discard(bell_group(self.user_id), self.channel_name)
        spectators.socket_closed(self.table_id, self.user_id)
        await writer(spectators.spectator_connected)(table_id=self.table_id, user_id=self.user_id, delta=-1)

    def _for_me(self, message: dict) -> bool:
        """A push names the player it was rendered for (None: public, the chat); any other is dropped."""
        return message.get("user") in (None, self.user_id) and not self.released

    def part_of(self, message: dict) -> str | None:
        """What this page may get of a message: of a table push (every seat's render, tables.broadcast), the
        part under this player's key at this page's place, or the public part for a spectator; of a
        `table.html`, the HTML if it names this player or nobody (the chat: without the lines of the writers
        this reader hides, tables.rendering.chat_for)."""
        if self.released:
            return None
        if message.get("type") == "table.push":
            key = broadcast.PUBLIC_KEY if self.watching else broadcast.seat_key(self.user_id, self.seat)
            return message.get(key)
        if not self._for_me(message):
            return None
        return rendering.chat_for(message, self.hidden) if self.hidden else message["html"]

    def _push_now(self, message: dict) -> bool:
        """A push, sent as soon as the layer has it (in order: each send completes in the task's first step)."""
        if message.get("type") not in ("table.html", "table.push"):
            return False
        html = self.part_of(message)
        if html is None:
            return True
        self._shown(message)
        task = asyncio.get_running_loop().create_task(self.send(text_data=html))
        self._sending.add(task)
        task.add_done_callback(self._sent)
        return True

    def _sent(self, task: asyncio.Task) -> None:
        self._sending.discard(task)
        if not task.cancelled():
            task.exception()  # a socket closed meanwhile: nothing to do, and nothing to log

    async def dispatch(self, message):
        """As Channels', without closing stale database connections before every message: Channels does that
        on the one sync thread, so every push to every socket waited for that thread (busy applying moves).
        This consumer touches the database only through database_sync_to_async, which does it in the thread
        that holds the connection, before and after each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code):
        if self.watching:
            await self._unwatch()
            return
        if self.seat is None:
            return
        resync.forget(self)
        stop = getattr(self.channel_layer, "stop_delivering_to", None)
        if stop is not None:
            stop(self.channel_name)
        await self.channel_layer.group_discard(broadcast.player_group(self.table_id, self.user_id), self.channel_name)
        await self.channel_layer.group_discard(broadcast.public_group(self.table_id), self.channel_name)
        await self.channel_layer.group_discard(hides_group(self.user_id), self.channel_name)
        await self.channel_layer.group_discard(bell_group(self.user_id), self.channel_name)
        socket_registry.socket_closed(self.table_id, self.user_id)
        if not self.released:  # a released socket's seat is gone (the player may sit elsewhere now)
            await writer(commands.disconnect_seat)(self.table_id, self.user_id)

    async def receive(self, text_data=None, bytes_data=None):
        now = time.monotonic()
        self.frames = [t for t in self.frames if now - t < FLOOD_WINDOW] + [now]
        if len(self.frames) > FLOOD_LIMIT:
            await self.close(code=1008)
            return
        if text_data is None or len(text_data) > MAX_FRAME:
            await self.send(text_data=commands.error_html("Message trop long ou illisible."))
            return
        try:
            payload = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested too deep
            await self.send(text_data=commands.error_html("Message illisible."))
            return
        if self.watching:
            reply = await writer(commands.handle_spectator_frame)(self.table_id, self.user_id, payload)
            if reply:
                await self.send(text_data=reply)
            return
        kind = payload.get("kind") if isinstance(payload, dict) else None
        if isinstance(kind, str) and kind in commands.SLOW_KINDS:
            # « Conseil »: the Expert's search (up to ~0.2 s of CPU, bench/coach.py) runs beside the threads that
            # apply moves, not in front of them.
            handle = database_sync_to_async(commands.handle_frame, thread_sensitive=False)
        elif kind in (None, "move"):
            handle = move_handler(commands.handle_frame)
        else:
            handle = writer(commands.handle_frame)
        reply = await handle(self.table_id, self.scope["user"].pk, payload)
        if reply:
            await self.send(text_data=reply)

    async def table_html(self, event):
        await self.table_push(event)

    async def table_push(self, event):
        html = self.part_of(event)
        if html is not None:
            self._shown(event)
            await self.send(text_data=html)

    async def seat_released(self, event):
        """The player left his place (another page of his, « Quitter »): this page says so and closes."""
        if event.get("user") != self.user_id or event.get("position") != self.seat or self.released:
            return
        self.released = True
        await self.send(text_data=commands.error_html(event["message"]))
        await self.close(code=4403)

    async def seat_moved(self, event):
        """The player's place changed before the match (a rematch's teams): this page follows him there."""
        if event.get("user") != self.user_id or event.get("position") != self.seat or self.released:
            return
        self.seat = event["to"]
        await self.resend()
