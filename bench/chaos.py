"""Crash faults: kill -9 daphne and the Celery worker during live bot matches, restart them, check.

    python -m bench.chaos --runs 200          # PostgreSQL + Redis (scratch database rummy_chaos, Redis db 12)

Real processes on PostgreSQL + Redis: one daphne, one Celery worker (threads pool). Matches of Gin Rami
and Thanasis are created through the services: the host is a human whose browser tab is a scripted
websocket client (session cookie, the site's Origin, real frames, deciding only from the HTML it gets),
every other seat is a bot played by the worker. A run: play a random while, `kill -9` daphne, restart it
(the client reconnects and must get the full view), play a random while, `kill -9` the worker, restart
it. When a match ends the next one starts. Afterwards, for every table:

- lost_moves: versions the client was shown that the log does not back (its hand at that version is not
  the replay's, or the version is past the log), and client moves shown as applied but missing;
- duplicate_moves: log entries beyond one per version (gaps, repeats, a version without its entry);
- replay_mismatches: tables whose state differs from the replay of their log (or whose log won't replay);
- stalls: restarts after which the table did not move on within STALL_S seconds;
- max_resync_s: after each daphne restart, from the moment it accepts connections to the client having
  the full view again.

The last line is machine-readable: `RESULT runs=… lost_moves=… duplicate_moves=… replay_mismatches=…
max_resync_s=…` (plus kills, stalls, moves, tables). tests/reliability/test_crash.py runs 10 of these runs
(20 kills) on the test database in CI.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STALL_S = 30.0  # longer than a slow restart on a loaded machine, shorter than the 60 s move timer
RE_STATUS = re.compile(r'id="table-status"[^>]*?data-version="(\d+)" data-phase="([A-Z_]*)" data-my-turn="([01])"')
RE_CARD_TAG = re.compile(r"<button[^>]*\bdata-card=\"([^\"]+)\"[^>]*>")
RE_POINTS = re.compile(r'data-points="(\d*)"')


# --- server processes --------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Servers:
    """daphne and a Celery worker on the given database and Redis; killed with SIGKILL, restarted."""

    failover = False  # one daphne: its client waits for the restart

    def __init__(self, env: dict, log_path: Path):
        self.env = {**os.environ, **env, "DJANGO_SETTINGS_MODULE": "rummy_site.settings", "PYTHONUNBUFFERED": "1",
                    "CELERY_TASK_ALWAYS_EAGER": "0", "DEBUG": "0", "LOG_LEVEL": "WARNING"}
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.port = free_port()
        self.log = open(log_path, "a")  # noqa: SIM115 - closed in stop()
        self.daphne: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.kills = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def mark(self, text: str) -> None:
        """A line in the server log, to read the processes' output against the chaos' actions."""
        self.log.write(f"\n##### {time.strftime('%H:%M:%S')}.{int(time.time() * 1000) % 1000:03d} {text}\n")
        self.log.flush()

    def _spawn(self, argv: list[str]) -> subprocess.Popen:
        self.mark(f"start {argv[1]}")
        return subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=self.env, stdout=self.log,
                                stderr=subprocess.STDOUT)

    def start_daphne(self, timeout: float = 60) -> float:
        """Start daphne; returns the monotonic time it first accepted a connection."""
        self.daphne = self._spawn(["-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                                   "rummy_site.asgi:application"])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.daphne.poll() is not None:
                raise RuntimeError("daphne exited at start (see the log)")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    accepted = time.monotonic()
                break
            except OSError:
                time.sleep(0.02)
        else:
            raise RuntimeError("daphne did not listen")
        # Accepting TCP is not yet serving: wait for a page.
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/regles/", timeout=2)
                return accepted
            time.sleep(0.02)
        raise RuntimeError("daphne did not serve")

    def start_worker(self) -> None:
        self.worker = self._spawn(["-m", "celery", "-A", "rummy_site", "worker", "-P", "threads", "-c", "4",
                                   "-l", os.environ.get("CHAOS_WORKER_LOGLEVEL", "WARNING"), "-Q", "celery",
                                   "-n", f"chaos-{self.port}@localhost",
                                   "--without-heartbeat", "--without-mingle", "--without-gossip"])

    def kill(self, which: str) -> None:
        proc = getattr(self, which)
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            self.kills += 1
            self.mark(f"kill -9 {which}")

    def halt(self) -> None:
        for proc in (self.daphne, self.worker):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()

    def stop(self) -> None:
        self.halt()
        self.log.close()


# --- the host's browser tab -----------------------------------------------------------------------------

class Socket:
    """A minimal RFC 6455 websocket client on asyncio streams (text frames, close, ping/pong).

    Standard library only: autobahn's asyncio client cannot share a process with Django's daphne app
    (txaio is already bound to Twisted), and no other client library is pinned."""

    def __init__(self):
        self.messages: asyncio.Queue = asyncio.Queue()
        self.open = False
        self._writer = None
        self._reader_task = None

    async def connect(self, url: str, origin: str, cookie: str, timeout: float = 5) -> None:
        import base64
        import secrets

        hostport, path = url.split("//", 1)[1].split("/", 1)
        host, port = hostport.split(":")
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port)), timeout)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        writer.write((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n"
                      f"Cookie: {cookie}\r\n\r\n").encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        if not head.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
        self._writer = writer
        self.open = True
        self._reader_task = asyncio.create_task(self._read(reader))

    async def _read(self, reader) -> None:
        try:
            while True:
                first, second = await reader.readexactly(2)
                opcode, length = first & 0x0F, second & 0x7F
                if length == 126:
                    length = int.from_bytes(await reader.readexactly(2), "big")
                elif length == 127:
                    length = int.from_bytes(await reader.readexactly(8), "big")
                payload = await reader.readexactly(length)
                if opcode == 0x1:
                    self.messages.put_nowait(payload.decode("utf-8", "replace"))
                elif opcode == 0x9:
                    self._frame(0xA, payload)
                elif opcode == 0x8:
                    break
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self.open = False
            self.messages.put_nowait(None)
            with contextlib.suppress(Exception):
                self._writer.close()

    def _frame(self, opcode: int, payload: bytes) -> None:
        import secrets

        mask = secrets.token_bytes(4)
        length = len(payload)
        if length < 126:
            header = bytes([0x80 | opcode, 0x80 | length])
        elif length < 1 << 16:
            header = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
        else:
            header = bytes([0x80 | opcode, 0x80 | 127]) + length.to_bytes(8, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        with contextlib.suppress(Exception):
            self._writer.write(header + mask + masked)

    def send(self, frame: dict) -> None:
        if self.open:
            self._frame(0x1, json.dumps(frame).encode())

    def close(self) -> None:
        if self.open:
            self._frame(0x8, (1000).to_bytes(2, "big"))
            self.open = False
        if self._reader_task is not None:
            self._reader_task.cancel()
        with contextlib.suppress(Exception):
            self._writer.close()


@dataclass
class Seen:
    version: int
    phase: str
    hand: list[str]
    at: float


@dataclass
class HostTab:
    """Plays the host's moves from what the page shows; records every version it was shown."""

    table_id: int
    slug: str
    cookie: str
    seat: int = 0
    seen: list[Seen] = field(default_factory=list)
    sent: list[tuple[int, dict]] = field(default_factory=list)  # (version the move was played on, move)
    full_views: list[float] = field(default_factory=list)  # when a (re)connection got its first page
    errors: list[str] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    think: tuple[float, float] = (0.02, 0.15)  # seconds before answering: a quick player by default

    def decide(self, page: str, phase: str) -> dict | None:
        hand = []
        for tag in RE_CARD_TAG.finditer(page):
            points = RE_POINTS.search(tag.group(0))
            hand.append((tag.group(1), int(points.group(1)) if points and points.group(1) else -1,
                         "data-closable" in tag.group(0), " taken" in tag.group(0)))
        if phase == "FIRST_UPCARD":
            return {"action": "pass"}
        if phase == "DRAW":
            return {"action": "draw_stock"}
        if phase == "DISCARD" and hand:
            closable = [c for c, _, can, _ in hand if can]
            if closable:
                return {"action": "close" if self.slug == "thanasis" else "knock", "card": closable[0]}
            loose = [(p, c) for c, p, _, taken in hand if not taken]
            if self.errors and self.rng.random() < 0.5:
                return {"action": "discard", "card": self.rng.choice(loose)[1]}
            return {"action": "discard", "card": max(loose)[1]}
        return None

    async def session(self, url: str, origin: str, stop: asyncio.Event) -> None:
        """One connection: read pages, answer when it is my turn, until the socket drops or `stop`."""
        sock = Socket()
        await sock.connect(f"{url.replace('http', 'ws')}/ws/tables/{self.table_id}/", origin, self.cookie)
        first = True
        try:
            while not stop.is_set():
                try:
                    page = await asyncio.wait_for(sock.messages.get(), 0.2)
                except TimeoutError:
                    continue
                if page is None:
                    return
                match = RE_STATUS.search(page)
                if match is None:
                    if 'id="table-error"' in page and "error-icon" in page:
                        self.errors.append(page[:200])
                    continue
                now = time.monotonic()
                if first:
                    self.full_views.append(now)
                    first = False
                version, phase, my_turn = int(match.group(1)), match.group(2), match.group(3) == "1"
                hand = [m.group(1) for m in RE_CARD_TAG.finditer(page)]
                self.seen.append(Seen(version, phase, hand, now))
                if my_turn:
                    await asyncio.sleep(self.rng.uniform(*self.think))
                    move = self.decide(page, phase)
                    if move is not None:
                        self.sent.append((version, move))
                        sock.send({"kind": "move", **move, "version": version})
        finally:
            sock.close()

    async def run(self, servers: Servers, stop: asyncio.Event) -> None:
        """Stay connected: reconnect as soon as the server is back (every 50 ms)."""
        while not stop.is_set():
            with contextlib.suppress(OSError, EOFError, TimeoutError):  # the server went away mid-handshake
                await self.session(servers.url, servers.url, stop)
            if not stop.is_set():
                await asyncio.sleep(0.05)


