"""« Problèmes » in a real browser: the problem of the day from the home page, a best-discard problem answered by
touching the card in the hand, the verdict, the costs and the rating change in place; every game's problem page
with no serious axe violation, no console error and no card of another seat."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_accessibility import _violations
from tests.e2e.test_console import _listen
from tests.e2e.test_play import sign_up

pytestmark = [pytest.mark.e2e]


def _discard_problem():
    """A Gin problem whose answers are discards, the best one first (figures made up: the page is under test)."""
    import random

    from engine import games
    from engine.problems import Candidate, Choice
    from engine.problems.generate import Found, decisions
    from problems import services

    game = games.get("gin")
    for state, seat in decisions(game, random.Random(5)):
        discards = [m for m in game.legal_moves(state, seat) if m["action"] == "discard"]
        if len(discards) >= 3:
            choices = tuple(Choice((m,), f"Jeter la carte n° {i + 1}", -3.0 * i) for i, m in enumerate(discards[:3]))
            return services.store(Found("gin", state, seat, Candidate(
                "defausse", choices, "points", 2.0, True, why="La première carte ne sert à aucune combinaison.")))
    raise AssertionError("no discard decision")


def test_a_player_solves_the_problem_of_the_day_by_touching_the_card(live_site, browser, artifacts_dir):
    problem = _discard_problem()
    best_card = problem.choices[problem.answer]["moves"][0]["card"]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    where = ["inscription"]
    _listen(page, errors, where)
    sign_up(page, live_site, "resout")
    where[0] = "accueil"
    page.goto(live_site + "/")
    page.get_by_test_id("daily-problems").get_by_role("link", name="Gin Rami").click()
    where[0] = "problème"
    expect(page.get_by_role("heading", name="C'est à toi de jouer : que fais-tu ?")).to_be_visible()
    expect(page.get_by_test_id("problem-choices").get_by_role("button")).to_have_count(3)
    page.wait_for_load_state("load")  # the deferred scripts that turn a touched card into its answer have run
    page.locator(f'#table-hand [data-card="{best_card}"]').click()
    expect(page.get_by_test_id("problem-verdict")).to_contain_text("Bien joué")
    expect(page.get_by_test_id("problem-why")).to_contain_text("ne sert à aucune combinaison")
    expect(page.get_by_test_id("problem-choices")).to_contain_text("coûte environ 6 points")
    expect(page.get_by_test_id("problem-rating")).to_contain_text("(+")
    page.screenshot(path=str(artifacts_dir / "problem-solved.png"), full_page=True)
    page.goto(live_site + "/compte/profil/")
    expect(page.get_by_test_id("problem-rating")).to_contain_text("1 réussi sur 1")
    assert not errors, "\n".join(errors)


def test_every_games_problem_page_is_accessible_and_shows_no_hidden_card(live_site, axe_page):
    from tables.families import live_slugs
    from tests.problems.helpers import leaked, stored

    page = axe_page
    errors: list[str] = []
    where = [""]
    _listen(page, errors, where)
    sign_up(page, live_site, "axeprob")
    problems: list[str] = []
    for slug in live_slugs():
        problem = stored(slug)
        where[0] = slug
        page.goto(live_site + problem.get_absolute_url())
        assert leaked(page.content(), problem.state, problem.seat) is None, slug
        problems += _violations(page, f"problème {slug}")
    for path in ("/problemes/", "/problemes/gin/"):
        where[0] = path
        page.goto(live_site + path)
        problems += _violations(page, path)
    page.goto(live_site + problem.get_absolute_url())
    page.get_by_test_id("problem-choices").get_by_role("button").first.click()
    expect(page.get_by_test_id("problem-verdict")).to_be_visible()
    problems += _violations(page, "réponse")
    assert not problems, "\n".join(problems)
    assert not errors, "\n".join(errors)
