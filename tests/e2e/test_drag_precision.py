"""Drops land where they are let go (issue 31 §4), in a real browser against the real site.

Rummikub: a table prepared with more sets than one row holds; tiles are dragged, with the mouse (1280×800) and
with a finger (360×740, Chromium's touch input), onto each edge, just inside, of the set that ends the first row
(the set that grows onto the next row when a tile enters it), onto « + Nouvelle combinaison », and onto places
no box covers. Each tile must land in the box under the release point, at the end the point is nearest (the
left edge: first; the right edge: last), or go back where it came from, at its place. Then, on the phone, a tile
moves by taps alone. Canasta: a hand card with the pointer resting at its bottom edge stays still (its hover
lift used to take it from under the pointer, 20 times a second), and cards dragged fast onto our meld's edges
are added to it."""

import re
from unittest import mock

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from engine import games
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play import sign_up
from tests.e2e.test_play_canasta import _prepared_table, my_turn
from tests.e2e.test_play_rami import _off_the_browser_thread, _user
from tests.engine.test_canasta_properties import rig

pytestmark = [pytest.mark.e2e]

NEW = "#table-centre [data-tl-new]"
RACK = "#table-hand [data-tl-rack]"

# Nine runs on the table ('a' copies), my rack of six 'b' tiles; the robots hold the rest and never play (it stays
# my turn: nothing here presses « Valider »).
TABLE = [["R1a", "R2a", "R3a"], ["R4a", "R5a", "R6a"], ["R7a", "R8a", "R9a"], ["R10a", "R11a", "R12a", "R13a"],
         ["Y1a", "Y2a", "Y3a"], ["Y4a", "Y5a", "Y6a"], ["Y7a", "Y8a", "Y9a"], ["B1a", "B2a", "B3a"],
         ["B4a", "B5a", "B6a"]]
MINE = ["R5b", "Y8b", "B2b", "K12b", "R11b", "Y3b"]


@_off_the_browser_thread
def _full_rows_table(host: str):
    from tables import services
    from tables.models import Game

    table = services.table_create(host=_user(host), game=Game.objects.get(slug="rummikub"), seats_count=3,
                                  bot_levels={1: 1, 2: 1}, options={"rounds": "1"}, stake=0, turn_timer_s=120)
    with mock.patch("tables.scheduler.schedule_decisions"):
        services.table_start(table=table, user=_user(host))
    table.refresh_from_db()
    engine = games.get("rummikub")
    state = table.state
    used = set(MINE) | {t for s in TABLE for t in s}
    rest = [t for t in engine.tiles if t not in used]
    state["racks"] = [list(MINE), rest[:14], rest[14:28]]
    state["table"] = [{"tiles": list(s), "kind": "run", "jokers": {}} for s in TABLE]
    state["pool"] = rest[28:]
    state.update(current=0, start=0, staged=[], passes=0, turn=0, opened=[True, False, False],
                 opened_at=[0, None, None])
    table.state = state
    table.version += 1
    table.save(update_fields=["state", "version"])
    return table


# The point to aim at, from the page as it is now: an edge of a box (just inside it), or a point no box covers.
AIM = """([kind, anchor, edge]) => {
    const board = document.querySelector('#table-centre [data-tl-board]');
    const boxes = [...document.querySelectorAll('#table-centre [data-tl-set], #table-centre [data-tl-new], '
                                                + '#table-hand [data-tl-rack]')];
    if (kind === 'outside') {  // a point of the board at least 8 px from every box, the nearest the first row's end
        const b = board.getBoundingClientRect(), rects = boxes.map(x => x.getBoundingClientRect());
        let best = null;
        for (let y = b.top + 4; y < b.bottom - 4; y += 3) for (let x = b.left + 4; x < b.right - 4; x += 3) {
            if (rects.some(r => x > r.left - 8 && x < r.right + 8 && y > r.top - 8 && y < r.bottom + 8)) continue;
            const d = Math.abs(y - rects[1].top) * 4 + Math.abs(b.right - x);
            if (!best || d < best.d) best = {x, y, d};
        }
        return best && {x: best.x, y: best.y};
    }
    const box = kind === 'new' ? document.querySelector('#table-centre [data-tl-new]')
        : document.querySelector(`#table-centre [data-tile="${anchor}"]`).closest('[data-tl-set]');
    const r = box.getBoundingClientRect(), mx = r.left + r.width / 2, my = r.top + r.height / 2;
    return {left: {x: r.left + 2, y: my}, right: {x: r.right - 2, y: my}, top: {x: mx, y: r.top + 2},
            bottom: {x: mx, y: r.bottom - 2}, middle: {x: mx, y: my}}[edge];
}"""

