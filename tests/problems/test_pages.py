"""« Problèmes »: the position shown from the seat to move only, the answer and what each choice costs, the ratings
of the player and of the problem, the problem of the day, and bad input refused in French with nothing stored."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from problems import services
from problems.models import Attempt, DailyProblem, Problem, ProblemRating
from tables.families import live_slugs
from tests.problems.helpers import leaked, made_up, stored

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()


@pytest.mark.parametrize("slug", live_slugs())
def test_the_position_holds_no_card_of_another_seat(slug, player_client):
    problem = stored(slug)
    html = player_client.get(problem.get_absolute_url()).content.decode()
    assert 'id="problem-question">' in html
    assert leaked(html, problem.state, problem.seat) is None
    assert "seed" not in html and problem.state.get("seed", "§") not in html


def test_a_right_answer_raises_the_rating_and_says_what_the_others_cost(player_client, player):
    problem = stored("gin")
    page = player_client.get(problem.get_absolute_url()).content.decode()
    assert all(c["label"] in page for c in problem.choices)
    response = player_client.post(reverse("problems:answer", args=[problem.pk]), {"choice": problem.answer},
                                  HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "Bien joué" in html and problem.why in html
    assert "le meilleur coup" in html and "coûte environ 4 points" in html and "coûte environ 9 points" in html
    rating = ProblemRating.objects.get(user=player)
    assert rating.score > 0 and rating.attempts == rating.solved == 1
    assert f"({'+'}" in html
    problem.refresh_from_db()
    assert problem.attempts == problem.solved == 1 and problem.score < 0  # beaten: easier than it looked


def test_a_wrong_answer_lowers_the_rating_and_names_the_best_move(player_client, player):
    problem = stored("thanasis")
    wrong = next(i for i in range(len(problem.choices)) if i != problem.answer)
    html = player_client.post(reverse("problems:answer", args=[problem.pk]), {"choice": wrong}).content.decode()
    assert "Pas tout à fait" in html and f"« {problem.choices[problem.answer]['label']} »" in html
    assert ProblemRating.objects.get(user=player).score < 0
    problem.refresh_from_db()
    assert problem.attempts == 1 and problem.solved == 0


def test_only_the_first_answer_is_rated(player_client, player):
    problem = stored("gin")
    url = reverse("problems:answer", args=[problem.pk])
    player_client.post(url, {"choice": problem.answer})
    after_first = ProblemRating.objects.get(user=player).score
    html = player_client.post(url, {"choice": problem.answer}).content.decode()
    assert "seule ta première réponse compte" in html
    assert ProblemRating.objects.get(user=player).score == after_first
    assert Attempt.objects.filter(user=player, rated=True).count() == 1


@pytest.mark.parametrize("choice", ["", "abc", "99", "-1", "1e9", "0x1"])
def test_a_bad_answer_is_refused_in_french_and_stores_nothing(player_client, player, choice):
    problem = stored("gin")
    response = player_client.post(reverse("problems:answer", args=[problem.pk]), {"choice": choice})
    assert response.status_code == 200
    assert "Choisis une des réponses proposées." in response.content.decode()
    assert not Attempt.objects.exists() and not ProblemRating.objects.exists()


def test_answers_are_limited_per_account_whatever_the_headers(player_client, player):
    problem = stored("gin")
    url = reverse("problems:answer", args=[problem.pk])
    codes = [player_client.post(url, {"choice": problem.answer}, REMOTE_ADDR=f"10.0.0.{i}",
                                HTTP_X_FORWARDED_FOR=f"1.2.3.{i}").status_code for i in range(35)]
    assert codes.count(429) == 5
    assert Attempt.objects.count() == 30
    refused = player_client.post(url, {"choice": problem.answer}).content.decode()
    assert "attends une minute" in refused and problem.choices[0]["label"] in refused


def test_a_visitor_sees_the_problem_but_must_log_in_to_answer(client):
    problem = stored("rami")
    page = client.get(problem.get_absolute_url()).content.decode()
    assert "Connecte-toi pour répondre" in page
    response = client.post(reverse("problems:answer", args=[problem.pk]), {"choice": 0})
    assert response.status_code == 302 and "connexion" in response["Location"]
    assert not Attempt.objects.exists()


def test_a_missing_or_withdrawn_problem_is_a_404(player_client):
    problem = stored("gin")
    Problem.objects.filter(pk=problem.pk).update(active=False)
    assert player_client.get(problem.get_absolute_url()).status_code == 404
    assert player_client.post(reverse("problems:answer", args=[problem.pk]), {"choice": 0}).status_code == 404
    assert player_client.get(reverse("problems:problem", args=[999999])).status_code == 404


def test_the_problem_of_the_day_is_the_same_all_day_and_on_the_home_page(client):
    problems = [stored("gin", seed) for seed in range(1, 4)]
    problems = [p for p in problems if p is not None]
    from datetime import date

    game = problems[0].game
    first = services.daily(game, date(2026, 12, 7))
    assert services.daily(game, date(2026, 12, 7)) == first
    assert DailyProblem.objects.filter(game=game).count() == 1
    assert services.daily(game, date(2026, 12, 8)) != first  # never shown twice while some were never shown
    home = client.get("/").content.decode()
    assert "Le problème du jour" in home and reverse("problems:problem", args=[services.daily(
        game, __import__("django.utils.timezone", fromlist=["x"]).localdate()).pk]) in home


def test_the_pages_by_game_and_theme_and_the_next_problem(player_client):
    problem = stored("rummikub")
    index = player_client.get(reverse("problems:index")).content.decode()
    assert "Rummikub" in index and "Problème du jour" in index
    game_page = player_client.get(reverse("problems:game", args=["rummikub"])).content.decode()
    assert "Par thème" in game_page
    response = player_client.get(reverse("problems:next", args=["rummikub"]) + "?theme=essai")
    assert response.status_code == 302 and response["Location"] == problem.get_absolute_url()
    assert player_client.get(reverse("problems:game", args=["thunee"])).status_code == 404  # none yet
    assert player_client.get(reverse("problems:next", args=["gin"]) + "?theme=nope").status_code == 404


def test_the_rating_is_on_the_profile_and_the_public_page(player_client, player):
    problem = stored("gin")
    player_client.post(reverse("problems:answer", args=[problem.pk]), {"choice": problem.answer})
    score = services.rating_of(player).score
    shown = f"{score:.1f}".replace(".", ",")
    assert shown in player_client.get(reverse("accounts:profile")).content.decode()
    public = player_client.get(reverse("player_profile", args=[player.username])).content.decode()
    assert "Cote aux problèmes" in public and shown in public


def test_the_same_position_is_stored_once():
    found = made_up("gin")
    assert services.store(found) is not None
    assert services.store(found) is None
    assert Problem.objects.count() == 1
