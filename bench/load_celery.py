"""The site's Celery app, unchanged, plus bench.load_probe's timers: `celery -A bench.load_celery worker`."""

from bench import load_breakdown, load_probe
from rummy_site.celery import app

load_probe.install()
load_breakdown.install()

__all__ = ["app"]
