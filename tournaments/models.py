"""Tournaments: a format (Swiss, knock-out, Arena) for one game, its entries (a player, or a pair for the
partnership games), its rounds and matches (each a table of the site, seated by the tournament).

Every result is a row (`Match.places`, written in the transaction that ends the table's match), so standings are
always recomputed from the stored results (tournaments.standings), never kept as a running total."""

import secrets

from django.conf import settings
from django.db import models


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", "Système suisse"
        KNOCKOUT = "knockout", "Élimination directe"
        ARENA = "arena", "Arène"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Inscriptions ouvertes"
        RUNNING = "running", "En cours"
        FINISHED = "finished", "Terminé"
        CANCELLED = "cancelled", "Annulé"

    class Absent(models.TextChoices):
        AUTOPLAY = "autoplay", "Ses coups sont joués automatiquement"
        FORFEIT = "forfeit", "Il perd la partie par forfait"

    name = models.CharField("nom", max_length=80)
    game = models.ForeignKey("tables.Game", on_delete=models.PROTECT, related_name="tournaments", verbose_name="jeu")
    format = models.CharField("formule", max_length=10, choices=Format.choices, default=Format.SWISS)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="created_tournaments", verbose_name="créé par")
    private = models.BooleanField("entre amis (sur invitation)", default=False)
    invite_token = models.CharField(max_length=40, unique=True, default=new_invite_token, editable=False)
    table_size = models.PositiveSmallIntegerField(
        "joueurs par table", default=2, help_text="Les jeux en équipes se jouent à 4 : deux paires par table.")
    options = models.JSONField("options du jeu", default=dict, blank=True)
    turn_timer_s = models.PositiveIntegerField("temps par coup (s)", null=True, blank=True,
                                               help_text="Vide : celui du jeu.")
    rounds = models.PositiveSmallIntegerField("rondes (système suisse)", default=5)
    advance = models.PositiveSmallIntegerField("qualifiés par table (élimination directe)", default=1)
    arena_minutes = models.PositiveSmallIntegerField("durée de l'Arène (minutes)", default=60)
    starts_at = models.DateTimeField("début")
    entry_stake = models.PositiveIntegerField("mise d'entrée (jetons)", default=0)
    prizes = models.JSONField("répartition des gains (% par place)", default=list, blank=True,
                              help_text="Par exemple [50, 30, 20] : 50 % de la cagnotte au premier, etc.")
    rated = models.BooleanField("parties classées", default=True)
    absent = models.CharField("joueur absent au début d'une ronde", max_length=10, choices=Absent.choices,
                              default=Absent.AUTOPLAY)
    max_entries = models.PositiveIntegerField("inscriptions au plus", default=256)
    status = models.CharField("statut", max_length=12, choices=Status.choices, default=Status.REGISTRATION,
                              db_index=True)
    created = models.DateTimeField("créé le", auto_now_add=True)
    started_at = models.DateTimeField("commencé le", null=True, blank=True)
    finished_at = models.DateTimeField("terminé le", null=True, blank=True)
    schedule = models.ForeignKey("Schedule", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="tournaments", verbose_name="programmation")

    class Meta:
        verbose_name = "tournoi"
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def arena_ends_at(self):
        from datetime import timedelta

        base = self.started_at or self.starts_at
        return base + timedelta(minutes=self.arena_minutes)


class Entry(models.Model):
    """A player, or a pair (the partnership games): registered together, partners at every table."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                             verbose_name="joueur")
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="+", verbose_name="partenaire")
    partner_confirmed = models.BooleanField("partenaire d'accord", default=True,
                                            help_text="Une paire compte quand le partenaire a accepté (et payé).")
    seed = models.PositiveIntegerField("tête de série", default=0)
    eliminated_in = models.PositiveSmallIntegerField("éliminé à la ronde", null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "inscription"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player"),
            models.UniqueConstraint(fields=["tournament", "partner"], name="one_entry_per_partner"),
            models.CheckConstraint(condition=~models.Q(partner=models.F("user")), name="not_own_partner"),
        ]

    def __str__(self) -> str:
        return f"{self.user} et {self.partner}" if self.partner_id else str(self.user)

    def user_ids(self) -> list[int]:
        return [self.user_id] + ([self.partner_id] if self.partner_id else [])

    def paid_user_ids(self) -> list[int]:
        """Who paid the entry stake: the player, and his partner once he accepted."""
        return [self.user_id] + ([self.partner_id] if self.partner_id and self.partner_confirmed else [])


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField("ronde")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "ronde"
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"{self.tournament} · ronde {self.number}"


class Match(models.Model):
    """One table of a round (an Arena's have no round), or a bye (no table: the entry sits out, scored as a win).
    `entries`: the entries in seat order (a pair: its player at seat i, its partner facing him); `places`:
    {entry id: place} once the match is over."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="matches")
    table = models.OneToOneField("tables.Table", null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="tournament_match")
    entries = models.JSONField(default=list)
    places = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "partie de tournoi"
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.tournament} · table {self.table_id}" if self.table_id else f"{self.tournament} · exempt"

    @property
    def is_bye(self) -> bool:
        return self.table_id is None

    @property
    def done(self) -> bool:
        return self.places is not None


class Schedule(models.Model):
    """A recurring tournament: a new one, registrations open, `days_ahead` before each start."""

    class Every(models.TextChoices):
        DAY = "day", "Chaque jour"
        WEEK = "week", "Chaque semaine"

    name = models.CharField("nom", max_length=80)
    active = models.BooleanField("active", default=True)
    every = models.CharField("fréquence", max_length=5, choices=Every.choices, default=Every.DAY)
    weekday = models.PositiveSmallIntegerField("jour (0 = lundi)", default=0)
    time = models.TimeField("heure (Paris)")
    template = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="+",
                                 verbose_name="modèle (ses réglages sont repris)")
    last_created_for = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = "tournoi programmé"
        verbose_name_plural = "tournois programmés"

    def __str__(self) -> str:
        return self.name
