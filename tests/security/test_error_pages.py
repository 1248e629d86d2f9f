"""Error pages and bad requests: French pages in the site's layout, one short log line, DEBUG off for `make run`.

The tests run with DEBUG off (pytest-django), as the site does in production and under `make run`.
"""

import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpResponse
from django.template import loader
from django.test import Client
from django.urls import path

from rummy_site import log_filters
from rummy_site import urls as site_urls

ROOT = Path(__file__).resolve().parents[2]
LOBBY_LINK = '<a class="button" href="/tables/">Retour aux tables</a>'
ENGLISH = ("Not Found", "Server Error", "Bad Request", "Forbidden", "CSRF verification failed", "More information",
           "The requested resource", "Page not found", "Using the URLconf")


def boom(request):
    raise RuntimeError("boom")


def forbidden(request):
    raise PermissionDenied("no")


def fine(request):
    return HttpResponse("ok")


# The site's URLs plus views that fail (@pytest.mark.urls(__name__)).
urlpatterns = [
    path("essais/boom/", boom),
    path("essais/interdit/", forbidden),
    path("essais/ok/", fine),
    *site_urls.urlpatterns,
]
handler400 = "rummy_site.errors.bad_request"  # as rummy_site/urls.py


def assert_french_page(body: str, title: str) -> None:
    assert f"<h1>{title}</h1>" in body
    assert LOBBY_LINK in body
    assert 'class="site-header"' in body and "Cartes &amp; Rami" in body  # the site's layout (base.html)
    for words in ENGLISH:
        assert words not in body, words


@pytest.fixture
def lines(caplog):
    """The log records of bad requests, counted from a fresh minute."""
    for name in log_filters.BAD_REQUEST_LOGGERS:
        for each in logging.getLogger(name).filters:
            if isinstance(each, log_filters.BadRequestLines):
                each.reset()
    caplog.set_level(logging.DEBUG)
    return caplog


def records_of(caplog, prefix: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith(prefix)]


# --- pages ----------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_mistyped_invitation_shows_the_french_404_page(make_player):
    visitor, player = Client(), Client()
    player.force_login(make_player("étourdi"), backend="accounts.backends.HumanOnlyBackend")
    for client in (visitor, player):
        response = client.get("/tables/invitation/xyz/")
        assert response.status_code == 404
        assert_french_page(response.content.decode(), "Page introuvable")
    assert "étourdi" in response.content.decode()  # in the layout, as any page
    response = visitor.get("/ceci/nexiste/pas/")
    assert response.status_code == 404
    assert_french_page(response.content.decode(), "Page introuvable")


@pytest.mark.django_db
def test_csrf_failure_page_is_french(make_player):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/compte/connexion/", data={"username": "a", "password": "b"})
    assert response.status_code == 403
    body = response.content.decode()
    assert_french_page(body, "Formulaire expiré")
    assert "autorise les cookies" in body  # no CSRF cookie was sent
    client.force_login(make_player("pressé"), backend="accounts.backends.HumanOnlyBackend")
    client.get("/regles/")  # the CSRF cookie, but no token in the form
    response = client.post("/tables/nouvelle/", data={})
    assert response.status_code == 403
    body = response.content.decode()
    assert_french_page(body, "Formulaire expiré")
    assert "autorise les cookies" not in body and "pressé" in body  # the page knows who is logged in


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_403_page_is_french():
    response = Client().get("/essais/interdit/")
    assert response.status_code == 403
    assert_french_page(response.content.decode(), "Accès refusé")


