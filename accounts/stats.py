"""Players' statistics and ratings, written once when a match ends.

The caller (the tables app, when it settles a match, or its `backfill_stats` command) reads the match and
hands over plain data: one `SeatLine` per human seat, and for a rated match the teams as they sat (humans and
robots at their published rating). Here the match records are written under a unique constraint (player,
table): a retried settlement or a second backfill finds them and changes nothing, neither the totals nor the
ratings.

Ratings: OpenSkill's Plackett-Luce model (Weng and Lin's Bayesian approximation). It rates a full ranking of
any number of players or of teams in one update (a four-player Thanasis, two partnerships at Canasta),
accepts ties (a shared win) and keeps each player's uncertainty (sigma), so a new player moves fast and a
regular slowly. Elo and Glicko-2 are two-player systems; TrueSkill does the same job but is patented.
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from accounts.models import MatchRecord, PlayerGameStats, Rating

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu  # 25
DEFAULT_SIGMA = MODEL.sigma  # 25 / 3


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard's figure: mu - 3 sigma (a new player starts at 0 and climbs as he plays)."""
    return mu - 3 * sigma


@dataclass
class SeatLine:
    """A human seat's share of a finished match."""

    user_id: int
    position: int
    place: int
    won: bool
    rounds: int = 0
    points: int = 0
    best_round: int | None = None
    counters: dict = field(default_factory=dict)
    token_delta: int = 0


@dataclass
class Participant:
    """One seat in a rated match: a human (`user_id`, rated) or a robot at a fixed rating (`mu`, `sigma`)."""

    user_id: int | None = None
    mu: float | None = None
    sigma: float | None = None


@dataclass
class RatedTeam:
    """A side of a rated match: one seat, or partners; `place` 1 is first, equal places are a tie."""

    members: list[Participant]
    place: int


def match_record(*, table_id: int, game: str, finished: datetime, low_is_better: bool, lines: list[SeatLine],
                 rated_teams: list[RatedTeam] | None = None) -> bool:
    """Record a finished match for its human players; rate it when `rated_teams` is given. Returns False when
    this table was recorded already (nothing changes)."""
    if not lines:
        return False
    with transaction.atomic():
        if MatchRecord.objects.filter(table_id=table_id).exists():
            return False
        try:
            with transaction.atomic():
                records = {
                    line.user_id: MatchRecord.objects.create(
                        user_id=line.user_id, table_id=table_id, game=game, finished=finished,
                        position=line.position, place=line.place, won=line.won, rounds=line.rounds,
                        points=line.points, best_round=line.best_round, counters=dict(line.counters),
                        token_delta=line.token_delta, rated=bool(rated_teams))
                    for line in lines
                }
        except IntegrityError:
            return False  # a concurrent recording of the same table won
        for line in sorted(lines, key=lambda item: item.user_id):
            _stats_add(game, line, low_is_better)
        if rated_teams:
            _rate(game, rated_teams, records)
        return True


def _stats_add(game: str, line: SeatLine, low_is_better: bool) -> None:
    PlayerGameStats.objects.get_or_create(user_id=line.user_id, game=game)
    stats = PlayerGameStats.objects.select_for_update().get(user_id=line.user_id, game=game)
    stats.matches += 1
    stats.wins += int(line.won)
    stats.rounds += line.rounds
    stats.points += line.points
    if line.best_round is not None:
        if stats.best_round is None:
            stats.best_round = line.best_round
        else:
            stats.best_round = (min if low_is_better else max)(stats.best_round, line.best_round)
    counters = dict(stats.counters)
    for name, count in line.counters.items():
        counters[name] = counters.get(name, 0) + count
    stats.counters = counters
    if line.token_delta > 0:
        stats.tokens_won += line.token_delta
    else:
        stats.tokens_lost += -line.token_delta
    stats.save()


def _rate(game: str, teams: list[RatedTeam], records: dict[int, MatchRecord]) -> None:
    """One Plackett-Luce update over the whole ranking; only the humans' new ratings are kept (a robot's
    rating is the published one of its level, and stays so)."""
    humans = sorted({m.user_id for t in teams for m in t.members if m.user_id is not None})
    if not humans or len(teams) < 2:
        return
    for user_id in humans:
        Rating.objects.get_or_create(user_id=user_id, game=game, defaults={
            "mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA, "score": conservative(DEFAULT_MU, DEFAULT_SIGMA)})
    held = {r.user_id: r for r in Rating.objects.select_for_update().filter(game=game, user_id__in=humans)
            .order_by("user_id")}
    ratings = [[MODEL.rating(mu=held[m.user_id].mu if m.user_id is not None else m.mu,
                             sigma=held[m.user_id].sigma if m.user_id is not None else m.sigma)
                for m in team.members] for team in teams]
    new = MODEL.rate(ratings, ranks=[team.place for team in teams])
    for team, after in zip(teams, new, strict=True):
        for member, rating in zip(team.members, after, strict=True):
            if member.user_id is None:
                continue
            row = held[member.user_id]
            record = records.get(member.user_id)
            if record is not None:
                record.mu_before, record.sigma_before = row.mu, row.sigma
                record.mu_after, record.sigma_after = rating.mu, rating.sigma
                record.save(update_fields=["mu_before", "sigma_before", "mu_after", "sigma_after"])
            row.mu, row.sigma = rating.mu, rating.sigma
            row.score = conservative(rating.mu, rating.sigma)
            row.matches += 1
            row.save()


def leaderboard(game: str, limit: int = 100) -> list[Rating]:
    return list(Rating.objects.filter(game=game, user__is_active=True).select_related("user")
                .order_by("-score", "-matches", "user__username")[:limit])


def rank_of(user_id: int, game: str) -> tuple[int, Rating] | None:
    """(rank, rating) of a player in a game's leaderboard (1 = top), or None if he has no rating there."""
    mine = Rating.objects.filter(game=game, user_id=user_id, user__is_active=True).first()
    if mine is None:
        return None
    above = Rating.objects.filter(game=game, user__is_active=True, score__gt=mine.score).count()
    return above + 1, mine
