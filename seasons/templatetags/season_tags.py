"""{% load season_tags %}{% player_leagues player %}: a player's leagues in the running seasons, for his public page
(templates/accounts/player.html), without the accounts app knowing of the seasons."""

from django import template

from seasons import services
from seasons.models import Membership, Tier

register = template.Library()


@register.inclusion_tag("seasons/player_leagues.html")
def player_leagues(player) -> dict:
    rows = []
    memberships = (Membership.objects.filter(user=player, season__closed_at__isnull=True)
                   .select_related("season").order_by("tier", "season__game"))
    for membership in memberships:
        lines = services.leagues(membership.season, membership.tier)[membership.tier]
        line = next((line for line in lines if line.user_id == player.pk), None)
        rows.append({"slug": membership.season.game, "name": services.game_name(membership.season.game),
                     "season": membership.season.number, "tier": Tier(membership.tier).label,
                     "rank": services.ordinal(line.rank) if line else "", "size": len(lines)})
    return {"player": player, "rows": rows}