# Where a tile is: its box (the first tile of its set that is not this one, « rack », « new » when alone in a set)
# and its index among the box's tiles.
PLACE = """id => {
    const tile = document.querySelector(`#table-centre [data-tile="${id}"], #table-hand [data-tile="${id}"]`);
    const box = tile && tile.closest('[data-tl-set], [data-tl-new], [data-tl-rack]');
    if (!box) return null;
    const tiles = [...box.querySelectorAll('[data-tile]')].map(t => t.getAttribute('data-tile'));
    const others = tiles.filter(t => t !== id);
    const name = box.hasAttribute('data-tl-rack') ? 'rack' : others.length ? others.join(' ') : 'new';
    return {box: name, index: tiles.indexOf(id), count: tiles.length};
}"""

# The set that ends the first row of the board (the new-set slot comes first), and the row is full: the next
# set does not fit beside it.
ROW_END = """() => {
    const board = document.querySelector('#table-centre [data-tl-board]');
    const boxes = [...board.querySelectorAll('[data-tl-new], [data-tl-set]')];
    const b = board.getBoundingClientRect();
    for (let i = 0; i + 1 < boxes.length; i++) {
        const r = boxes[i].getBoundingClientRect(), next = boxes[i + 1].getBoundingClientRect();
        if (next.top > r.top + 2 && boxes[i].hasAttribute('data-tl-set'))
            return {anchor: boxes[i].querySelector('[data-tile]').getAttribute('data-tile'),
                    full: r.right + 8 + next.width > b.right - 4};
    }
    return null;
}"""


class Pointer:
    """The mouse, or one finger through Chromium's touch input (Input.dispatchTouchEvent, as a phone sends it)."""

    def __init__(self, page: Page, context, kind: str):
        self.page, self.kind = page, kind
        self.cdp = context.new_cdp_session(page) if kind == "touch" else None
        self.at = (0.0, 0.0)

    def _touch(self, kind: str) -> None:
        points = [] if kind == "touchEnd" else [{"x": self.at[0], "y": self.at[1]}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x: float, y: float) -> None:
        self.at = (x, y)
        if self.cdp:
            self._touch("touchStart")
            self.page.wait_for_timeout(180)  # SortableJS waits 120 ms before a finger drags
        else:
            self.page.mouse.move(x, y)
            self.page.mouse.down()

    def move(self, x: float, y: float) -> None:
        self.at = (x, y)
        if self.cdp:
            self._touch("touchMove")
        else:
            self.page.mouse.move(x, y)

    def up(self) -> None:
        if self.cdp:
            self._touch("touchEnd")
        else:
            self.page.mouse.up()


def _drop(page: Page, pointer: Pointer, tile: str, aim: list) -> dict:
    """Drag `tile` to the point `aim` names, aim again while the boxes move (a set the tile passed through grew by
    it, as the eye follows the goal), rest there for a few of SortableJS's 50 ms looks, let go. Returns the point
    let go at."""
    source = page.locator(f'[data-tile="{tile}"]')
    for attempt in range(5):  # a push may redraw the board between finding the tile and scrolling to it
        try:
            source.scroll_into_view_if_needed(timeout=3000)
            box = source.bounding_box(timeout=3000)
            break
        except PlaywrightError:
            if attempt == 4:
                raise
            page.wait_for_timeout(200)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    pointer.down(x, y)
    pointer.move(x + 6, y - 6)
    page.wait_for_timeout(40)
    goal = page.evaluate(AIM, aim)
    for i in range(1, 7):
        pointer.move(x + (goal["x"] - x) * i / 6, y + (goal["y"] - y) * i / 6)
        page.wait_for_timeout(20)
    for _ in range(4):
        page.wait_for_timeout(140)
        again = page.evaluate(AIM, aim)
        if abs(again["x"] - goal["x"]) < 1 and abs(again["y"] - goal["y"]) < 1:
            break
        goal = again
        pointer.move(goal["x"], goal["y"])
    pointer.up()
    page.wait_for_timeout(60)
    return goal


