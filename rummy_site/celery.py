import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")

app = Celery("rummy_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _rearm_tables(sender=None, **kwargs):
    """A worker (re)started: re-arm the current decision of every table in play.

    Tasks are version-checked, so a decision armed twice is still played once."""
    from tables.scheduler import reschedule_playing_tables

    reschedule_playing_tables()
