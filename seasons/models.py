"""Seasons and leagues, per game: a season lasts a few calendar months (SeasonSettings.months); its members are
spread over five leagues (tiers, from Élite down to Bronze); every rated match of that game is a `SeasonResult`
row per human player, so a league's standings are always sums of stored rows (seasons.standings), never a running
total. At the season's end each member's outcome (promoted, maintained, relegated) and next league are stored on
his `Membership`, and the next season places him there."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone


class Tier(models.IntegerChoices):
    """The leagues, 1 the highest."""

    ELITE = 1, "Élite"
    DIAMOND = 2, "Diamant"
    GOLD = 3, "Or"
    SILVER = 4, "Argent"
    BRONZE = 5, "Bronze"


TOP_TIER = Tier.ELITE
BOTTOM_TIER = Tier.BRONZE


class SeasonSettings(models.Model):
    """The seasons' rules, edited by admins (a single row). A change applies to the seasons opened and closed
    after it: a running season keeps its dates."""

    class Months(models.IntegerChoices):
        ONE = 1, "1 mois"
        TWO = 2, "2 mois"
        THREE = 3, "3 mois (janvier, avril, juillet, octobre)"
        FOUR = 4, "4 mois"
        SIX = 6, "6 mois"
        TWELVE = 12, "12 mois (l'année civile)"

    months = models.PositiveSmallIntegerField(
        "durée d'une saison", choices=Months.choices, default=Months.THREE,
        help_text="Les saisons suivent le calendrier (heure de Paris) : une saison de 3 mois commence le 1er janvier, "
                  "avril, juillet ou octobre.")
    elite_size = models.PositiveIntegerField("taille visée de la ligue Élite", default=20)
    diamond_size = models.PositiveIntegerField("taille visée de la ligue Diamant", default=50)
    gold_size = models.PositiveIntegerField("taille visée de la ligue Or", default=100)
    silver_size = models.PositiveIntegerField("taille visée de la ligue Argent", default=200,
                                              help_text="La ligue Bronze n'a pas de limite.")
    elite_score = models.FloatField("cote minimale pour entrer en Élite", default=25.0)
    diamond_score = models.FloatField("cote minimale pour entrer en Diamant", default=22.0)
    gold_score = models.FloatField("cote minimale pour entrer en Or", default=18.0)
    silver_score = models.FloatField(
        "cote minimale pour entrer en Argent", default=12.0,
        help_text="Pour un joueur absent de la saison précédente. En dessous, et sans cote, il entre en Bronze.")
    promote_percent = models.PositiveSmallIntegerField(
        "promus par ligue (%)", default=20,
        help_text="Arrondi au-dessus : au moins un promu par ligue dès qu'un joueur peut monter.")
    relegate_percent = models.PositiveSmallIntegerField(
        "relégués par ligue (%)", default=20,
        help_text="Arrondi au-dessous. Une ligue au-delà de sa taille visée relègue au moins l'excédent.")
    min_matches = models.PositiveSmallIntegerField(
        "parties minimum pour monter", default=5,
        help_text="Un joueur qui a joué moins de parties ne monte pas ; dans une ligue trop pleine, il descend "
                  "le premier.")

    class Meta:
        verbose_name = "réglages des saisons"
        verbose_name_plural = "réglages des saisons"

    def __str__(self) -> str:
        return "Réglages des saisons"

    def clean(self):
        scores = [self.elite_score, self.diamond_score, self.gold_score, self.silver_score]
        if any(a < b for a, b in zip(scores, scores[1:], strict=False)):
            raise ValidationError("Les cotes d'entrée doivent décroître de l'Élite à l'Argent.")
        if self.promote_percent > 50 or self.relegate_percent > 50:
            raise ValidationError("Au plus 50 % de promus et 50 % de relégués par ligue.")

    @classmethod
    def current(cls) -> "SeasonSettings":
        obj, _ = cls.objects.get_or_create(pk=1)
        return obj

    def target_size(self, tier: int) -> int | None:
        """A league's target size; None for Bronze (no limit)."""
        return {Tier.ELITE: self.elite_size, Tier.DIAMOND: self.diamond_size, Tier.GOLD: self.gold_size,
                Tier.SILVER: self.silver_size}.get(tier)

    def entry_tier(self, score: float | None) -> int:
        """The league a player absent from the previous season enters, by his rating in the game."""
        if score is None:
            return Tier.BRONZE
        for tier, floor in ((Tier.ELITE, self.elite_score), (Tier.DIAMOND, self.diamond_score),
                            (Tier.GOLD, self.gold_score), (Tier.SILVER, self.silver_score)):
            if score >= floor:
                return tier
        return Tier.BRONZE


