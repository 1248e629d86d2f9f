"""Players' statistics and ratings for the matches finished before they were recorded.

    python manage.py backfill_stats            # every finished match not recorded yet
    python manage.py backfill_stats --dry-run  # count them only

Idempotent: a match already recorded (at its end, or by an earlier run) is skipped, so the command can run
again at any time. Each match is rebuilt from its seed and move log with today's engine (the same replay as
the audits), so statistics a family added since are counted too; a log that no longer replays falls back to
the stored snapshot. Matches go oldest first, so rated ones update the ratings in the order they were played.
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import MatchRecord
from tables import services, stats
from tables.models import Table, engine_for


class Command(BaseCommand):
    help = "Statistiques et cotes des parties terminées pas encore comptées (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="count the matches to record, write nothing")

    def handle(self, *args, dry_run=False, **options):
        recorded = set(MatchRecord.objects.values_list("table_id", flat=True).distinct())
        # A practice (tables.practice) counts nowhere.
        todo = (Table.objects.filter(status=Table.Status.FINISHED).exclude(pk__in=recorded)
                .exclude(table_type=Table.Type.PRACTICE)
                .select_related("game").order_by("finished_at", "pk"))
        written = skipped = 0
        for table in todo.iterator():
            state = self._state(table)
            engine = engine_for(table)
            result = engine.result(state) if state else None
            if result is None:
                skipped += 1
                continue
            if dry_run:
                written += 1
                continue
            with transaction.atomic():
                if stats.match_record(table=table, result=result, state=state):
                    written += 1
                else:
                    skipped += 1
        verb = "à compter" if dry_run else "comptées"
        self.stdout.write(f"{written} parties {verb}, {skipped} ignorées (sans joueur, sans résultat ou déjà "
                          f"comptées).")

    def _state(self, table: Table) -> dict | None:
        if table.seed and table.moves.exists():
            try:
                return services.replay(table)
            except Exception as error:  # the engine changed since: the snapshot is what was played
                self.stderr.write(f"table {table.pk}: le journal ne se rejoue plus ({error!r}), état enregistré "
                                  f"utilisé.")
        return table.state
