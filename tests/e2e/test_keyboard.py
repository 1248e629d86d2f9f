"""Playing without a mouse (issue 16): a whole Thanasis round against robots with the keyboard only, « Conseil »
asked once with its key, the help overlay « ? », the moves read out in the live region; axe on what they show."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_accessibility import _violations
from tests.e2e.test_play import create_table, sign_up

pytestmark = [pytest.mark.e2e]

# What the page's live region says, and every pointer press (there must be none while playing).
WATCH = """() => {
  window.__said = [];
  window.__pointers = 0;
  const live = document.getElementById('table-live');
  new MutationObserver(() => { if (live.textContent.trim()) window.__said.push(live.textContent.trim()); })
    .observe(live, {childList: true, characterData: true, subtree: true});
  document.addEventListener('pointerdown', () => { window.__pointers += 1; }, true);
  document.addEventListener('mousedown', () => { window.__pointers += 1; }, true);
}"""


def version(page: Page) -> str:
    return page.locator("#table-status").get_attribute("data-version")


def press_and_wait(page: Page, key: str) -> None:
    """Press a key and wait for the table to move on (a push with a new version)."""
    before = version(page)
    page.keyboard.press(key)
    expect(page.locator("#table-status")).not_to_have_attribute("data-version", before, timeout=10000)


def discard_with_arrows(page: Page) -> None:
    """« h » to the hand, the arrows to the card worth most, Entrée: it is discarded."""
    cards = page.locator("#table-hand button.card")
    points = [int(p or -1) for p in cards.evaluate_all("els => els.map(e => e.dataset.points)")]
    target = points.index(max(points))
    page.keyboard.press("h")
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    wanted = cards.nth(target).get_attribute("data-card")
    assert page.evaluate("document.activeElement.dataset.card") == wanted
    press_and_wait(page, "Enter")


def my_decision(page: Page, timeout_ms: int = 30000) -> str | None:
    """The phase when it is my turn; None once the round's end shows."""
    mine = page.locator('#table-status[data-my-turn="1"], #table-round-end.is-open')
    expect(mine.first).to_be_visible(timeout=timeout_ms)
    if page.locator("#table-round-end.is-open").count():
        return None
    return page.locator("#table-status").get_attribute("data-phase")


def play_round(page: Page, advised: bool, problems: list[str]) -> tuple[int, bool]:
    """My turns of one round with the keyboard; « Conseil » asked once at my first draw. (turns, advised)."""
    turns = 0
    while (phase := my_decision(page)) is not None:
        assert turns < 80, "the round did not end"
        turns += 1
        if phase == "DRAW":
            if not advised:
                # « c »: the Expert's advice, for me only, and one use fewer on the button.
                expect(page.locator(".coach-button")).to_have_text("Conseil (3)")
                page.keyboard.press("c")
                box = page.locator("#table-coach")
                expect(box).to_be_visible(timeout=10000)
                expect(box).to_contain_text("Conseil du Robot Expert")
                expect(box.locator("[data-coach-reason]")).to_have_text(re.compile(r"^Pioche"))
                expect(page.locator(".coach-button")).to_have_text("Conseil (2)")
                problems += _violations(page, "conseil")
                advised = True
            press_and_wait(page, "p")
            expect(page.locator("#table-coach")).to_be_hidden()  # the advice was for the table as it was
            continue
        assert phase == "DISCARD", phase
        if page.locator("#table-actions button[data-mode=close]").count():
            page.keyboard.press("f")  # « Je ferme ! »: the focus goes to a card that closes
            assert page.evaluate("document.activeElement.hasAttribute('data-closable')")
            press_and_wait(page, "Enter")
        else:
            discard_with_arrows(page)

    return turns, advised


def test_a_whole_thanasis_round_with_the_keyboard_only(live_site, axe_page):  # noqa: F811
    page = axe_page
    sign_up(page, live_site, "clavier")
    create_table(page, live_site, "thanasis", 3, ["1", "1"])
    expect(page.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
    page.evaluate(WATCH)

    # « ? »: the keys, in French, in a dialog; Échap closes it.
    page.keyboard.press("?")
    help_box = page.locator("#keys-help")
    expect(help_box).to_be_visible()
    expect(help_box).to_contain_text("Piocher")
    expect(help_box).to_contain_text("Conseil")
    problems = _violations(page, "aide du clavier")
    page.keyboard.press("Escape")
    expect(help_box).to_be_hidden()
    # The help was opened with nothing focused: once closed, the focus leaves its button (the page's "close"
    # listener, run in the browser's next task after the dialog hides), and the table's keys work even before
    # that (a « c » pressed then went nowhere, 1 time in 5 on a loaded machine, when closed dialogs kept the keys).
    page.wait_for_function("!document.getElementById('keys-help').contains(document.activeElement)", timeout=5000)

    advised = False
    turns = 0
    # A robot may close on its first turn, before mine or right after it (no robot's discard is read out then):
    # the next round is the one.
    for _ in range(4):
        turns = play_round(page, advised, problems)
        advised = advised or turns[1]
        if advised and re.search(r"a jeté (le|la|l')", " | ".join(page.evaluate("window.__said"))):
            break
        expect(page.locator("#table-round-end.is-open")).to_have_count(0, timeout=15000)  # the next round is dealt
    turns = turns[0]

    # The round is over (the next one starts a second later: the score sheet keeps the round's line).
    expect(page.locator("#table-scores tbody tr").first).to_be_visible(timeout=10000)
    assert advised, "I had a turn to draw"
    assert page.evaluate("window.__pointers") == 0, "no mouse, no touch"
    said = " | ".join(page.evaluate("window.__said"))
    # the robots' moves, read out as they happen (two Débutants: each named with its place)
    assert re.search(r"Robot Débutant [23] a pioché", said), said
    assert re.search(r"a jeté (le|la|l')", said), said
    assert "Conseil : " in said
    assert not problems, "\n".join(problems)


def test_rummikub_tiles_are_placed_with_the_keyboard(live_site, page):
    """The rack's tiles take the focus at my turn: Entrée takes one, « + » lays it in a new set, « u » puts the
    table back, « p » draws."""
    sign_up(page, live_site, "tuiles")
    create_table(page, live_site, "rummikub", 2, ["1"])
    expect(page.locator("#table-centre[data-tl-acting]")).to_be_visible(timeout=30000)
    page.evaluate(WATCH)
    page.keyboard.press("h")
    tile = page.evaluate("document.activeElement.dataset.tile")
    assert tile, "« h » puts the focus on my first tile"
    page.keyboard.press("Enter")
    expect(page.locator(f'#table-hand [data-tile="{tile}"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("+")
    expect(page.locator(f'#table-centre [data-tl-set] [data-tile="{tile}"]')).to_have_count(1)
    assert page.evaluate("document.activeElement.dataset.tile") == tile
    page.keyboard.press("u")
    expect(page.locator(f'#table-hand [data-tile="{tile}"]')).to_have_count(1)
    press_and_wait(page, "p")
    assert page.evaluate("window.__pointers") == 0
