"""rummy_site.channel_layer.LocalChannelLayer: the embedded mode's in-process layer."""

import asyncio
import threading

import pytest
from channels.exceptions import ChannelFull

from rummy_site.channel_layer import LocalChannelLayer

pytestmark = pytest.mark.asyncio


async def test_group_send_reaches_members_only():
    layer = LocalChannelLayer()
    a, b, c = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table.1.seat.0", a)
    await layer.group_add("table.1.seat.0", b)
    await layer.group_add("table.2.seat.0", c)
    await layer.group_send("table.1.seat.0", {"type": "table.html", "html": "<p>", "version": 3})
    assert await layer.receive(a) == {"type": "table.html", "html": "<p>", "version": 3}
    assert await layer.receive(b) == {"type": "table.html", "html": "<p>", "version": 3}
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(c), 0.05)
    await layer.group_discard("table.1.seat.0", a)
    await layer.group_send("table.1.seat.0", {"type": "x"})
    assert await layer.receive(b) == {"type": "x"}
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(a), 0.05)
    assert layer.groups == {"table.1.seat.0": {b: layer.groups["table.1.seat.0"][b]},
                            "table.2.seat.0": {c: layer.groups["table.2.seat.0"][c]}}


async def test_receivers_do_not_share_mutable_messages():
    layer = LocalChannelLayer()
    a, b = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", a)
    await layer.group_add("g", b)
    message = {"type": "x", "items": [1]}
    await layer.group_send("g", message)
    got_a, got_b = await layer.receive(a), await layer.receive(b)
    got_a["items"].append(2)
    assert got_b["items"] == [1] and message["items"] == [1]


async def test_a_channel_that_stops_reading_is_dropped_from_its_groups():
    layer = LocalChannelLayer(capacity=3)
    dead, alive = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", dead)
    await layer.group_add("g", alive)
    for i in range(5):
        await layer.group_send("g", {"type": "x", "i": i})
        assert (await layer.receive(alive))["i"] == i
    assert dead not in layer.groups["g"] and dead not in layer.channels
    with pytest.raises(ChannelFull):
        for _ in range(4):
            await layer.send(dead, {"type": "y"})


async def test_send_from_another_thread_wakes_the_receiver_at_once():
    """What async_to_sync does from a Celery worker thread: another loop, another thread."""
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("g", channel)
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)

    def worker():
        asyncio.run(layer.group_send("g", {"type": "x", "from": "worker"}))

    thread = threading.Thread(target=worker)
    thread.start()
    assert await asyncio.wait_for(waiting, 1.0) == {"type": "x", "from": "worker"}
    thread.join()
