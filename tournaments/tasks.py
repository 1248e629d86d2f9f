"""Celery tasks of the tournaments: the next step after a result, and the sweep every worker queues every few
seconds (rummy_site.celery): starts that are due, the Arenas' seating and ends, and any step a lost task missed."""

from celery import shared_task

from tournaments import services


@shared_task(ignore_result=True, acks_late=True)
def advance(tournament_id: int) -> None:
    services.advance(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.sweep", ignore_result=True)
def sweep() -> None:
    services.sweep()
