"""One bot account per level. Bots have an unusable password and the auth backend refuses them."""

from django.contrib.auth.hashers import make_password
from django.db import migrations

BOTS = {1: "Robot Débutant", 2: "Robot Confirmé", 3: "Robot Expert"}


def create_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for level, name in BOTS.items():
        User.objects.get_or_create(
            username=name,
            defaults={"is_bot": True, "bot_level": level, "password": make_password(None)},
        )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(create_bots, migrations.RunPython.noop)]
