"""Fuzz what a client can send: websocket frames (handle_frame and the real consumer) and the HTTP fallback.

Malformed JSON, unknown actions, foreign card ids (another seat's hand, the stock), other seats' moves,
out-of-turn moves, stale or absurd versions, huge and deeply nested payloads, wrong types everywhere.
Whatever arrives: never an exception or a 500; a refused frame gets a French error or the full current
view (a resync); the table's state, version, log, seats and every token balance stay as they were.
A frame the rules accept (hypothesis finds some) must be applied exactly as the engine says.

Each example runs in a savepoint rolled back afterwards, so every example starts from the same tables.
"""

import json
import os
import types
from urllib.parse import urlencode

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalMove, games
from tables import commands, consumers
from tables.consumers import TableConsumer
from tables.models import Table
from tests.security.arena import Spot, build_spots
from tests.security.frames import (
    assert_french_error_or_resync,
    error_message,
    is_french,
    is_full_view,
    table_snapshot,
)

pytestmark = pytest.mark.django_db

# CI budget: the full counts on the embedded default, 60 % on PostgreSQL (parsing and refusals don't depend
# on the database; the state checks run on both). FUZZ_SCALE=10 for a long run.
SCALE = float(os.environ.get("FUZZ_SCALE", "1" if connection.vendor == "sqlite" else "0.6"))


def fuzz(examples: int):
    return settings(
        max_examples=max(1, int(examples * SCALE)), deadline=None, database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )

ACTIONS = ["draw_stock", "take_discard", "pass", "discard", "knock", "close", "next_round", "leave",
           "", "DISCARD", "Discard", "draw", "start", "__class__", "_do_discard", "apply", "legal_moves"]
BOGUS_CARDS = ["", "QH3", "JK7", "JK0", "qh1", " QH1", "QH1 ", "ZZ9", "10S", "1S1", "11S1", "QH1,QH2", "QH",
               "<script>alert(1)</script>", "../../etc/passwd", "null", "' OR 1=1 --", "\x00", "QH1\n"]
KINDS = ["move", "chat", "order", "Move", "MOVE", "leave ", "resign", "", "__init__", "kind"]
VERSION_TEXT = ["", " ", "abc", "1e309", "-1e309", "NaN", "Infinity", " 3 ", "0x10", "1_000", "٣", "9" * 40]

json_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
                | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
deep_text = st.integers(min_value=500, max_value=5000).map(lambda n: "[" * n + "]" * n)
huge_text = st.integers(min_value=5000, max_value=200_000).map(lambda n: "Q" * n)


def dumps(value) -> str:
    """JSON text of a fuzzed value (a structure too deep for the encoder is written by hand)."""
    try:
        return json.dumps(value, allow_nan=True)
    except RecursionError:
        return "[" * 3000 + "]" * 3000


def nested(depth: int):
    value = []
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def payloads(draw, spot: Spot, *, for_acting_seat: bool):
    """A frame as a dict, shaped like a move most of the time."""
    card_ids = spot.all_cards or ["QH1"]
    card = st.one_of(st.sampled_from(card_ids), st.sampled_from(BOGUS_CARDS), json_values, huge_text)
    arrangement = st.one_of(
        st.lists(st.lists(st.sampled_from(card_ids + BOGUS_CARDS), max_size=5), max_size=4),
        json_values, deep_text, st.text(max_size=20).map(lambda s: "[" + s), st.builds(nested, st.integers(1, 3000)),
    )
    action = st.one_of(st.sampled_from(ACTIONS), st.text(max_size=20), json_values)
    version = st.one_of(
        st.sampled_from([spot.version, spot.version - 1, spot.version + 1, 0, -1, str(spot.version)]),
        st.sampled_from(VERSION_TEXT), json_values, st.just(float("inf")), st.just(float("nan")),
        st.integers(min_value=-(2**80), max_value=2**80),
    )
    if spot.legal and draw(st.integers(0, 3)) == 0:
        # A move the rules know: legal for the acting seat, out of turn for any other.
        payload = dict(draw(st.sampled_from(spot.legal)))
    else:
        payload = draw(st.fixed_dictionaries({}, optional={"action": action, "card": card, "arrangement": arrangement}))
    if draw(st.booleans()):
        payload["version"] = draw(version)
    if draw(st.integers(0, 4)) == 0:
        payload["kind"] = draw(st.one_of(st.sampled_from(KINDS), json_values))
    elif draw(st.booleans()):
        payload["kind"] = "move"
    if draw(st.integers(0, 4)) == 0:
        payload.update(draw(st.dictionaries(st.text(max_size=10), json_values, max_size=4)))
    if payload.get("kind") in ("leave", "chat", "order") and not for_acting_seat:
        payload["kind"] = "move"  # those are not moves: covered by their own tests
    if payload.get("kind") == "leave":
        payload["kind"] = "move"
    return payload


