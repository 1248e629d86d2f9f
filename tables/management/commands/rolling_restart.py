"""Restart the site's daphne processes one at a time through HAProxy, players at their tables (rummy_site/rolling.py).

    manage.py rolling_restart --proxy-socket /run/cartes/haproxy.sock \\
        --restart "systemctl restart cartes-web@{port}.service"

`--restart` is run once per server, `{name}`, `{address}`, `{host}` and `{port}` replaced by that server's;
for daphne processes on other machines, e.g. "ssh {host} sudo systemctl restart cartes-web@{port}.service".
docs/operations.md, « Rolling update », gives the whole order (migrations first, then this, then the workers)."""

import shlex
import subprocess

from django.core.management.base import BaseCommand, CommandError

from rummy_site import rolling


class Command(BaseCommand):
    help = "Redémarre les processus daphne un par un derrière HAProxy, sans couper les parties en cours."

    def add_arguments(self, parser):
        parser.add_argument("--proxy-socket", required=True, help="le socket d'administration de HAProxy")
        parser.add_argument("--restart", required=True,
                            help="commande de redémarrage d'un serveur ({name}, {address}, {host}, {port})")
        parser.add_argument("--backend", default=rolling.BACKEND)
        parser.add_argument("--server", action="append", dest="servers",
                            help="seulement ce serveur (répétable) ; par défaut tous, dans l'ordre")
        parser.add_argument("--grace", type=float, default=1.0,
                            help="secondes entre la fin des nouvelles connexions et l'arrêt (requêtes en cours)")
        parser.add_argument("--close-rate", type=float, default=20.0,
                            help="connexions fermées par seconde au proxy avant l'arrêt (les pages reviennent "
                                 "sur les autres processus à ce rythme)")
        parser.add_argument("--timeout", type=float, default=60.0)

    def handle(self, *args, proxy_socket, restart, backend, servers, grace, close_rate, timeout, **options):
        def run(name: str, address: str) -> None:
            host, _, port = address.rpartition(":")
            command = restart.format(name=name, address=address, host=host, port=port)
            done = subprocess.run(shlex.split(command), capture_output=True, text=True)
            if done.returncode:
                raise CommandError(f"« {command} » a échoué ({done.returncode}) : {done.stderr.strip()}")

        try:
            steps = rolling.rolling_restart(proxy_socket, run, backend=backend, servers=servers, grace=grace,
                                            close_rate=close_rate, timeout=timeout, say=self.stdout.write)
        except (OSError, RuntimeError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(f"{len(steps)} processus redémarrés un par un."))
