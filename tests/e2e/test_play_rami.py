"""Rami (13 cartes) in a real browser against the real site: the table-meld layout.

The tables are created in the test process through the services, then their first deal is replaced by a
scripted one (same cards, rearranged: the engine checks moves, not how a deal came about), so the test
knows there is a first lay-down of 30, a lay-off and a joker swap to make. The site runs in its own
processes (tests/e2e/conftest.py) on the same database: the browser only sees what the server renders.
"""

import re
import time
from unittest import mock

import pytest
from playwright.sync_api import Page, expect

from engine import bots, games
from tests.e2e.test_play import sign_up

pytestmark = [pytest.mark.e2e]

RAMI_BOTS = bots.supports("rami")


def _user(name: str):
    from accounts.models import User

    return User.objects.get(username=name)


def _off_the_browser_thread(fn):
    """Run set-up code in a worker thread: Playwright's event loop owns this one, and the services'
    pushes (async_to_sync) refuse to run beside a running loop."""
    from concurrent.futures import ThreadPoolExecutor
    from functools import wraps

    from django.db import connection

    @wraps(fn)
    def run(*args, **kwargs):
        def call():
            try:
                return fn(*args, **kwargs)
            finally:
                connection.close()

        with ThreadPoolExecutor(1) as pool:
            return pool.submit(call).result()

    return run


@_off_the_browser_thread
def _start_table(host: str, others: list[str], bot_levels: dict[int, int], options: dict):
    """A Rami table started in this process; nothing is scheduled here (the site plays the bots)."""
    from tables import services
    from tables.models import Game

    seats = 1 + len(others) + len(bot_levels)
    with mock.patch("tables.families.live_slugs", return_value=["rami"]):
        table = services.table_create(host=_user(host), game=Game.objects.get(slug="rami"), seats_count=seats,
                                      bot_levels=bot_levels, options=options, stake=0, turn_timer_s=60)
    for name in others:
        services.seat_join(table=table, user=_user(name))
    with mock.patch("tables.scheduler.schedule_decisions"):
        services.table_start(table=table, user=_user(host))
    table.refresh_from_db()
    return table


@_off_the_browser_thread
def _script_deal(table, hands: dict[int, list[str]], melds=(), current=0, top=None):
    """Rearrange the dealt cards: given hands and table melds, the others' hands refilled from the rest,
    seat `current` to draw (with `top` on the stock). Every card of the deck stays in play exactly once."""
    engine = games.get("rami")
    state = table.state
    n = state["seats"]
    placed = {c for hand in hands.values() for c in hand} | {c for m in melds for c in m[1]}
    dealt = [c for hand in state["hands"] for c in hand] + state["discard"] + state["stock"][::-1]  # shuffled
    rest = [c for c in dealt if c not in placed and c != top]
    state["table"] = [{"id": f"M{i}", "owner": owner, "cards": list(cs), "wilds": dict(wilds), "kind": kind}
                      for i, (owner, cs, wilds, kind) in enumerate(melds, start=1)]
    state["opened"] = [any(m[0] == s for m in melds) for s in range(n)]
    for seat in range(n):
        if seat not in hands:
            size = engine.hand_size - sum(len(m[1]) for m in melds if m[0] == seat)
            hands[seat] = [rest.pop(0) for _ in range(size)]
    state["hands"] = [list(hands[s]) for s in range(n)]
    state["discard"] = [rest.pop(0)]
    state["stock"] = rest + ([top] if top else [])
    state.update(current=current, phase="DRAW", staged=[], taken_card=None)
    zones = (*state["hands"], state["stock"], state["discard"], *(m["cards"] for m in state["table"]))
    assert sorted(c for zone in zones for c in zone) == sorted(engine.deck)
    table.state = state
    table.version += 1
    table.save(update_fields=["state", "version"])
    return table


def choose(page: Page, *cards: str) -> None:
    """Touch each card (on its left edge: overlapped cards show their corner there), as a player does: a touch that
    did not take (the hand redrawn by a push under the finger) is touched again."""
    for card in cards:
        locator = page.locator(f'#table-hand [data-card="{card}"]')
        for attempt in range(3):
            locator.click(position={"x": 8, "y": 30})
            try:
                expect(locator).to_have_attribute("aria-pressed", "true", timeout=2000)
                break
            except AssertionError:
                if attempt == 2:
                    raise


