from django.shortcuts import get_object_or_404, render

from tables.models import Game, RulesPage


def home(request):
    games = Game.objects.filter(published=True)
    return render(request, "tables/home.html", {"games": games})


def rules_index(request):
    games = Game.objects.filter(published=True).select_related("rules")
    return render(request, "tables/rules_index.html", {"games": games})


def rules_page(request, slug: str):
    page = get_object_or_404(RulesPage.objects.select_related("game"), game__slug=slug, game__published=True)
    return render(request, "tables/rules_page.html", {"page": page, "game": page.game})
