"""`manage.py problems_generate [--game SLUG …] [--count N] [--if-below N]`: problems from robot self-play, stored."""

from django.core.management.base import BaseCommand, CommandError

from engine import games
from engine.problems.generate import generate
from problems import services


class Command(BaseCommand):
    help = "Crée des problèmes à partir de parties entre robots (engine.problems) et les range dans la collection."

    def add_arguments(self, parser):
        parser.add_argument("--game", action="append", help="un jeu (slug) ; tous les jeux par défaut")
        parser.add_argument("--count", type=int, default=100, help="problèmes acceptés par jeu")
        parser.add_argument("--if-below", type=int, default=None,
                            help="seulement pour les jeux qui en ont moins que ce nombre")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--time-limit", type=float, default=None, help="secondes au plus par jeu")

    def handle(self, *args, game=None, count=100, if_below=None, seed=None, time_limit=None, **options):
        slugs = game or [s for s in games.available() if games.get(s).info.problems]
        unknown = [s for s in slugs if s not in games.available() or not games.get(s).info.problems]
        if unknown:
            raise CommandError(f"Pas de problèmes pour : {', '.join(unknown)}")
        for slug in slugs:
            have = services.offered().filter(game__slug=slug).count()
            if if_below is not None and have >= if_below:
                continue
            report = generate(slug, count, seed=seed if seed is not None else _fresh_seed(), time_limit=time_limit)
            stored = sum(services.store(found) is not None for found in report.accepted)
            self.stdout.write(f"{slug}: {stored} problèmes rangés ({len(report.accepted)} acceptés sur "
                              f"{report.examined} décisions, rejet {report.rejection_rate:.0%}, "
                              f"{report.seconds:.1f} s)")


def _fresh_seed() -> int:
    import secrets

    return secrets.randbits(32)
