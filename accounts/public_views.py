"""The public pages of the players: a profile per player (« /joueurs/<pseudo>/ ») and each game's
leaderboard (« /classement/<jeu>/ »). Read from the stored statistics and ratings: nothing is recomputed."""

from django.db.models import Count, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from accounts.friends import relation
from accounts.links import replay_url
from accounts.models import MatchRecord, PlayerGameStats, Rating, User
from accounts.stats import leaderboard, rank_of
from engine import bots, games
from engine.base import name_with

LEADERBOARD_SIZE = 100
RECENT_MATCHES = 20


def ranked_games() -> list[tuple[str, str]]:
    """(slug, French name) of the games with a leaderboard: every game that robots can play."""
    return [(slug, games.get(slug).info.name) for slug in games.available() if bots.supports(slug)]


def _game(slug: str):
    try:
        return games.get(slug)
    except KeyError:
        return None


def _game_name(slug: str) -> str:
    engine = _game(slug)
    return engine.info.name if engine is not None else slug


def _signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else f"−{-amount}" if amount < 0 else "0"


def player_profile(request, pseudo: str):
    if len(pseudo) > 150 or not pseudo.isprintable():  # no user has it; PostgreSQL refuses a NUL in a query
        raise Http404("Ce joueur n'existe pas.")
    player = get_object_or_404(User, username=pseudo, is_bot=False, is_active=True)
    ratings = {r.game: r for r in Rating.objects.filter(user=player)}
    rows = []
    for stats in PlayerGameStats.objects.filter(user=player).order_by("-matches", "game"):
        engine = _game(stats.game)
        labels = engine.stats_labels if engine is not None else {}
        rating = ratings.get(stats.game)
        rank = rank_of(player.pk, stats.game) if rating is not None else None
        rows.append({
            "slug": stats.game, "name": _game_name(stats.game), "stats": stats,
            "win_rate": 100 * stats.wins / stats.matches if stats.matches else None,
            "counters": [(label, stats.counters.get(name, 0)) for name, label in labels.items()],
            "rating": rating, "rank": rank[0] if rank else None,
        })
    totals = PlayerGameStats.objects.filter(user=player).aggregate(won=Sum("tokens_won"), lost=Sum("tokens_lost"),
                                                                   matches=Sum("matches"), wins=Sum("wins"))
    recent = [{"record": r, "name": _game_name(r.game), "replay_url": replay_url(r.table_id),
               "tokens": _signed(r.token_delta), "tokens_count": abs(r.token_delta)}
              for r in MatchRecord.objects.filter(user=player)[:RECENT_MATCHES]]
    is_me = request.user.is_authenticated and request.user.pk == player.pk
    return render(request, "accounts/player.html", {
        "player": player, "rows": rows, "recent": recent, "tokens_won": totals["won"] or 0,
        "tokens_lost": totals["lost"] or 0, "matches": totals["matches"] or 0, "wins": totals["wins"] or 0,
        "is_me": is_me,
        # « Ajouter en ami », « Bloquer »…: for a logged-in player on another's page
        "relation": relation(request.user, player) if request.user.is_authenticated and not is_me else None,
    })


def leaderboards(request):
    players = dict(Rating.objects.values("game").annotate(n=Count("id")).values_list("game", "n"))
    return render(request, "accounts/leaderboards.html", {
        "games": [{"slug": slug, "name": name, "players": players.get(slug, 0)} for slug, name in ranked_games()]})


def game_leaderboard(request, slug: str):
    names = dict(ranked_games())
    if slug not in names:
        raise Http404("Ce jeu n'a pas de classement.")
    top = leaderboard(slug, LEADERBOARD_SIZE)
    rows, rank, previous = [], 0, None
    for index, rating in enumerate(top, start=1):
        if previous is None or rating.score < previous:
            rank = index
        previous = rating.score
        rows.append({"rank": rank, "rating": rating})
    mine = None
    if request.user.is_authenticated and not request.user.is_bot:
        found = rank_of(request.user.pk, slug)
        mine = {"rank": found[0], "rating": found[1]} if found else None
    feminine = games.get(slug).info.feminine
    return render(request, "accounts/leaderboard.html", {
        "slug": slug, "name": names[slug], "du_name": name_with(names[slug], feminine, "du"),
        "au_name": name_with(names[slug], feminine, "au"), "rows": rows, "mine": mine, "games": ranked_games(),
        "size": LEADERBOARD_SIZE,
    })
