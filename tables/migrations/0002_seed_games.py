"""Seed the ten games and their French rules pages, so every fresh database has them."""

from django.db import migrations

from tables import catalogue


def seed(apps, schema_editor):
    catalogue.seed(apps.get_model("tables", "Game"), apps.get_model("tables", "RulesPage"))


def unseed(apps, schema_editor):
    apps.get_model("tables", "Game").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
