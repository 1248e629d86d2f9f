"""TLS at the proxy, across processes (PostgreSQL + Redis only): HAProxy serves HTTPS and WSS with a certificate
made here (self-signed, for 127.0.0.1), redirects plain HTTP to HTTPS, sends HSTS, and tells the site the scheme
(X-Forwarded-Proto from the one trusted proxy): a player's move goes over wss:// and comes back pushed."""

import asyncio
import http.client
import json
import os
import re
import ssl
import subprocess

import pytest
from django.db import connection
from websockets.asyncio.client import connect

from bench.chaos import session_cookie
from engine import games
from rummy_site.cluster import Cluster, free_port, haproxy_binary
from tables.models import Table
from tests.reliability.test_crash import site_env
from tests.server_logs import first_traceback
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db(transaction=True)

VERSION = re.compile(r'id="table-status"[^>]*?data-version="(\d+)"')


def self_signed(folder) -> tuple[str, ssl.SSLContext]:
    """A certificate and its key for 127.0.0.1, in one PEM file as HAProxy reads it; a client context trusting it."""
    key, cert = folder / "tls.key", folder / "tls.crt"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    pem = folder / "tls.pem"
    pem.write_text(cert.read_text() + key.read_text())
    context = ssl.create_default_context(cafile=str(cert))
    return str(pem), context


@pytest.fixture
def tls_cluster(settings, tmp_path):
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("the cluster shape is PostgreSQL + Redis (set DATABASE_URL and REDIS_URL)")
    if haproxy_binary() is None:
        pytest.skip("HAProxy is not installed (.ci/run installs it)")
    pem, context = self_signed(tmp_path)
    log = open(tmp_path / "cluster.log", "a")  # noqa: SIM115 - closed below
    started = Cluster(env={**os.environ, **site_env(settings), "DJANGO_SETTINGS_MODULE": "rummy_site.settings",
                           "DEBUG": "0", "CELERY_TASK_ALWAYS_EAGER": "0"},
                      workers=1, port=free_port(), daphne_ports=[free_port()], output=log, tls_cert=pem,
                      redirect_port=free_port())
    started.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    started.context = context
    try:
        yield started.start()
    finally:
        started.stop()
        log.close()
        text = (tmp_path / "cluster.log").read_text()
        assert not (error := first_traceback(text)), error


def test_https_and_wss_through_the_proxy(tls_cluster, make_player):
    cluster = tls_cluster
    # Plain HTTP: redirected to the same address in HTTPS.
    plain = http.client.HTTPConnection("127.0.0.1", cluster.redirect_port, timeout=5)
    plain.request("GET", "/regles/?x=1")
    answer = plain.getresponse()
    assert answer.status == 301
    assert answer.getheader("Location") == f"https://127.0.0.1:{cluster.redirect_port}/regles/?x=1"

    # HTTPS: the proxy's certificate, HSTS, and the site knows it is served over HTTPS.
    secure = http.client.HTTPSConnection("127.0.0.1", cluster.port, timeout=5, context=cluster.context)
    secure.request("GET", "/regles/")
    page = secure.getresponse()
    body = page.read().decode()
    assert page.status == 200 and page.getheader("Strict-Transport-Security") == "max-age=31536000"
    assert f'<link rel="canonical" href="https://127.0.0.1:{cluster.port}/regles/">' in body

    # WSS: a player's move, sent over the encrypted socket, comes back pushed.
    player = make_player("chiffre")
    table = create_table(player, "gin", seats=2, bots={1: 1})
    cookie = session_cookie(player)

    async def play() -> tuple[int, int]:
        async with connect(f"wss://127.0.0.1:{cluster.port}/ws/tables/{table.pk}/", ssl=cluster.context,
                           origin=f"https://127.0.0.1:{cluster.port}",
                           additional_headers={"Cookie": cookie}) as sock:
            shown = 0
            while True:  # the table as it is, then the robot's moves until the decision is mine
                html = await asyncio.wait_for(sock.recv(), 10)
                if match := VERSION.search(html):
                    shown = int(match.group(1))
                if 'data-my-turn="1"' in html:
                    break
            current = await asyncio.to_thread(lambda: Table.objects.get(pk=table.pk))
            move = games.get("gin").autoplay(current.state, 0)
            await sock.send(json.dumps({"kind": "move", "version": shown, **move}))
            while True:
                html = await asyncio.wait_for(sock.recv(), 10)
                if (match := VERSION.search(html)) and int(match.group(1)) > shown:
                    return shown, int(match.group(1))

    before, after = asyncio.run(play())
    assert after > before
    assert Table.objects.get(pk=table.pk).moves.filter(seq=before + 1, actor="player").exists()
