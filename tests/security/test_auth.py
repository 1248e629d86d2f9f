"""Who may do what: websockets through the real ASGI stack, seats, CSRF, rate limits, security headers.

(`check --deploy` being clean in production mode is tests/test_project.py.)
"""

import html
import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from django.urls import URLPattern, reverse

from accounts import urls as account_urls
from rummy_site.asgi import application
from tables import commands
from tables import urls as table_urls
from tables.catalogue import entries
from tests.security.arena import Spot, advance, build_spots, humans_table
from tests.security.frames import error_message, is_french, is_full_view, table_snapshot

pytestmark = pytest.mark.django_db

ORIGIN = (b"origin", b"http://testserver")


def login(user) -> Client:
    client = Client()
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


def session_headers(user=None, origin=ORIGIN) -> list[tuple[bytes, bytes]]:
    headers = [(b"host", b"testserver")]
    if origin:
        headers.append(origin)
    if user is not None:
        cookie = login(user).cookies[django_settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return headers


def ws_connect(table_id: int, headers) -> tuple[bool, int | None, str]:
    """Connect through rummy_site.asgi.application (origin validator, session auth, routing)."""

    async def run():
        comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
        connected, code = await comm.connect(timeout=10)
        first = ""
        if connected:
            first = await comm.receive_from(timeout=10)
            await comm.disconnect()
        return connected, code, first

    return async_to_sync(run)()


@pytest.fixture
def spot(make_player) -> Spot:
    return build_spots(make_player, only="gin-discard")[0]


@pytest.fixture
def stranger(make_player):
    return make_player("intrus")


# --- websockets through the real stack --------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_seated_player_with_session_and_origin_is_accepted(spot):
    connected, _, first = ws_connect(spot.table_id, session_headers(spot.users[0]))
    assert connected and is_full_view(first)


@pytest.mark.django_db(transaction=True)
def test_anonymous_websocket_is_refused(spot):
    connected, code, _ = ws_connect(spot.table_id, session_headers(None))
    assert not connected and code == 4401


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", [(b"origin", b"http://evil.example"), (b"origin", b"null"),
                                    (b"origin", b"http://testserver.evil.example"), None])
def test_foreign_or_missing_origin_is_refused(spot, origin):
    connected, _, _ = ws_connect(spot.table_id, session_headers(spot.users[0], origin=origin))
    assert not connected


@pytest.mark.django_db(transaction=True)
def test_socket_of_a_table_where_i_am_not_seated_is_refused(spot, stranger, make_player):
    connected, code, _ = ws_connect(spot.table_id, session_headers(stranger))
    assert not connected and code == 4403
    # Seated at another table: still nothing here.
    other = build_spots(lambda name: make_player(name + "2"), only="gin-discard")[0]
    connected, code, _ = ws_connect(spot.table_id, session_headers(other.users[0]))
    assert not connected and code == 4403
    connected, code, _ = ws_connect(987654, session_headers(spot.users[0]))
    assert not connected and code == 4403


# --- acting and seeing without a seat -------------------------------------------------------------

def test_a_user_not_seated_cannot_act_or_see(spot, stranger):
    before = table_snapshot(spot.table_id)
    legal = spot.legal[0]
    frames = [{"kind": "move", **legal, "version": spot.version}, {"kind": "chat", "text": "coucou"},
              {"kind": "order", "order": spot.own_cards[0]}, {"kind": "leave"}]
    for frame in frames:
        reply = commands.handle_frame(spot.table_id, stranger.pk, dict(frame))
        assert error_message(reply) == "Tu n'es pas assis à cette table."
    client = login(stranger)
    for frame in frames:
        response = client.post(f"/tables/{spot.table_id}/action/", data=frame)
        assert response.status_code == 200
        assert error_message(response.content.decode()) == "Tu n'es pas assis à cette table."
        for card in spot.own_cards[0] + spot.own_cards[1]:
            assert card not in response.content.decode()
    response = client.get(f"/tables/{spot.table_id}/")
    assert response.status_code == 302 and response["Location"] == reverse("tables:lobby")
    for path in (f"/tables/{spot.table_id}/commencer/", f"/tables/{spot.table_id}/quitter/"):
        client.post(path)
    assert table_snapshot(spot.table_id) == before


def test_anonymous_requests_go_to_login(spot):
    before = table_snapshot(spot.table_id)
    client = Client()
    response = client.post(f"/tables/{spot.table_id}/action/", data={"kind": "move", "action": "draw_stock"})
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    response = client.get(f"/tables/{spot.table_id}/")
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
    assert table_snapshot(spot.table_id) == before