def _reset(page: Page, start: list) -> None:
    """« Annuler le tour »: the table as the server drew it."""
    page.evaluate("() => { const b = document.querySelector('[data-tl-reset]');"
                  " if (b && b.getAttribute('aria-disabled') === 'false') b.click(); }")
    page.wait_for_function("start => JSON.stringify([...document.querySelectorAll('#table-centre [data-tl-set]')]"
                           ".map(s => [...s.querySelectorAll('[data-tile]')].map(t => t.dataset.tile)))"
                           " === JSON.stringify(start)", arg=start)


def _sets(page: Page) -> list:
    return page.evaluate("() => [...document.querySelectorAll('#table-centre [data-tl-set]')]"
                         ".map(s => [...s.querySelectorAll('[data-tile]')].map(t => t.dataset.tile))")


def _open_table(browser, live_site, name: str, size, touch: bool):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=touch)
    page = context.new_page()
    sign_up(page, live_site, name)
    table = _full_rows_table(name)
    page.goto(f"{live_site}/tables/{table.pk}/")
    expect(page.locator("#table-status")).to_contain_text("À toi de jouer", timeout=20000)
    expect(page.locator("#table-centre[data-tl-acting]")).to_have_count(1)
    page.wait_for_function("() => [...document.querySelectorAll('#table-centre [data-tl-set]')]"
                           ".every(box => window.Sortable && Sortable.get(box))")
    page.wait_for_timeout(600)  # the pushes that follow the socket's opening
    return context, page


@pytest.mark.parametrize("kind, size", [("mouse", (1280, 800)), ("touch", (360, 740))])
def test_a_dropped_tile_lands_in_the_box_under_the_release_point(live_site, browser, kind, size):
    context, page = _open_table(browser, live_site, f"precis{kind}", size, kind == "touch")
    pointer = Pointer(page, context, kind)
    end = page.evaluate(ROW_END)
    assert end and end["full"], f"the first row is full and ends with a set: {end}"
    anchor = end["anchor"]
    table_tile = TABLE[-1][1]  # a tile of the last set: it goes back into its set, at its place
    start = _sets(page)
    plan = []
    for i, edge in enumerate(["left", "right", "top", "bottom"] * 4):
        plan.append((MINE[i % len(MINE)], ["set", anchor, edge]))
    plan += [(MINE[0], ["new", None, "middle"]), (MINE[1], ["new", None, "right"]),
             (MINE[2], ["new", None, "left"]), (table_tile, ["new", None, "top"])]
    plan += [(MINE[3], ["outside", None, None]), (MINE[4], ["outside", None, None]),
             (table_tile, ["outside", None, None]), (table_tile, ["set", anchor, "right"]),
             (MINE[5], ["set", anchor, "bottom"])]
    assert len(plan) == 25
    misses = []
    for tile, aim in plan:
        before = page.evaluate(PLACE, tile)
        point = _drop(page, pointer, tile, aim)
        if aim[0] == "outside":
            expected = before
            page.wait_for_timeout(100)
            landed = page.evaluate(PLACE, tile)
            ok = landed == before
        else:
            page.wait_for_function(f"() => !!document.querySelector('[data-tile=\"{tile}\"]')")
            landed = page.evaluate(PLACE, tile)
            if aim[0] == "new":
                expected = "alone in a new set"
                ok = landed["box"] == "new"
            else:
                expected = f"the set of {anchor}, " + {"left": "first", "right": "last"}.get(aim[2], "anywhere")
                ok = anchor in landed["box"].split() and (
                    aim[2] not in ("left", "right")
                    or landed["index"] == (0 if aim[2] == "left" else landed["count"] - 1))
        if not ok:
            misses.append(f"{tile} let go at {point} ({aim}): in {landed}, expected {expected}")
            page.screenshot(path=str(ARTIFACTS / f"drag-precision-{kind}-{len(misses)}.png"))
        _reset(page, start)
    assert not misses, "\n".join(misses)

    if kind == "touch":
        _taps(page, anchor)
    context.close()


