"""« À toi ! » in the tab: a player whose table tab is in the background sees it in the tab's title and icon
when a push makes it his move, and the title comes back once he returns to the tab (static/js/turn_alert.js).

The browser runs headless, where every page is visible: the page's visibility is played by the test (a
`document.hidden` it sets, and the `visibilitychange` event a browser fires)."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_play import create_table, sign_up

pytestmark = [pytest.mark.e2e]

VISIBILITY = """() => {
  let hidden = false;
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => hidden ? 'hidden' : 'visible'});
  window.setHidden = (value) => { hidden = value; document.dispatchEvent(new Event('visibilitychange')); };
}"""


MY_TURN = '#table-status[data-my-turn="1"]'
MATCH_OVER = '#table-status[data-status="finished"]'


def icon(page: Page) -> str:
    return page.locator('link[rel="icon"]').get_attribute("href")


def test_my_move_shows_in_a_background_tab_and_goes_when_i_come_back(live_site, page: Page):
    page.add_init_script(script=f"({VISIBILITY})()")
    sign_up(page, live_site, "alerte")
    status = page.locator('#table-status[data-my-turn="1"]')
    for _ in range(3):  # a match the robots end before the move comes back to me (the deal decides): another
        create_table(page, live_site, "thanasis", 3, ["1", "1"])
        expect(status).to_be_attached(timeout=30000)
        title = page.title()
        assert not title.startswith("À toi") and icon(page).endswith("/favicon.svg")

        page.evaluate("setHidden(true)")  # another tab in front: the move is mine
        expect(page).to_have_title("À toi ! · " + title)
        assert icon(page).endswith("/favicon-turn.svg")

        # I play (draw, then throw a card) with the tab still behind: no longer my move, the title comes back;
        # then the robots play and the push that gives me the move puts « À toi ! » back.
        page.locator("#table-centre button.pile.stock").click()
        expect(page.locator("#table-hand.can-discard")).to_be_attached(timeout=10000)
        page.locator("#table-hand button[data-card]").last.click()
        expect(page.locator('#table-status[data-my-turn="0"]')).to_be_attached(timeout=10000)
        expect(page).to_have_title(title)
        expect(page.locator(f"{MY_TURN}, {MATCH_OVER}").first).to_be_attached(timeout=30000)
        if status.count():
            break
    else:
        raise AssertionError("three matches ended before the move came back")
    expect(page).to_have_title(re.compile("^À toi ! · "))

    page.evaluate("setHidden(false)")  # back on the tab
    expect(page).to_have_title(title)
    assert icon(page).endswith("/favicon.svg")


TONES = """() => {
  window.tones = 0;
  const play = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { window.tones += 1; return play.apply(this, arguments); };
}"""




def play_a_move(page: Page) -> bool:
    """Draw, throw a card, and wait until the robots give me the move again: True. False when the match ends
    first (the robots can close rounds fast enough to burn me: the deal decides)."""
    page.locator("#table-centre button.pile.stock").click()
    expect(page.locator("#table-hand.can-discard")).to_be_attached(timeout=10000)
    page.locator("#table-hand button[data-card]").last.click()
    expect(page.locator('#table-status[data-my-turn="0"]')).to_be_attached(timeout=10000)
    expect(page.locator(f"{MY_TURN}, {MATCH_OVER}").first).to_be_attached(timeout=30000)
    return page.locator(MY_TURN).count() > 0


def new_table_at_my_turn(page: Page, base: str) -> None:
    create_table(page, base, "thanasis", 3, ["1", "1"])
    expect(page.locator(MY_TURN)).to_be_attached(timeout=30000)


def test_the_turn_sound_is_off_until_switched_on_and_stays_on(live_site, page: Page):
    page.add_init_script(script=f"({TONES})()")
    sign_up(page, live_site, "sonore")
    new_table_at_my_turn(page, live_site)
    switch = page.get_by_role("button", name=re.compile("^Son à mon tour"))
    expect(switch).to_have_attribute("aria-pressed", "false")
    for _ in range(3):
        if play_a_move(page):
            break
        new_table_at_my_turn(page, live_site)  # the match ended before the move came back: another table
    else:
        raise AssertionError("three matches ended before the move came back")
    assert page.evaluate("window.tones") == 0  # off by default

    with page.expect_response("**/compte/son/") as kept:
        switch.click()  # on: a tone to hear what it will sound like, kept on the account
    assert kept.value.ok
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.tones") == 1
    page.reload()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(page.locator(MY_TURN)).to_be_attached(timeout=30000)
    for _ in range(3):
        before = page.evaluate("window.tones")
        if play_a_move(page):
            assert page.evaluate("window.tones") == before + 1  # the move came back to me: one tone
            break
        new_table_at_my_turn(page, live_site)
    else:
        raise AssertionError("three matches ended before the move came back")
