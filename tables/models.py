from decimal import Decimal

from django.core.validators import validate_comma_separated_integer_list
from django.db import models
from django.urls import reverse


class Game(models.Model):
    """A game of the catalogue. Slugs are the rules file names and the engine registry keys."""

    slug = models.SlugField(unique=True)
    name = models.CharField("nom", max_length=80)
    tagline = models.CharField("accroche", max_length=200, blank=True)
    min_players = models.PositiveSmallIntegerField("joueurs min.")
    max_players = models.PositiveSmallIntegerField("joueurs max.")
    published = models.BooleanField("publié", default=True)
    order = models.PositiveSmallIntegerField("ordre", default=0)
    # Economy, set by admins.
    stakes = models.CharField(
        "mises autorisées", max_length=200, default="0,10,20,50,100",
        validators=[validate_comma_separated_integer_list],
        help_text="Liste de montants séparés par des virgules (0 = partie amicale).",
    )
    default_stake = models.PositiveIntegerField("mise par défaut", default=10)
    bot_payout_debutant = models.DecimalField("gain contre Débutant (× mise)", max_digits=4, decimal_places=2,
                                              default=Decimal("1.00"))
    bot_payout_confirme = models.DecimalField("gain contre Confirmé (× mise)", max_digits=4, decimal_places=2,
                                              default=Decimal("1.50"))
    bot_payout_expert = models.DecimalField("gain contre Expert (× mise)", max_digits=4, decimal_places=2,
                                            default=Decimal("2.00"))
    abandon_penalty = models.PositiveIntegerField(
        "pénalité d'abandon", default=20, help_text="Jetons perdus en plus de la mise si on quitte en cours de partie."
    )

    class Meta:
        ordering = ["order", "name"]
        verbose_name = "jeu"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("rules_page", args=[self.slug])

    def allowed_stakes(self) -> list[int]:
        return sorted({int(x) for x in self.stakes.split(",") if x.strip()})

    def bot_payout(self, level: int) -> Decimal:
        return {1: self.bot_payout_debutant, 2: self.bot_payout_confirme, 3: self.bot_payout_expert}[level]


class RulesPage(models.Model):
    """The French rules page of a game, editable in admin. `body` is trusted HTML written by staff."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rules")
    title = models.CharField("titre", max_length=120)
    meta_description = models.CharField("méta-description", max_length=200)
    body = models.TextField("contenu (HTML)")
    updated_at = models.DateTimeField("mis à jour", auto_now=True)

    class Meta:
        verbose_name = "page de règles"
        verbose_name_plural = "pages de règles"

    def __str__(self) -> str:
        return self.title
