"""The problems' collection, the « Problème du jour », the answers and the ratings.

`store(found)` keeps an accepted `engine.problems.generate.Found` once (its fingerprint), with its choices in an
order that does not give the answer away (sorted by label, numbers as numbers). `answer(user, problem, index)`
records an attempt; the first one rates both the player and the problem (OpenSkill Plackett-Luce, the model of
the games' ratings: the solver "beats" the problem, or the problem beats him), in one transaction with both rows
locked, so two answers at once rate once."""

import hashlib
import json
import random
import re
from dataclasses import dataclass
from datetime import date

from django.db import IntegrityError, transaction
from django.db.models import Count

from accounts.stats import MODEL, conservative
from engine import problems as engine_problems
from problems.models import Attempt, DailyProblem, Problem, ProblemRating
from tables.models import Game

PER_USER_RANDOM_TRIES = 30  # « Un autre problème »: unsolved problems looked at before any is offered again


class ProblemError(Exception):
    """A refusal in French, for the page."""


def fingerprint(slug: str, state: dict, seat: int, labels: list[str]) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([slug, seat, state, sorted(labels)], sort_keys=True, default=str).encode())
    return digest.hexdigest()


def store(found, *, source: str = Problem.Source.ROBOTS, source_table=None) -> Problem | None:
    """Keep an accepted problem (engine.problems.generate.Found); None if it was already kept."""
    candidate = found.candidate
    best = candidate.best
    ordered = sorted(candidate.choices, key=lambda c: natural(c.label))
    choices = [{"label": c.label, "moves": list(c.moves), "value": round(c.value, 3),
                "cost": round(candidate.cost(c), 3)} for c in ordered]
    answer = next(i for i, c in enumerate(ordered) if c is best)
    game = Game.objects.get(slug=found.game)
    key = fingerprint(found.game, found.state, found.seat, [c["label"] for c in choices])
    try:
        with transaction.atomic():
            return Problem.objects.create(
                game=game, theme=candidate.theme, seat=found.seat, state=found.state, choices=choices,
                answer=answer, unit=candidate.unit, gap=round(candidate.gap, 3), exact=candidate.exact,
                why=candidate.why, fingerprint=key, source=source, source_table=source_table)
    except IntegrityError:
        return None


def natural(label: str) -> list:
    """« Poser 9 tuiles » before « Poser 10 tuiles »: numbers compared as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", label)]


def question(slug: str, theme: str) -> str:
    return engine_problems.question(slug, theme)


def theme_name(slug: str, theme: str) -> str:
    return engine_problems.themes(slug).get(theme, theme)


# --- what is offered -----------------------------------------------------------------------------

def offered(game: Game | None = None, theme: str | None = None):
    query = Problem.objects.filter(active=True)
    if game is not None:
        query = query.filter(game=game)
    if theme:
        query = query.filter(theme=theme)
    return query


def daily(game: Game, day: date) -> Problem | None:
    """The game's « Problème du jour »: picked the first time it is asked for that day, among the problems never
    shown as one (the oldest first are not favoured: a seeded pick from the day), then kept."""
    kept = DailyProblem.objects.filter(game=game, day=day).select_related("problem").first()
    if kept is not None:
        return kept.problem
    shown = DailyProblem.objects.filter(game=game).values("problem_id")
    pool = offered(game).exclude(pk__in=shown)
    count = pool.count()
    if not count:
        pool, count = offered(game), offered(game).count()
        if not count:
            return None
    pick = pool.order_by("pk")[random.Random(f"{game.slug}:{day.isoformat()}").randrange(count)]
    try:
        with transaction.atomic():
            DailyProblem.objects.create(game=game, day=day, problem=pick)
    except IntegrityError:  # another request picked it at the same moment: theirs stands
        return DailyProblem.objects.get(game=game, day=day).problem
    return pick


def next_for(user, game: Game, theme: str | None = None, *, rng: random.Random | None = None) -> Problem | None:
    """A problem of this game (and theme) the player has not answered yet, near his level: among those of the
    closest rating first; any of the game's when he has answered them all."""
    rng = rng or random.Random()
    pool = offered(game, theme)
    if user.is_authenticated:
        pool_new = pool.exclude(tries__user=user)
        if pool_new.exists():
            pool = pool_new
    rating = rating_of(user) if user.is_authenticated else None
    target = rating.score if rating else 0.0
    near = list(pool.order_by("?")[:PER_USER_RANDOM_TRIES].values_list("pk", "score"))
    if not near:
        return None
    near.sort(key=lambda row: abs(row[1] - target))
    return Problem.objects.get(pk=rng.choice(near[:5])[0])


def counts_by_theme(game: Game) -> list[dict]:
    rows = offered(game).values("theme").annotate(n=Count("pk")).order_by("theme")
    return [{"theme": r["theme"], "name": theme_name(game.slug, r["theme"]), "count": r["n"]} for r in rows]


# --- answers and ratings -------------------------------------------------------------------------

def rating_of(user) -> ProblemRating | None:
    return ProblemRating.objects.filter(user=user).first()


@dataclass
class Outcome:
    attempt: Attempt
    correct: bool
    rated: bool
    before: float | None
    after: float | None

    @property
    def change(self) -> float | None:
        return None if self.before is None or self.after is None else self.after - self.before


def answer(user, problem_id: int, index) -> Outcome:
    """Record the player's answer. The first answer to a problem rates him and the problem; later ones only say
    whether they are right. Bad input (no such problem, no such choice) is refused and stores nothing."""
    try:
        index = int(index)
    except (TypeError, ValueError, OverflowError):
        raise ProblemError("Choisis une des réponses proposées.") from None
    with transaction.atomic():
        problem = Problem.objects.select_for_update().filter(pk=problem_id, active=True).first()
        if problem is None:
            raise ProblemError("Ce problème n'existe pas ou n'est plus proposé.")
        if not 0 <= index < len(problem.choices):
            raise ProblemError("Choisis une des réponses proposées.")
        correct = index == problem.answer
        rating, _ = ProblemRating.objects.select_for_update().get_or_create(user=user)
        first = not Attempt.objects.filter(user=user, problem=problem, rated=True).exists()
        before = rating.score
        if first:
            _rate(rating, problem, correct)
        attempt = Attempt.objects.create(user=user, problem=problem, chosen=index, correct=correct, rated=first,
                                         rating_before=before if first else None,
                                         rating_after=rating.score if first else None)
    return Outcome(attempt, correct, first, before if first else None, rating.score if first else None)


def _rate(rating: ProblemRating, problem: Problem, correct: bool) -> None:
    player = MODEL.rating(mu=rating.mu, sigma=rating.sigma)
    puzzle = MODEL.rating(mu=problem.mu, sigma=problem.sigma)
    new_player, new_puzzle = MODEL.rate([[player], [puzzle]], ranks=[0, 1] if correct else [1, 0])
    rating.mu, rating.sigma = new_player[0].mu, new_player[0].sigma
    rating.score = conservative(rating.mu, rating.sigma)
    rating.attempts += 1
    rating.solved += int(correct)
    rating.save()
    problem.mu, problem.sigma = new_puzzle[0].mu, new_puzzle[0].sigma
    problem.score = conservative(problem.mu, problem.sigma)
    problem.attempts += 1
    problem.solved += int(correct)
    problem.save(update_fields=["mu", "sigma", "score", "attempts", "solved"])


def answered(user, problem: Problem) -> Attempt | None:
    if not user.is_authenticated:
        return None
    return Attempt.objects.filter(user=user, problem=problem).order_by("-pk").first()


