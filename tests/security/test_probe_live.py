"""The outside probe's shape, in the suite: real users through the real daphne (issue 19).

Three players and a stranger talk to the site as browsers do, over HTTP and websockets: Bruno joins a friendly
Gin by its invitation link with his page open, leaves it from another tab, Alice takes his place, the host
starts, and Alice and the host play the match out over their sockets, with illegal and oversized attempts on
the way. Every frame every socket received is then checked against the true state replayed from the move log
at the version the frame shows, for the place its user held: no card of another hand before the rules reveal
it, no stock card, never the seed; each player's own hand does appear. The server logs no traceback.
On the embedded default this is the in-process layer, on PostgreSQL + Redis the Redis layer and Celery worker.
"""

import contextlib
import http.client
import json
import random
import secrets
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlencode, urlparse

import pytest
from django.conf import settings
from django.test import Client
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from engine import games
from tables import services
from tables.models import Game, Table
from tests.security.replayed import REVEALED, frame_version, hidden_cards, id_pattern, states_by_version

pytestmark = pytest.mark.django_db(transaction=True)

FRAME_GAP = 0.4  # s between two frames of one socket: under the flood limit (20 per 5 s) and the move limit


class Visitor:
    """A logged-in user with a browser's cookies (session, CSRF), talking to the live site."""

    def __init__(self, base: str, user):
        client = Client()
        client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
        self.base, self.user = base, user
        self.csrf = secrets.token_hex(16)
        self.cookie = (f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}; "
                       f"{settings.CSRF_COOKIE_NAME}={self.csrf}")
        self.sockets: list[Listener] = []
        self.last_frame = 0.0

    def request(self, method: str, path: str, data: dict | None = None) -> tuple[int, str]:
        body = urlencode(data or {}).encode() if method == "POST" else None
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(self.base + path, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def post_chunked(self, path: str, body: bytes) -> int:
        """A JSON POST in chunks: no Content-Length is announced."""
        url = urlparse(self.base)
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        conn.request("POST", path, body=(body[i:i + 65536] for i in range(0, len(body), 65536)), encode_chunked=True,
                     headers={"Cookie": self.cookie, "X-CSRFToken": self.csrf, "Content-Type": "application/json"})
        status = conn.getresponse().status
        conn.close()
        return status

    def open_socket(self, table_id: int) -> "Listener":
        listener = Listener(self, table_id)
        self.sockets.append(listener)
        return listener


class Listener:
    """One socket, read by a thread of its own: every frame kept, in order, with the close code."""

    def __init__(self, visitor: Visitor, table_id: int):
        url = visitor.base.replace("http://", "ws://") + f"/ws/tables/{table_id}/"
        self.visitor, self.frames, self.code = visitor, [], None
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(
            connect(url, additional_headers={"Cookie": visitor.cookie, "Origin": visitor.base}, open_timeout=10))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for message in self.ws:
                self.frames.append(message)
        except ConnectionClosed:
            pass
        self.code = self.ws.close_code

    def send(self, frame: dict) -> None:
        wait = self.visitor.last_frame + FRAME_GAP - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.visitor.last_frame = time.monotonic()
        self.ws.send(json.dumps(frame))

    def wait_for(self, condition, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while not condition(self):
            assert time.monotonic() < deadline, f"socket of {self.visitor.user}: {self.frames[-3:]}"
            time.sleep(0.02)

    def close(self) -> None:
        self.stack.close()
        self.thread.join(10)


def table_now(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def wait_version(table_id: int, above: int, timeout: float = 15) -> Table:
    deadline = time.monotonic() + timeout
    while (table := table_now(table_id)).version <= above:
        assert time.monotonic() < deadline, f"the move after v{above} was never applied"
        time.sleep(0.02)
    return table


def play_out(table_id: int, players: dict, rng: random.Random) -> int:
    """The rules' autoplay for whoever acts, sent over his socket, with a refused attempt now and then."""
    engine, moves = games.get("gin"), 0
    while (table := table_now(table_id)).status == Table.Status.PLAYING:
        state = table.state
        to_act = engine.to_act(state)
        if not to_act:  # between rounds the server plays « Manche suivante » itself
            wait_version(table_id, table.version)
            continue
        seat = to_act[0]
        if rng.random() < 0.15:  # someone else's card, out of turn: answered, changes nothing
            other = 1 - seat
            card = rng.choice(state["hands"][seat] + state["stock"][:3])
            players[other].send({"kind": "move", "action": "discard", "card": card, "version": table.version})
        move = engine.autoplay(state, seat)
        players[seat].send({"kind": "move", **move, "version": table.version})
        wait_version(table_id, table.version)
        moves += 1
        assert moves < 400
    return moves


def audit(table_id: int, listeners: list[Listener], place_of) -> dict:
    """Every frame against the true state at its version, for the place its user held then."""
    table = table_now(table_id)
    states = states_by_version(table_id)
    counts = {"frames": 0, "versioned": 0, "own_cards": 0}
    for listener in listeners:
        user = listener.visitor.user
        version = None
        for text in listener.frames:
            counts["frames"] += 1
            assert table.seed not in text, f"the seed reached {user}"
            version = frame_version(text) or version
            state = states.get(version) if version else None
            if state is None:
                continue
            counts["versioned"] += frame_version(text) is not None
            seat = place_of(user, listener, version)
            pattern = id_pattern(hidden_cards(state, seat))
            found = pattern.search(text) if pattern else None
            assert found is None, f"{user} (place {seat}) got {found.group()} at v{version}"
            if seat is not None and frame_version(text) is not None and state["phase"] not in REVEALED:
                own = state["hands"][seat]
                assert all(f'data-card="{c}"' in text for c in own), f"{user}'s own hand missing at v{version}"
                counts["own_cards"] += len(own)
    return counts


def test_two_real_users_and_a_stale_page_through_the_real_server(live_site, make_player, tmp_path):
    chloe, bruno, alice, stranger = (make_player(n) for n in ("chloe", "bruno", "alice", "intrus"))
    table = services.table_create(host=chloe, game=Game.objects.get(slug="gin"), seats_count=2, options={"match": "1"},
                                  stake=10, turn_timer_s=60, private=True)
    invite = f"/tables/invitation/{table.invite_token}/"
    host, leaver, friend, outsider = (Visitor(live_site, u) for u in (chloe, bruno, alice, stranger))

    # Bruno takes the place with his page open, then leaves from another tab.
    assert leaver.request("GET", invite)[0] == 200
    stale = leaver.open_socket(table.pk)
    stale.wait_for(lambda s: s.frames)
    assert leaver.request("POST", f"/tables/{table.pk}/quitter/")[0] == 200
    stale.wait_for(lambda s: s.code is not None)
    assert stale.code == 4403, "the page of a player who left is closed"

    # Alice takes the place; a stranger's socket and Bruno's new one are refused; the host starts.
    assert friend.request("GET", invite)[0] == 200
    assert table.seats.get(user=alice).position == 1
    sockets = {0: host.open_socket(table.pk), 1: friend.open_socket(table.pk)}
    for visitor in (outsider, leaver):  # refused during the handshake, before any frame
        with pytest.raises(InvalidStatus) as refused:
            visitor.open_socket(table.pk)
        assert refused.value.response.status_code == 403
    for listener in sockets.values():
        listener.wait_for(lambda s: s.frames)
    assert host.request("POST", f"/tables/{table.pk}/commencer/")[0] == 200
    started = wait_version(table.pk, 0)

    # A legal move with 2 MB of junk in a chunked body is refused and changes nothing.
    seat = games.get("gin").to_act(started.state)[0]
    visitor = host if seat == 0 else friend
    move = games.get("gin").autoplay(started.state, seat)
    junk = json.dumps({"kind": "move", **move, "version": started.version, "pad": "x" * 2_000_000}).encode()
    assert visitor.post_chunked(f"/tables/{table.pk}/action/", junk) == 400
    assert table_now(table.pk).version == started.version

    moves = play_out(table.pk, sockets, random.Random(19))
    finished = table_now(table.pk)
    assert finished.status == Table.Status.FINISHED and moves >= 2
    time.sleep(1)  # the last pushes
    listeners = [stale, *sockets.values()]
    for listener in listeners:
        listener.close()

    def place_of(user, listener, version):
        return None if listener is stale else {chloe.pk: 0, alice.pk: 1}[user.pk]

    counts = audit(table.pk, listeners, place_of)
    assert counts["versioned"] >= moves and counts["own_cards"] > 0, counts
    assert services.replay(finished) == finished.state
    assert all(m.move == games.get("gin").clean_move(m.move) for m in finished.moves.exclude(seq=1))
    log = (tmp_path / "site.log").read_text()
    assert "Traceback" not in log, log[-3000:]
