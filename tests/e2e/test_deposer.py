"""Issue 18 in a real browser: « Déposer » with nothing chosen proposes the whole opening the solver found and a
second « Déposer » lays it, meld by meld, up to the threshold (never one short meld and a warning)."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_play import create_table, sign_up

pytestmark = [pytest.mark.e2e]


def _opening_turn(options: dict):
    """A Rami state where seat 0 plays (MELD, nothing staged, not opened) and the best opening reaches the
    threshold with two melds or more."""
    from engine import games
    from engine.games._table_meld import MELD

    engine = games.get("rami")
    for n in range(300):
        state = engine.new_match(2, options, f"deposer-{n}")
        for _ in range(60):
            seat = engine.to_act(state)[0]
            if seat == 0 and state["phase"] == MELD and not state["opened"][0]:
                opening = engine.suggestions(state, 0)["opening"]
                if opening and opening["reaches"] and len(opening["melds"]) >= 2:
                    return state, opening
            state, _ = engine.apply(state, seat, engine.autoplay(state, seat))
            if not engine.to_act(state):
                break
    raise AssertionError("no such turn")


def test_deposer_with_nothing_chosen_lays_the_whole_opening(live_site, page):
    from django.utils import timezone

    from tables.models import Table

    sign_up(page, live_site, "paul")
    create_table(page, live_site, "rami", 2, ["1"])
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    table = Table.objects.get(pk=table_id)
    state, opening = _opening_turn(table.options)
    Table.objects.filter(pk=table_id).update(state=state, version=table.version + 50, recent_events=[],
                                             deadline=timezone.now() + timezone.timedelta(seconds=300))
    page.reload()
    deposer = page.locator('#table-actions [data-tm-act="meld"]')
    expect(deposer).to_have_attribute("data-tm-plan", re.compile("Première pose proposée"))

    deposer.click()
    cards = sum(len(m["cards"]) for m in opening["melds"])
    expect(page.locator("#table-hand [data-card].selected")).to_have_count(cards)
    expect(page.locator("[data-tm-selection]")).to_contain_text(f"= {opening['total']} points")

    deposer.click()
    expect(page.locator(".tm-staged-item")).to_have_count(len(opening["melds"]), timeout=10000)
    expect(page.locator(".tm-opening.is-reached")).to_be_visible()
    expect(page.locator('[data-testid="commit-warning"]')).to_have_count(0)
