"""The problems' pages: the games and their themes, a problem (the position from the seat to move, the question,
the answers), the answer with what each choice costs and why, and the player's rating."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.throttle import hit
from problems import services, words
from problems.models import Problem
from problems.services import ProblemError
from tables.forms import playable_games
from tables.models import Game
from tables.rendering import position_parts

ANSWERS_PER_MINUTE = 30
THROTTLED = "Trop de réponses d'affilée : attends une minute avant de répondre encore."


def _games_with_problems() -> list[Game]:
    slugs = set(services.offered().values_list("game_id", flat=True).distinct())
    return [g for g in playable_games() if g.pk in slugs]


def problem_index(request):
    today = timezone.localdate()
    rows = []
    for game in _games_with_problems():
        rows.append({"game": game, "daily": services.daily(game, today), "themes": services.counts_by_theme(game)})
    rating = services.rating_of(request.user) if request.user.is_authenticated else None
    return render(request, "problems/index.html", {"rows": rows, "rating": rating,
                                                   "score": words.score_words(rating.score) if rating else ""})


def game_problems(request, slug: str):
    game = get_object_or_404(Game, slug=slug, published=True)
    themes = services.counts_by_theme(game)
    if not themes:
        raise Http404("Ce jeu n'a pas encore de problèmes.")
    return render(request, "problems/game.html", {
        "game": game, "themes": themes, "daily": services.daily(game, timezone.localdate()),
        "total": sum(t["count"] for t in themes)})


def next_problem(request, slug: str):
    game = get_object_or_404(Game, slug=slug, published=True)
    theme = request.GET.get("theme") or None
    problem = services.next_for(request.user, game, theme)
    if problem is None:
        raise Http404("Aucun problème de ce thème pour ce jeu.")
    return redirect(problem)


def _names(problem: Problem) -> dict[int, str]:
    return {p: ("Toi" if p == problem.seat else f"Joueur {p + 1}") for p in range(problem.state["seats"])}


def _card_played(moves: list[dict]) -> str | None:
    """The card (or tile) a choice's last move plays from the hand, if it names one: touching it in the hand gives
    that answer (static/js/problem.js)."""
    card = moves[-1].get("card") if moves else None
    return card if isinstance(card, str) else None


def _context(request, problem: Problem, outcome=None, error: str = "") -> dict:
    drawn = position_parts(problem.game, problem.state, problem.seat, _names(problem))
    last = outcome.attempt if outcome else services.answered(request.user, problem)
    choices = [{"index": i, "label": c["label"],
                "cost": words.cost_words(c["cost"], problem.unit) if c["moves"] else words.IMPOSSIBLE,
                "best": i == problem.answer, "chosen": last is not None and last.chosen == i,
                "card": _card_played(c["moves"])} for i, c in enumerate(problem.choices)]
    cards = [c["card"] for c in choices if c["card"]]
    for choice in choices:  # a card that two answers play is not an answer by itself (problem.js)
        if cards.count(choice["card"]) > 1:
            choice["card"] = None
    rating = services.rating_of(request.user) if request.user.is_authenticated else None
    return {
        "problem": problem, "game": problem.game, "live": drawn, "family_stylesheets": drawn["family_stylesheets"],
        "theme_name": services.theme_name(problem.game.slug, problem.theme), "choices": choices,
        "question": services.question(problem.game.slug, problem.theme),
        "answered": last, "outcome": outcome, "error": error,
        "rating": rating, "score": words.score_words(rating.score) if rating else "",
        "change": words.change_words(outcome.change) if outcome and outcome.change is not None else "",
        "next_url": reverse("problems:next", args=[problem.game.slug]) + f"?theme={problem.theme}",
        "solved_share": round(100 * problem.solved / problem.attempts) if problem.attempts else None,
    }


def problem_page(request, problem_id: int):
    problem = get_object_or_404(Problem.objects.select_related("game"), pk=problem_id, active=True)
    return render(request, "problems/problem.html", _context(request, problem))


@login_required
@require_POST
def problem_answer(request, problem_id: int):
    problem = get_object_or_404(Problem.objects.select_related("game"), pk=problem_id, active=True)
    outcome, error = None, ""
    # Per account, so a client that changes its address or headers gains nothing.
    if hit(f"problems:answer:{request.user.pk}", limit=ANSWERS_PER_MINUTE, window=60):
        error = THROTTLED
    else:
        try:
            outcome = services.answer(request.user, problem.pk, request.POST.get("choice"))
        except ProblemError as exc:
            error = str(exc)
    problem.refresh_from_db()
    context = _context(request, problem, outcome, error)
    template = "problems/problem.html#answer" if request.htmx else "problems/problem.html"
    return render(request, template, context, status=429 if error == THROTTLED else 200)
