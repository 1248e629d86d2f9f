"""What happens after a commit: pushes to the seats, and the next bot turn, timer or autoplay.

With CELERY_TASK_ALWAYS_EAGER (tests) tasks run through a trampoline instead of nesting
inside each other's on_commit callbacks, so a whole bot match does not grow the stack.
Delayed tasks (the grace before autoplaying a disconnected player, the next round) are not run
eagerly, nor is the move timers' sweep (tasks.expire_turns, queued every second by each worker): tests
fire them explicitly.
"""

import threading
from collections import deque
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tables import broadcast, reads
from tables.models import Table, TableMove, engine_for

_local = threading.local()

# The tasks (tables.tasks) are sent by name: they play moves through tables.services, which calls this module.
BOT_TURN = "tables.tasks.bot_turn"
AUTOPLAY_TURN = "tables.tasks.autoplay_turn"
NEXT_ROUND = "tables.tasks.next_round"
ANNOTATE_MATCH = "tables.tasks.annotate_match"


def _enqueue(task: str, args: tuple, countdown: float = 0) -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        current_app.send_task(task, args=args, countdown=countdown)
        return
    if countdown > 0:
        return
    queue = getattr(_local, "queue", None)
    if queue is not None:
        queue.append((task, args))
        return
    _local.queue = queue = deque([(task, args)])
    try:
        while queue:
            pending, pending_args = queue.popleft()
            current_app.tasks[pending].run(*pending_args)
    finally:
        _local.queue = None


def after_commit_move(table) -> None:
    """Once the move is committed: push the table as it was written (no need to read it again; a push
    overtaken by the next move's is dropped by the page, which keeps the highest version), then queue
    what the next decision needs."""
    transaction.on_commit(lambda: _after_move(table))


def _after_move(table) -> None:
    # No lobby message: no page listens to one (the lobby's lists poll), and a move changes none of them.
    # A private move (tables.services.move_is_private) goes to its player alone.
    private = table.private_seat if table.version != table.public_version else None
    table, seats = broadcast.table_changed(table.pk, table=table, only=private)
    schedule_decisions(table.pk, table.version, table=table, seats=seats)


def after_commit_match_over(table_id: int) -> None:
    """Once the match's end is committed: « Revoir »'s comments computed in a worker (tables.annotations), a
    moment later so that the last pushes go first. Delayed, so never run eagerly in tests (they call it)."""
    transaction.on_commit(lambda: _enqueue(ANNOTATE_MATCH, (table_id,), countdown=settings.ANNOTATE_DELAY_SECONDS))


def after_commit_table_changed(table_id: int) -> None:
    transaction.on_commit(lambda: broadcast.table_changed(table_id))


def after_commit_seat_released(table_id: int, user_id: int, position: int, message: str) -> None:
    """The player lost his seat: once committed, his sockets on that place are told and closed."""
    transaction.on_commit(lambda: broadcast.seat_released(table_id, user_id, position, message))


def after_commit_seat_moved(table_id: int, user_id: int, position: int, to: int) -> None:
    """The player's place changed before the match (a rematch's teams changed): once committed, his pages opened
    on `position` follow him to `to`."""
    transaction.on_commit(lambda: broadcast.seat_moved(table_id, user_id, position, to))


def after_commit_presence_changed(table_id: int) -> None:
    """A seat's sockets opened or closed: the table is pushed soon, once for all such changes
    (eagerly in tests, like the tasks)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: broadcast.table_changed(table_id))
    else:
        transaction.on_commit(lambda: broadcast.presence_changed(table_id))


def after_commit_lobby_changed() -> None:
    transaction.on_commit(broadcast.lobby_changed)


def after_commit_autoplay_if_due(table_id: int) -> None:
    """A player just lost every connection: if it is their decision, autoplay it now."""
    def run():
        table = reads.table(table_id)
        if table is not None:
            schedule_decisions(table_id, table.version, table=table)

    transaction.on_commit(run)


def schedule_decisions(table_id: int, version: int, *, table=None, seats=None) -> None:
    """Queue what the current decision needs: a bot turn, an autoplay, a timer, or the next round.
    `table` and `seats`: as just read after the commit (spares reading them again)."""
    if table is None or table.pk != table_id:
        table, seats = reads.table(table_id), None
    if table is None or table.version != version or table.status != Table.Status.PLAYING or table.state is None:
        return
    engine = engine_for(table)
    to_act = engine.to_act(table.state)
    if not to_act:
        if engine.result(table.state) is None:
            _enqueue(NEXT_ROUND, (table_id, version), countdown=settings.NEXT_ROUND_DELAY_SECONDS)
        return
    seats = {s.position: s for s in (reads.seats_of(table_id) if seats is None else seats)}
    # Nobody left to watch (no bot, no human connected): only the move timer plays, so a table
    # abandoned by everyone advances slowly instead of autoplaying in a tight loop.
    anyone_watching = any(s.is_bot or s.connections > 0 for s in seats.values())
    for position in to_act:
        seat = seats.get(position)
        if seat is None:
            continue
        if seat.is_bot:
            _enqueue(BOT_TURN, (table_id, version, position), countdown=settings.BOT_DELAY_SECONDS)
        elif seat.left and anyone_watching:
            _enqueue(AUTOPLAY_TURN, (table_id, version, position))
        elif seat.connections == 0 and anyone_watching and not table.slow:
            # A page reload or a new page after « Créer la table » is a short disconnection:
            # give the player a few seconds before the rules' autoplay takes the decision.
            _enqueue(AUTOPLAY_TURN, (table_id, version, position, True),
                     countdown=settings.DISCONNECT_GRACE_SECONDS)
        # Otherwise the move timer: tasks.expire_turns plays when the table's deadline passes. (At a slow table,
        # a player away is the rule, not an accident: only his timer plays for him.)


def reschedule_playing_tables() -> int:
    """Re-arm the current decision of every table in play (after a restart lost queued tasks)."""
    count = 0
    for table_id, version in Table.objects.filter(status=Table.Status.PLAYING).values_list("id", "version"):
        schedule_decisions(table_id, version)
        count += 1
    return count


REPUSH_WINDOW_S = 120  # a worker killed this long ago or less may have left moves unpushed


def repush_recent_tables() -> int:
    """Push again the current view of the tables in play that moved in the last REPUSH_WINDOW_S."""
    since = timezone.now() - timedelta(seconds=REPUSH_WINDOW_S)
    table_ids = set(TableMove.objects.filter(created__gte=since, table__status=Table.Status.PLAYING)
                    .values_list("table_id", flat=True))
    for table_id in table_ids:
        broadcast.table_changed(table_id)
    return len(table_ids)


def rearm_all() -> None:
    """After a worker or Redis restart: every table's current decision re-armed, recent tables pushed again."""
    reschedule_playing_tables()
    repush_recent_tables()