def test_a_seat_cannot_move_for_another(spot):
    """There is no seat in a frame: the seat is the sender's. The other seat's legal move is out of turn."""
    before = table_snapshot(spot.table_id)
    waiting = next(p for p in spot.users if p not in spot.acting)
    for legal in spot.legal:
        frame = {"kind": "move", **legal, "version": spot.version, "seat": spot.acting[0]}
        reply = commands.handle_frame(spot.table_id, spot.users[waiting].pk, frame)
        assert is_french(error_message(reply))
    assert table_snapshot(spot.table_id) == before


# --- CSRF on every POST ---------------------------------------------------------------------------

# An e-mail's one-click unsubscribe (RFC 8058): a mail client posts it without a session, so no CSRF token; its
# signed token is the proof, and it can only switch one kind of e-mail off or back on (tests/accounts).
CSRF_EXEMPT = {"accounts:unsubscribe"}


def test_the_one_csrf_exempt_post_needs_its_signed_token(spot):
    response = csrf_client(spot.users[0]).post(reverse("accounts:unsubscribe", args=["forged"]))
    assert response.status_code == 404


def post_urls(spot: Spot) -> list[str]:
    """Every URL of tables/urls.py and accounts/urls.py, with its arguments filled in."""
    from tables.models import Table

    token = Table.objects.get(pk=spot.table_id).invite_token
    values = {"table_id": spot.table_id, "token": token, "number": 1, "note_id": 1, "pk": 1}
    urls = []
    for namespace, module in (("tables", table_urls), ("accounts", account_urls)):
        for pattern in module.urlpatterns:
            assert isinstance(pattern, URLPattern)
            if f"{namespace}:{pattern.name}" in CSRF_EXEMPT:
                continue
            kwargs = {name: values[name] for name in pattern.pattern.converters}
            urls.append(reverse(f"{namespace}:{pattern.name}", kwargs=kwargs))
    return urls


def csrf_client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


def test_csrf_is_enforced_on_every_post(spot):
    urls = post_urls(spot)
    assert len(urls) >= 14
    before = table_snapshot(spot.table_id)
    for user in (None, spot.users[0], spot.users[1]):
        for url in urls:
            response = csrf_client(user).post(url, data={"kind": "move", "action": "leave", "username": "x",
                                                         "password": "y", "text": "salut"})
            assert response.status_code == 403, (url, response.status_code)
    assert table_snapshot(spot.table_id) == before
    # The same POSTs with the token htmx sends (X-CSRFToken, read from the page) pass the check.
    for user in (None, spot.users[1]):
        for url in urls:
            client = csrf_client(user)
            client.get("/regles/")
            token = client.cookies[django_settings.CSRF_COOKIE_NAME].value
            response = client.post(url, data={"kind": "chat", "text": "salut"}, HTTP_X_CSRFTOKEN=token)
            assert response.status_code != 403, url


def test_pages_carry_the_csrf_token_for_htmx(spot):
    page = login(spot.users[0]).get(f"/tables/{spot.table_id}/").content.decode()
    assert re.search(r"hx-headers='\{\"X-CSRFToken\": \"[A-Za-z0-9]{32,}\"\}'", page)


# --- rate limits ------------------------------------------------------------------------------------

def test_signup_is_rate_limited():
    from accounts.models import User

    client = Client()
    for n in range(11):
        response = client.post(reverse("accounts:signup"), data={
            "username": f"nouveau{n}", "email": "", "password1": "Tr3s-secret!x", "password2": "Tr3s-secret!x"})
        client.logout()
    assert "Trop d'inscriptions" in html.unescape(response.content.decode())
    assert not User.objects.filter(username="nouveau10").exists()
    assert User.objects.filter(username="nouveau9").exists()


def test_chat_is_rate_limited(spot):
    user = spot.users[0]
    replies = [commands.handle_frame(spot.table_id, user.pk, {"kind": "chat", "text": f"message {n}"})
               for n in range(6)]
    assert replies[:5] == [None] * 5
    assert error_message(replies[5]).startswith("Doucement")


@pytest.mark.parametrize("path", ["websocket", "http"])
def test_moves_are_rate_limited(spot, path):
    """Stale moves (answered with a resync) count too: each costs a lock and a render."""
    user = spot.users[spot.acting[0]]
    client = login(user)
    limit = django_settings.MOVE_RATE_LIMIT
    before = table_snapshot(spot.table_id)
    replies = []
    for _ in range(limit + 2):
        frame = {"kind": "move", "action": "draw_stock", "version": spot.version - 1}
        if path == "websocket":
            replies.append(commands.handle_frame(spot.table_id, user.pk, frame))
        else:
            replies.append(client.post(f"/tables/{spot.table_id}/action/", data=frame).content.decode())
    assert all(is_full_view(reply) for reply in replies[:limit])
    for reply in replies[limit:]:
        assert error_message(reply) == "Tu joues trop vite : attends quelques secondes."
    assert table_snapshot(spot.table_id) == before