def test_a_lay_down_under_30_is_refused_with_its_french_reason(live_site, browser, artifacts_dir):
    lea_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    max_ctx = browser.new_context(viewport={"width": 360, "height": 740})  # the other player is on a phone
    lea, maxi = lea_ctx.new_page(), max_ctx.new_page()
    sign_up(lea, live_site, "lea")
    sign_up(maxi, live_site, "max")
    table = _start_table("lea", ["max"], {}, {"point_limit": "100"})
    low = ["2C1", "3C1", "4C1"]
    _script_deal(table, {0: [*low, "KD1", "9S1", "JH2", "5D2", "8H1", "QC2", "7S2", "10D1", "6H2", "AS2"]},
                 current=0, top="KS2")
    for page in (lea, maxi):
        page.goto(f"{live_site}/tables/{table.pk}/")
    expect(lea.locator("#table-status")).to_contain_text("À toi de jouer", timeout=10000)
    expect(lea.locator("#table-centre .tm-table")).to_contain_text("Aucune combinaison")

    lea.locator("#table-centre button.pile.stock").click()
    expect(lea.locator("#table-hand [data-card]")).to_have_count(14, timeout=5000)
    choose(lea, *low)
    expect(lea.locator("[data-tm-selection]")).to_contain_text("il en manque 21")
    lea.locator("[data-tm-act=meld]").click()
    # Staged: my preview shows the meld and warns before I commit; the other player sees nothing.
    expect(lea.locator(".tm-meld.is-new")).to_have_count(1, timeout=5000)
    expect(lea.get_by_test_id("commit-warning")).to_contain_text("au moins 30 points")
    expect(maxi.locator("#table-centre .tm-table")).to_contain_text("Aucune combinaison")
    expect(maxi.locator(".tm-meld")).to_have_count(0)
    maxi.screenshot(path=str(artifacts_dir / "rami-other-player-360.png"), full_page=True)
    assert not maxi.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")

    choose(lea, "KD1")
    lea.locator("[data-tm-act=discard]").click()
    error = lea.locator("#table-error")
    expect(error).to_contain_text("Ta première pose doit valoir au moins 30 points", timeout=5000)
    expect(error).to_contain_text("9")
    expect(error.locator("a", has_text="Pourquoi")).to_have_attribute("href", re.compile(r"/regles/rami/"))
    lea.screenshot(path=str(artifacts_dir / "rami-refused-1280.png"))
    assert lea.locator('#table-hand [data-card="KD1"]').count() == 1, "the refused discard changed nothing"

    # « Annuler » takes the meld back into my hand; then the discard ends my turn.
    lea.get_by_role("button", name="Annuler", exact=True).click()
    expect(lea.locator(".tm-meld")).to_have_count(0, timeout=5000)
    expect(lea.locator("#table-hand [data-card]")).to_have_count(14)
    expect(lea.locator('#table-hand [data-card="KD1"]')).to_have_attribute("aria-pressed", "true")  # still chosen
    lea.locator("[data-tm-act=discard]").click()
    expect(maxi.locator("#table-status")).to_contain_text("À toi de jouer", timeout=5000)
    expect(maxi.locator("#table-centre .pile.discard .card").first).to_have_attribute("aria-label", "Roi de carreau")
    lea_ctx.close()
    max_ctx.close()


