"""The in-process channel layer of the embedded default mode: O(1) per delivered message, thread-safe.

Channels' InMemoryChannelLayer scans every channel and every group for expired messages on each
`group_send` and each `receive`: with a few hundred sockets that is most of the server's time. Here a
send touches only its recipients. Messages whose channel stops reading are not kept: a channel whose
queue is full (its consumer is gone or hopelessly behind) is dropped from its groups, as the
InMemory layer does when a message expires. Channels delivers at most once; the table consumer
resyncs a page on connect.

Pushes are sent from sync code (database_sync_to_async threads, the embedded Celery worker's threads)
through async_to_sync, which may run them on another event loop in another thread: every change of
the layer's state and every queue operation is then handed to the loop the consumers live on
(`call_soon_threadsafe`), so a push from a worker thread wakes its socket at once.
"""

import asyncio
import random
import string
import time
from collections.abc import Callable
from copy import deepcopy

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

FLAT = (str, int, float, bool, bytes, type(None))


class LocalChannelLayer(BaseChannelLayer):
    extensions = ["groups", "flush"]

    def __init__(self, expiry=60, group_expiry=86400, capacity=100, channel_capacity=None, **kwargs):
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity, **kwargs)
        self.group_expiry = group_expiry
        self.channels: dict[str, asyncio.Queue] = {}
        self.groups: dict[str, dict[str, float]] = {}  # group -> {channel: joined at}
        self.memberships: dict[str, set[str]] = {}  # channel -> its groups
        self.handlers: dict[str, Callable[[dict], bool]] = {}  # channel -> its direct delivery (deliver_to)
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- which loop owns the state

    def _owner(self) -> asyncio.AbstractEventLoop | None:
        """The loop to hand work to, or None when the caller runs on it (or no consumer loop is known)."""
        current = asyncio.get_running_loop()
        loop = self._loop
        if loop is None or loop.is_closed() or not loop.is_running():
            self._loop = current
            return None
        return None if loop is current else loop

    # -- channel layer API

    async def send(self, channel, message):
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        owner = self._owner()
        if owner is not None:
            owner.call_soon_threadsafe(self._deliver, channel, self._copy(message), True)
            return
        if not self._deliver(channel, self._copy(message), False):
            raise ChannelFull(channel)

    async def receive(self, channel):
        self.require_valid_channel_name(channel)
        self._owner()
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            return await queue.get()
        finally:
            if queue.empty() and self.channels.get(channel) is queue:
                del self.channels[channel]  # nothing kept for a channel that stops reading

    async def new_channel(self, prefix="specific."):
        name = "".join(random.choice(string.ascii_letters) for _ in range(12))
        return f"{prefix}.inmemory!{name}"

    async def flush(self):
        self.channels, self.groups, self.memberships, self.handlers = {}, {}, {}, {}

    # -- direct delivery: the in-process fast path

    def deliver_to(self, channel: str, handler: Callable[[dict], bool]) -> None:
        """From now on, hand the channel's messages to `handler(message)` as they arrive, on the consumers'
        loop, instead of queueing them for `receive`. Channels' consumer loop costs a woken task and an
        `asyncio.wait` per message, more than the push itself; a consumer whose messages only need sending
        on takes them here. `handler` returns False to have a message queued as usual.
        Call it from the consumers' loop (a consumer's own coroutine)."""
        self._owner()
        self.handlers[channel] = handler

    def stop_delivering_to(self, channel: str) -> None:
        self.handlers.pop(channel, None)

    def forget(self, channel: str) -> None:
        """A consumer that ended, however it ended: its channel leaves every group, queue and handler.
        (A queued channel whose consumer died is dropped once its queue fills; a directly delivered one
        never fills a queue.)"""
        self._drop(channel)

    async def close(self):
        pass

    # -- groups

    async def group_add(self, group, channel):
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        owner = self._owner()
        if owner is not None:
            owner.call_soon_threadsafe(self._join, group, channel)
        else:
            self._join(group, channel)

    async def group_discard(self, group, channel):
        self.require_valid_channel_name(channel)
        self.require_valid_group_name(group)
        owner = self._owner()
        if owner is not None:
            owner.call_soon_threadsafe(self._leave, group, channel)
        else:
            self._leave(group, channel)

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        owner = self._owner()
        if owner is not None:
            owner.call_soon_threadsafe(self._fan_out, group, message)
        else:
            self._fan_out(group, message)

    def group_send_threadsafe(self, group: str, message: dict) -> None:
        """group_send for sync code in any thread, without waiting for an event loop (tables.broadcast)."""
        self.group_send_many_threadsafe([(group, message)])

    def group_send_many_threadsafe(self, messages: list[tuple[str, dict]]) -> None:
        """Several group_sends in one hand-over to the consumers' loop (one wake-up of the loop, not one
        per message: a move's pushes to its seats and to the lobby leave together)."""
        for group, message in messages:
            assert isinstance(message, dict), "Message is not a dict"
            self.require_valid_group_name(group)
        loop = self._loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if loop is None or loop.is_closed() or not loop.is_running() or running is loop:
            # On the consumers' loop, or no consumer loop yet (then nobody can be listening).
            self._fan_out_all(messages)
        else:
            loop.call_soon_threadsafe(self._fan_out_all, messages)

    # -- on the owning loop

    @staticmethod
    def _copy(message: dict) -> dict:
        # Receivers must not share mutable state with the sender (the Redis layers serialise).
        if all(isinstance(v, FLAT) for v in message.values()):
            return dict(message)
        return deepcopy(message)

    def _deliver(self, channel: str, message: dict, from_group: bool) -> bool:
        handler = self.handlers.get(channel)
        if handler is not None and handler(message):
            return True
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait(message)
            return True
        except asyncio.QueueFull:
            if from_group:
                self._drop(channel)
            return False

    def _fan_out(self, group: str, message: dict) -> None:
        members = self.groups.get(group)
        if not members:
            return
        expired = time.time() - self.group_expiry
        for channel, joined in list(members.items()):
            if joined < expired:
                self._leave(group, channel)
                continue
            self._deliver(channel, self._copy(message), True)

    def _fan_out_all(self, messages: list[tuple[str, dict]]) -> None:
        for group, message in messages:
            self._fan_out(group, message)

    def _join(self, group: str, channel: str) -> None:
        self.groups.setdefault(group, {})[channel] = time.time()
        self.memberships.setdefault(channel, set()).add(group)

    def _leave(self, group: str, channel: str) -> None:
        members = self.groups.get(group)
        if members is not None:
            members.pop(channel, None)
            if not members:
                del self.groups[group]
        joined = self.memberships.get(channel)
        if joined is not None:
            joined.discard(group)
            if not joined:
                del self.memberships[channel]

    def _drop(self, channel: str) -> None:
        """A channel that stopped reading: out of every group, its backlog forgotten."""
        for group in list(self.memberships.get(channel, ())):
            self._leave(group, channel)
        self.channels.pop(channel, None)
        self.handlers.pop(channel, None)
