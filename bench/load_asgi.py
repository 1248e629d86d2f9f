"""The site's own ASGI application, unchanged, plus bench.load_probe's Celery timers (publish side, and
the embedded worker's starts in the default mode). Served by daphne in bench.load only."""

from bench import load_breakdown, load_probe
from rummy_site.asgi import application

load_probe.install()
load_breakdown.install()

__all__ = ["application"]