def expected_to_apply(spot: Spot, seat: int, payload: dict) -> bool:
    """Would the service accept this frame? (version current or absent, and the engine applies it)."""
    if payload.get("kind", "move") != "move":
        return False
    table = Table.objects.get(pk=spot.table_id)
    if table.status != Table.Status.PLAYING:
        return False
    move, version = commands.parse_move(payload)
    if version is not None and version != table.version:
        return False
    engine = games.get(spot.slug)
    try:
        move = engine.clean_move(move)  # junk riding on a legal move (unknown or malformed keys) is refused
        if move["action"] == "leave":
            return False  # « Quitter » is not a move: it goes through seat_abandon (penalty)
        engine.apply(table.state, seat, move)
    except IllegalMove:
        return False
    return True


def check_reply(spot: Spot, before: dict, reply, applies: bool, payload: dict) -> None:
    after = table_snapshot(spot.table_id)
    kind = payload.get("kind", "move")
    if applies:
        assert reply is None, error_message(reply or "")
        assert after["version"] == before["version"] + 1 and after["moves"] == before["moves"] + 1
        return
    if kind == "chat" or kind == "order":
        if reply is not None:
            assert_french_error_or_resync(reply)
        for key in ("status", "version", "state", "moves", "seats", "balances"):
            assert after[key] == before[key], key
        return
    assert reply is not None, "a refused frame is answered"
    assert_french_error_or_resync(reply)
    assert after == before


def pick_seat(spot: Spot, data, acting: bool) -> int:
    if acting and spot.acting:
        return spot.acting[0]
    others = [p for p in spot.users if p not in spot.acting] or list(spot.users)
    return data.draw(st.sampled_from(others))


@pytest.fixture
def spots(make_player):
    return build_spots(make_player)


def _fuzz_handle_frame(spots, data, acting: bool):
    spot = data.draw(st.sampled_from(spots))
    seat = pick_seat(spot, data, acting)
    payload = data.draw(payloads(spot, for_acting_seat=acting))
    cache.clear()  # rate limits: every example is a first try
    with transaction.atomic():
        before = table_snapshot(spot.table_id)
        applies = expected_to_apply(spot, seat, payload)
        reply = commands.handle_frame(spot.table_id, spot.users[seat].pk, payload)
        check_reply(spot, before, reply, applies, payload)
        transaction.set_rollback(True)


@fuzz(500)
@given(data=st.data())
def test_frames_from_the_acting_seat(spots, data):
    _fuzz_handle_frame(spots, data, acting=True)


@fuzz(300)
@given(data=st.data())
def test_frames_from_a_seat_that_is_not_to_act(spots, data):
    _fuzz_handle_frame(spots, data, acting=False)


def test_non_dict_frames_are_unreadable(discard_spot):
    spot = discard_spot
    before = table_snapshot(spot.table_id)
    for payload in (None, [], [{"action": "draw_stock"}], "draw_stock", 3, 2.5, True, nested(3000)):
        reply = commands.handle_frame(spot.table_id, spot.users[spot.acting[0]].pk, payload)
        assert error_message(reply) == "Message illisible."
    assert table_snapshot(spot.table_id) == before


# --- the HTTP fallback: POST /tables/<id>/action/ -------------------------------------------------------

def form_value(value) -> str | list[str]:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return value  # several values for one field
    return dumps(value)


@pytest.fixture
def http_clients(spots):
    clients = {}
    for user in {u for spot in spots for u in spot.users.values()}:
        client = Client()
        client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
        clients[user.pk] = client
    return clients


def post_action(client, table_id: int, body, content_type: str):
    return client.post(f"/tables/{table_id}/action/", data=body, content_type=content_type)


def check_http(response, spot: Spot, before: dict, applies: bool, payload: dict) -> None:
    assert response.status_code in (200, 400), response.status_code
    page = response.content.decode()
    if response.status_code == 400:
        assert is_french(error_message(page)), page[:300]
        assert table_snapshot(spot.table_id) == before
        return
    if applies:
        after = table_snapshot(spot.table_id)
        assert after["version"] == before["version"] + 1
        assert not error_message(page), error_message(page)
        return
    check_reply(spot, before, page, False, payload)


