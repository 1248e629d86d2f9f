"""Make a fresh database ready to play: bots, economy settings and an admin account."""

import os
import secrets

from django.core.management.base import BaseCommand

from accounts.models import EconomySettings, User
from accounts.services import bots_ensure, player_account


class Command(BaseCommand):
    help = "Crée les robots, les réglages et un compte administrateur (ADMIN_USERNAME / ADMIN_PASSWORD)."

    def add_arguments(self, parser):
        parser.add_argument("--overwrite-rules", action="store_true",
                            help="Remplace aussi les pages de règles modifiées dans l'admin par la version livrée.")

    def handle(self, *args, **options):
        self.sync_rules_pages(options["overwrite_rules"])
        bots = bots_ensure()
        for bot in bots.values():
            player_account(bot)
        EconomySettings.current()
        username = os.environ.get("ADMIN_USERNAME", "admin")
        password = os.environ.get("ADMIN_PASSWORD")
        admin = User.objects.filter(username=username).first()
        if admin is None:
            password = password or secrets.token_urlsafe(12)
            admin = User.objects.create_superuser(username=username, password=password, email="")
            player_account(admin)
            self.stdout.write(self.style.SUCCESS(f"Compte admin créé : {username} / {password}"))
        elif password:
            admin.set_password(password)
            admin.save(update_fields=["password"])
            self.stdout.write(self.style.SUCCESS(f"Mot de passe admin mis à jour : {username} / {password}"))
        else:
            self.stdout.write(f"Compte admin existant : {username} (ADMIN_PASSWORD=... pour le changer)")

    def sync_rules_pages(self, overwrite: bool) -> None:
        from tables import catalogue
        from tables.models import Game, RulesPage

        catalogue.seed(Game, RulesPage)
        for slug, status in catalogue.sync_pages(Game, RulesPage, overwrite=overwrite):
            if status == "kept":
                self.stdout.write(self.style.WARNING(
                    f"Page de règles « {slug} » modifiée dans l'admin : conservée. La version livrée n'est pas "
                    "appliquée (init_site --overwrite-rules pour la remplacer)."))
            elif status != "current":
                label = {"created": "créée", "updated": "mise à jour", "overwritten": "remplacée"}[status]
                self.stdout.write(f"Page de règles « {slug} » {label}.")
