"""Every change of the seasons: the current season of a game (opened on demand, the ended one closed first), a
rated match counted for its players, a player's entry into a league, the close of a season (outcomes stored,
members told) and the worker's sweep.

Each step is idempotent: a season is opened once (unique game and number, one open season per game), closed once
(its row locked, `closed_at` checked), a match counted once per player (unique season, table and player), a
member told once (the notification's key)."""

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Q, Sum
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, Rating, User
from accounts.notifications import notify
from engine import games
from engine.base import name_with
from seasons import rules
from seasons.models import Membership, Season, SeasonResult, SeasonSettings, Tier
from tables.models import Table

log = logging.getLogger(__name__)


# --- the current season ----------------------------------------------------------------------------

def current(game: str, now: datetime | None = None) -> Season:
    """The open season of `game` at `now`: the running one, or a new one (after closing the one that ended)."""
    now = now or timezone.now()
    with transaction.atomic():
        latest = Season.objects.filter(game=game).order_by("-number").first()
        if latest is not None and latest.closed_at is None:
            if now < latest.ends_at:
                return latest
            close(latest.pk, now=now)
        return _open_after(game, latest, now)


def _open_after(game: str, latest: Season | None, now: datetime) -> Season:
    start, end = rules.period(now, SeasonSettings.current().months)
    if latest is not None:
        # Right after the previous one (never before it ends, never after now: a period setting changed).
        start = min(max(start, latest.ends_at), now)
    season, _ = Season.objects.get_or_create(game=game, number=(latest.number + 1) if latest else 1,
                                             defaults={"starts_at": start, "ends_at": end})
    return season


def previous(season: Season) -> Season | None:
    return Season.objects.filter(game=season.game, number=season.number - 1).first()


# --- entering a league -----------------------------------------------------------------------------

def entry_tier(season: Season, user_id: int) -> tuple[int, str]:
    """(league, how) for a player entering `season` now: where the previous season's outcome put him, or else
    by his rating in the game as it stands (no rating: Bronze)."""
    before = previous(season)
    if before is not None:
        last = Membership.objects.filter(season=before, user_id=user_id).first()
        if last is not None:
            return (last.next_tier or last.tier), Membership.PlacedBy.PREVIOUS
    score = Rating.objects.filter(user_id=user_id, game=season.game).values_list("score", flat=True).first()
    return SeasonSettings.current().entry_tier(score), Membership.PlacedBy.RATING


def join(season: Season, user_id: int, now: datetime | None = None) -> Membership:
    """The player's place in `season` (entered once: later calls return it)."""
    found = Membership.objects.filter(season=season, user_id=user_id).first()
    if found is not None:
        return found
    tier, how = entry_tier(season, user_id)
    membership, _ = Membership.objects.get_or_create(
        season=season, user_id=user_id, defaults={"tier": tier, "placed_by": how, "joined_at": now or timezone.now()})
    return membership


# --- a rated match ---------------------------------------------------------------------------------

def _is_team_game(slug: str) -> bool:
    try:
        return bool(games.get(slug).info.teams)
    except KeyError:
        return False


def record_match(table: Table, places: dict) -> int:
    """Count a rated match for its human players in the game's current season; returns the rows written (0: not
    rated, or counted already)."""
    if not table.rated:
        return 0
    places = {int(seat): int(place) for seat, place in places.items()}
    if not places:
        return 0
    slug = table.game.slug
    sides = len(places) // 2 if _is_team_game(slug) else len(places)
    seats = [s for s in table.seats.all() if s.user_id and not s.is_bot and s.position in places]
    robots = set(User.objects.filter(pk__in=[s.user_id for s in seats], is_bot=True).values_list("pk", flat=True))
    seats = [s for s in seats if s.user_id not in robots]
    if not seats:
        return 0
    finished = table.finished_at or timezone.now()
    season = current(slug, now=finished)
    written = 0
    for seat in seats:
        place = places[seat.position]
        join(season, seat.user_id, now=finished)
        _, created = SeasonResult.objects.get_or_create(
            season=season, table_id=table.pk, user_id=seat.user_id,
            defaults={"place": place, "sides": sides, "points": rules.match_points(place, sides),
                      "won": place == 1, "finished": finished})
        written += created
    return written


def on_match_finished(sender, table: Table, places: dict, **kwargs) -> None:
    """tables.signals.match_finished, inside the transaction that ends the match. A season's trouble never stops
    a match from ending: it is logged and its savepoint rolled back."""
    if not table.rated:
        return
    try:
        with transaction.atomic():
            record_match(table, places)
    except Exception:
        log.exception("table %s: season result not recorded", table.pk)


# --- standings ----------------------------------------------------------------------------------------

def totals(season: Season, user_ids: list[int] | None = None) -> dict[int, dict]:
    """{user id: {"points", "played", "wins"}}: sums of the season's result rows (of `user_ids` if given)."""
    rows = SeasonResult.objects.filter(season=season)
    if user_ids is not None:
        rows = rows.filter(user_id__in=user_ids)
    rows = (rows.values("user_id")
            .annotate(points=Sum("points"), played=Count("id"), wins=Count("id", filter=Q(won=True))))
    return {row["user_id"]: row for row in rows}


