"""« Revoir » that explains: each player's move of a finished match commented once, in Celery, after the match
(tables.tasks.annotate_match, queued by tables.scheduler when the match ends), and stored (MoveComment): the replay's
step page only reads them, it never computes one.

The comment is the engine's (engine.analysis): the Expert robot's move from that seat's own view at that moment,
and what the move played cost in the Expert's figure, seeded one-way from the table's seed and the move's number
(the same match always gets the same comments). Only humans' moves are commented (a robot's move is the robots'
own play); the three costliest moves of each round are marked `worst`. Idempotent: a move already commented is
skipped, and the marks are set again from the stored costs.
"""

import logging
import time

from django.db import transaction

from engine import analysis, bots
from tables import services
from tables.models import MoveComment, Table, engine_for

log = logging.getLogger(__name__)

WORST = 3
NOT_A_DECISION = ("start", "leave", "next_round")


def annotate_match(table_id: int) -> int:
    """Comment every human move of the finished match `table_id` not commented yet; returns how many were added."""
    table = Table.objects.select_related("game").filter(pk=table_id).first()
    if table is None or table.status != Table.Status.FINISHED or not table.seed:
        return 0
    engine = engine_for(table)
    if not bots.supports(engine.slug):
        return 0
    humans = set(table.seats.filter(bot_level__isnull=True, user__isnull=False).values_list("position", flat=True))
    done = set(MoveComment.objects.filter(table_id=table_id).values_list("seq", flat=True))
    rows = []
    before = None
    for entry, state, _events in services.replay_moves(table):
        previous, before = before, state
        if (previous is None or entry.seat not in humans or entry.seq in done
                or entry.move.get("action") in NOT_A_DECISION or entry.seat not in engine.to_act(previous)):
            continue
        rows.append(comment_row(table, engine, previous, entry))
    with transaction.atomic():
        MoveComment.objects.bulk_create(rows, ignore_conflicts=True)
        mark_worst(table_id)
    return len(rows)


def comment_row(table: Table, engine, state: dict, entry) -> MoveComment:
    seed = analysis.seed_for(table.seed, entry.seq, entry.seat)
    try:
        found = analysis.analyse_state(engine, state, entry.seat, entry.move, seed)
    except Exception:  # one move the robot cannot weigh must not cost the match's other comments
        log.exception("analysis failed at table %s move %s", table.pk, entry.seq)
        found = None
    row = MoveComment(table_id=table.pk, seq=entry.seq, seat=entry.seat, round=int(state.get("round") or 0))
    if found is not None:
        row.best_move, row.cost, row.unit = found.best, found.cost, found.unit
        row.comment = analysis.comment(engine, engine.view(state, entry.seat), found)
    return row


def mark_worst(table_id: int) -> None:
    """The three costliest moves of each round (a cost above 0 only), and no other, marked `worst`."""
    costs: dict[int, list[tuple[float, int]]] = {}
    for seq, number, cost in (MoveComment.objects.filter(table_id=table_id, cost__gt=0)
                              .values_list("seq", "round", "cost")):
        costs.setdefault(number, []).append((cost, seq))
    worst = {seq for pairs in costs.values() for _cost, seq in sorted(pairs, key=lambda p: (-p[0], p[1]))[:WORST]}
    MoveComment.objects.filter(table_id=table_id).exclude(seq__in=worst).filter(worst=True).update(worst=False)
    MoveComment.objects.filter(table_id=table_id, seq__in=worst).update(worst=True)


def timed_annotate(table_id: int) -> tuple[int, float]:
    """(moves commented, seconds): for the bench."""
    start = time.perf_counter()
    count = annotate_match(table_id)
    return count, time.perf_counter() - start
