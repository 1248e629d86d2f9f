"""The scripted players of bench.load: one asyncio process, real websocket frames, what a browser sends.

Each seat opens /ws/tables/<id>/ with its session cookie and the site's Origin, reads the HTML pushed
to it (the version in data-version, whose turn in data-my-turn, the phase, the cards of its own hand in
data-card / data-points / data-closable) and, when it is its turn, answers after a think time of about
a second: « Piocher » in the draw phase; in the discard phase « Je ferme ! » with a closable card, else
it discards its highest loose card. It never uses anything it did not receive.

Latency of a move: from the send of the frame to the moment the last connected seat of the table got
the push carrying the new version. A push a connected seat never got is a lost push.
"""

import asyncio
import json
import random
import re
import time
from dataclasses import dataclass, field

import websockets
from websockets.asyncio.client import connect

RE_VERSION = re.compile(r'id="table-status"[^>]*?data-version="(\d+)" data-phase="([A-Z_]*)" data-my-turn="([01])"')
RE_CARD = re.compile(r'data-card="([^"]+)" data-points="(\d*)"( data-meld)?( data-closable)?')
PLAYABLE = ("DRAW", "DISCARD")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds
    moves_sent: int = 0
    pushes: int = 0
    push_bytes: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    lost: int = 0
    unanswered: int = 0

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 8:
            self.error_samples.append(what[:300])


class Window:
    """The measured interval: moves are sampled only when sent inside it."""

    def __init__(self):
        self.start = float("inf")
        self.end = float("inf")
        self.sending = True

    def inside(self, t: float) -> bool:
        return self.start <= t <= self.end


class Table:
    """What the clients of one table saw: send times of moves, receive times of versions per seat."""

    def __init__(self, table_id: int, stats: Stats, window: Window):
        self.id = table_id
        self.stats = stats
        self.window = window
        self.seats: list[Seat] = []
        self.sent: dict[int, float] = {}  # version the move should produce -> send time
        self.seen: dict[int, dict[int, float]] = {}  # version -> {pos: first receive time}
        self.first_seen: dict[int, float] = {}

    def connected(self) -> list["Seat"]:
        return [s for s in self.seats if s.open]

    def reachable(self) -> int:
        """Seats whose socket opened: a seat that never connected (counted as an error) cannot lose a push."""
        return sum(1 for s in self.seats if s.opened)

    def received(self, version: int, pos: int, now: float) -> None:
        by_seat = self.seen.setdefault(version, {})
        if pos in by_seat:
            return
        by_seat[pos] = now
        self.first_seen.setdefault(version, now)
        if len(by_seat) == self.reachable():
            sent = self.sent.get(version)
            if sent is not None and self.window.inside(sent):
                self.stats.latencies.append(max(by_seat.values()) - sent)

    def account(self) -> None:
        """After the drain: every version first seen in the window must have reached every seat."""
        for version, first in self.first_seen.items():
            if self.window.inside(first):
                self.stats.lost += self.reachable() - len(self.seen[version])
        for version, sent in self.sent.items():
            if self.window.inside(sent) and version not in self.seen:
                self.stats.unanswered += 1


