"""Problems made by each game's finder from robot self-play, stored and shown: the page holds no hidden card of
another seat (checked against the true state), the stated best answer is at least as good as every alternative by
the stored figures, the explanation is shown, and `manage.py problems_generate` and a finished match's harvest fill
the collection."""

import pytest
from django.core.management import call_command
from django.utils.html import escape

from engine import games
from engine.problems.generate import generate
from problems import services
from problems.models import Problem
from tests.problems.helpers import leaked

pytestmark = pytest.mark.django_db

WITH_FINDER = [slug for slug in games.available() if games.get(slug).info.problems]


@pytest.mark.parametrize("slug", WITH_FINDER)
def test_a_generated_problem_is_shown_without_hidden_cards_and_its_answer_is_best(slug, player_client):
    report = generate(slug, 2, seed=3, time_limit=60)
    assert report.accepted, f"no {slug} problem in 60 s"
    for found in report.accepted:
        problem = services.store(found)
        assert problem.choices[problem.answer]["cost"] == 0
        assert all(c["value"] <= problem.choices[problem.answer]["value"] for c in problem.choices)
        assert all(c["cost"] >= 0 for c in problem.choices)
        html = player_client.get(problem.get_absolute_url()).content.decode()
        assert leaked(html, problem.state, problem.seat) is None, slug
        assert services.theme_name(slug, problem.theme) in html
        answered = player_client.post(f"{problem.get_absolute_url()}reponse/", {"choice": problem.answer})
        assert escape(problem.why) in answered.content.decode()


def test_the_command_fills_each_game_asked_for(capsys):
    slug = WITH_FINDER[0]
    call_command("problems_generate", "--game", slug, "--count", "2", "--time-limit", "60")
    assert Problem.objects.filter(game__slug=slug).count() >= 1
    assert "problèmes rangés" in capsys.readouterr().out
    before = Problem.objects.count()
    call_command("problems_generate", "--game", slug, "--count", "2", "--if-below", "1")
    assert Problem.objects.count() == before  # already enough


def test_an_unknown_game_is_refused_in_french():
    with pytest.raises(Exception, match="Pas de problèmes pour"):
        call_command("problems_generate", "--game", "belote")
