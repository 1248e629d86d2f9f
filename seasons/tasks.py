"""The seasons' sweep, queued every minute by every worker (rummy_site.celery): the ended seasons closed, the next
ones opened. Idempotent: several workers sweeping at once close a season once."""

from celery import shared_task

from seasons import services


@shared_task(name="seasons.tasks.sweep", ignore_result=True)
def sweep() -> None:
    services.sweep()
