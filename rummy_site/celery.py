import os
import time

from celery import Celery, bootsteps
from celery.signals import task_postrun, task_prerun, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")

app = Celery("rummy_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class MoveTimers(bootsteps.StartStopStep):
    """Every worker queues the move timers' sweep (tables.tasks.expire_turns) once a second. A deadline lives
    on its table, so timers need no task waiting per move and survive restarts; the sweep is idempotent
    (version-checked moves), so several workers sweeping is harmless. A timer of the worker's own rather
    than Celery beat: a beat process would outlive a killed worker."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.tref = None

    def start(self, worker):
        from django.conf import settings

        self.tref = worker.timer.call_repeatedly(settings.MOVE_TIMER_SWEEP_SECONDS, self.sweep, priority=10)

    def stop(self, worker):
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None

    def sweep(self):
        from django.conf import settings

        app.send_task("tables.tasks.expire_turns")
        _rearm_if_redis_restarted()
        now = time.monotonic()
        if now >= getattr(self, "next_mail_sweep", 0):  # e-mails whose task was lost (accounts.tasks)
            self.next_mail_sweep = now + settings.MAIL_SWEEP_SECONDS
            app.send_task("accounts.tasks.send_pending_mails")
        if now >= getattr(self, "next_tournaments", 0):  # starts, Arenas' seating and ends, lost tasks
            self.next_tournaments = now + TOURNAMENT_SWEEP_SECONDS
            app.send_task("tournaments.tasks.sweep")
        if now >= getattr(self, "next_seasons", 0):  # ended seasons closed, the next ones opened
            self.next_seasons = now + SEASON_SWEEP_SECONDS
            app.send_task("seasons.tasks.sweep")
        if settings.PROBLEMS_TOP_UP and now >= getattr(self, "next_problems", 0):  # the problems' collection
            self.next_problems = now + settings.PROBLEMS_TOP_UP_SECONDS
            app.send_task("problems.tasks.top_up")
        if now >= getattr(self, "next_beat", 0):  # « a worker answered »: the readiness URL (rummy_site.health)
            self.next_beat = now + WORKER_BEAT_SECONDS
            app.send_task("rummy_site.worker_beat")


WORKER_BEAT_SECONDS = 5
TOURNAMENT_SWEEP_SECONDS = 5
SEASON_SWEEP_SECONDS = 60


@app.task(name="rummy_site.worker_beat", ignore_result=True)
def worker_beat() -> None:
    """A worker took a task from the queue: the readiness URL's proof that the workers answer."""
    from rummy_site.health import record_worker_beat

    record_worker_beat()


EPOCH_KEY = "rummy:broker-epoch"
_epoch_client = []


def _rearm_if_redis_restarted() -> None:
    """Redis keeps nothing on disk: when it restarts, the queued tasks (bot turns, next rounds) are gone, and
    a table whose robot was to play would wait for its move timer. A key the first sweep sets marks the
    Redis the workers know; the first worker to find it missing re-arms every table in play (tasks are
    version-checked: a decision armed twice is played once)."""
    from django.conf import settings

    if not settings.CELERY_BROKER_URL.startswith("redis"):
        return
    import redis

    if not _epoch_client:
        _epoch_client.append(redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=1))
    try:
        if _epoch_client[0].set(EPOCH_KEY, "1", nx=True):
            app.send_task("tables.tasks.rearm_tables")
    except redis.RedisError:
        pass  # Redis away: the next sweep looks again


app.steps["worker"].add(MoveTimers)

@task_prerun.connect
def _no_table_yet(sender=None, **kwargs):
    """A worker thread runs task after task: its log lines name no table until this task says which
    (tables.log_context), never the previous task's."""
    from tables.log_context import at_table

    at_table(None)


@task_postrun.connect
def _close_broken_connections(sender=None, **kwargs):
    """As Django does after each request: a connection that failed (the database restarted) is closed, so the
    next task opens a new one; a healthy one is kept (CELERY_DB_REUSE_MAX). Not after an eager task: it ran
    inside its caller's transaction."""
    from django.db import close_old_connections

    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()


@worker_ready.connect
def _rearm_tables(sender=None, **kwargs):
    """A worker (re)started: re-arm the current decision of every table in play, and push again the
    current view of the tables that moved lately — a killed worker may have committed a bot's move and
    died before pushing it, leaving the next player looking at a stale table until the move timer.

    Tasks are version-checked, so a decision armed twice is still played once."""
    from tables.scheduler import rearm_all

    rearm_all()
