"""A move's payload is checked against what its game accepts before anything is stored (issue 19, items 2 and 3).

- A legal move carrying an extra field, or text no database can store (a lone surrogate), is refused in French
  and changes nothing; on PostgreSQL it used to fail the move log's INSERT (500).
- The 16 KB cap of the HTTP fallback holds for a chunked body, which announces no length.
- The log stores the cleaned move only: no frame control key, no junk.
"""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.conf import settings as django_settings
from django.test import Client

from engine import IllegalMove, games
from tables import commands
from tables.models import TableMove
from tables.views import MAX_ACTION_BODY
from tests.security.arena import build_spots
from tests.security.frames import error_message, is_french, table_snapshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def spot(make_player):
    return build_spots(make_player, only="gin-discard")[0]


def acting_client(spot) -> Client:
    client = Client()
    client.force_login(spot.users[spot.acting[0]], backend="accounts.backends.HumanOnlyBackend")
    return client


SURROGATE = json.loads('"\\ud800"')


@pytest.mark.parametrize("extra", [{"note": SURROGATE}, {"card": SURROGATE}, {"x": "1"}, {"card": "QH1" * 40}])
def test_a_legal_move_with_a_bad_field_is_refused_in_french_and_changes_nothing(spot, extra):
    move = next(m for m in spot.legal if m["action"] == "discard")
    before = table_snapshot(spot.table_id)
    user = spot.users[spot.acting[0]]
    reply = commands.handle_frame(spot.table_id, user.pk, {"kind": "move", **move, **extra})
    assert error_message(reply).startswith("Coup invalide") and is_french(error_message(reply))
    # The same through the HTTP fallback, as JSON (a form cannot carry a lone surrogate).
    response = acting_client(spot).post(f"/tables/{spot.table_id}/action/", content_type="application/json",
                                        data=json.dumps({"kind": "move", **move, **extra}))
    assert response.status_code == 200 and error_message(response.content.decode()).startswith("Coup invalide")
    assert table_snapshot(spot.table_id) == before


def test_the_log_holds_the_cleaned_move_only(spot):
    move = next(m for m in spot.legal if m["action"] == "discard")
    user = spot.users[spot.acting[0]]
    frame = {"kind": "move", "version": str(spot.version), "HEADERS": {"HX-Request": "true"}, **move}
    assert commands.handle_frame(spot.table_id, user.pk, frame) is None
    assert TableMove.objects.filter(table_id=spot.table_id).latest("seq").move == move


@pytest.mark.parametrize("slug", games.available())
def test_every_legal_and_autoplay_move_fits_its_games_move_shape(slug):
    """Nothing a player, a bot or the autoplay may play is refused by the shape check."""
    engine = games.get(slug)
    info = engine.info
    state = engine.new_match(info.default_players, info.clean_options({}), "ab" * 16)
    for _ in range(120):
        if engine.result(state) is not None:
            break
        seat = (engine.to_act(state) or state["active"])[0]
        for move in [*engine.legal_moves(state, seat), engine.autoplay(state, seat)]:
            assert engine.clean_move(move) == move
        state, _ = engine.apply(state, seat, engine.autoplay(state, seat))


def test_the_shape_check_reads_form_text_for_yes_no_fields():
    engine = games.get("rami")
    assert engine.clean_move({"action": "undo", "all": "true"}) == {"action": "undo", "all": True}
    with pytest.raises(IllegalMove):
        engine.clean_move({"action": "undo", "all": "peut-être"})


def post_chunked(spot, body: bytes) -> tuple[int, str]:
    """POST /action/ through the ASGI application with no Content-Length, as a chunked request arrives."""
    from rummy_site.asgi import django_asgi_app

    session = acting_client(spot).cookies[django_settings.SESSION_COOKIE_NAME].value
    token = "a" * 32
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json"), (b"x-csrftoken", token.encode()),
               (b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session}; csrftoken={token}".encode())]
    comm = HttpCommunicator(django_asgi_app, "POST", f"/tables/{spot.table_id}/action/", body=body, headers=headers)
    response = async_to_sync(comm.get_response)(timeout=30)
    return response["status"], response["body"].decode()


def test_a_chunked_body_over_the_cap_is_refused(spot):
    move = next(m for m in spot.legal if m["action"] == "discard")
    before = table_snapshot(spot.table_id)
    padded = json.dumps({"kind": "move", **move, "pad": "x" * (2 * 1024 * 1024)}).encode()
    status, body = post_chunked(spot, padded)
    assert status == 400 and "trop long" in error_message(body)
    assert table_snapshot(spot.table_id) == before
    assert len(padded) > MAX_ACTION_BODY
    # Under the cap, the same path plays the move.
    status, body = post_chunked(spot, json.dumps({"kind": "move", **move}).encode())
    assert status == 200 and table_snapshot(spot.table_id)["version"] == before["version"] + 1
