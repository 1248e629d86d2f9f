"""The seasons' arithmetic, without the database: a season's dates, a match's season points, and who goes up or
down at a season's end. The pages (templates/seasons/rules.html) and docs/manual.md say the same in words."""

import math
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from seasons.models import BOTTOM_TIER, TOP_TIER, Membership

SEASON_TZ = ZoneInfo("Europe/Paris")
WIN_POINTS = 3  # the first place; the last gets 0, the places between in proportion

Outcome = Membership.Outcome


def period(now: datetime, months: int) -> tuple[datetime, datetime]:
    """The calendar period of `months` months (a divisor of 12) holding `now`, in Paris time: [start, end)."""
    local = now.astimezone(SEASON_TZ)
    first = (local.month - 1) // months * months  # 0-based month the period starts in
    start = datetime(local.year, first + 1, 1, tzinfo=SEASON_TZ)
    after = first + months
    end = datetime(local.year + after // 12, after % 12 + 1, 1, tzinfo=SEASON_TZ)
    return start, end


def match_points(place: int, sides: int) -> int:
    """Season points for `place` (1 = first; tied players share a place) among `sides` players, or teams in a
    partnership game: round(3 × (sides − place) / (sides − 1)), halves rounded up. Two sides: 3 and 0; three:
    3, 2, 0; four: 3, 2, 1, 0."""
    if sides < 2:
        return WIN_POINTS if place == 1 else 0
    place = min(max(place, 1), sides)
    return (2 * WIN_POINTS * (sides - place) + (sides - 1)) // (2 * (sides - 1))


@dataclass
class Line:
    """A member's line in his league: his totals (sums of his results), his rank, his outcome (projected while
    the season runs, final once it is closed)."""

    membership: Membership
    points: int = 0
    played: int = 0
    wins: int = 0
    rank: int = 0
    outcome: str = ""

    @property
    def user_id(self) -> int:
        return self.membership.user_id


def sort_key(line: Line) -> tuple:
    """Points, then wins, then fewer matches played, then the earlier arrival in the league."""
    return (-line.points, -line.wins, line.played, line.membership.joined_at, line.membership.pk or 0)


def rank(lines: list[Line]) -> list[Line]:
    ordered = sorted(lines, key=sort_key)
    for index, line in enumerate(ordered, start=1):
        line.rank = index
    return ordered


@dataclass(frozen=True)
class Movement:
    """How many a league sends up and down, from SeasonSettings."""

    promote_percent: int
    relegate_percent: int
    min_matches: int
    target: int | None  # the league's target size; None: no limit


def decide(ordered: list[Line], tier: int, rules: Movement) -> list[Line]:
    """Each line's outcome, the lines in standings order. Up (not from Élite): the best players who played at
    least `min_matches`, ceil(size × promote %) of them. Down (not from Bronze): floor(size × relegate %), or the
    excess over the target size if that is more; in a league over its target size the players under
    `min_matches` go first (the lowest first), then the bottom of the standings. Nobody is both."""
    size = len(ordered)
    for line in ordered:
        line.outcome = Outcome.MAINTAINED
    promoted: list[Line] = []
    if tier != TOP_TIER:
        places = math.ceil(size * rules.promote_percent / 100)
        promoted = [line for line in ordered if line.played >= rules.min_matches][:places]
        for line in promoted:
            line.outcome = Outcome.PROMOTED
    if tier != BOTTOM_TIER:
        over = rules.target is not None and size > rules.target
        count = size * rules.relegate_percent // 100
        if over:
            count = max(count, size - rules.target)
        rest = [line for line in reversed(ordered) if line.outcome != Outcome.PROMOTED]
        queue = [line for line in rest if line.played < rules.min_matches] if over else []
        first = {id(line) for line in queue}
        queue += [line for line in rest if id(line) not in first]
        for line in queue[:count]:
            line.outcome = Outcome.RELEGATED
    return ordered


def next_tier(tier: int, outcome: str) -> int:
    if outcome == Outcome.PROMOTED:
        return max(TOP_TIER, tier - 1)
    if outcome == Outcome.RELEGATED:
        return min(BOTTOM_TIER, tier + 1)
    return tier