class Seat:
    def __init__(self, table: Table, pos: int, session: str, think: float, rng: random.Random):
        self.table = table
        self.pos = pos
        self.session = session
        self.think = think
        self.rng = rng
        self.ws = None
        self.open = False
        self.opened = False  # the socket opened once (see Table.reachable)
        self.version = -1
        self.planned = -1
        self.got_first = asyncio.Event()

    async def run(self, url: str, origin: str, ready: asyncio.Semaphore) -> None:
        stats = self.table.stats
        try:
            async with ready:
                self.ws = await connect(url, origin=origin, additional_headers={"Cookie": f"sessionid={self.session}"},
                                        max_size=2**23, ping_interval=None, open_timeout=60, close_timeout=5)
                self.open = self.opened = True
        except Exception as error:  # noqa: BLE001 - every failure is counted and shown
            stats.error(f"connect table {self.table.id} seat {self.pos}: {error!r}")
            self.got_first.set()
            return
        try:
            async for frame in self.ws:
                self.on_frame(frame)
        except websockets.ConnectionClosed as closed:
            if self.open:
                stats.error(f"closed table {self.table.id} seat {self.pos}: {closed!r}")
        finally:
            self.open = False
            self.got_first.set()

    def on_frame(self, frame) -> None:
        now = time.perf_counter()
        stats = self.table.stats
        if isinstance(frame, bytes):
            stats.error("binary frame")
            return
        match = RE_VERSION.search(frame)
        if match is None:
            if 'id="table-error"' in frame and "<p>" in frame:
                stats.error(f"table {self.table.id} seat {self.pos}: {re.sub(r'<[^>]+>', '', frame).strip()}")
            return  # chat
        version, phase, my_turn = int(match[1]), match[2], match[3] == "1"
        stats.pushes += 1
        stats.push_bytes += len(frame)
        self.got_first.set()
        self.table.received(version, self.pos, now)
        if version <= self.version:
            return
        self.version = version
        if my_turn and phase in PLAYABLE and self.planned < version and self.table.window.sending:
            self.planned = version
            move = self.choose(phase, frame, version)
            if move is not None:
                delay = self.think * (0.5 + self.rng.random())
                asyncio.get_running_loop().call_later(delay, self.send_move, version, move)

    def choose(self, phase: str, frame: str, version: int) -> dict | None:
        if phase == "DRAW":
            return {"kind": "move", "action": "draw_stock", "version": version}
        cards = RE_CARD.findall(frame)
        if not cards:
            return None
        closable = [c for c, _points, _meld, can in cards if can]
        if closable:
            return {"kind": "move", "action": "close", "card": closable[0], "version": version}
        loose = [(int(points), c) for c, points, meld, _ in cards if points and not meld]
        card = max(loose)[1] if loose else cards[-1][0]
        return {"kind": "move", "action": "discard", "card": card, "version": version}

    def send_move(self, version: int, move: dict) -> None:
        if not self.open or self.version != version or not self.table.window.sending:
            return
        self.table.sent[version + 1] = time.perf_counter()
        self.table.stats.moves_sent += 1
        asyncio.ensure_future(self._send(json.dumps(move)))

    async def _send(self, text: str) -> None:
        try:
            await self.ws.send(text)
        except websockets.ConnectionClosed as closed:
            self.table.stats.error(f"send on closed socket: {closed!r}")


async def play(*, base: str, tables: list[dict], warmup: float, seconds: float, think: float,
               connect_concurrency: int = 16, drain: float = 5.0, on_window=None) -> tuple[Stats, list[Seat], dict]:
    """Connect every seat, play `warmup` then `seconds` measured; returns the stats and the open seats."""
    stats, window = Stats(), Window()
    rng = random.Random(1)
    ready = asyncio.Semaphore(connect_concurrency)
    origin = base.replace("ws://", "http://")
    all_seats, runners, table_objs = [], [], []
    t_connect = time.perf_counter()
    for entry in tables:
        table = Table(entry["id"], stats, window)
        table_objs.append(table)
        for seat_info in entry["seats"]:
            seat = Seat(table, seat_info["pos"], seat_info["session"], think, random.Random(rng.random()))
            table.seats.append(seat)
            all_seats.append(seat)
            runners.append(asyncio.ensure_future(seat.run(f"{base}/ws/tables/{entry['id']}/", origin, ready)))
    await asyncio.gather(*(seat.got_first.wait() for seat in all_seats))
    connect_s = time.perf_counter() - t_connect
    await asyncio.sleep(warmup)
    window.start = time.perf_counter()
    if on_window is not None:
        on_window("start")
    await asyncio.sleep(seconds)
    window.end = time.perf_counter()
    window.sending = False
    if on_window is not None:
        on_window("end")
    # Let the last moves' pushes arrive, then count what never did.
    deadline = time.perf_counter() + drain
    while time.perf_counter() < deadline:
        pending = [t for t in table_objs for v, s in t.sent.items()
                   if window.inside(s) and len(t.seen.get(v, ())) < len(t.seats)]
        if not pending:
            break
        await asyncio.sleep(0.1)
    for table in table_objs:
        table.account()
    info = {"connect_s": connect_s, "window_s": window.end - window.start, "runners": runners}
    return stats, all_seats, info


async def close_all(seats: list[Seat], runners: list) -> None:
    for seat in seats:
        seat.open = False
    await asyncio.gather(*(s.ws.close() for s in seats if s.ws is not None), return_exceptions=True)
    await asyncio.gather(*runners, return_exceptions=True)


# --- the floor: a bare Channels echo consumer, same sockets, same pace -------------------------------

class EchoTable:
    def __init__(self, group: int, stats: Stats, window: Window, think: float, rng: random.Random):
        self.group = group
        self.stats = stats
        self.window = window
        self.think = think
        self.rng = rng
        self.sockets: list = []
        self.seq = 0
        self.sent: dict[int, float] = {}
        self.seen: dict[int, int] = {}
        self.last: dict[int, float] = {}

    async def reader(self, ws) -> None:
        try:
            async for frame in ws:
                now = time.perf_counter()
                seq = int(frame[:frame.index(" ")])
                self.stats.pushes += 1
                count = self.seen[seq] = self.seen.get(seq, 0) + 1
                if count == len(self.sockets):
                    sent = self.sent.get(seq)
                    if sent is not None and self.window.inside(sent):
                        self.stats.latencies.append(now - sent)
        except websockets.ConnectionClosed:
            pass

    async def mover(self) -> None:
        while self.window.sending:
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
            if not self.window.sending:
                break
            self.seq += 1
            ws = self.sockets[self.seq % len(self.sockets)]
            self.sent[self.seq] = time.perf_counter()
            self.stats.moves_sent += 1
            try:
                await ws.send(f"{self.seq}")
            except websockets.ConnectionClosed as closed:
                self.stats.error(repr(closed))


