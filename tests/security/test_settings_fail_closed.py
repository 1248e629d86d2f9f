"""Settings that fail closed (issue 30 § 5): a start that does not ask for the development settings is a
production start, which refuses a missing or known SECRET_KEY and DEBUG, with a message that says what to do."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
REAL_KEY = "k" * 40 + "-a-production-key-with-enough-entropy-0123456789"
READ = ("import json; from django.conf import settings as s; print(json.dumps({'DEBUG': s.DEBUG, "
        "'production': s.PRODUCTION, 'key': s.SECRET_KEY, 'secure': s.SESSION_COOKIE_SECURE}))")


def start(**extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_ENV", "SECRET_KEY"}}
    env.update({"DJANGO_SETTINGS_MODULE": "rummy_site.settings", **extra})
    return subprocess.run([sys.executable, "-c", "import django; django.setup(); " + READ], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def seen(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_start_without_environment_is_production_and_refuses_without_a_secret_key():
    result = start()
    assert result.returncode != 0
    assert "Démarrage en production refusé : SECRET_KEY" in result.stderr
    assert "DJANGO_ENV=development" in result.stderr


def test_production_refuses_the_development_key_a_short_key_and_debug():
    from rummy_site.settings import DEVELOPMENT_SECRET_KEY

    assert "SECRET_KEY" in start(SECRET_KEY=DEVELOPMENT_SECRET_KEY).stderr
    assert "SECRET_KEY" in start(SECRET_KEY="too-short").stderr
    assert "SECRET_KEY" in start(SECRET_KEY="django-insecure-" + "abcdefgh" * 8).stderr
    debug = start(SECRET_KEY=REAL_KEY, DEBUG="1")
    assert debug.returncode != 0 and "DEBUG n'est permis qu'avec DJANGO_ENV=development" in debug.stderr


def test_production_with_a_real_key_starts_safe():
    values = seen(start(SECRET_KEY=REAL_KEY, ALLOWED_HOSTS="cartes.example.fr"))
    assert values == {"DEBUG": False, "production": True, "key": REAL_KEY, "secure": True}


def test_development_is_asked_for_and_still_starts_with_debug_off():
    values = seen(start(DJANGO_ENV="development"))
    assert values["production"] is False and values["DEBUG"] is False
    assert seen(start(DJANGO_ENV="development", DEBUG="1"))["DEBUG"] is True


def test_an_unknown_environment_name_is_refused():
    result = start(DJANGO_ENV="prod")
    assert result.returncode != 0 and "production ou development attendu" in result.stderr
