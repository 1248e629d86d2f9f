"""{% load problem_tags %}: the « Problème du jour » of each game for the home page, and a player's problem rating
for the profile pages, without the tables or accounts apps knowing of the problems."""

from django import template
from django.utils import timezone

from problems import services, words
from tables.forms import playable_games

register = template.Library()


@register.inclusion_tag("problems/daily_list.html")
def daily_problems() -> dict:
    today = timezone.localdate()
    games = set(services.offered().values_list("game_id", flat=True).distinct())
    rows = [{"game": g, "problem": services.daily(g, today)} for g in playable_games() if g.pk in games]
    return {"rows": [r for r in rows if r["problem"] is not None]}


@register.inclusion_tag("problems/rating_line.html")
def problem_rating(player) -> dict:
    rating = services.rating_of(player)
    return {"rating": rating, "score": words.score_words(rating.score) if rating else ""}