# --- the checks -------------------------------------------------------------------------------------

@dataclass
class Figures:
    runs: int = 0
    kills: int = 0
    lost_moves: int = 0
    duplicate_moves: int = 0
    replay_mismatches: int = 0
    stalls: int = 0
    resyncs: list[float] = field(default_factory=list)
    moves: int = 0
    tables: int = 0
    acked: int = 0
    problems: list[str] = field(default_factory=list)
    redis_restarts: int = 0
    revived: list[str] = field(default_factory=list)  # cluster: processes that exited by themselves

    @property
    def max_resync_s(self) -> float:
        return max(self.resyncs, default=float("nan"))

    def result_line(self) -> str:
        return (f"RESULT runs={self.runs} lost_moves={self.lost_moves} duplicate_moves={self.duplicate_moves} "
                f"replay_mismatches={self.replay_mismatches} max_resync_s={self.max_resync_s:.2f} "
                f"kills={self.kills} stalls={self.stalls} moves={self.moves} acked_client_moves={self.acked} "
                f"tables={self.tables}")


@contextlib.contextmanager
def _one_snapshot():
    """A read-only transaction whose queries all see the database at one instant (PostgreSQL's repeatable read;
    SQLite's transactions already do)."""
    from django.db import connection, transaction

    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def check_table(table_id: int, tab: HostTab | None, figures: Figures) -> None:
    """Log versus state versus what the client saw."""
    from engine import games
    from tables.models import Table

    with _one_snapshot():  # the table may still be moving (robots, autoplay): its version and log read alike
        table = Table.objects.select_related("game").get(pk=table_id)
        entries = list(table.moves.order_by("seq").values_list("seq", "seat", "move"))
    engine = games.get(table.game.slug)
    figures.tables += 1
    figures.moves += len(entries)
    seqs = [seq for seq, _, _ in entries]
    if seqs != list(range(1, table.version + 1)):
        figures.duplicate_moves += abs(len(seqs) - table.version) or 1
        expected = set(range(1, table.version + 1))
        missing, extra = sorted(expected - set(seqs))[:5], sorted(set(seqs) - expected)[:5]
        figures.problems.append(f"table {table_id}: log seqs {seqs[:5]}… do not match version {table.version} "
                                f"(missing {missing}, extra {extra})")
    hands_at: dict[int, list[str]] = {}
    state = None
    try:
        for seq, seat, move in entries:
            action = move.get("action")
            if action == "start":
                state = engine.new_match(table.seats_count, table.options, table.seed)
            elif action == "leave":
                state, _ = engine.leave(state, seat)
            else:
                state, _ = engine.apply(state, seat, move)
            hands_at[seq] = sorted(state["hands"][tab.seat if tab else 0])
    except Exception as error:  # an entry that cannot be applied: something was applied twice or out of order
        figures.replay_mismatches += 1
        figures.problems.append(f"table {table_id}: replay failed: {error!r}")
        return
    if state != table.state:
        figures.replay_mismatches += 1
        figures.problems.append(f"table {table_id}: state differs from the replay of its log")
    if tab is None:
        return
    for seen in tab.seen:
        if seen.version not in hands_at:
            figures.lost_moves += 1
            figures.problems.append(f"table {table_id}: client saw v{seen.version}, the log ends at {len(entries)}")
        elif seen.phase not in ("ROUND_OVER", "MATCH_OVER") and sorted(seen.hand) != hands_at[seen.version]:
            figures.lost_moves += 1
            figures.problems.append(f"table {table_id}: client's hand at v{seen.version} is not the log's")
    by_seq = {seq: (seat, move) for seq, seat, move in entries}
    shown = {s.version for s in tab.seen}
    # The client's own moves that it was shown applied (the next version it saw is the log's entry for it).
    figures.acked += sum(1 for version, move in tab.sent
                         if version + 1 in shown and by_seq.get(version + 1) == (tab.seat, move))


