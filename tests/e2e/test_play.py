"""Playing in a real browser against the real site (daphne, websockets, Celery bots)."""

import json
import re
import time

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.e2e]

PASSWORD = "Cartes-2026!"


def sign_up(page: Page, base: str, pseudo: str) -> None:
    page.goto(base + "/compte/inscription/")
    page.get_by_label("Pseudo").fill(pseudo)
    page.get_by_label("Mot de passe", exact=True).fill(PASSWORD)
    page.get_by_label("Confirme le mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Créer mon compte").click()
    expect(page.locator(".site-header")).to_contain_text(pseudo)


def balance(page: Page, base: str) -> int:
    page.goto(base + "/compte/profil/")
    return int(page.get_by_test_id("balance").inner_text())


def create_table(page: Page, base: str, game: str, seats: int, others: list[str], options: dict | None = None) -> None:
    page.goto(f"{base}/tables/?jeu={game}")
    form = page.locator("form#create-table, form[action$='/tables/nouvelle/']").first
    form.locator("select[name=seats_count]").select_option(str(seats))
    for name, value in (options or {}).items():
        form.locator(f"select[name=opt_{name}]").select_option(value)
    for position, choice in enumerate(others, start=1):
        form.locator(f"select[name=seat_{position}]").select_option(choice)
    form.get_by_role("button", name="Créer la table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))


def play_one_step(page: Page) -> bool:
    """Make one sensible move if it is my decision; True if something was clicked."""
    try:
        stock = page.locator("#table-centre button.pile.stock")
        if stock.count():
            stock.click(timeout=2000)
            return True
        for mode in ("close", "knock"):
            button = page.locator(f"#table-actions button[data-mode={mode}]")
            if button.count():
                button.click(timeout=2000)
                page.locator("#table-hand button.card.closable").first.click(timeout=2000)
                return True
        if page.locator("#table-hand.can-discard").count():
            cards = page.locator("#table-hand button.card")
            points = [int(p or -1) for p in cards.evaluate_all("els => els.map(e => e.dataset.points)")]
            cards.nth(points.index(max(points))).click(timeout=2000)
            return True
        take = page.locator("#table-actions button", has_text="Passer")
        if take.count():
            take.click(timeout=2000)
            return True
    except Exception:  # the element was swapped by a push between the query and the click
        return False
    return False


def play_until_match_over(pages: list[Page], limit_s: float = 420) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if all(p.locator("#table-round-end h2", has_text="Partie terminée").count() for p in pages):
            return
        moved = False
        for page in pages:
            moved |= play_one_step(page)
        if not moved:
            pages[0].wait_for_timeout(150)
    raise AssertionError("the match did not end in time")


def play_a_one_round_gin_match(page: Page, base: str) -> int:
    """A one-round Gin match against a Confirmé, played to its end from the page; returns the table's number."""
    create_table(page, base, "gin", 2, ["2"], options={"match": "1"})
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    expect(page.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
    play_until_match_over([page])
    return table_id


def test_new_player_plays_a_whole_thanasis_match_against_two_bots(live_site, page, outside_requests, artifacts_dir):
    sign_up(page, live_site, "zoe")
    start = balance(page, live_site)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
    create_table(page, live_site, "thanasis", 3, ["1", "1"])
    expect(page.locator("#table-hand button.card").first).to_be_visible(timeout=15000)

    # A card clicked before drawing is refused with its French reason, and nothing changes.
    expect(page.locator("#table-centre button.pile.stock")).to_be_visible(timeout=30000)
    before = page.locator("#table-hand button.card").count()
    posted: list[str] = []  # the same frames over HTTP, while the socket is not open yet
    page.on("request", lambda r: posted.append(r.post_data or "") if r.url.endswith("/action/") else None)

    def moves_sent() -> list[str]:
        return [f for f in frames if '"action"' in f] + [p for p in posted if "action=" in p]

    for _ in range(3):
        sent = len(moves_sent())
        page.locator("#table-hand button.card").first.click()
        try:
            expect(page.locator("#table-error")).to_contain_text("pioch", timeout=5000)
            break
        except AssertionError:
            # A push that lands as the click does replaces the hand under it: no frame leaves, click again.
            # A move that left and got no refusal is the failure.
            assert len(moves_sent()) == sent, f"a card played before drawing got no refusal: {moves_sent()[sent:]}"
    expect(page.locator("#table-error")).to_contain_text("pioch")
    expect(page.locator("#table-error a", has_text="Pourquoi")).to_be_visible()
    assert page.locator("#table-hand button.card").count() == before
    # A push that changes nothing in the game (the same player opening the table in another tab: « en ligne »)
    # leaves the refusal on screen.
    page.evaluate("document.getElementById('table-status').dataset.old = '1'")
    other_tab = page.context.new_page()
    other_tab.goto(page.url)
    expect(page.locator("#table-status:not([data-old])")).to_have_count(1, timeout=10000)
    expect(page.locator("#table-error")).to_contain_text("pioch")
    other_tab.close()

    play_until_match_over([page])
    # Every move leaves with the version the page showed (a card of the hand carries none: table.js adds it).
    moves = [frame for frame in map(json.loads, frames) if frame.get("kind") == "move"]
    assert any(move["action"] == "discard" for move in moves)
    assert all(isinstance(move.get("version"), int) for move in moves), moves
    page.screenshot(path=str(artifacts_dir / "thanasis-match-over.png"), full_page=True)
    rows = page.locator("#table-scores tbody tr")
    assert rows.count() >= 1, "the score sheet has a line per round"
    delta = page.get_by_test_id("tokens-delta-0").inner_text()
    assert re.match(r"^[+-]?\d+\s*jetons?$", delta.replace("\xa0", " "))
    header = page.locator("#my-tokens")  # the header follows the settlement, without a reload
    expect(header).not_to_have_text(f"{start} jetons")
    shown = header.inner_text()
    after = balance(page, live_site)
    assert after != start and shown == f"{after} jetons"
    assert outside_requests == []


def test_two_friends_play_gin_through_an_invite_link(live_site, browser, artifacts_dir):
    alice_ctx, bruno_ctx = browser.new_context(), browser.new_context()
    alice, bruno = alice_ctx.new_page(), bruno_ctx.new_page()
    sign_up(alice, live_site, "alice")
    create_table(alice, live_site, "gin", 2, ["human"], {"match": "1"})  # one round (the form says 100 points)
    invite = alice.locator("#invite-url").input_value()
    assert "/tables/invitation/" in invite

    sign_up(bruno, live_site, "bruno")
    bruno.goto(invite)
    bruno.wait_for_url(re.compile(r"/tables/\d+/$"))
    start = alice.get_by_role("button", name="Commencer")
    expect(start).to_be_enabled(timeout=10000)  # pushed to alice when bruno sat down
    start.click()
    expect(alice.locator("#table-hand button.card")).to_have_count(10, timeout=15000)
    expect(bruno.locator("#table-hand button.card")).to_have_count(10, timeout=15000)

    # Whoever decides first takes the upcard: the other sees, under his name, the card he took.
    take = "#table-centre button.pile.discard.is-playable"
    for _ in range(100):
        if alice.locator(take).count() or bruno.locator(take).count():
            break
        alice.wait_for_timeout(100)
    me, other = (alice, bruno) if alice.locator(take).count() else (bruno, alice)
    upcard = me.locator(take + " .card").get_attribute("aria-label")
    # Alice's page was reloaded by « Commencer »: her click may come before its scripts have run (held and
    # played then: static/js/table_early.js).
    me.locator(take).click()
    expect(other.locator("#table-opponents .seat-picked")).to_contain_text("A pris dans la défausse", timeout=15000)
    expect(other.locator(f'#table-opponents .picked-card[aria-label="{upcard}"]')).to_be_visible()
    other.screenshot(path=str(artifacts_dir / "gin-picked-upcard.png"))

    # Whoever acts first: the other sees the move without reloading.
    for _ in range(200):
        for me, other in ((alice, bruno), (bruno, alice)):
            if me.locator("#table-hand.can-discard").count():
                card = me.locator("#table-hand button.card:not(.taken)").last
                name = card.locator(".visually-hidden").first.text_content()
                card.click()
                expect(other.locator("#table-centre .pile.discard .card").first).to_have_attribute(
                    "aria-label", re.compile(re.escape(name)), timeout=5000)
                break
            play_one_step(me)
        else:
            alice.wait_for_timeout(100)
            continue
        break
    else:
        raise AssertionError("nobody could discard")

    play_until_match_over([alice, bruno])
    for who, page in (("alice", alice), ("bruno", bruno)):
        page.screenshot(path=str(artifacts_dir / f"gin-duel-{who}.png"), full_page=True)
        expect(page.locator("#table-round-end")).to_contain_text("Partie terminée")
    alice_ctx.close()
    bruno_ctx.close()


SPLIT_HAND_INTO_SINGLETONS = """async () => {
  const hand = document.querySelector('#table-hand [data-hand]');
  const cards = Array.from(hand.querySelectorAll('[data-card]'));
  const box = (cls) => { const el = document.createElement('div'); el.className = cls; return el; };
  hand.replaceChildren();
  for (const card of cards) {
    hand.append(box('hand-gap'));
    const group = box('hand-group');
    group.append(card);
    hand.append(group);
  }
  hand.append(box('hand-gap'));
  window.dispatchEvent(new Event('resize'));
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  return cards.map(card => card.getBoundingClientRect().right);
}"""


@pytest.mark.parametrize("size", [(360, 740), (1280, 800)])
def test_table_page_is_usable_on_phone_and_desktop(live_site, page, artifacts_dir, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    sign_up(page, live_site, f"ecran{width}")
    stock_or_over = page.locator("#table-centre button.pile.stock, "
                                 "#table-status .status-main:has-text('Partie terminée')")
    for _attempt in range(3):
        # Rounds are short: bots that close before my first turn twice burn me, and the match ends without me.
        create_table(page, live_site, "thanasis", 4, ["2", "2", "2"])
        expect(stock_or_over.first).to_be_visible(timeout=30000)
        if page.locator("#table-centre button.pile.stock").count():
            break
    expect(page.locator("#table-centre button.pile.stock")).to_be_visible(timeout=30000)
    page.screenshot(path=str(artifacts_dir / f"table-{width}x{height}.png"), full_page=False)
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
    stock = page.evaluate("() => document.querySelector('#table-centre button.pile.stock')"
                          ".getBoundingClientRect().height")
    assert stock >= 44
    # One script run: the hand cannot be swapped by a push (the presence one, say) in the middle of it.
    boxes = page.evaluate("() => Array.from(document.querySelectorAll('#table-hand button.card'), e => {"
                          " const r = e.getBoundingClientRect(); return [r.width, r.height, r.right]; })")
    assert boxes
    for box in boxes:
        assert box[1] >= 44 and box[2] <= width + 1, "every card is tall enough to tap and on screen"
    # A hand split into many small groups (the player's own order) still fits the row.
    rights = page.evaluate(SPLIT_HAND_INTO_SINGLETONS)
    assert rights and max(rights) <= width + 1, "a hand of single-card groups overflows the screen"
    page.locator("#table-centre button.pile.stock").click()
    expect(page.locator("#table-hand button.card")).to_have_count(11, timeout=5000)


def test_a_piece_that_arrives_unchanged_stays_in_place(live_site, page):
    """A push carries every piece; one that did not change is not swapped, so a tap under way on it (the stock
    here, when another page of mine connects and the table is pushed again) is not lost."""
    sign_up(page, live_site, "fixe")
    create_table(page, live_site, "gin", 2, ["2"])
    # My turn: nothing changes at the table until I play (and the card that landed has finished landing).
    expect(page.locator("#table-centre .is-playable").first).to_be_visible(timeout=30000)
    page.wait_for_function("() => !document.querySelector('#table-centre .land')")
    page.evaluate("""() => {
        window.__pushes = 0;
        document.addEventListener("htmx:wsAfterMessage", () => { window.__pushes += 1; });
        window.__centre = document.getElementById("table-centre");
        window.__version = document.getElementById("table-status").getAttribute("data-version");
    }""")
    other_tab = page.context.new_page()
    other_tab.goto(page.url)
    expect(other_tab.locator("#table-centre")).to_be_visible()
    page.wait_for_function("() => window.__pushes >= 1", timeout=10000)
    version, kept = page.evaluate("""() => [document.getElementById("table-status").getAttribute("data-version"),
        window.__centre.isConnected]""")
    assert version == page.evaluate("window.__version"), "nobody played: the table is the same"
    assert kept, "the centre piece was swapped by a push that changed nothing in it"
    other_tab.close()


def test_a_click_before_the_page_scripts_have_run_is_played_once_they_have(live_site, page):
    """The table is drawn before its deferred scripts (htmx, table.js) have run: a tap on a pile in that moment
    (a page just reloaded, as « Commencer » does) is held and played once they have, not lost."""
    sign_up(page, live_site, "pressé")
    create_table(page, live_site, "gin", 2, ["2"])
    playable = page.locator("#table-centre button.is-playable").first
    expect(playable).to_be_visible(timeout=30000)  # my decision: nothing changes until I play
    held, released = [], False  # the deferred scripts' requests (all but table_early.js), answered after the click

    def hold(route):
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/static/(django_htmx/.*|js/(table|tiles|team_meld)\.js)$"), hold)
    page.goto(page.url, wait_until="commit")
    expect(page.locator("#table-hand button.card")).to_have_count(10)
    assert page.evaluate("typeof htmx") == "undefined", "the page's scripts are held back"
    playable.click()
    page.wait_for_timeout(300)
    assert page.locator("#table-hand button.card").count() == 10
    released = True
    for route in held:
        route.continue_()
    expect(page.locator("#table-hand button.card")).to_have_count(11, timeout=10000)


def test_a_flooding_socket_is_closed_with_1008_by_the_real_server(live_site, page):
    """Daphne (autobahn) refuses to send 1008 unless the site lets it (rummy_site/websocket_close_codes.py)."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from tables.consumers import FLOOD_LIMIT

    sign_up(page, live_site, "bavard")
    create_table(page, live_site, "gin", 2, ["2"])
    expect(page.locator("#table-centre")).to_be_visible(timeout=30000)
    table_id = re.search(r"/tables/(\d+)/", page.url).group(1)
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    url = live_site.replace("http://", "ws://") + f"/ws/tables/{table_id}/"
    with connect(url, additional_headers={"Cookie": cookies, "Origin": live_site}, open_timeout=10) as ws:
        ws.recv(timeout=10)  # the full view
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(FLOOD_LIMIT + 5):
                ws.send(json.dumps({"kind": "chat", "text": "flood"}))
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