def _taps(page: Page, anchor: str) -> None:
    """A phone without a keyboard: a tap chooses a tile, a tap on a set, on the new-set slot or on my rack moves
    it there; a tap on the chosen tile unchooses it."""
    tile = page.locator(f'[data-tile="{MINE[0]}"]')
    tile.tap()
    expect(tile).to_have_attribute("aria-pressed", "true")
    expect(tile).to_have_class(re.compile(r"\bis-picked\b"))
    tile.tap()
    expect(tile).to_have_attribute("aria-pressed", "false")
    tile.tap()
    target = page.locator(f'#table-centre [data-tl-set]:has([data-tile="{anchor}"])')
    target.scroll_into_view_if_needed()
    target.tap(position={"x": 3, "y": 3})  # the set's corner, not a tile
    expect(page.locator(f'#table-centre [data-tl-set]:has([data-tile="{anchor}"]) [data-tile="{MINE[0]}"]')) \
        .to_have_count(1)
    expect(tile).to_have_attribute("aria-pressed", "false")
    # a tap on a tile of another box puts the chosen tile in that box: here my rack
    page.locator(f'#table-centre [data-tile="{MINE[0]}"]').tap()
    page.locator(f'{RACK} [data-tile="{MINE[1]}"]').tap()
    expect(page.locator(f'{RACK} [data-tile="{MINE[0]}"]')).to_have_count(1)
    # and the new-set slot
    page.locator(f'{RACK} [data-tile="{MINE[2]}"]').tap()
    page.locator(NEW).tap()
    expect(page.locator(f'#table-centre [data-tl-set]:has([data-tile="{MINE[2]}"]) [data-tile]')).to_have_count(1)
    expect(page.locator("#table-centre [data-tile][aria-pressed=true], #table-hand [data-tile][aria-pressed=true]")) \
        .to_have_count(0)


# ---------------------------------------------------------------------------------------------------- Canasta

HAND = ["KS1", "KH2", "2S1", "2D1", "9D1", "5S1", "5H1", "7S1"]
KINGS = ["KS2", "KH1", "KD2"]


def _kings_to_add(game):
    from tests.e2e.test_play_canasta import LEFT, PARTNER, RIGHT

    state = rig(game, {0: HAND, 1: LEFT, 2: PARTNER, 3: RIGHT}, current=0, phase="MELD",
                melds={"A": [("K", KINGS)]}, pile=["7C1", "KD1"], scores={"A": 1000, "B": 1200})
    return state


BOTTOM = """id => new Promise(done => {
    const card = document.querySelector(`#table-hand [data-card="${id}"]`), tops = [];
    const frame = () => { tops.push(Math.round(card.getBoundingClientRect().top * 10) / 10);
                          if (tops.length < 40) requestAnimationFrame(frame); else done(tops); };
    requestAnimationFrame(frame);
})"""


def test_canasta_a_hand_card_under_a_resting_pointer_stays_still_and_drops_onto_our_meld(live_site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_up(page, live_site, "precisecn")
    table = _prepared_table("precisecn", "canasta", _kings_to_add)
    page.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(page)
    page.wait_for_timeout(600)

    # the pointer rests 2 px above a hand card's bottom edge: it rises once and stays up
    for card in ("9D1", "5H1"):
        box = page.locator(f'#table-hand [data-card="{card}"]').bounding_box()
        page.mouse.move(box["x"] + box["width"] - 6, box["y"] + box["height"] - 2)
        page.wait_for_timeout(400)
        tops = page.evaluate(BOTTOM, card)
        assert len(set(tops)) == 1, f"{card} moved under the resting pointer: {tops}"
        assert tops[0] < box["y"] - 5, "the hovered card is lifted"
        page.mouse.move(5, 5)

    # cards dragged fast onto our meld's edges (just inside) are added to it, with the mouse
    kings = page.locator('#table-centre [data-cn-meld][data-rank="K"]')
    for n, (card, edge) in enumerate((("KS1", "right"), ("2S1", "bottom"), ("KH2", "top")), 1):
        source = page.locator(f'#table-hand [data-card="{card}"]').bounding_box()
        goal = kings.bounding_box()
        gx, gy = {"right": (goal["x"] + goal["width"] - 2, goal["y"] + goal["height"] / 2),
                  "left": (goal["x"] + 2, goal["y"] + goal["height"] / 2),
                  "top": (goal["x"] + goal["width"] / 2, goal["y"] + 2),
                  "bottom": (goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] - 2)}[edge]
        x, y = source["x"] + 8, source["y"] + source["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 6, y - 6)
        page.mouse.move(gx, gy, steps=3)  # fast: the pointer is over the meld before SortableJS looks
        page.mouse.up()
        expect(page.locator(f'#table-hand [data-card="{card}"]')).to_have_count(0, timeout=5000)
        expect(kings).to_contain_text(f"{3 + n}/7", timeout=5000)
        my_turn(page)
        page.wait_for_timeout(300)
    context.close()
