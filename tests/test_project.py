"""Project-wide checks: migrations, deploy settings, lint."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_no_missing_migrations():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_check_deploy_is_clean_in_production_mode():
    env = {
        **os.environ,
        "DJANGO_ENV": "production",
        "SECRET_KEY": "k" * 64 + "-production-test-key-with-enough-entropy",
        "ALLOWED_HOSTS": "cartes.example.fr",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout, result.stdout + result.stderr


def test_ruff_clean():
    ruff = Path(sys.executable).with_name("ruff")
    result = subprocess.run([str(ruff), "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_layers_hold():
    """The import contracts of pyproject.toml (`lint-imports`): the engine imports no web code, accounts nothing of
    the tables app, and tables/ is layered from its entry points down to its models, with no cycle."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_no_import_inside_a_function_in_tables():
    """Imports sit at the top of tables/' modules: none hides a cycle inside a function. The app's `ready` is the
    one place Django asks for imports at start-up (the families' presenters, the Celery tasks)."""
    import ast

    found = []
    for path in sorted((ROOT / "tables").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name != "ready":
                found += [f"{path.relative_to(ROOT)}:{inner.lineno}" for inner in ast.walk(node)
                          if isinstance(inner, ast.Import | ast.ImportFrom)]
    assert not found, found


def test_daphne_does_not_format_debug_lines_nobody_reads():
    """Autobahn formats a debug line's arguments for every websocket frame even with debug off; the site's
    ASGI module turns that formatting off (rummy_site/autobahn_quiet.py)."""
    from autobahn.twisted import websocket as twisted_websocket
    from autobahn.websocket import protocol

    from rummy_site.autobahn_quiet import quiet_autobahn_debug_arguments

    quiet_autobahn_debug_arguments()
    method = protocol.WebSocketProtocol.sendData
    assert protocol.hltype(method) is method and protocol.hlval(3) == 3
    assert twisted_websocket.hltype(method) is method
    asgi_source = (Path(__file__).resolve().parent.parent / "rummy_site" / "asgi.py").read_text()
    assert "quiet_autobahn_debug_arguments()" in asgi_source


def test_the_daphne_process_collects_garbage_less_often():
    """rummy_site/gc_tuning.py, applied once the ASGI application is loaded."""
    import gc

    from rummy_site.gc_tuning import THRESHOLDS, tune_gc

    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == THRESHOLDS and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    asgi_source = (Path(__file__).resolve().parent.parent / "rummy_site" / "asgi.py").read_text()
    assert "tune_gc()" in asgi_source


def test_favicon_ico_is_the_sites_icon_not_a_404(client):
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200 and response.redirect_chain[-1][0].endswith("/static/favicon.svg")
