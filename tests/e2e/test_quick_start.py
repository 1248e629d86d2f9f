"""« Partie rapide » in a real browser: one click seats me, and robots fill the table after the short wait."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_play import sign_up

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def short_wait(monkeypatch):
    """Asked before live_site: the site's processes read the wait from their environment at start."""
    monkeypatch.setenv("QUICK_START_WAIT_SECONDS", "2")


def test_quick_start_seats_me_and_fills_with_robots(short_wait, live_site, page: Page, artifacts_dir):
    quick_site = live_site
    sign_up(page, quick_site, "rapide")
    page.goto(quick_site + "/tables/?jeu=canasta-tuiles")
    page.screenshot(path=artifacts_dir / "quick_start_lobby.png", full_page=True)
    page.get_by_role("button", name=re.compile(r"Partie rapide de Gin Rami")).click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("p.quick-wait")).to_contain_text("robots aux places libres")
    expect(page.locator("#table-root")).to_have_attribute("data-status", "playing", timeout=20000)
    expect(page.locator("#table-opponents")).to_contain_text("Robot Confirmé")
    expect(page.locator(".table-type-badge")).to_have_text("Partie rapide")
    page.screenshot(path=artifacts_dir / "quick_start_table.png")
