"""The player's address and scheme behind the proxy (rummy_site/proxy_headers.py): believed from X-Forwarded-For
and X-Forwarded-Proto only when the peer is a trusted proxy, and then the last value only. Through the real
HAProxy: tests/reliability/test_cluster.py."""

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.asgi import ASGIRequest

from rummy_site.cluster import PROXY_SOURCE, haproxy_config
from rummy_site.proxy_headers import ProxyHeadersMiddleware

ROOT = Path(__file__).resolve().parent.parent


def _seen(headers=(), *, peer=("10.0.0.5", 51000), trusted=("10.0.0.5",), kind="http", scheme=None) -> dict:
    """The scope the application behind the middleware gets."""
    seen = {}

    async def app(scope, receive, send):
        seen.update(scope)

    scope = {"type": kind, "path": "/", "headers": [(n.encode(), v.encode("latin-1")) for n, v in headers],
             "client": list(peer) if peer is not None else None}
    if scheme:
        scope["scheme"] = scheme
    asyncio.run(ProxyHeadersMiddleware(app, trusted=list(trusted))(scope, None, None))
    return seen


def test_from_an_untrusted_peer_the_headers_change_nothing():
    seen = _seen([("x-forwarded-for", "6.6.6.6"), ("x-forwarded-proto", "https")], peer=("203.0.113.9", 4000))
    assert seen["client"] == ["203.0.113.9", 4000]
    assert "scheme" not in seen


def test_nobody_is_trusted_by_default(settings):
    assert settings.TRUSTED_PROXIES == []
    seen = {}

    async def app(scope, receive, send):
        seen.update(scope)

    scope = {"type": "http", "client": ["127.0.0.1", 4000], "headers": [(b"x-forwarded-for", b"6.6.6.6")]}
    asyncio.run(ProxyHeadersMiddleware(app)(scope, None, None))
    assert seen["client"] == ["127.0.0.1", 4000]


def test_from_a_trusted_peer_the_last_forwarded_address_is_the_client():
    assert _seen([("x-forwarded-for", "198.51.100.7")])["client"] == ("198.51.100.7", 0)
    # What the client wrote before the proxy's own value is his word only
    assert _seen([("x-forwarded-for", "6.6.6.6, 198.51.100.7")])["client"] == ("198.51.100.7", 0)
    # Two header lines are one list, in order
    assert _seen([("x-forwarded-for", "6.6.6.6"), ("x-forwarded-for", "198.51.100.7")])["client"] == \
        ("198.51.100.7", 0)


def test_trusted_proxies_are_addresses_or_networks():
    assert _seen([("x-forwarded-for", "198.51.100.7")], peer=("10.1.2.3", 1), trusted=["10.0.0.0/8"])["client"] \
        == ("198.51.100.7", 0)
    assert _seen([("x-forwarded-for", "198.51.100.7")], peer=("11.1.2.3", 1), trusted=["10.0.0.0/8"])["client"] \
        == ["11.1.2.3", 1]
    assert _seen([("x-forwarded-for", "198.51.100.7")], peer=("fd00::1", 1), trusted=["fd00::/64"])["client"] \
        == ("198.51.100.7", 0)
    # A dual-stack listener reports an IPv4 peer as ::ffff:a.b.c.d
    assert _seen([("x-forwarded-for", "198.51.100.7")], peer=("::ffff:10.0.0.5", 1))["client"] == \
        ("198.51.100.7", 0)
    with pytest.raises(ImproperlyConfigured):
        ProxyHeadersMiddleware(None, trusted=["proxy.example.fr"])


def test_the_forwarded_scheme_for_http_and_websocket():
    assert _seen([("x-forwarded-proto", "https")], scheme="http")["scheme"] == "https"
    assert _seen([("x-forwarded-proto", "http")], scheme="https")["scheme"] == "http"
    assert _seen([("x-forwarded-proto", "https")], kind="websocket")["scheme"] == "wss"
    assert _seen([("x-forwarded-proto", "http")], kind="websocket")["scheme"] == "ws"
    assert _seen([("x-forwarded-proto", "https")], kind="websocket", peer=("203.0.113.9", 1)).get("scheme") is None
    assert _seen([("x-forwarded-proto", "gopher")], scheme="http")["scheme"] == "http"


