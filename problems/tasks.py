"""Celery tasks: problems from a finished match's human decisions, and topping up each game's collection from robot
self-play (opt-in: PROBLEMS_TOP_UP)."""

import logging
import random

from celery import shared_task
from django.conf import settings

from engine import games
from engine.problems.generate import Found, examine, generate
from problems import services
from problems.models import Problem
from tables import services as table_services
from tables.models import Table

log = logging.getLogger(__name__)

HARVEST_DECISIONS = 40  # a match's human decisions put to the finder, at most (a long match is sampled)


@shared_task(ignore_result=True)
def harvest(table_id: int) -> int:
    """Problems from the human players' decisions of a finished match (idempotent: a problem is stored once, by
    its fingerprint). Returns how many were stored."""
    table = Table.objects.select_related("game").filter(pk=table_id, status=Table.Status.FINISHED).first()
    if table is None or table.private or not table.seed or Problem.objects.filter(source_table=table).exists():
        return 0
    game = games.get(table.game.slug)
    humans = set(table.seats.filter(bot_level__isnull=True).values_list("position", flat=True))
    decisions = []
    before = None
    for entry, state, _events in table_services.replay_moves(table):
        if before is not None and entry.seat in humans and entry.move.get("action") not in ("start", "leave"):
            decisions.append((before, entry.seat))
        before = state
    rng = random.Random(f"{table.seed}:problems")
    if len(decisions) > HARVEST_DECISIONS:
        decisions = rng.sample(decisions, HARVEST_DECISIONS)
    stored = 0
    for state, seat in decisions:
        candidate, reason = examine(game, state, seat, rng)
        if reason is None and services.store(Found(game.slug, state, seat, candidate), source=Problem.Source.MATCH,
                                             source_table=table) is not None:
            stored += 1
    log.info("problems harvested", extra={"table": table_id, "stored": stored})
    return stored


@shared_task(ignore_result=True)
def top_up() -> None:
    """Each game below PROBLEMS_TOP_UP problems gets a batch from robot self-play (bounded in time)."""
    target = settings.PROBLEMS_TOP_UP
    if not target:
        return
    for slug in games.available():
        have = services.offered().filter(game__slug=slug).count()
        if have < target and games.get(slug).info.problems:
            report = generate(slug, min(25, target - have), seed=random.SystemRandom().getrandbits(32),
                              time_limit=60)
            for found in report.accepted:
                services.store(found)