class Season(models.Model):
    """One game's season: [starts_at, ends_at). Open until the sweep (or the first match after its end) closes it,
    which stores every member's outcome; at most one open season per game."""

    game = models.CharField("jeu", max_length=40)
    number = models.PositiveIntegerField("numéro")
    starts_at = models.DateTimeField("début")
    ends_at = models.DateTimeField("fin")
    closed_at = models.DateTimeField("close le", null=True, blank=True)
    created = models.DateTimeField("créée le", auto_now_add=True)

    class Meta:
        verbose_name = "saison"
        ordering = ["game", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="season_number_once"),
            models.UniqueConstraint(fields=["game"], condition=models.Q(closed_at__isnull=True),
                                    name="one_open_season_per_game"),
            models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")), name="season_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.game} · saison {self.number}"

    @property
    def closed(self) -> bool:
        return self.closed_at is not None

    def ended(self, now=None) -> bool:
        return (now or timezone.now()) >= self.ends_at


class Membership(models.Model):
    """A player in a season's league, from his first rated match of the game in the season. The fields after
    `placed_by` are written when the season closes: his final place in the league and his outcome."""

    class PlacedBy(models.TextChoices):
        RATING = "rating", "Par sa cote"
        PREVIOUS = "previous", "Par la saison précédente"

    class Outcome(models.TextChoices):
        PROMOTED = "promoted", "Promu"
        MAINTAINED = "maintained", "Maintenu"
        RELEGATED = "relegated", "Relégué"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="memberships", verbose_name="saison")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_memberships",
                             verbose_name="joueur")
    tier = models.PositiveSmallIntegerField("ligue", choices=Tier.choices)
    placed_by = models.CharField("placé", max_length=10, choices=PlacedBy.choices, default=PlacedBy.RATING)
    joined_at = models.DateTimeField("entré le", default=timezone.now)
    rank = models.PositiveIntegerField("place finale dans la ligue", null=True, blank=True)
    points = models.PositiveIntegerField("points", null=True, blank=True)
    played = models.PositiveIntegerField("parties", null=True, blank=True)
    wins = models.PositiveIntegerField("victoires", null=True, blank=True)
    outcome = models.CharField("bilan", max_length=10, choices=Outcome.choices, blank=True)
    next_tier = models.PositiveSmallIntegerField("ligue à la saison suivante", choices=Tier.choices, null=True,
                                                 blank=True)

    class Meta:
        verbose_name = "place en ligue"
        verbose_name_plural = "places en ligue"
        ordering = ["season", "tier", "rank", "joined_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["season", "user"], name="season_membership_once")]
        indexes = [models.Index(fields=["season", "tier"], name="membership_league")]

    def __str__(self) -> str:
        return f"{self.user} · {self.season} · {self.get_tier_display()}"


class SeasonResult(models.Model):
    """One human's rated match, counted in a season: once per table and player (the unique constraint), whatever
    the number of times the match's end is told."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="results", verbose_name="saison")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_results",
                             verbose_name="joueur")
    table_id = models.BigIntegerField("table")
    place = models.PositiveSmallIntegerField("place à la table")
    sides = models.PositiveSmallIntegerField("joueurs ou équipes à la table")
    points = models.PositiveSmallIntegerField("points de saison")
    won = models.BooleanField("gagnée", default=False)
    finished = models.DateTimeField("terminée le")

    class Meta:
        verbose_name = "résultat de saison"
        verbose_name_plural = "résultats de saison"
        ordering = ["-finished"]
        constraints = [models.UniqueConstraint(fields=["season", "table_id", "user"], name="season_result_once")]
        indexes = [models.Index(fields=["season", "user"], name="season_result_player")]

    def __str__(self) -> str:
        return f"{self.user} · table {self.table_id} · {self.points} pt"
