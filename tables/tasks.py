"""Celery tasks: each loads the table, checks its version, and calls the same play_move service."""

import hashlib
import logging
import random

from celery import shared_task
from django.utils import timezone

from engine import bots, games
from tables import annotations, log_context, notices, quick_start, reads, scheduler, services
from tables.models import Table, engine_for

log = logging.getLogger(__name__)


def _current(table_id: int, version: int) -> Table | None:
    log_context.at_table(table_id)
    table = reads.table(table_id)
    if table is None or table.version != version or table.status != Table.Status.PLAYING:
        return None  # stale: somebody already moved
    return table


@shared_task(ignore_result=True)
def bot_turn(table_id: int, version: int, seat: int) -> None:
    table = _current(table_id, version)
    if table is None:
        return
    bot_seat = next((s for s in reads.seats_of(table_id) if s.position == seat), None)
    if bot_seat is None or not bot_seat.is_bot:
        return
    engine = engine_for(table)
    legal = engine.legal_moves(table.state, seat)
    if not legal:
        return
    view = engine.view(table.state, seat)
    # A per-decision RNG derived one-way from the seed: reproducible, and it tells the bot nothing.
    digest = hashlib.sha256(f"{table.seed}:bot:{version}:{seat}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    try:
        move = bots.choose(engine, view, legal, bot_seat.bot_level, rng)
    except Exception:  # a bot's bug must not stall the table (a bot seat has no move timer)
        log.exception("bot failed at table %s v%s seat %s: the rules' autoplay plays instead", table_id, version, seat)
        move = None
    if move is not None:
        outcome = services.play_move(table_id=table_id, seat=seat, move=move, expected_version=version, actor="bot")
        if outcome.applied or outcome.error is None:
            return  # played, or somebody else moved first
        log.error("bot chose an illegal move at table %s v%s seat %s (%s): autoplay instead", table_id, version,
                  seat, outcome.error.code)
    services.play_move(table_id=table_id, seat=seat, move=engine.autoplay(table.state, seat),
                       expected_version=version, actor="autoplay")


@shared_task(ignore_result=True)
def autoplay_turn(table_id: int, version: int, seat: int, only_if_disconnected: bool = False) -> None:
    """The move timer ran out, or the player is disconnected: the rules' autoplay policy plays."""
    table = _current(table_id, version)
    if table is None:
        return
    if only_if_disconnected and table.seats.filter(position=seat, connections__gt=0).exists():
        return  # back in time: the move timer still runs
    engine = engine_for(table)
    if seat not in engine.to_act(table.state):
        return
    if engine.autoplay_waits(table.state) and not any(s.connected for s in table.seats.all()):
        # Nobody at the table and the rules' autoplay would go round in circles: wait for a player, one move's
        # time at a time (the timer sweep looks again then; a player who comes back decides in his time).
        Table.objects.filter(pk=table.pk, version=version).update(
            deadline=timezone.now() + timezone.timedelta(seconds=table.turn_timer_s))
        return
    move = engine.autoplay(table.state, seat)
    services.play_move(table_id=table_id, seat=seat, move=move, expected_version=version, actor="autoplay")


@shared_task(ignore_result=True)
def next_round(table_id: int, version: int) -> None:
    table = _current(table_id, version)
    if table is None:
        return
    engine = engine_for(table)
    if engine.to_act(table.state) or engine.result(table.state) is not None:
        return
    seat = table.state["active"][0]
    services.play_move(table_id=table_id, seat=seat, move={"action": "next_round"}, expected_version=version,
                       actor="system")


@shared_task(ignore_result=True)
def annotate_match(table_id: int) -> None:
    """« Revoir »'s comments on a finished match's moves (tables.annotations), computed once and stored."""
    log_context.at_table(table_id)
    annotations.annotate_match(table_id)


@shared_task(ignore_result=True)
def rearm_tables() -> None:
    """Redis restarted (rummy_site.celery: its queued tasks are gone): every table in play re-armed."""
    scheduler.rearm_all()


@shared_task(ignore_result=True)
def expire_turns() -> int:
    """The move timers, queued every second by each worker (rummy_site.celery.MoveTimers): each table whose
    current decision is past its deadline gets the rules' autoplay for it; each quick-start table whose wait is
    over gets its robots and starts; each slow table whose reminder is due sends it. The deadline lives on the table,
    so a timer survives any restart and costs nothing while it runs (no task waiting per move)."""
    due = Table.objects.filter(status=Table.Status.PLAYING, deadline__lte=timezone.now())
    count = 0
    for table_id, version, state, slug in due.values_list("id", "version", "state", "game__slug")[:500]:
        to_act = games.get(slug).to_act(state) if state else []
        if to_act:  # one decision per sweep: the next one has its own clock
            autoplay_turn.run(table_id, version, to_act[0])
            count += 1
    for table_id in quick_start.due_tables():  # « Partie rapide »: the wait for players is over
        count += quick_start.quick_start_fill(table_id=table_id)
    count += notices.send_due_reminders(timezone.now())  # « Partie lente »: a quarter of the time left
    return count
