"""The seasons' pages: the games (« /saisons/ »), a game's current season and its leagues (« /saisons/<jeu>/ »,
opened on demand) and a past season with each member's outcome (« /saisons/<jeu>/<n°>/ »)."""

from datetime import timedelta

from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import dateformat, timezone

from accounts.public_views import ranked_games
from seasons import rules, services
from seasons.models import Membership, Season, SeasonSettings, Tier

LEAGUE_ROWS = 100  # lines shown per league (the player's own is added when further down)
ZONE = {Membership.Outcome.PROMOTED: ("up", "Zone de montée"),
        Membership.Outcome.RELEGATED: ("down", "Zone de descente")}
FINAL = {Membership.Outcome.PROMOTED: ("up", "Promu"), Membership.Outcome.MAINTAINED: ("", "Maintenu"),
         Membership.Outcome.RELEGATED: ("down", "Relégué")}


def french_date(moment) -> str:
    """« 1er avril 2026 », « 30 juin 2026 » (Paris time)."""
    local = timezone.localtime(moment, rules.SEASON_TZ)
    day = "1er" if local.day == 1 else str(local.day)
    return f"{day} {dateformat.format(local, 'F Y')}"


def season_dates(season: Season) -> dict:
    return {"first_day": french_date(season.starts_at), "last_day": french_date(season.ends_at - timedelta(seconds=1))}


def _game(slug: str) -> str:
    names = dict(ranked_games())
    if slug not in names and not Season.objects.filter(game=slug).exists():
        raise Http404("Ce jeu n'a pas de saison.")
    return names.get(slug) or services.game_name(slug)


def season_index(request):
    open_seasons = {s.game: s for s in Season.objects.filter(closed_at__isnull=True)}
    members = dict(Membership.objects.filter(season__closed_at__isnull=True).values("season__game")
                   .annotate(n=Count("id")).values_list("season__game", "n"))
    mine = {}
    if request.user.is_authenticated:
        mine = {m.season.game: m for m in Membership.objects.filter(user=request.user, season__closed_at__isnull=True)
                .select_related("season")}
    rows = []
    for slug, name in ranked_games():
        season = open_seasons.get(slug)
        rows.append({"slug": slug, "name": name, "season": season, "members": members.get(slug, 0),
                     "mine": mine.get(slug), **(season_dates(season) if season else {})})
    return render(request, "seasons/index.html", {"rows": rows})


def _league_rows(lines: list[rules.Line], user_id: int | None, past: bool) -> tuple[list[dict], int]:
    """The lines shown (the first LEAGUE_ROWS, and the player's own further down), and how many are left out."""
    labels = FINAL if past else ZONE
    shown = lines[:LEAGUE_ROWS]
    mine_after = next((line for line in lines[LEAGUE_ROWS:] if line.user_id == user_id), None)
    rows = []
    for line in shown + ([mine_after] if mine_after else []):
        zone, label = labels.get(line.outcome, ("", ""))
        rows.append({"line": line, "user": line.membership.user, "zone": zone, "label": label,
                     "mine": line.user_id == user_id, "gap": line is mine_after})
    return rows, len(lines) - len(rows)


def _leagues_context(season: Season, user_id: int | None) -> dict:
    table = services.leagues(season)
    settings = SeasonSettings.current()
    leagues = []
    for tier, lines in table.items():
        rows, hidden = _league_rows(lines, user_id, season.closed)
        moves = services.movement(tier, settings)
        leagues.append({"tier": tier, "name": Tier(tier).label, "rows": rows, "size": len(lines), "hidden": hidden,
                        "target": moves.target, "top": tier == Tier.ELITE, "bottom": tier == Tier.BRONZE})
    found = services.place_of(user_id, table) if user_id else None
    mine = None
    if found is not None:
        tier, line = found
        mine = {"tier": Tier(tier).label, "line": line, "ordinal": services.ordinal(line.rank),
                "size": len(table[tier]), "to_play": max(0, settings.min_matches - line.played),
                "next": Tier(rules.next_tier(tier, line.outcome)).label, "can_rise": tier != Tier.ELITE}
    return {"season": season, "leagues": leagues, "mine": mine, "settings": settings, **season_dates(season)}


def _base(slug: str, name: str, **extra) -> dict:
    engine_name = services.game_name(slug, "du")
    return {"slug": slug, "name": name, "du_name": engine_name, "au_name": services.game_name(slug, "au"),
            "past_seasons": Season.objects.filter(game=slug, closed_at__isnull=False).order_by("-number"),
            "games": ranked_games(), **extra}


def season_current(request, slug: str):
    name = _game(slug)
    season = services.current(slug)
    user_id = request.user.pk if request.user.is_authenticated and not request.user.is_bot else None
    context = _base(slug, name, **_leagues_context(season, user_id))
    if user_id and context["mine"] is None:
        tier, how = services.entry_tier(season, user_id)
        context["entry"] = {"tier": Tier(tier).label, "previous": how == Membership.PlacedBy.PREVIOUS}
    return render(request, "seasons/current.html", context)


def season_past(request, slug: str, number: int):
    name = _game(slug)
    season = get_object_or_404(Season, game=slug, number=number)
    if not season.closed:
        return redirect("seasons:current", slug)
    user_id = request.user.pk if request.user.is_authenticated else None
    return render(request, "seasons/past.html", _base(slug, name, **_leagues_context(season, user_id)))