@pytest.mark.urls(__name__)
def test_500_page_is_french_and_needs_no_database(caplog):
    """No django_db mark: any query would fail this test. Django renders 500.html with an empty context."""
    assert_french_page(loader.get_template("500.html").render(), "Erreur du serveur")
    client = Client()
    client.raise_request_exception = False
    with caplog.at_level(logging.ERROR):
        response = client.get("/essais/boom/")
    assert response.status_code == 500
    assert_french_page(response.content.decode(), "Erreur du serveur")
    # A real fault keeps its traceback in the log.
    errors = [r for r in caplog.records if r.name == "django.request" and r.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None


def test_400_page_is_french_without_a_request():
    """Django's bad_request view renders 400.html without the request (nor the database)."""
    assert_french_page(loader.get_template("400.html").render(), "Requête invalide")


# --- bad requests: one warning line, no traceback, a few per minute -------------------------------

def too_many_fields(client: Client):
    return client.post("/compte/connexion/", data={f"f{i}": "x" for i in range(1001)})


def bad_host(client: Client):
    return client.get("/regles/", HTTP_HOST="evil.example")


@pytest.mark.django_db
@pytest.mark.parametrize(("send", "logger"), [(too_many_fields, "django.security.TooManyFieldsSent"),
                                              (bad_host, "django.security.DisallowedHost")])
def test_a_bad_request_logs_one_warning_line_without_traceback(lines, settings, send, logger):
    per_minute = log_filters.BadRequestLines().per_minute
    assert per_minute == settings.BAD_REQUEST_LOG_LINES_PER_MINUTE == 5
    client = Client()
    response = send(client)
    assert response.status_code == 400
    assert_french_page(response.content.decode(), "Requête invalide")
    logged = records_of(lines, "django.")
    assert [(r.name, r.levelname) for r in logged] == [(logger, "WARNING")]
    assert logged[0].exc_info is None and logged[0].exc_text is None and "\n" not in logged[0].getMessage()
    lines.clear()
    for repeat in range(2, 11):
        assert send(client).status_code == 400
        logged = records_of(lines, "django.")
        assert len(logged) == (1 if repeat <= per_minute else 0), repeat
        assert all(r.exc_info is None and r.levelno == logging.WARNING for r in logged)
        lines.clear()


@pytest.mark.django_db
def test_the_next_minute_logs_again_and_counts_what_was_left_out(lines, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(log_filters, "monotonic", lambda: now[0])
    client = Client()
    for _ in range(8):
        bad_host(client)
    assert len(records_of(lines, "django.security")) == 5
    # Another kind has its own count.
    too_many_fields(client)
    assert len(records_of(lines, "django.security.TooManyFieldsSent")) == 1
    lines.clear()
    now[0] += 61
    bad_host(client)
    (record,) = records_of(lines, "django.security")
    assert record.getMessage().endswith("(3 more like this in the previous minute, not logged)")


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_404s_are_logged_without_traceback(lines):
    for _ in range(7):
        assert Client().get("/tables/invitation/xyz/").status_code == 404
    logged = records_of(lines, "django.request")
    assert len(logged) == 5 and all(r.exc_info is None and r.levelno == logging.WARNING for r in logged)


def test_every_suspicious_operation_logger_is_filtered():
    """Django logs each SuspiciousOperation on a logger named after its class; a logger filter sees only its own
    logger's records, so each must be listed (a Django upgrade adding one fails here)."""
    import django.contrib.sessions.exceptions  # noqa: F401  its SuspiciousOperations
    import django.core.exceptions  # noqa: F401

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    names = {f"django.security.{cls.__name__}" for cls in (SuspiciousOperation, *subclasses(SuspiciousOperation))
             if cls.__module__.startswith("django.")}
    assert names - set(log_filters.BAD_REQUEST_LOGGERS) == set()
    for name in log_filters.BAD_REQUEST_LOGGERS:
        assert any(isinstance(f, log_filters.BadRequestLines) for f in logging.getLogger(name).filters), name


# --- `make run`: DEBUG off unless asked -----------------------------------------------------------

def settings_seen_by(env: dict[str, str]) -> dict:
    code = ("import json; from django.conf import settings as s; print(json.dumps({'DEBUG': s.DEBUG, "
            "'finders': s.WHITENOISE_USE_FINDERS, 'hosts': s.ALLOWED_HOSTS}))")
    env = {**env, "DJANGO_SETTINGS_MODULE": "rummy_site.settings"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=60)
    import json

    return json.loads(out.stdout.strip().splitlines()[-1])


def test_serve_children_run_with_debug_off_unless_asked(monkeypatch):
    from tables.management.commands import serve

    # As `make run` starts it: the Makefile asks for the development settings.
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_ENV"}} | {"DJANGO_ENV": "development"}
    assert serve.child_environment(base)["DEBUG"] == "0"
    assert serve.child_environment({**base, "DEBUG": ""})["DEBUG"] == "0"
    assert serve.child_environment({**base, "DEBUG": "1"})["DEBUG"] == "1"
    seen = settings_seen_by(serve.child_environment(base))
    assert seen["DEBUG"] is False
    assert seen["finders"] is True  # static files without collectstatic
    assert {"127.0.0.1", "localhost"} <= set(seen["hosts"])
    assert settings_seen_by(serve.child_environment({**base, "DEBUG": "1"}))["DEBUG"] is True

    # The command hands that environment to daphne (and the worker).
    started = []

    class Child:
        def __init__(self, cmd, env=None, **kwargs):
            started.append((cmd, env))

        def poll(self):
            return 0

        def wait(self, timeout=None):
            return 0

        def send_signal(self, sig):
            pass

    monkeypatch.delenv("DEBUG", raising=False)
    monkeypatch.setattr(serve.subprocess, "Popen", Child)
    monkeypatch.setattr(serve.signal, "signal", lambda *args: None)
    serve.Command().handle(host="127.0.0.1", port="0")
    assert started and all(env is not None and env["DEBUG"] == "0" for _, env in started)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.django_db(transaction=True)
def test_make_run_shows_no_url_list_and_serves_static_files(tmp_path):
    """`manage.py serve` as `make run` starts it (on the test database, without Redis): a mistyped address gets
    the French 404 page, not Django's list of URL patterns; static files are served (WhiteNoise, no
    collectstatic)."""
    from django.db import connection

    port = _free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in {"DEBUG", "DJANGO_ENV", "DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update({"DJANGO_SETTINGS_MODULE": "rummy_site.settings", "DJANGO_ENV": "development",
                "CELERY_EMBEDDED_WORKER": "0",
                "PRESENCE_HEARTBEAT_SECONDS": "0"})
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        env["SQLITE_PATH"] = str(db["NAME"])
    else:
        env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=log, stderr=log, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/static/css/site.css", timeout=2)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
                time.sleep(0.2)
        with urllib.request.urlopen(base + "/static/css/site.css", timeout=5) as response:
            assert response.status == 200 and b"body" in response.read()
        for host, url in (("127.0.0.1", "/tables/invitation/xyz/"), ("localhost", "/ceci/nexiste/pas/")):
            request = urllib.request.Request(base + url, headers={"Host": f"{host}:{port}"})
            with pytest.raises(urllib.error.HTTPError) as error:
                urllib.request.urlopen(request, timeout=10)
            assert error.value.code == 404
            body = error.value.read().decode()
            assert_french_page(body, "Page introuvable")
            assert "URLconf" not in body and "admin/" not in body and "DEBUG = True" not in body
    finally:
        proc.terminate()  # serve stops its daphne
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # its own session: serve and the daphne it started
            proc.wait(timeout=10)
        log.close()
