"""Run the site: daphne, plus a Celery worker process when Redis is configured.

In the embedded default the worker is a thread inside daphne (memory broker), so one
process is enough. Ctrl-C stops every child cleanly.
"""

import contextlib
import os
import signal
import subprocess
import sys

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Lance le site (daphne) et le worker Celery."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", default=os.environ.get("PORT", "8000"))

    def handle(self, *args, host, port, **options):
        python = sys.executable
        commands = [[python, "-m", "daphne", "-b", host, "-p", str(port), "rummy_site.asgi:application"]]
        if settings.REDIS_URL:
            commands.append([python, "-m", "celery", "-A", "rummy_site", "worker", "-l", "INFO", "-c", "2"])
        children = [subprocess.Popen(cmd) for cmd in commands]
        mode = "PostgreSQL + Redis" if settings.REDIS_URL else "SQLite, couche en mémoire, worker intégré"
        self.stdout.write(self.style.SUCCESS(f"Site prêt sur http://{host}:{port}/  ({mode}) — Ctrl-C pour arrêter"))

        def stop(*_):
            for child in children:
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
            for child in children:
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