def _settled(page: Page, version: str | None) -> None:
    """Wait until the server answered my last action: a new version pushed, or a refusal shown."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if page.locator("#table-status").get_attribute("data-version") != version or page.locator(
                "#table-error p").count():
            return
        page.wait_for_timeout(50)


def _play_my_turn(page: Page) -> bool:
    """One decision from what the page shows: draw; lay down what is suggested, lay off, go out or discard."""
    try:
        version = page.locator("#table-status").get_attribute("data-version")
        refused = page.locator("#table-error p").count() > 0
        if page.locator("#table-centre button.pile.stock").count():
            page.locator("#table-centre button.pile.stock").click(timeout=2000)
        elif not page.locator("#table-hand.tm-acting").count():
            return False
        elif page.locator("#table-actions button:not([aria-disabled])", has_text="Sortir").count():
            page.locator("#table-actions button:not([aria-disabled])", has_text="Sortir").click(timeout=2000)
        elif refused and page.locator(".tm-staged").count():
            page.get_by_role("button", name=re.compile("^(Tout annuler|Annuler)$")).first.click(timeout=2000)
            page.locator("#table-error").evaluate("e => e.innerHTML = ''")
        elif not refused and page.locator("[data-tm-pick]").count():
            page.keyboard.press("Escape")  # start from an empty choice
            page.locator("[data-tm-pick]").first.click(timeout=2000)
            page.locator("[data-tm-act=meld]").click(timeout=2000)
        elif not refused and page.locator('#table-hand [data-card]:not([data-fits=""])').count():
            page.keyboard.press("Escape")
            page.locator('#table-hand [data-card]:not([data-fits=""])').first.click(position={"x": 8, "y": 30})
            page.locator("#table-centre .tm-end.fits").first.click(timeout=2000)
        else:
            cards = page.locator("#table-hand [data-card]:not(.taken)")
            ids = cards.evaluate_all("els => els.map(e => [e.dataset.card, parseInt(e.dataset.points || '0', 10)])")
            if not ids:
                return False
            natural = [c for c in ids if not c[0].startswith("JK")] or ids
            page.keyboard.press("Escape")
            choose(page, max(natural, key=lambda c: c[1])[0])
            page.locator("[data-tm-act=discard]").click(timeout=2000)
        _settled(page, version)
        return True
    except Exception:  # a push swapped the element between the query and the click
        return False


@pytest.mark.skipif(not RAMI_BOTS, reason="no Rami bots yet: engine.bots.supports('rami') is False, so the lobby "
                    "does not offer Rami and the site cannot fill the bot seats")
def test_new_player_plays_a_whole_rami_match_against_bots(live_site, page, artifacts_dir, outside_requests):
    page.set_viewport_size({"width": 1280, "height": 800})
    sign_up(page, live_site, "nina")
    table = _start_table("nina", [], {1: 1, 2: 1}, {"point_limit": "1"})
    hand = ["10S1", "JS1", "QS1", "7D1", "6H1", "2C1", "9C1", "KD1", "8S2", "4H2", "JC1", "6S1", "3S2"]
    _script_deal(table, {0: hand},
                 melds=[(1, ["5H1", "JK1", "7H1"], {"JK1": "6H"}, "run"), (2, ["4D1", "5D1", "6D1"], {}, "run")],
                 current=0, top="QD2")
    page.goto(f"{live_site}/tables/")
    page.get_by_role("link", name=re.compile(f"Reprendre.*table n° {table.pk}")).click()
    expect(page.locator("#table-status")).to_contain_text("À toi de jouer", timeout=10000)
    expect(page.locator("#table-centre .round-no")).to_contain_text("Partie en une manche")
    page.screenshot(path=str(artifacts_dir / "rami-draw-1280.png"))

    page.locator("#table-centre button.pile.stock").click()
    expect(page.locator("#table-hand [data-card]")).to_have_count(14, timeout=5000)

    # First lay-down: V♠ D♠ and the 10♠ make 30 points, counted before anything is committed.
    choose(page, "10S1", "JS1", "QS1")
    expect(page.locator("[data-tm-selection]")).to_contain_text("30 / 30")
    page.locator("[data-tm-act=meld]").click()
    expect(page.locator(".tm-opening")).to_contain_text("30", timeout=5000)
    expect(page.locator(".tm-opening .tm-ok")).to_be_visible()

    # Lay-off by drag and drop: the 7♦ onto the arrow at the high end of 4♦ 5♦ 6♦.
    card = page.locator('#table-hand [data-card="7D1"]')
    arrow = page.locator('#table-centre .tm-end[data-meld-id="M2"][data-end="high"]')
    box, goal = card.bounding_box(), arrow.bounding_box()
    page.mouse.move(box["x"] + 10, box["y"] + 30)
    page.mouse.down()
    page.mouse.move(box["x"] + 30, box["y"] + 10, steps=4)
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=12)
    expect(arrow).to_have_class(re.compile("drop-hover"))
    page.mouse.up()
    expect(page.locator('#table-centre .tm-meld[data-meld-id="M2"] .tm-card')).to_have_count(4, timeout=5000)
    expect(page.locator(".tm-staged")).to_contain_text("Ajouter 7♦")

    # Joker swap by tapping: choose the 6♥, touch the joker that stands for it.
    choose(page, "6H1")
    joker = page.locator('#table-centre [data-meld-id="M1"][data-joker="JK1"]')
    expect(joker).to_have_class(re.compile("fits"))
    joker.click()
    expect(page.locator('#table-hand [data-card="JK1"]')).to_have_count(1, timeout=5000)
    expect(page.locator(".tm-staged")).to_contain_text("Échanger le joker")
    page.screenshot(path=str(artifacts_dir / "rami-staged-1280.png"))

    choose(page, "KD1")
    page.locator("[data-tm-act=discard]").click()
    expect(page.locator(".tm-staged")).to_have_count(0, timeout=5000)
    expect(page.locator(".tm-owner.is-me .tm-meld")).to_have_count(1)
    expect(page.locator(".tm-meld.is-new")).to_have_count(0)
    expect(page.locator("#hand-title .seat-opened")).to_have_text("a posé")

    deadline = time.monotonic() + 480
    while not page.locator("#table-round-end h2", has_text="Partie terminée").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        if not _play_my_turn(page):
            page.wait_for_timeout(200)
    round_end = page.locator("#table-round-end")
    expect(round_end).to_contain_text("Partie terminée")
    expect(round_end.locator(".reveal")).to_have_count(3)
    expect(round_end).to_contain_text(re.compile(r"Cartes restées en main|Plus aucune carte en main"))
    page.screenshot(path=str(artifacts_dir / "rami-match-over-1280.png"), full_page=True)
    assert outside_requests == []
