"""Seed the ten games and their French rules pages, so every fresh database has them."""

from django.db import migrations

from tables.catalogue import GAMES, read_page


def seed(apps, schema_editor):
    Game = apps.get_model("tables", "Game")
    RulesPage = apps.get_model("tables", "RulesPage")
    for order, (slug, name, min_p, max_p, tagline) in enumerate(GAMES, start=1):
        game, _ = Game.objects.update_or_create(
            slug=slug,
            defaults={"name": name, "min_players": min_p, "max_players": max_p, "order": order, "tagline": tagline},
        )
        page = read_page(slug)
        if page and not RulesPage.objects.filter(game=game).exists():
            RulesPage.objects.create(game=game, **page)


def unseed(apps, schema_editor):
    apps.get_model("tables", "Game").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
