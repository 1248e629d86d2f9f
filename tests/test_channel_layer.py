"""The channel layers: the embedded mode's in-process LocalChannelLayer, and Redis mode's layer as configured."""

import asyncio
import threading

import pytest
from channels.exceptions import ChannelFull
from django.conf import settings

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


async def test_a_channel_delivered_directly_gets_its_messages_at_once_and_in_order():
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("g", channel)
    got = []
    layer.deliver_to(channel, lambda message: message["type"] == "table.html" and not got.append(message["i"]))
    for i in range(3):
        await layer.group_send("g", {"type": "table.html", "i": i})
    assert got == [0, 1, 2] and channel not in layer.channels  # nothing queued
    # A message the handler declines waits for receive() as usual.
    await layer.group_send("g", {"type": "other", "i": 3})
    assert (await layer.receive(channel))["i"] == 3
    layer.stop_delivering_to(channel)
    await layer.group_send("g", {"type": "table.html", "i": 4})
    assert got == [0, 1, 2] and (await layer.receive(channel))["i"] == 4


async def test_pushes_from_a_worker_thread_reach_a_direct_channel_on_its_loop():
    layer = LocalChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("g", channel)
    loop = asyncio.get_running_loop()
    arrived = asyncio.Event()
    threads = []

    def handler(message):
        threads.append(threading.current_thread())
        arrived.set()
        return True

    layer.deliver_to(channel, handler)
    thread = threading.Thread(target=layer.group_send_many_threadsafe, args=([("g", {"type": "table.html"})],))
    thread.start()
    await asyncio.wait_for(arrived.wait(), 1.0)
    thread.join()
    assert threads == [threading.main_thread()] and loop.is_running()



@pytest.mark.skipif(not settings.REDIS_URL, reason="Redis mode only")
async def test_the_redis_layer_carries_a_whole_push_over_resp2():
    """Redis mode speaks RESP2 to the channel layer (rummy_site/settings.py says why): a push the size of a
    whole table view reaches the seat's socket intact."""
    from channels.layers import get_channel_layer

    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["protocol"] == 2
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("table.999.seat.0", channel)
    html = "<div>" + "♠" * 16_000 + "</div>"
    await layer.group_send("table.999.seat.0", {"type": "table.html", "html": html, "version": 7})
    assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "table.html", "html": html, "version": 7}
    await layer.group_discard("table.999.seat.0", channel)
    await layer.flush()


@pytest.mark.skipif(not settings.REDIS_URL, reason="Redis mode only")
async def test_the_redis_layer_hands_a_group_message_to_each_direct_handler_decoded_once():
    """rummy_site.redis_layer: the sockets of a table that take their pushes directly each get the one
    decoded message; what a handler does not take, and a channel without a handler, is queued as before."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    direct, other, queued = [await layer.new_channel() for _ in range(3)]
    for channel in (direct, other, queued):
        await layer.group_add("table.998", channel)
    got: dict[str, list] = {direct: [], other: []}
    for channel in (direct, other):
        layer.deliver_to(channel, lambda m, c=channel: m["type"] == "table.push" and not got[c].append(m))
    push = {"type": "table.push", "version": 3, "seat.1.0": "<p>a</p>", "seat.2.1": "<p>b</p>"}
    await layer.group_send("table.998", push)
    await layer.group_send("table.998", {"type": "seat.released", "user": 1})
    assert await asyncio.wait_for(layer.receive(queued), 5) == push
    assert await asyncio.wait_for(layer.receive(queued), 5) == {"type": "seat.released", "user": 1}
    assert await asyncio.wait_for(layer.receive(direct), 5) == {"type": "seat.released", "user": 1}
    assert got[direct] == [push] and got[other] == [push] and got[direct][0] is got[other][0]
    layer.stop_delivering_to(direct)
    await layer.group_send("table.998", push)
    assert await asyncio.wait_for(layer.receive(direct), 5) == push
    for channel in (direct, other, queued):
        await layer.group_discard("table.998", channel)
    await layer.flush()
