"""Run the site: daphne, plus a Celery worker process when Redis is configured.

In the embedded default the worker is a thread inside daphne (memory broker), so one
process is enough. Ctrl-C stops every child cleanly.

`--processes N` (PostgreSQL + Redis only) is the cluster shape: N daphne processes on the ports after --port,
`--workers M` Celery workers, and HAProxy on --port in front of them (rummy_site/cluster.py, deploy/haproxy.cfg).

The children run with DEBUG off unless the environment asks for it (`make run DEBUG=1`): with DEBUG on,
Django answers a mistyped address with the list of every URL pattern and an error with its traceback and
settings, to anyone who can reach the port.
"""

import contextlib
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rummy_site.cluster import Cluster


def child_environment(environ=None) -> dict[str, str]:
    """The environment of daphne and the worker: DEBUG off unless it is set."""
    env = dict(os.environ if environ is None else environ)
    if not env.get("DEBUG", "").strip():
        env["DEBUG"] = "0"
    return env


def debug_on(env: dict[str, str]) -> bool:
    """As rummy_site.settings reads DEBUG."""
    return env.get("DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}


FIRST_PROBLEMS = int(os.environ.get("PROBLEMS_FIRST_RUN", "20"))  # per game, on a start that finds fewer


def _interrupt(*_):
    raise KeyboardInterrupt


class Command(BaseCommand):
    help = "Lance le site (daphne) et le worker Celery."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", default=os.environ.get("PORT", "8000"))
        parser.add_argument("--processes", type=int, default=0,
                            help="nombre de processus daphne derrière HAProxy (PostgreSQL + Redis)")
        parser.add_argument("--workers", type=int, default=1, help="nombre de workers Celery (avec --processes)")

    def handle(self, *args, host, port, processes=0, workers=1, **options):
        if processes:
            return self.cluster(host, int(port), processes, workers)
        python = sys.executable
        commands = [[python, "-m", "daphne", "-b", host, "-p", str(port), "rummy_site.asgi:application"]]
        if settings.REDIS_URL:
            commands.append([python, "-m", "celery", "-A", "rummy_site", "worker", "-l", "INFO", "-c", "2"])
        env = child_environment()
        children = [subprocess.Popen(cmd, env=env) for cmd in commands]
        # A first start fills each game's « Problèmes » a little from robot self-play, niced, beside the site (a
        # one-off: it ends by itself, and with the site at Ctrl-C); the workers' top-up (PROBLEMS_TOP_UP) and the
        # finished matches add more.
        helpers = [subprocess.Popen(["nice", "-n", "15", python, "manage.py", "problems_generate", "--if-below",
                                     str(FIRST_PROBLEMS), "--count", str(FIRST_PROBLEMS), "--time-limit", "60"],
                                    env=env, stdout=subprocess.DEVNULL)] if FIRST_PROBLEMS else []
        mode = "PostgreSQL + Redis" if settings.REDIS_URL else "SQLite, couche en mémoire, worker intégré"
        debug = "mode débogage" if debug_on(env) else "make run DEBUG=1 pour déboguer"
        self.stdout.write(
            self.style.SUCCESS(f"Site prêt sur http://{host}:{port}/  ({mode}, {debug}) — Ctrl-C pour arrêter")
        )

        def stop(*_):
            for child in children + helpers:
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        try:
            while all(child.poll() is None for child in children):
                with contextlib.suppress(subprocess.TimeoutExpired):
                    children[0].wait(timeout=1)
        except KeyboardInterrupt:
            pass
        finally:
            stop()
            for child in children + helpers:
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()

    def cluster(self, host: str, port: int, processes: int, workers: int) -> None:
        if not (settings.REDIS_URL and settings.DATABASES["default"]["ENGINE"].endswith("postgresql")):
            raise CommandError("--processes demande PostgreSQL et Redis : définis DATABASE_URL et REDIS_URL.")
        if processes < 1 or workers < 1:
            raise CommandError("--processes et --workers valent au moins 1.")
        cluster = Cluster(env=child_environment(), processes=processes, workers=workers, host=host, port=port)
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            cluster.start()
            ports = ", ".join(str(p) for p in cluster.daphne_ports)
            self.stdout.write(self.style.SUCCESS(
                f"Site prêt sur {cluster.url}/  (HAProxy devant {processes} daphne sur les ports {ports}, "
                f"{workers} worker(s) Celery, PostgreSQL + Redis) — Ctrl-C pour arrêter"))
            while cluster.proxy.poll() is None:
                time.sleep(1)
                for name in cluster.revive():
                    self.stderr.write(f"{name} s'était arrêté : relancé.")
            self.stderr.write("HAProxy s'est arrêté : arrêt de tous les autres processus.")
        except KeyboardInterrupt:
            pass
        except RuntimeError as error:
            raise CommandError(str(error)) from error
        finally:
            cluster.stop()
