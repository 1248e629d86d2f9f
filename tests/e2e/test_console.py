"""No console error on any page of a table (issue 31 §1): for each of the ten games, the seat's page a few moves
in, the replay of its first round and the spectator's page. A console error is whatever Chromium logs as one —
a script error, a CSP refusal (« Refused to apply inline style… »), a failed request (« Failed to load
resource… », a 404 /favicon.ico) — plus any answer of 400 or more and any uncaught exception.

Each table is set up in the test process (robots at Débutant, my seat autoplayed as if my timer ran out) until
its first round is over and the second has started at my turn, so the replay has a round to show. One browser
context for the seat and one for the spectator, reused from game to game."""

import re

import pytest
from playwright.sync_api import Page, expect

from engine import games as engine_games
from tests.e2e.test_play import sign_up
from tests.e2e.test_play_rami import _off_the_browser_thread, _user

pytestmark = [pytest.mark.e2e]

ALL_GAMES = engine_games.available()  # every registered game, in the catalogue's order


@_off_the_browser_thread
def _table_in_its_second_round(host: str, slug: str):
    """A private table of four (me and three Débutant robots), played in this process through its first
    round; the second round waits for my move. Public afterwards, so a logged-in friend may watch."""
    from engine import games
    from tables import tasks
    from tables.models import Table
    from tests.tables.helpers import create_table

    table = create_table(_user(host), slug, seats=4, bots={1: 1, 2: 1, 3: 1}, stake=0)
    engine = games.get(slug)
    for _ in range(3000):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        state = table.state
        if state.get("round", 1) > 1 and 0 in engine.to_act(state):
            break
        to_act = engine.to_act(state)
        if not to_act:
            tasks.next_round.run(table.pk, table.version)
        elif 0 in to_act:
            tasks.autoplay_turn.run(table.pk, table.version, 0)
        else:
            tasks.bot_turn.run(table.pk, table.version, to_act[0])
    Table.objects.filter(pk=table.pk).update(private=False)
    return table.pk


def _autoplay_my_move(page: Page, table_id: int) -> bool:
    """My move as the rules' autoplay would make it, sent the way the page sends one (its HTTP fallback)."""
    from engine import games
    from tables.models import Table

    table = Table.objects.select_related("game").get(pk=table_id)
    engine = games.get(table.game.slug)
    if table.status != Table.Status.PLAYING or 0 not in engine.to_act(table.state):
        return False
    move = engine.autoplay(table.state, 0)
    page.evaluate("""([move, version]) => {
      const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
      return fetch(document.querySelector('[data-action-url]').getAttribute('data-action-url'), {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-CSRFToken': token},
        body: JSON.stringify(Object.assign({kind: 'move', version}, move))}).then(r => r.status);
    }""", [move, table.version])
    return True


def _listen(page: Page, errors: list[str], where: list[str]) -> None:
    def console(msg):
        if msg.type == "error":
            errors.append(f"{where[0]}: console: {msg.text}")

    def response(resp):
        if resp.status >= 400:
            errors.append(f"{where[0]}: {resp.status} {resp.url}")

    page.on("console", console)
    page.on("pageerror", lambda exc: errors.append(f"{where[0]}: exception: {exc}"))
    page.on("response", response)


def test_no_console_error_on_any_table_replay_or_watch_page(live_site, browser):
    seat_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    watch_ctx = browser.new_context(viewport={"width": 360, "height": 740})
    seat, watcher = seat_ctx.new_page(), watch_ctx.new_page()
    errors: list[str] = []
    where = ["inscription"]
    _listen(seat, errors, where)
    _listen(watcher, errors, where)
    seat.goto(f"{live_site}/regles/")
    seat.evaluate("console.error('sonde')")  # the listeners hear what they should
    seat.wait_for_timeout(100)
    assert errors == ["inscription: console: sonde"], errors
    errors.clear()
    sign_up(seat, live_site, "console")
    sign_up(watcher, live_site, "regard")
    for slug in ALL_GAMES:
        table_id = _table_in_its_second_round("console", slug)
        where[0] = f"{slug} (table)"
        seat.goto(f"{live_site}/tables/{table_id}/")
        expect(seat.locator("#table-status")).to_be_visible()
        for _ in range(2):  # a few moves: mine, then the robots' until my turn comes back
            version = seat.locator("#table-status").get_attribute("data-version")
            if not _autoplay_my_move(seat, table_id):
                break
            expect(seat.locator("#table-status")).not_to_have_attribute("data-version", version, timeout=10000)
            seat.locator('#table-status[data-my-turn="1"], #table-round-end.is-open').first.wait_for(timeout=15000)
        seat.wait_for_timeout(300)

        where[0] = f"{slug} (spectateur)"
        watcher.goto(f"{live_site}/tables/{table_id}/regarder/")
        expect(watcher.get_by_test_id("spectating")).to_be_visible()
        version = watcher.locator("#table-status").get_attribute("data-version")
        if _autoplay_my_move(seat, table_id):  # a move pushed to the spectator too
            expect(watcher.locator("#table-status")).not_to_have_attribute("data-version", version, timeout=10000)
        watcher.wait_for_timeout(300)

        where[0] = f"{slug} (revoir)"
        seat.goto(f"{live_site}/tables/{table_id}/revoir/1/")
        position = seat.get_by_test_id("replay-position")
        expect(position).to_contain_text("La donne")
        seat.keyboard.press("ArrowRight")
        expect(position).to_contain_text("Coup 1")
        seat.keyboard.press("End")
        expect(position).to_have_text(re.compile(r"Coup (\d+) sur \1$"))
        seat.wait_for_timeout(300)
        assert re.search(rf"/tables/{table_id}/revoir/1/", seat.url)
    seat_ctx.close()
    watch_ctx.close()
    assert not errors, "\n".join(errors)


def test_no_console_error_on_the_pages_around_the_tables(live_site, browser):
    """The bell's socket on every page, « Mes parties », the notifications, « Mes amis », the profile."""
    from tests.e2e.test_accessibility import _slow_table_and_a_notification

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors: list[str] = []
    where = ["inscription"]
    _listen(page, errors, where)
    sign_up(page, live_site, "autour")
    _slow_table_and_a_notification("autour")
    from tests.e2e.test_accessibility import _tournament_with_an_entry

    tournament = _tournament_with_an_entry("autour")
    for path in ("/", "/tables/mes-parties/", "/compte/notifications/", "/amis/", "/compte/profil/", "/tournois/",
                 f"/tournois/{tournament}/", "/saisons/thanasis/"):
        where[0] = path
        page.goto(live_site + path)
        expect(page.locator("#bell")).to_have_attribute("data-count", "1")
        page.wait_for_timeout(300)  # the bell's socket opened and answered
    assert not errors, "\n".join(errors)
