"""The site's Celery app, unchanged, plus bench.load_probe's timers and bench.load_breakdown's CPU counters:
`celery -A bench.load_celery worker`."""

from celery.signals import worker_ready

from bench import load_breakdown, load_probe
from rummy_site.celery import app

load_probe.install()


@worker_ready.connect
def _breakdown(**kwargs):
    load_breakdown.install()  # once Django is set up: it wraps functions of the site's modules


__all__ = ["app"]
