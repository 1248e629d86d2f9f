"""tables.broadcast: handing pushes to the channel layer."""

import asyncio
import threading

from tables.broadcast import Publisher


def test_the_publisher_sends_batches_in_order_without_holding_the_caller():
    """How the Redis layer gets a move's pushes from the database thread."""
    sent, gate = [], threading.Event()

    class SlowLayer:
        async def group_send(self, group, message):
            await asyncio.sleep(0)
            if message.get("boom"):
                raise ConnectionError("redis went away")
            await asyncio.get_running_loop().run_in_executor(None, gate.wait, 5)
            sent.append((group, message["i"]))

    publisher = Publisher()
    layer = SlowLayer()
    publisher.put(layer, [("a", {"i": 0}), ("b", {"i": 1})])
    publisher.put(layer, [("a", {"boom": True})])  # a failed push is dropped, the next ones still leave
    publisher.put(layer, [("a", {"i": 2})])
    assert sent == []  # put() returned at once, while the layer was still waiting
    gate.set()
    assert publisher.flush(5)
    assert sent == [("a", 0), ("b", 1), ("a", 2)]