# --- one chaos session ------------------------------------------------------------------------------

def new_match(host, slug: str):
    from tables import services
    from tables.models import Game, Table

    seats = 2 if slug == "gin" else 3
    table = services.table_create(host=host, game=Game.objects.get(slug=slug), seats_count=seats,
                                  bot_levels=dict.fromkeys(range(1, seats), 1), options={"match": "1"} if slug == "gin"
                                  else {}, stake=10, turn_timer_s=60, private=True)
    services.table_start(table=table, user=host)
    return Table.objects.get(pk=table.pk)


def session_cookie(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def describe(table_id: int, tab: "HostTab") -> str:
    """Why a table might be stuck: whose decision, the seats' sockets, the last move, what the client saw."""
    from django.db import connection

    from engine import games
    from tables.models import Table

    try:
        table = Table.objects.select_related("game").get(pk=table_id)
        last = table.moves.order_by("-seq").values_list("seq", "seat", "actor", "created").first()
        seats = list(table.seats.values_list("position", "bot_level", "connections"))
        to_act = games.get(table.game.slug).to_act(table.state) if table.state else None
        seen = tab.seen[-1] if tab.seen else None
        return (f"phase {table.state and table.state['phase']}, to act {to_act}, seats {seats}, last move {last}, "
                f"client last saw v{seen and seen.version} ({seen and seen.phase}), sent {tab.sent[-1:]}, "
                f"last refusal {tab.errors[-1:]}")
    finally:
        connection.close()


def table_version(table_id: int) -> tuple[int, str]:
    from django.db import connection

    from tables.models import Table

    row = Table.objects.filter(pk=table_id).values_list("version", "status").first()
    connection.close()  # called from worker threads
    return row


async def chaos(servers: Servers, host, runs: int, rng: random.Random, figures: Figures, say=print) -> None:
    from tables.models import Table

    slugs = ["gin", "thanasis"]
    tabs: dict[int, HostTab] = {}
    current: dict = {}

    async def start_match():
        slug = slugs[len(tabs) % 2]
        table_id = await asyncio.to_thread(new_match_closing, host, slug)
        cookie = await asyncio.to_thread(session_cookie_closing, host)
        tab = HostTab(table_id, slug, cookie, rng=random.Random(rng.random()))
        tabs[table_id] = tab
        current["tab"] = tab
        current["stop"] = asyncio.Event()
        current["task"] = asyncio.create_task(tab.run(servers, current["stop"]))

    async def keep_playing(seconds: float):
        """Play for a while; a finished match makes way for the next one."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            version, status = await asyncio.to_thread(table_version, current["tab"].table_id)
            if status != Table.Status.PLAYING:
                current["stop"].set()
                await current["task"]
                await start_match()
            await asyncio.sleep(0.1)

    async def progressed(table_id: int, since: int) -> bool:
        end = time.monotonic() + STALL_S
        while time.monotonic() < end:
            version, status = await asyncio.to_thread(table_version, table_id)
            if version > since or status != Table.Status.PLAYING:
                return True
            await asyncio.sleep(0.1)
        return False

    def problem(text: str) -> None:
        figures.problems.append(text)
        say("problem: " + text)

    await start_match()
    for run in range(runs):
        await keep_playing(rng.uniform(0.3, 2.0))
        # kill -9 daphne at a random moment, restart it; the client must get the full view again.
        tab = current["tab"]
        views_before = len(tab.full_views)
        servers.kill("daphne")
        killed = time.monotonic()
        if servers.failover:
            # A cluster: the client reconnects through the proxy to a live process; the killed one restarts
            # meanwhile. The resync counts from the kill.
            reference, restart = killed, asyncio.create_task(asyncio.to_thread(servers.start_daphne))
        else:
            await asyncio.sleep(rng.uniform(0, 0.5))
            reference, restart = await asyncio.to_thread(servers.start_daphne), None
        end = time.monotonic() + 30
        while len(tab.full_views) == views_before and time.monotonic() < end:
            await asyncio.sleep(0.01)
        if len(tab.full_views) > views_before:
            figures.resyncs.append(max(0.0, tab.full_views[views_before] - reference))
        else:
            figures.resyncs.append(float("inf"))
            problem(f"run {run}: the client never got the full view after the daphne restart")
        if restart is not None:
            await restart
        version, _ = await asyncio.to_thread(table_version, tab.table_id)
        if not await progressed(tab.table_id, version):
            figures.stalls += 1
            problem(f"run {run}: table {tab.table_id} stalled at v{version} after a daphne restart: "
                                    + await asyncio.to_thread(describe, tab.table_id, tab))
        await keep_playing(rng.uniform(0.3, 2.0))
        # kill -9 the worker at a random moment, restart it.
        servers.kill("worker")
        await asyncio.sleep(rng.uniform(0, 0.5))
        servers.start_worker()
        tab = current["tab"]
        version, _ = await asyncio.to_thread(table_version, tab.table_id)
        if not await progressed(tab.table_id, version):
            figures.stalls += 1
            problem(f"run {run}: table {tab.table_id} stalled at v{version} after a worker restart: "
                                    + await asyncio.to_thread(describe, tab.table_id, tab))
        if servers.failover:
            # Once per run: Redis itself restarts (the cluster's private one: it keeps nothing on disk).
            await keep_playing(rng.uniform(0.3, 2.0))
            await asyncio.to_thread(servers.restart_redis)
            tab = current["tab"]
            version, _ = await asyncio.to_thread(table_version, tab.table_id)
            if not await progressed(tab.table_id, version):
                figures.stalls += 1
                problem(f"run {run}: table {tab.table_id} stalled at v{version} after a Redis restart: "
                        + await asyncio.to_thread(describe, tab.table_id, tab))
        figures.runs += 1
        figures.kills = servers.kills
        say(f"run {run + 1}/{runs}: resync {figures.resyncs[-1]:.2f} s, stalls {figures.stalls}")
    await keep_playing(2.0)
    current["stop"].set()
    await current["task"]
    # The bots would go on playing while the tables are checked: a move committed between reading a table
    # and reading its log looked like a log entry beyond the table's version.
    await asyncio.to_thread(servers.halt)
    for table_id, tab in tabs.items():
        await asyncio.to_thread(check_closing, table_id, tab, figures)


def new_match_closing(host, slug):
    from django.db import connection

    try:
        return new_match(host, slug).pk
    finally:
        connection.close()


def session_cookie_closing(user):
    from django.db import connection

    try:
        return session_cookie(user)
    finally:
        connection.close()


def check_closing(table_id, tab, figures):
    from django.db import connection

    try:
        check_table(table_id, tab, figures)
    finally:
        connection.close()


def run_chaos(*, env: dict, host, runs: int, seed: int, log_path: Path, say=print, cluster: bool = False) -> Figures:
    """Start the servers with `env` (DATABASE_URL, REDIS_URL, timings), run, stop them; the figures.
    cluster: two daphne processes and two workers behind HAProxy, on a Redis of their own (bench.chaos_cluster)."""
    figures = Figures()
    if cluster:
        from bench.chaos_cluster import ClusterServers

        servers = ClusterServers(env, log_path)
    else:
        servers = Servers(env, log_path)
    try:
        servers.start_worker()
        servers.start_daphne()
        asyncio.run(chaos(servers, host, runs, random.Random(seed), figures, say))
    finally:
        servers.stop()
    figures.kills = servers.kills
    figures.revived = list(getattr(servers, "revived", []))
    figures.redis_restarts = getattr(servers, "redis_restarts", 0)
    return figures


# The scripted player answers in 20–150 ms against bots playing every 50 ms: far above the moves a person
# makes, so the per-player move rate limit (30 in 10 s) is lifted; a refused move is never retried here, and
# the table would look stalled.
TIMINGS = {"BOT_DELAY_SECONDS": "0.05", "NEXT_ROUND_DELAY_SECONDS": "0.3", "DISCONNECT_GRACE_SECONDS": "0.3",
           "MOVE_RATE_LIMIT": "100000"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default=os.environ.get("CHAOS_DATABASE_URL",
                                                             "postgres://postgres@127.0.0.1:5432/rummy_chaos"))
    parser.add_argument("--redis", default=os.environ.get("CHAOS_REDIS_URL", "redis://127.0.0.1:6379/12"))
    parser.add_argument("--cluster", action="store_true",
                        help="two daphne and two workers behind HAProxy on a private Redis, restarted once per run")
    args = parser.parse_args()
    env = {"DATABASE_URL": args.database, "REDIS_URL": args.redis, **TIMINGS}
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings"
    # A scratch database: dropped, created, migrated; a flushed Redis database.
    import psycopg
    import redis

    name = args.database.rsplit("/", 1)[1]
    with psycopg.connect(args.database.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(args.redis).flushdb()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    import django

    django.setup()
    from accounts.services import bots_ensure, user_create

    bots_ensure()
    host = user_create(username="chaos-host", password=None)
    log_path = ROOT / "var" / "chaos.log"
    log_path.parent.mkdir(exist_ok=True)
    log_path.write_text("")
    start = time.monotonic()
    figures = run_chaos(env=env, host=host, runs=args.runs, seed=args.seed, log_path=log_path, cluster=args.cluster)
    for problem in figures.problems[:20]:
        print("problem:", problem)
    print(f"{figures.runs} runs, {figures.kills} kills, {figures.tables} tables, {figures.moves} moves in "
          f"{time.monotonic() - start:.0f} s; resync after a daphne kill: max {figures.max_resync_s:.2f} s, "
          f"median {sorted(figures.resyncs)[len(figures.resyncs) // 2]:.2f} s (server log: {log_path})")
    if args.cluster:
        print(f"cluster: {figures.redis_restarts} Redis restarts; processes that exited by themselves and were "
              f"started again: {len(figures.revived)} ({', '.join(sorted(set(figures.revived))) or 'none'})")
    print(figures.result_line())


if __name__ == "__main__":
    main()