@fuzz(300)
@given(data=st.data())
def test_http_action_form_encoded(spots, http_clients, data):
    spot = data.draw(st.sampled_from(spots))
    seat = pick_seat(spot, data, data.draw(st.booleans()))
    payload = data.draw(payloads(spot, for_acting_seat=False))
    form = {str(k): form_value(v) for k, v in payload.items() if k != "csrfmiddlewaretoken"}
    multipart = data.draw(st.booleans())
    cache.clear()
    with transaction.atomic():
        before = table_snapshot(spot.table_id)
        # What the view will see: every value as text, the last one of a repeated field.
        seen = {k: (v[-1] if isinstance(v, list) else v) for k, v in form.items()}
        applies = expected_to_apply(spot, seat, seen)
        client = http_clients[spot.users[seat].pk]
        if multipart:
            response = client.post(f"/tables/{spot.table_id}/action/", data=form)
        else:
            response = post_action(client, spot.table_id, urlencode(form, doseq=True),
                                   "application/x-www-form-urlencoded")
        check_http(response, spot, before, applies, seen)
        transaction.set_rollback(True)


json_bodies = st.one_of(
    st.text(max_size=200),  # mostly not JSON
    st.binary(max_size=200),  # not even text
    deep_text,
    st.sampled_from(["", "{", "}", "[]", "null", "true", "1", '"x"', "{}", '{"kind": "move"', "NaN", "Infinity",
                     '{"version": Infinity}', '{"version": NaN}', '{"version": 1e999}', "\ufeff{}"]),
)


@fuzz(300)
@given(data=st.data())
def test_http_action_json(spots, http_clients, data):
    spot = data.draw(st.sampled_from(spots))
    seat = pick_seat(spot, data, data.draw(st.booleans()))
    if data.draw(st.integers(0, 3)) == 0:
        body, payload = data.draw(json_bodies), None
    else:
        payload = data.draw(payloads(spot, for_acting_seat=False))
        body = dumps(payload)
    cache.clear()
    with transaction.atomic():
        before = table_snapshot(spot.table_id)
        applies = payload is not None and expected_to_apply(spot, seat, payload)
        response = post_action(http_clients[spot.users[seat].pk], spot.table_id, body, "application/json")
        if payload is None:
            assert response.status_code in (200, 400)
            page = response.content.decode()
            if error_message(page) or response.status_code == 400:
                assert is_french(error_message(page)), page[:300]
            assert table_snapshot(spot.table_id) == before
        else:
            check_http(response, spot, before, applies, payload)
        transaction.set_rollback(True)


@pytest.fixture
def discard_spot(make_player):
    return build_spots(make_player, only="gin-discard")[0]


@pytest.fixture
def discard_client(discard_spot):
    client = Client()
    client.force_login(discard_spot.users[discard_spot.acting[0]], backend="accounts.backends.HumanOnlyBackend")
    return client


def test_http_action_huge_bodies(discard_spot, discard_client):
    spot = discard_spot
    before = table_snapshot(spot.table_id)
    for size in (5_000, 100_000, 3_000_000):
        move = {"kind": "move", "action": "discard", "card": "Q" * size, "version": spot.version}
        for body, content_type in ((json.dumps(move), "application/json"),
                                   (urlencode(move), "application/x-www-form-urlencoded")):
            response = post_action(discard_client, spot.table_id, body, content_type)
            assert response.status_code in (200, 400)
            assert is_french(error_message(response.content.decode()))
    assert table_snapshot(spot.table_id) == before


def test_http_action_too_many_fields(discard_spot, discard_client):
    spot = discard_spot
    before = table_snapshot(spot.table_id)
    body = "&".join(f"f{i}=1" for i in range(1500))
    response = post_action(discard_client, spot.table_id, body, "application/x-www-form-urlencoded")
    assert response.status_code in (200, 400)
    assert is_french(error_message(response.content.decode()))
    assert table_snapshot(spot.table_id) == before


# --- the real consumer: raw websocket frames ----------------------------------------------------------

