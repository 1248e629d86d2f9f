"""The players' pages in a browser (issue 16): after a rated match, the player's public page shows it with a
« Revoir » link, the leaderboard shows his place, and axe-core finds no serious or critical violation there,
nor on the creation form with its « Partie classée » box and the robots' strength."""

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tables import services
from tables.models import Table
from tests.e2e.test_accessibility import _violations
from tests.e2e.test_play import sign_up
from tests.tables.helpers import create_table, play_out

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def axe_page(browser):
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()


def test_a_rated_match_shows_on_the_profile_and_the_leaderboard(live_site, axe_page):
    page = axe_page
    sign_up(page, live_site, "zoe")
    page.goto(live_site + "/tables/?jeu=gin")
    expect(page.get_by_label("Partie classée")).not_to_be_checked()
    expect(page.get_by_test_id("bot-strength")).to_contain_text("contre Confirmé")
    problems = _violations(page, "formulaire de création")

    zoe = User.objects.get(username="zoe")
    table = create_table(zoe, "gin", seats=2, bots={1: 3}, stake=10, options={"match": "1"}, start=False)
    Table.objects.filter(pk=table.pk).update(rated=True)
    services.table_start(table=table, user=zoe)
    play_out(table)

    page.goto(live_site + "/compte/profil/")
    page.get_by_test_id("public-profile-link").click()
    expect(page).to_have_url(live_site + "/joueurs/zoe/")
    expect(page.get_by_role("heading", name="zoe")).to_be_visible()
    expect(page.get_by_test_id("per-game")).to_contain_text("Gin Rami")
    expect(page.get_by_test_id("recent-matches")).to_contain_text("classée")
    problems += _violations(page, "page du joueur")
    page.get_by_role("link", name="Revoir").first.click()
    expect(page).to_have_url(f"{live_site}/tables/{table.pk}/revoir/")

    page.goto(live_site + "/classement/gin/")
    expect(page.get_by_test_id("my-rank")).to_contain_text("Ta place : 1er")
    expect(page.get_by_test_id("leaderboard")).to_contain_text("zoe")
    problems += _violations(page, "classement du Gin")
    page.get_by_role("navigation", name="Navigation principale").get_by_role("link", name="Classement").click()
    expect(page.get_by_role("heading", name="Classement", exact=True)).to_be_visible()
    problems += _violations(page, "classements")
    assert not problems, "\n".join(problems)
