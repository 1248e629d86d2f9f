"""A tournament in real browsers: two players register from its page, the first round seats them (the page
offers « Aller à ma table » without a reload), they play it, and the standings page they left open shows the
result by itself."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_play import play_until_match_over, sign_up

pytestmark = [pytest.mark.e2e]


def test_two_players_register_are_seated_play_and_see_the_standings_live(live_site, browser, artifacts_dir):
    from tables.models import Game
    from tournaments import services
    from tournaments.models import Entry, Tournament

    # One-round Gin matches: the tournament's flow is under test here, not a long match (a 2-player Thanasis
    # match to elimination took minutes of clicks)
    tournament = services.tournament_create(name="Coupe du lundi", game=Game.objects.get(slug="gin"),
                                            starts_at=timezone.now() + timedelta(hours=1), rounds=1, table_size=2,
                                            options={"match": "1"})
    pages = []
    for pseudo in ("alice", "bruno"):
        page = browser.new_context().new_page()
        sign_up(page, live_site, pseudo)
        page.goto(f"{live_site}/tournois/")
        page.get_by_role("link", name="Coupe du lundi").click()
        page.get_by_role("button", name="M'inscrire").click()
        expect(page.get_by_role("button", name="Me désinscrire")).to_be_visible()
        pages.append(page)
    assert Entry.objects.filter(tournament=tournament).count() == 2

    # The start comes: the workers' sweep (every few seconds) pairs the round and seats both players
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    standings = pages[0].context.new_page()  # alice keeps the tournament's page open in another tab
    standings.goto(pages[0].url)
    for page in pages:
        link = page.get_by_role("link", name="Aller à ma table")
        expect(link).to_be_visible(timeout=30000)  # pushed: no reload
        link.click()
        expect(page.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
    play_until_match_over(pages)

    expect(standings.locator("#tournament-live")).to_contain_text("(1er)", timeout=20000)
    expect(standings.locator("#tournament-live")).to_contain_text("Ronde 1 · terminée")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    standings.screenshot(path=str(artifacts_dir / "tournament-standings.png"), full_page=True)
