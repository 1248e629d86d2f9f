"""Finished matches feed the collection: after the match's transaction commits, a Celery task puts the players'
decisions to the game's finder (problems.tasks.harvest)."""

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver

from tables.signals import match_finished

HARVEST_DELAY_SECONDS = 5


@receiver(match_finished, dispatch_uid="problems.harvest")
def on_match_finished(sender, table, places, **kwargs) -> None:
    if table.private or not settings.PROBLEMS_HARVEST:
        return  # a private table's positions stay with its players
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # delayed work never runs eagerly (tests call the task themselves), as « Revoir »'s comments
    table_id = table.pk
    transaction.on_commit(lambda: _harvest_later(table_id))


def _harvest_later(table_id: int) -> None:
    from problems import tasks

    # A moment after the match's last pushes, as « Revoir »'s comments (tables.scheduler.after_commit_match_over)
    tasks.harvest.apply_async((table_id,), countdown=HARVEST_DELAY_SECONDS)
