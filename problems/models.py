"""« Problèmes »: positions from real play with one clearly best move (engine.problems), the players' answers, and
the ratings of both (OpenSkill, as the players' ratings of the games: accounts.stats)."""

from django.conf import settings
from django.db import models

from accounts.stats import DEFAULT_MU, DEFAULT_SIGMA, conservative


class Problem(models.Model):
    """One position for one seat: the true state is kept here, server-side, and only that seat's view is ever drawn
    (problems.views). `choices` are shown in a fixed order that does not reveal the answer; `answer` is the index of
    the best one; each choice keeps the evaluator's figure and its cost against the best."""

    class Source(models.TextChoices):
        ROBOTS = "robots", "Partie de robots"
        MATCH = "match", "Partie du site"

    game = models.ForeignKey("tables.Game", on_delete=models.PROTECT, related_name="problems", verbose_name="jeu")
    theme = models.CharField("thème", max_length=40)
    seat = models.PositiveSmallIntegerField("place du joueur")
    state = models.JSONField("position (état complet, jamais envoyé)")
    choices = models.JSONField("choix")  # [{"label", "moves", "value", "cost"}], in the order shown
    answer = models.PositiveSmallIntegerField("bonne réponse (rang dans les choix)")
    unit = models.CharField("unité", max_length=20)
    gap = models.FloatField("écart avec le second choix")
    exact = models.BooleanField("chiffres exacts", default=False)
    why = models.TextField("explication")
    fingerprint = models.CharField(max_length=64, unique=True)  # the same position and choices are stored once
    source = models.CharField("origine", max_length=10, choices=Source.choices, default=Source.ROBOTS)
    source_table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+", verbose_name="table d'origine")
    active = models.BooleanField("proposé", default=True)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    score = models.FloatField("cote", default=conservative(DEFAULT_MU, DEFAULT_SIGMA))
    attempts = models.PositiveIntegerField("essais", default=0)
    solved = models.PositiveIntegerField("réussis", default=0)
    created = models.DateTimeField("créé le", auto_now_add=True)

    class Meta:
        verbose_name = "problème"
        verbose_name_plural = "problèmes"
        indexes = [models.Index(fields=["game", "theme", "active"], name="problem_game_theme")]

    def __str__(self) -> str:
        return f"Problème n° {self.pk} ({self.game_id}, {self.theme})"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("problems:problem", args=[self.pk])


class DailyProblem(models.Model):
    """« Problème du jour »: one per game and day, picked once (problems.services.daily)."""

    game = models.ForeignKey("tables.Game", on_delete=models.CASCADE, related_name="+", verbose_name="jeu")
    day = models.DateField("jour")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="days", verbose_name="problème")

    class Meta:
        verbose_name = "problème du jour"
        verbose_name_plural = "problèmes du jour"
        constraints = [models.UniqueConstraint(fields=["game", "day"], name="daily_problem_once")]

    def __str__(self) -> str:
        return f"{self.day} · {self.game_id}: n° {self.problem_id}"


class Attempt(models.Model):
    """A player's answer to a problem. Only the first one is rated (`rated`); he may try again after, for nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="problem_attempts")
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="tries")
    chosen = models.PositiveSmallIntegerField("choix")
    correct = models.BooleanField("réussi")
    rated = models.BooleanField("compté dans la cote", default=False)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "réponse"
        verbose_name_plural = "réponses"
        constraints = [models.UniqueConstraint(fields=["user", "problem"], condition=models.Q(rated=True),
                                               name="attempt_rated_once")]
        indexes = [models.Index(fields=["user", "problem"], name="attempt_user_problem")]

    def __str__(self) -> str:
        return f"{self.user_id} → n° {self.problem_id}: {'réussi' if self.correct else 'manqué'}"


class ProblemRating(models.Model):
    """A player's problem rating (all games together, as Lichess has one puzzle rating): OpenSkill mu and sigma;
    `score` = mu − 3 sigma, shown with one decimal as the games' ratings are (a new player starts at 0)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="problem_rating")
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    score = models.FloatField("cote", default=conservative(DEFAULT_MU, DEFAULT_SIGMA))
    attempts = models.PositiveIntegerField("problèmes tentés", default=0)
    solved = models.PositiveIntegerField("problèmes réussis", default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "cote aux problèmes"
        verbose_name_plural = "cotes aux problèmes"

    def __str__(self) -> str:
        return f"{self.user_id}: {self.score:.1f}"
