"""A finished match's statistics and ratings for its players.

Read from the engine's `match_stats` (round points, best round, the family's counters, places: the engine
knows its game, this module names none) and from the table's ledger entries (the tokens each player won or
lost), then written once by `accounts.stats.match_record`. Called when a match ends, in the transaction that
settles it, and by `manage.py backfill_stats` for matches played before.
"""

import logging

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from accounts.models import LedgerEntry
from accounts.stats import Participant, RatedTeam, SeatLine
from accounts.stats import match_record as record_write
from engine import games
from engine.base import team_index
from engine.bots import strength
from tables.models import Table

log = logging.getLogger(__name__)


def token_deltas(table_id: int, user_ids: list[int]) -> dict[int, int]:
    """{user id: tokens won (+) or lost (-) at this table}: the sum of his wallet's entries keyed to it
    (stake, refund, winnings, payouts, penalty)."""
    rows = (LedgerEntry.objects.filter(table_id=table_id, account__user_id__in=user_ids)
            .values("account__user_id").annotate(total=Sum("amount")))
    found = {row["account__user_id"]: row["total"] or 0 for row in rows}
    return {uid: found.get(uid, 0) for uid in user_ids}


def match_record(*, table: Table, result: dict, state: dict | None = None) -> bool:
    """Write the match's records, totals and (a rated table) ratings; False if written already."""
    engine = games.get(getattr(table, "game_slug", None) or table.game.slug)
    state = table.state if state is None else state
    per_seat = engine.match_stats(state, result)
    seats = list(table.seats.all())
    humans = [s for s in seats if s.user_id and not s.is_bot]
    deltas = token_deltas(table.pk, [s.user_id for s in humans])
    winners = set(result.get("winners") or [])
    lines = []
    for seat in humans:
        entry = per_seat.get(seat.position) or {}
        lines.append(SeatLine(
            user_id=seat.user_id, position=seat.position, place=int(entry.get("place") or len(seats)),
            won=seat.position in winners, rounds=int(entry.get("rounds") or 0), points=int(entry.get("points") or 0),
            best_round=entry.get("best_round"), counters=dict(entry.get("counters") or {}),
            token_delta=deltas[seat.user_id]))
    teams = _rated_teams(table, engine, seats, per_seat) if table.rated else None
    return record_write(table_id=table.pk, game=engine.slug, finished=table.finished_at or timezone.now(),
                        low_is_better=engine.stats_low_is_better, lines=lines, rated_teams=teams)


def _rated_teams(table: Table, engine, seats: list, per_seat: dict) -> list[RatedTeam] | None:
    """The sides of a rated match: each seat alone, or the partners together (seats 0/2 and 1/3) in a team
    game; humans by account, robots at their level's published rating (never updated)."""
    sides: dict[int, list] = {}
    for seat in seats:
        key = team_index(seat.position) if engine.info.teams else seat.position
        sides.setdefault(key, []).append(seat)
    teams = []
    for key in sorted(sides):
        members = []
        for seat in sides[key]:
            if seat.user_id and not seat.is_bot:
                members.append(Participant(user_id=seat.user_id))
            else:
                mu, sigma = strength.bot_rating(engine.slug, seat.bot_level or 1)
                members.append(Participant(mu=mu, sigma=sigma))
        place = min(int((per_seat.get(s.position) or {}).get("place") or len(seats)) for s in sides[key])
        teams.append(RatedTeam(members=members, place=place))
    return teams if len(teams) >= 2 else None


def match_record_safe(*, table: Table, result: dict) -> None:
    """The match end's call: statistics never stop a match from ending. A failure is logged and the match
    is left for `backfill_stats` (its savepoint rolls back whatever it wrote)."""
    try:
        with transaction.atomic():
            match_record(table=table, result=result)
    except Exception:
        log.exception("statistics of table %s not recorded (manage.py backfill_stats will)", table.pk)
