"""The Redis pub/sub channel layer of the PostgreSQL + Redis mode: channels_redis's, with direct delivery.

channels_redis hands a message published to a group to each of the process's channels in it as raw bytes on
an asyncio queue; each consumer then wakes through Channels' consumer loop (a task and an `asyncio.wait` per
message) and decodes the message again. A table push (tables.broadcast) goes to every socket of the table,
so that was a decoding of every seat's render and a trip through the consumer loop per socket. Here, as in the
in-process layer of the embedded mode (rummy_site.channel_layer), a consumer may take its messages straight
from the layer (`deliver_to`): the message is decoded once per process, and each socket's handler picks its
own part and sends it. A message the handler does not take (returns False), and every message of a channel
without a handler, goes to the channel's queue as before.
"""

import asyncio
import logging
from collections.abc import Callable

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close

logger = logging.getLogger(__name__)


class _Shard(RedisSingleShardConnection):
    def _receive_message(self, message):
        if message is None:
            return
        layer = self.channel_layer  # the loop's layer
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        if name in layer.channels:
            targets = (name,)
        elif name in layer.groups:
            targets = tuple(layer.groups[name])
        else:
            return
        data = message["data"]
        decoded = None
        for channel in targets:
            queue = layer.channels.get(channel)
            if queue is None:
                continue
            handler = layer.handlers.get(channel)
            if handler is not None:
                if decoded is None:
                    decoded = layer.channel_layer.deserialize(data)  # once for all the process's sockets
                try:
                    if handler(decoded):  # handlers only read the message: they all share it
                        continue
                except Exception:  # noqa: BLE001 - one socket's failure must not stop the others' pushes
                    logger.exception("direct delivery to %s failed", channel)
                    continue
            queue.put_nowait(data)


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.handlers: dict[str, Callable[[dict], bool]] = {}
        self._shards = [_Shard(shard.host, self) for shard in self._shards]

    def deliver_to(self, channel: str, handler: Callable[[dict], bool]) -> None:
        """From now on hand the channel's messages to `handler(message)` as they arrive, on this loop; it
        returns False to have a message queued for `receive` as usual. It must not change the message."""
        self.handlers[channel] = handler

    def stop_delivering_to(self, channel: str) -> None:
        self.handlers.pop(channel, None)

    def forget(self, channel: str) -> None:
        """A consumer that ended, however it ended (its subscriptions go with its `receive`, as in channels_redis)."""
        self.handlers.pop(channel, None)


class PubSubChannelLayer(RedisPubSubChannelLayer):
    def _get_layer(self):
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
            return layer