async def echo(*, base: str, groups: int, size: int, warmup: float, seconds: float, think: float,
               connect_concurrency: int = 32, on_window=None) -> Stats:
    stats, window = Stats(), Window()
    rng = random.Random(2)
    ready = asyncio.Semaphore(connect_concurrency)
    tables = [EchoTable(g, stats, window, think, random.Random(rng.random())) for g in range(groups)]

    async def open_one(table):
        async with ready:
            ws = await connect(f"{base}/ws/echo/{table.group}/", max_size=2**23, ping_interval=None, open_timeout=60)
        table.sockets.append(ws)

    await asyncio.gather(*(open_one(t) for t in tables for _ in range(size)))
    readers = [asyncio.ensure_future(t.reader(ws)) for t in tables for ws in t.sockets]
    movers = [asyncio.ensure_future(t.mover()) for t in tables]
    await asyncio.sleep(warmup)
    window.start = time.perf_counter()
    if on_window is not None:
        on_window("start")
    await asyncio.sleep(seconds)
    window.end = time.perf_counter()
    if on_window is not None:
        on_window("end")
    window.sending = False
    await asyncio.sleep(1.0)
    for table in tables:
        for seq, sent in table.sent.items():
            if window.inside(sent):
                stats.lost += len(table.sockets) - table.seen.get(seq, 0)
    await asyncio.gather(*movers, return_exceptions=True)
    await asyncio.gather(*(ws.close() for t in tables for ws in t.sockets), return_exceptions=True)
    await asyncio.gather(*readers, return_exceptions=True)
    return stats


# --- idle sockets and the connection burst --------------------------------------------------------

async def open_idle(*, base: str, seats: list[tuple[int, str]], concurrency: int = 16) -> tuple[list, int]:
    """Open one more page per (table, session), wait for its first view; returns (sockets, failures)."""
    ready = asyncio.Semaphore(concurrency)
    origin = base.replace("ws://", "http://")
    sockets, failures = [], 0

    async def one(table_id, session):
        nonlocal failures
        try:
            async with ready:
                ws = await connect(f"{base}/ws/tables/{table_id}/", origin=origin,
                                   additional_headers={"Cookie": f"sessionid={session}"}, max_size=2**23,
                                   ping_interval=None, open_timeout=60)
                await asyncio.wait_for(ws.recv(), 60)
            sockets.append(ws)
        except Exception:  # noqa: BLE001 - counted
            failures += 1

    await asyncio.gather(*(one(t, s) for t, s in seats))
    return sockets, failures


async def drain_quietly(sockets: list) -> asyncio.Future:
    """Keep reading idle sockets (pushes of presence changes) so nothing backs up."""

    async def reader(ws):
        try:
            async for _ in ws:
                pass
        except websockets.ConnectionClosed:
            pass

    return asyncio.ensure_future(asyncio.gather(*(reader(ws) for ws in sockets), return_exceptions=True))


async def burst(*, base: str, seats: list[tuple[int, str]], timeout: float = 30.0) -> dict:
    """Every socket at once: success = handshake accepted and the first view received within `timeout`."""
    origin = base.replace("ws://", "http://")
    results: list[str] = []
    times: list[float] = []
    sockets = []

    async def one(table_id, session):
        start = time.perf_counter()
        try:
            ws = await connect(f"{base}/ws/tables/{table_id}/", origin=origin,
                               additional_headers={"Cookie": f"sessionid={session}"}, max_size=2**23,
                               ping_interval=None, open_timeout=timeout)
            sockets.append(ws)
            first = await asyncio.wait_for(ws.recv(), timeout)
            ok = RE_VERSION.search(first) is not None
            results.append("ok" if ok else "no-view")
            times.append(time.perf_counter() - start)
        except Exception as error:  # noqa: BLE001 - counted and classified
            results.append(type(error).__name__)

    started = time.perf_counter()
    await asyncio.gather(*(one(t, s) for t, s in seats))
    elapsed = time.perf_counter() - started
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    kinds: dict[str, int] = {}
    for r in results:
        kinds[r] = kinds.get(r, 0) + 1
    return {"ok": kinds.get("ok", 0), "total": len(seats), "kinds": kinds, "elapsed_s": elapsed,
            "p50_s": percentile(times, 50), "p99_s": percentile(times, 99)}
