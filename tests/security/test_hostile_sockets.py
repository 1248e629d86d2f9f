"""Websockets to paths no route knows, or to a table id beyond 64 bits: closed with 4404, no traceback.

Through rummy_site.asgi.application (origin validator, session auth, routing), as tests/security/test_auth.py.
The real daphne really sends 4404 (an application code, which autobahn's sendClose accepts once the handshake
is accepted): test_daphne_sends_4404 below.
"""

import logging

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from rummy_site.asgi import application
from tables.converters import ID_MAX
from tests.security.arena import build_spots
from tests.security.test_auth import session_headers, ws_connect

HOSTILE_PATHS = [
    "/ws/nope/",
    "/ws/tables/abc/",
    "/ws/tables/10000000000000000000000000/",
    f"/ws/tables/{ID_MAX + 1}/",
    "/ws/tables/-1/",
    "/ws/tables/1/extra/",
    "/ws/",
    "/",
]


def close_code(path: str, headers) -> int | None:
    """The code the socket ends with: of the rejected handshake, or of the close frame that follows the accept."""

    async def run():
        comm = WebsocketCommunicator(application, path, headers=headers)
        connected, code = await comm.connect(timeout=10)
        if not connected:
            return code
        message = await comm.receive_output(timeout=10)
        assert message["type"] == "websocket.close", message
        await comm.disconnect(code=message.get("code") or 1000, timeout=5)
        return message.get("code")

    return async_to_sync(run)()


def errors(caplog) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_unknown_path_is_closed_with_4404_by_a_logged_in_player(make_player, caplog, path):
    user = make_player("curieux")
    with caplog.at_level(logging.DEBUG):
        assert close_code(path, session_headers(user)) == 4404
    assert errors(caplog) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/tables/abc/", "/ws/tables/10000000000000000000000000/"])
def test_unknown_path_is_closed_with_4404_for_a_visitor(caplog, path):
    with caplog.at_level(logging.DEBUG):
        assert close_code(path, session_headers(None)) == 4404
    assert errors(caplog) == []


@pytest.mark.django_db(transaction=True)
def test_the_largest_id_still_reaches_the_table_route(make_player, caplog):
    """2**63 - 1 is a valid id: the consumer answers (no such seat: 4403) instead of the catch-all route."""
    user = make_player("curieux")
    with caplog.at_level(logging.DEBUG):
        assert close_code(f"/ws/tables/{ID_MAX}/", session_headers(user)) == 4403
    assert errors(caplog) == []


@pytest.mark.django_db(transaction=True)
def test_a_seated_player_still_connects(make_player):
    spot = build_spots(make_player, only="gin-discard")[0]
    connected, _, first = ws_connect(spot.table_id, session_headers(spot.users[0]))
    assert connected and first


def test_http_table_pages_beyond_64_bits_are_404(client, make_player, caplog):
    """The same ids over HTTP: a 404 page, no OverflowError in raw SQL."""
    client.force_login(make_player("curieux"), backend="accounts.backends.HumanOnlyBackend")
    huge = "10000000000000000000000000"
    with caplog.at_level(logging.DEBUG):
        assert client.get(f"/tables/{huge}/").status_code == 404
        for action in ("rejoindre", "commencer", "quitter", "action"):
            assert client.post(f"/tables/{huge}/{action}/").status_code == 404
    assert errors(caplog) == []
    assert reverse("tables:table", args=[ID_MAX]) == f"/tables/{ID_MAX}/"


# --- the real daphne --------------------------------------------------------------------------------

def test_daphne_sends_4404(live_site, tmp_path):
    """The close frame on the wire carries 4404, and daphne's log has no traceback."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    def code_of(path: str) -> int:
        with connect(live_site.replace("http://", "ws://") + path, origin=live_site, open_timeout=10) as sock:
            with pytest.raises(ConnectionClosed):
                sock.recv(timeout=10)
            return sock.close_code

    assert [code_of(p) for p in ("/ws/nope/", "/ws/tables/abc/", "/ws/tables/10000000000000000000000000/")] == [
        4404, 4404, 4404]
    output = (tmp_path / "site.log").read_text()
    assert "Traceback" not in output and "No route found" not in output, output