def movement(tier: int, settings: SeasonSettings | None = None) -> rules.Movement:
    settings = settings or SeasonSettings.current()
    return rules.Movement(promote_percent=settings.promote_percent, relegate_percent=settings.relegate_percent,
                          min_matches=settings.min_matches, target=settings.target_size(tier))


def leagues(season: Season, tier: int | None = None) -> dict[int, list[rules.Line]]:
    """{tier: lines in standings order}, every tier present (or `tier` alone). A running season: totals from its
    results and the outcome each line would have if the season ended now; a closed one: as stored when it
    closed."""
    members = Membership.objects.filter(season=season).select_related("user")
    members = list(members.filter(tier=tier) if tier is not None else members)
    out: dict[int, list[rules.Line]] = {t: [] for t in ([tier] if tier is not None else Tier.values)}
    if season.closed:
        for m in members:
            out[m.tier].append(rules.Line(membership=m, points=m.points or 0, played=m.played or 0,
                                          wins=m.wins or 0, rank=m.rank or 0, outcome=m.outcome))
        for league in out:
            out[league].sort(key=lambda line: (line.rank or 10**9, line.membership.pk))
        return out
    found = totals(season, [m.user_id for m in members] if tier is not None else None)
    for m in members:
        row = found.get(m.user_id, {})
        out[m.tier].append(rules.Line(membership=m, points=row.get("points") or 0, played=row.get("played") or 0,
                                      wins=row.get("wins") or 0))
    settings = SeasonSettings.current()
    for league in out:
        out[league] = rules.decide(rules.rank(out[league]), league, movement(league, settings))
    return out


# --- the end of a season ------------------------------------------------------------------------------

def game_name(slug: str, form: str | None = None) -> str:
    try:
        info = games.get(slug).info
    except KeyError:
        return slug
    return name_with(info.name, info.feminine, form) if form else info.name


def ordinal(rank: int) -> str:
    return "1er" if rank == 1 else f"{rank}e"


def outcome_sentence(line: rules.Line, tier: int) -> str:
    after = Tier(rules.next_tier(tier, line.outcome)).label
    if line.outcome == Membership.Outcome.PROMOTED:
        return f"tu montes en ligue {after}"
    if line.outcome == Membership.Outcome.RELEGATED:
        return f"tu descends en ligue {after}"
    return f"tu restes en ligue {after}"


def close(season_id: int, now: datetime | None = None) -> bool:
    """Close a season that has ended: every member's final place and outcome stored, each member told. False if
    it was closed already (or has not ended)."""
    now = now or timezone.now()
    with transaction.atomic():
        season = Season.objects.select_for_update().filter(pk=season_id).first()
        if season is None or season.closed or not season.ended(now):
            return False
        table = leagues(season)
        changed = []
        for tier, lines in table.items():
            for line in lines:
                m = line.membership
                m.rank, m.points, m.played, m.wins = line.rank, line.points, line.played, line.wins
                m.outcome, m.next_tier = line.outcome, rules.next_tier(tier, line.outcome)
                changed.append(m)
        Membership.objects.bulk_update(changed, ["rank", "points", "played", "wins", "outcome", "next_tier"],
                                       batch_size=500)
        season.closed_at = now
        season.save(update_fields=["closed_at"])
        url = reverse("seasons:past", args=[season.game, season.number])
        du_game = game_name(season.game, "du")
        for tier, lines in table.items():
            league = Tier(tier).label
            for line in lines:
                notify(user=line.user_id, kind=Notification.Kind.RESULT, url=url,
                       key=f"season:{season.pk}:{line.user_id}",
                       text=f"Saison {season.number} {du_game} terminée : {ordinal(line.rank)} de la ligue {league}, "
                            f"{outcome_sentence(line, tier)}.")
        log.info("season %s closed: %s members", season, len(changed))
        return True


def due(now: datetime | None = None) -> list[str]:
    """The games whose open season has ended."""
    now = now or timezone.now()
    return list(Season.objects.filter(closed_at__isnull=True, ends_at__lte=now).values_list("game", flat=True))


def sweep(now: datetime | None = None) -> int:
    """The worker's sweep (every minute): each ended season closed and the next one opened."""
    now = now or timezone.now()
    moved = 0
    for game in due(now):
        try:
            current(game, now=now)
            moved += 1
        except Exception:  # one game's trouble does not stop the others; the next sweep tries again
            log.exception("seasons of %s: sweep failed", game)
    return moved


# --- a player's place ------------------------------------------------------------------------------

def place_of(user_id: int, table: dict[int, list[rules.Line]]) -> tuple[int, rules.Line] | None:
    """(tier, line) of the player in a season's leagues, or None."""
    for tier, lines in table.items():
        for line in lines:
            if line.user_id == user_id:
                return tier, line
    return None