def test_the_websocket_client_is_rewritten_too():
    assert _seen([("x-forwarded-for", "6.6.6.6, 198.51.100.7")], kind="websocket")["client"] == ("198.51.100.7", 0)


@pytest.mark.parametrize("value", ["", " ", "garbage", "6.6.6.6, ", "6.6.6.6,garbage", "198.51.100.7:4000",
                                   "[2001:db8::1]", "unknown", "999.1.1.1", "\xff\xfe", "1.2.3.4\x00"])
def test_a_malformed_forwarded_for_falls_back_to_the_peer(value):
    assert _seen([("x-forwarded-for", value)])["client"] == ["10.0.0.5", 51000]


def test_an_ipv6_client_address_is_taken():
    assert _seen([("x-forwarded-for", "6.6.6.6, 2001:db8::1")])["client"] == ("2001:db8::1", 0)


def test_no_peer_or_no_header_or_another_scope_type_passes_through():
    assert _seen([("x-forwarded-for", "198.51.100.7")], peer=None)["client"] is None  # a Unix socket
    assert _seen([])["client"] == ["10.0.0.5", 51000]
    lifespan = _seen([("x-forwarded-for", "198.51.100.7")], kind="lifespan")
    assert lifespan["client"] == ["10.0.0.5", 51000]


def test_django_sees_the_player_address_and_scheme(settings):
    """What the rate limits (accounts/throttle.py: REMOTE_ADDR) and is_secure() read."""
    scope = _seen([("x-forwarded-for", "6.6.6.6, 198.51.100.7"), ("x-forwarded-proto", "https")], scheme="http")
    request = ASGIRequest({**scope, "method": "GET", "query_string": b""}, io.BytesIO())
    assert request.META["REMOTE_ADDR"] == "198.51.100.7"
    assert request.is_secure()
    forged = _seen([("x-forwarded-for", "6.6.6.6"), ("x-forwarded-proto", "https")], peer=("203.0.113.9", 1),
                   scheme="http")
    request = ASGIRequest({**forged, "method": "GET", "query_string": b""}, io.BytesIO())
    assert request.META["REMOTE_ADDR"] == "203.0.113.9"
    assert not request.is_secure()


def test_the_site_application_is_wrapped():
    import rummy_site.asgi  # noqa: F401 - the module the servers load

    application = sys.modules["rummy_site.asgi"].application
    assert isinstance(application, ProxyHeadersMiddleware)


def test_production_does_not_read_the_scheme_from_any_peer():
    """SECURE_PROXY_SSL_HEADER would make Django believe X-Forwarded-Proto from whoever sent it: the scheme comes
    from the middleware (trusted proxies only)."""
    env = {**os.environ, "DJANGO_ENV": "production", "SECRET_KEY": "k" * 40 + "-a-production-key-0123456789",
           "ALLOWED_HOSTS": "cartes.example.fr"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
                               "print(settings.SECURE_PROXY_SSL_HEADER)"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "rummy_site.settings"}, capture_output=True, text=True,
        timeout=60)
    assert result.stdout.strip() == "None", result.stdout + result.stderr


def test_the_shipped_proxy_overwrites_the_forwarding_headers(tmp_path):
    text = (ROOT / "deploy" / "haproxy.cfg").read_text()
    lines = [line.strip() for line in text.splitlines() if not line.strip().startswith("#")]
    assert "option forwardfor" not in lines
    for header in ("Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Port",
                   "X-Real-IP"):
        assert f"http-request del-header {header}" in lines, header
    assert "http-request set-header X-Forwarded-For %[src]" in lines
    # make cluster's copy: its servers connected to from the one address the daphne processes trust
    config = haproxy_config("127.0.0.1:9000", ["127.0.0.1:9001", "127.0.0.1:9002"], tmp_path / "s.sock",
                            source=PROXY_SOURCE)
    assert "    server daphne1 127.0.0.1:9001 source 127.0.0.2" in config.splitlines()
    assert "    server daphne2 127.0.0.1:9002 source 127.0.0.2" in config.splitlines()
    assert "    bind 127.0.0.1:9000" in config.splitlines()
    assert "http-request set-header X-Forwarded-For %[src]" in config