# --- security headers and a strict CSP ------------------------------------------------------------

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
INLINE_STYLE = re.compile(r"<[^>]+\sstyle\s*=", re.I)


def pages(spot):
    anonymous = Client()
    player = login(spot.users[spot.acting[0]])
    yield "home", anonymous.get("/")
    yield "rules", anonymous.get("/regles/")
    yield "rules page", anonymous.get("/regles/gin/")
    yield "lobby", anonymous.get("/tables/")
    yield "login", anonymous.get(reverse("accounts:login"))
    yield "signup", anonymous.get(reverse("accounts:signup"))
    yield "404", anonymous.get("/pas-de-page-ici/")
    yield "lobby (player)", player.get("/tables/")
    yield "profile", player.get(reverse("accounts:profile"))
    yield "table", player.get(f"/tables/{spot.table_id}/")
    yield "action reply", player.post(f"/tables/{spot.table_id}/action/", data={"kind": "move", "action": "x"})
    yield "resync", player.post(f"/tables/{spot.table_id}/action/", data={"kind": "move", "action": "draw_stock",
                                                                           "version": "0"})


def test_security_headers_on_every_page(spot):
    for name, response in pages(spot):
        assert response["X-Frame-Options"] == "DENY", name
        assert response["X-Content-Type-Options"] == "nosniff", name
        assert response["Referrer-Policy"] == "same-origin", name
        assert response["Cross-Origin-Opener-Policy"] == "same-origin", name
        csp = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
        assert csp["default-src"] == "'self'", name
        assert csp["script-src"] == "'self'" and csp["style-src"] == "'self'", name
        assert csp["object-src"] == "'none'" and csp["frame-ancestors"] == "'none'", name
        assert csp["base-uri"] == "'self'" and csp["form-action"] == "'self'", name
        assert csp["connect-src"] == "'self' ws://testserver wss://testserver", name
        assert "unsafe" not in response["Content-Security-Policy"], name


def test_pages_and_pushes_need_no_inline_script_or_style(spot):
    """What the CSP forbids is absent from every page and every push (the templates keep to it)."""
    from tables.rendering import render_for_user

    texts = [(name, response.content.decode()) for name, response in pages(spot)]
    texts += [(f"push seat {p}", render_for_user(spot.table_id, user.pk)) for p, user in spot.users.items()]
    for name, text in texts:
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER, INLINE_STYLE):
            found = pattern.search(text)
            assert found is None, f"{name}: {found.group()[:200]}"
        assert "javascript:" not in text.lower(), name


def test_no_template_carries_an_inline_style_script_or_handler():
    """The site's own templates (the admin's are Django's): a `style=` attribute is refused by the CSP on every
    push (issue 31: the Thunee fan and the Canasta meld meters logged thousands of console errors)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    for path in root.rglob("*"):
        if path.suffix not in {".html", ".jinja"} or "admin" in path.parts:
            continue
        text = path.read_text()
        for pattern in (INLINE_STYLE, INLINE_HANDLER, INLINE_SCRIPT):
            found = pattern.search(text)
            assert found is None, f"{path.relative_to(root)}: {found.group()[:200]}"


@pytest.mark.parametrize("slug", [game[0] for game in entries()])
def test_every_game_pushes_no_inline_style(make_player, slug):
    """A table of each game, a few moves in: every seat's push and the public one keep to the CSP."""
    from engine import games
    from tables.reads import seats_of
    from tables.reads import table as read_table
    from tables.rendering import render_push
    info = games.get(slug).info
    users = [make_player(f"joueur{n}") for n in range(info.min_players)]
    table = humans_table(slug, users)
    table = advance(table, lambda state, seen=[]: seen.append(1) or len(seen) > 12)
    fresh = read_table(table.pk)
    seats = seats_of(table.pk)
    for seat in [*seats, None]:
        text = render_push(fresh, seats, seat)
        for pattern in (INLINE_SCRIPT, INLINE_HANDLER, INLINE_STYLE):
            found = pattern.search(text)
            assert found is None, f"{slug} seat {seat and seat.position}: {found.group()[:200]}"