def communicator(table_id: int, user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/tables/{table_id}/")
    comm.scope["user"] = user
    comm.scope["url_route"] = {"kwargs": {"table_id": table_id}}
    return comm


async def drain(comm) -> list[str]:
    pages = []
    while not await comm.receive_nothing(timeout=0.2):
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.send":
            pages.append(output["text"])
    return pages


raw_frames = st.one_of(
    st.tuples(st.just("text"), st.text(max_size=300)),
    st.tuples(st.just("text"), json_values.map(dumps)),
    st.tuples(st.just("text"), st.integers(min_value=4097, max_value=50_000).map(lambda n: '{"a": "' + "x" * n + '"}')),
    st.tuples(st.just("text"), st.integers(min_value=100, max_value=2040).map(lambda n: "[" * n + "]" * n)),
    st.tuples(st.just("text"), st.sampled_from(["", " ", "{", "null", "[]", "0", '"move"', "\x00", "\ufffd", "{}"])),
    st.tuples(st.just("bytes"), st.binary(max_size=300)),
)


@pytest.fixture
def consumer_spot(make_player):
    return build_spots(make_player, only="gin-discard")[0]


@pytest.mark.django_db(transaction=True)
@fuzz(8)
@given(frames=st.lists(st.one_of(raw_frames, raw_frames, st.just(None)), min_size=30, max_size=50), data=st.data())
def test_consumer_answers_every_raw_frame_in_french(consumer_spot, monkeypatch, frames, data):
    """Frames from the seat not to act (nothing may apply): each gets one French answer, or a clean close."""
    monkeypatch.setattr(consumers, "FLOOD_LIMIT", 10_000)  # flooding has its own test
    spot = consumer_spot
    seat = next(p for p in spot.users if p not in spot.acting)
    frames = [f if f is not None else ("text", dumps(data.draw(payloads(spot, for_acting_seat=False)))) for f in frames]
    before = table_snapshot(spot.table_id)

    async def run():
        comm = communicator(spot.table_id, spot.users[seat])
        connected, _ = await comm.connect()
        assert connected
        assert any("id=\"table-hand\"" in page for page in await drain(comm))
        for kind, frame in frames:
            # send_input: the communicator's send_to refuses an empty frame, a client may send one
            await comm.send_input({"type": "websocket.receive", kind: frame})
            output = await comm.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                break
            assert output["type"] == "websocket.send"
            assert_french_error_or_resync(output["text"])
        await comm.disconnect()

    async_to_sync(run)()
    after = table_snapshot(spot.table_id)
    assert {k: v for k, v in after.items() if k != "seats"} == {k: v for k, v in before.items() if k != "seats"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("frame", ["not json", '{"kind": "move", "action": "pass"}'])
def test_flooding_socket_is_closed_with_1008(consumer_spot, frame, monkeypatch):
    # The consumer's clock stands still: every frame lands in the same window however slow the machine.
    monkeypatch.setattr(consumers, "time", types.SimpleNamespace(monotonic=lambda: 1000.0))
    spot = consumer_spot
    seat = next(p for p in spot.users if p not in spot.acting)

    async def run():
        comm = communicator(spot.table_id, spot.users[seat])
        assert (await comm.connect())[0]
        await drain(comm)
        for _ in range(consumers.FLOOD_LIMIT + 5):
            await comm.send_to(text_data=frame)
        answered = 0
        while True:
            output = await comm.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                break
            answered += 1
        await comm.disconnect()
        return output, answered

    output, answered = async_to_sync(run)()
    assert output == {"type": "websocket.close", "code": 1008}
    assert answered <= consumers.FLOOD_LIMIT


# --- regressions found by the fuzzers above, kept as plain examples -----------------------------------

def test_leave_is_not_a_move(discard_spot):
    """The engines accept {"action": "leave"}; through a move frame it skipped the abandon penalty."""
    spot = discard_spot
    for seat in spot.users:
        before = table_snapshot(spot.table_id)
        reply = commands.handle_frame(spot.table_id, spot.users[seat].pk, {"kind": "move", "action": "leave"})
        assert "Quitter" in error_message(reply)
        assert table_snapshot(spot.table_id) == before


def test_version_infinity_is_a_resync(discard_spot):
    spot = discard_spot
    seat = spot.acting[0]
    before = table_snapshot(spot.table_id)
    frame = json.loads('{"action": "pass", "version": 1e999}')
    reply = commands.handle_frame(spot.table_id, spot.users[seat].pk, frame)
    assert is_full_view(reply) and not error_message(reply)
    assert table_snapshot(spot.table_id) == before


def test_junk_riding_on_a_legal_move_is_refused(discard_spot):
    """Extra keys too deep for json.dumps would have crashed the move log's save."""
    spot = discard_spot
    seat = spot.acting[0]
    legal = dict(spot.legal[0])
    before = table_snapshot(spot.table_id)
    for junk in (nested(1500), nested(7), [[0] * 10] * 40):
        reply = commands.handle_frame(spot.table_id, spot.users[seat].pk, {**legal, "junk": junk})
        assert error_message(reply).startswith("Coup invalide")
    assert table_snapshot(spot.table_id) == before


@pytest.mark.django_db(transaction=True)
def test_consumer_deeply_nested_frame_is_unreadable(consumer_spot):
    spot = consumer_spot
    seat = spot.acting[0]

    async def run():
        comm = communicator(spot.table_id, spot.users[seat])
        assert (await comm.connect())[0]
        await drain(comm)
        await comm.send_to(text_data="[" * 2000 + "]" * 2000)
        reply = await comm.receive_from(timeout=10)
        await comm.disconnect()
        return reply

    assert error_message(async_to_sync(run)()) == "Message illisible."
