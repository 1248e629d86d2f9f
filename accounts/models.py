from django.contrib.auth.models import AbstractUser
from django.db import models


class BotLevel(models.IntegerChoices):
    DEBUTANT = 1, "Débutant"
    CONFIRME = 2, "Confirmé"
    EXPERT = 3, "Expert"


class User(AbstractUser):
    """A player. Bots are users flagged `is_bot`, one per level, who can never log in."""

    is_bot = models.BooleanField("robot", default=False)
    bot_level = models.PositiveSmallIntegerField("niveau du robot", choices=BotLevel.choices, null=True, blank=True)
    four_colour_deck = models.BooleanField("jeu à quatre couleurs", default=False)
    games_played = models.PositiveIntegerField("parties jouées", default=0)
    games_won = models.PositiveIntegerField("parties gagnées", default=0)

    class Meta:
        verbose_name = "joueur"
        verbose_name_plural = "joueurs"

    @property
    def pseudo(self) -> str:
        return self.username


class Account(models.Model):
    """A place tokens can be: a player's wallet, the house, or a table's pot."""

    class Kind(models.TextChoices):
        PLAYER = "player", "Joueur"
        HOUSE = "house", "Banque"
        POT = "pot", "Pot de table"

    kind = models.CharField("type", max_length=10, choices=Kind.choices)
    user = models.OneToOneField(User, null=True, blank=True, on_delete=models.PROTECT, related_name="account")
    table_id = models.BigIntegerField("table", null=True, blank=True, unique=True)
    balance = models.BigIntegerField("solde", default=0)  # cache of the sum of its entries, same transaction
    allow_negative = models.BooleanField(default=False)  # only the house may go below zero

    class Meta:
        verbose_name = "compte"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(allow_negative=True) | models.Q(balance__gte=0), name="balance_not_negative"
            ),
            # The house is created lazily (get_or_create): two first uses at once must not make two.
            models.UniqueConstraint(fields=["kind"], condition=models.Q(kind="house"), name="one_house_account"),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PLAYER:
            return f"Joueur {self.user}"
        if self.kind == self.Kind.POT:
            return f"Pot de la table {self.table_id}"
        return "Banque"


class LedgerEntry(models.Model):
    """One side of a transfer. Append-only: entries are never updated or deleted."""

    class Reason(models.TextChoices):
        GRANT = "grant", "Dotation de départ"
        STAKE = "stake", "Mise"
        WIN = "win", "Gain"
        BOT_PAYOUT = "bot_payout", "Gain contre les robots"
        LOSS = "loss", "Perte contre les robots"
        PENALTY = "penalty", "Pénalité d'abandon"
        REFUND = "refund", "Remboursement"
        ADJUST = "adjust", "Ajustement"

    transfer = models.UUIDField("transfert", db_index=True)
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries", verbose_name="compte")
    counterpart = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="+", verbose_name="contrepartie"
    )
    amount = models.BigIntegerField("montant")
    reason = models.CharField("motif", max_length=20, choices=Reason.choices)
    table_id = models.BigIntegerField("table", null=True, blank=True)
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)
    created = models.DateTimeField("date", auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "écriture"
        verbose_name_plural = "grand livre"
        ordering = ["-created", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["idempotency_key", "account"], name="entry_idempotent_per_account"),
        ]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount:+d} ({self.get_reason_display()})"


class EconomySettings(models.Model):
    """Site-wide economy, edited by admins (a single row)."""

    starting_grant = models.PositiveIntegerField("dotation de départ", default=1000)

    class Meta:
        verbose_name = "réglages de l'économie"
        verbose_name_plural = "réglages de l'économie"

    def __str__(self) -> str:
        return "Réglages de l'économie"

    @classmethod
    def current(cls) -> "EconomySettings":
        obj, _ = cls.objects.get_or_create(pk=1)
        return obj
