"""The partnership Canastas in a real browser against the real site, a new player with a robot partner against
two robots.

Each table is created in the test process through the services, then its deal is replaced by a prepared hand
(the same pieces, rearranged: the engine checks moves, not how a deal came about) near its end, so the player
reaches the moments that matter in a few clicks: asking the partner « Partenaire, puis-je sortir ? » (the robot
answers through its normal turn), taking the pile onto our meld to close a canasta, laying down a meld,
going out and reading the sheet; in the tile game the « Joker » button, a meld with a joker tile, a lay-off
closing a canasta and the last discard; and a first meld under the minimum refused with its French reason.
Two tests play whole hands from a deal instead (a card hand: the pile taken with a first meld and a natural
canasta, then drawn and discarded to the hand's end; a tile round the same way), and one seats a friend as the
partner, who answers the question « Non » then « Oui » from his own browser.
The site runs in its own processes on the same database: the browser only sees what the server renders."""

import random
import re
from unittest import mock

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from engine import games
from tests.e2e.test_accessibility import _violations
from tests.e2e.test_layout import LAST_MOVE_CUT
from tests.e2e.test_play import sign_up
from tests.e2e.test_play_rami import _off_the_browser_thread, _user
from tests.e2e.test_play_thunee import _act, _version
from tests.engine.test_canasta_properties import rig

pytestmark = [pytest.mark.e2e]


@_off_the_browser_thread
def _prepared_table(host: str, slug: str, state_of, options=None, jokers=0, partner: str | None = None):
    """A table of `slug` with the host at seat 0 and Débutant robots (seat 2 is his partner: a robot, or the
    friend `partner`), its state replaced by `state_of(game)`, seat 0 to play. Nothing is scheduled here: the site
    plays the robots."""
    from accounts.models import Counter, CounterEntry
    from accounts.services import counter_move
    from tables import services
    from tables.models import Game

    user = _user(host)
    if jokers:
        counter_move(user=user, kind=Counter.Kind.JOKERS, amount=jokers, reason=CounterEntry.Reason.GRANT,
                     idempotency_key=f"e2e-jokers-{host}")
    with mock.patch("tables.scheduler.schedule_decisions"), \
            mock.patch("tables.families.live_slugs", return_value=[slug]):
        robots = {1: 1, 3: 1} if partner else {1: 1, 2: 1, 3: 1}
        table = services.table_create(host=user, game=Game.objects.get(slug=slug), seats_count=4,
                                      bot_levels=robots, options=options or {}, stake=0, turn_timer_s=60)
        if partner:
            assert services.seat_join(table=table, user=_user(partner)).position == 2
        services.table_start(table=table, user=user)
    table.refresh_from_db()
    state = state_of(games.get(slug))
    state["seed"] = table.state["seed"]
    if jokers:
        state["jokers"] = [jokers, 0, 0, 0]
    table.state = state
    table.version += 1
    table.save(update_fields=["state", "version"])
    return table


PRESSED = """() => Array.from(document.querySelectorAll('#table-hand [data-card][aria-pressed="true"]'))
  .map(el => el.getAttribute('data-card'))"""


def choose(page: Page, *pieces: str) -> None:
    """Choose the pieces, one click each. A push that lays the hand out again between the aim and the click may
    land it on a neighbour: that one is touched again (unchosen) and the piece clicked anew."""
    for piece in pieces:
        card = page.locator(f'#table-hand [data-card="{piece}"]')
        for _attempt in range(3):
            before = set(page.evaluate(PRESSED))
            card.click(position={"x": 8, "y": 20})  # the left edge: overlapped cards show their corner there
            try:
                expect(card).to_have_attribute("aria-pressed", "true", timeout=2000)
                break
            except AssertionError:
                for stray in set(page.evaluate(PRESSED)) - before:
                    page.locator(f'#table-hand [data-card="{stray}"]').click(position={"x": 8, "y": 20})
        expect(card).to_have_attribute("aria-pressed", "true")


def press(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def _drag_once(page: Page, piece: str, target: str) -> None:
    source = page.locator(f'#table-hand [data-card="{piece}"]').bounding_box()
    goal = page.locator(target).first.bounding_box()
    if source is None or goal is None:  # swapped by a push just now
        page.wait_for_timeout(200)
        return
    x, y = source["x"] + 8, source["y"] + source["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 6, y + 6, steps=2)
    page.wait_for_timeout(60)
    gx, gy = goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2
    for i in range(1, 9):
        page.mouse.move(x + (gx - x) * i / 8, y + (gy - y) * i / 8)
        page.wait_for_timeout(25)
    page.wait_for_timeout(100)
    page.mouse.up()


def drag(page: Page, piece: str, target: str, landed) -> None:
    """Drag a card of my hand with the mouse (SortableJS drags a finger the same way) onto `target`; like a
    player, again if a push redrew the table under the pointer."""
    for _ in range(4):
        try:
            _drag_once(page, piece, target)
        except PlaywrightError:
            page.mouse.up()
        try:
            landed()
            return
        except AssertionError:
            continue
    raise AssertionError(f"{piece} did not land on {target}")


def my_turn(page: Page) -> None:
    expect(page.locator("#table-status")).to_contain_text("À toi de jouer", timeout=20000)


def fits_the_screen(page: Page) -> None:
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")


# Canasta classique. Our team (seats 0 and 2) has five kings down and 4,900 points: this hand ends the match.
# The pile: the 7 of clubs under the king of diamonds. The robots (Débutant) hold one card of each rank they
# have and draw wilds: they can neither meld nor take the pile, nor lay a natural on our melds (my partner may
# lay his wilds there). The stock's top cards are known: a 2 for the robot on my left, a 2 for my partner, a
# joker for the robot on my right, then the 5 of diamonds for me.
KINGS = ["KS2", "KH1", "KD2", "KC1", "KC2"]
MINE = ["KS1", "KH2", "7S1", "7H1", "7D2", "9D1", "5S1", "5H1"]
LEFT = ["3S1", "4S1", "5S2", "6S1", "7S2", "8S1", "9S1", "10S1", "JS1", "QS1", "AS1"]
PARTNER = ["3C1", "4H1", "5C1", "6H1", "8H1", "9H1", "10H1", "JH1", "QH1", "AH1", "2C1"]
RIGHT = ["3S2", "4D1", "5D2", "6D1", "7H2", "8D1", "9C1", "10D1", "JD1", "QD1", "AD1"]
DRAWS = ["5D1", "JK1", "2H1", "2S1"]  # the stock's top is the last


def _near_the_end(game):
    state = rig(game, {0: MINE, 1: LEFT, 2: PARTNER, 3: RIGHT}, current=0, phase="DRAW",
                melds={"A": [("K", KINGS)]}, pile=["7C1", "KD1"], scores={"A": 4900, "B": 1200})
    state["stock"] = [c for c in state["stock"] if c not in DRAWS] + DRAWS
    return state


def test_a_whole_canasta_hand_with_a_robot_partner(live_site, browser, artifacts_dir):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)  # bypass: axe
    page = context.new_page()
    sign_up(page, live_site, "canasta1")
    table = _prepared_table("canasta1", "canasta", _near_the_end)
    page.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(page)
    us, them = page.get_by_test_id("team-us"), page.get_by_test_id("team-them")
    expect(page.locator("#table-hand [data-card]")).to_have_count(8)
    expect(us).to_contain_text("Nous")
    expect(us.locator('[data-rank="K"]')).to_contain_text("5/7")
    expect(them).to_contain_text("Eux")
    expect(page.get_by_test_id("pile-count")).to_have_text("2")
    expect(page.get_by_test_id("seat-2")).to_contain_text("Partenaire")
    expect(page.get_by_test_id("seat-2")).to_contain_text("11")
    fits_the_screen(page)
    page.screenshot(path=str(artifacts_dir / "canasta-start.png"))
    assert not (problems := _violations(page, "canasta")), "\n".join(problems)

    # Taking the pile is one move: the king on top with my two kings, onto our kings: a canasta
    choose(page, "KS1", "KH2")
    press(page, "Prendre la pile")
    kings = us.locator('[data-rank="K"]')
    expect(kings).to_contain_text("Canasta naturelle", timeout=10000)
    expect(kings).to_contain_text("8/7")
    expect(page.locator('#table-hand [data-card="7C1"]')).to_have_count(1)  # the rest of the pile, to my hand

    # A meld, staged: mine only until my discard
    choose(page, "7S1", "7H1", "7D2", "7C1")
    press(page, "Déposer")
    expect(page.get_by_test_id("staged")).to_contain_text("Déposer 7♠ 7♥ 7♦ 7♣ (20 pts)", timeout=10000)
    expect(us.locator('[data-rank="7"]')).to_contain_text("4/7")
    page.screenshot(path=str(artifacts_dir / "canasta-staged.png"))
    choose(page, "9D1")
    press(page, "Défausser")

    # The three robots play; then « Partenaire, puis-je sortir ? »: my robot partner answers by itself
    expect(page.locator("#table-move-log li")).to_have_count(4, timeout=30000)  # my turn, then each robot's
    my_turn(page)
    press(page, "Partenaire, puis-je sortir\u00a0?")
    expect(page.get_by_test_id("go-out-answer")).to_contain_text("a répondu oui", timeout=15000)
    press(page, "Piocher")
    expect(page.locator('#table-hand [data-card="5D1"]')).to_have_count(1, timeout=10000)
    choose(page, "5S1", "5H1", "5D1")
    press(page, "Déposer")
    press(page, "Sortir")

    sheet = page.get_by_test_id("round-sheet")
    expect(sheet).to_be_visible(timeout=15000)
    expect(page.get_by_test_id("celebrate")).to_contain_text("Canasta !")
    expect(page.locator("#table-round-end")).to_contain_text("Tu es sorti")
    for line in ("Combinaisons posées", "Primes de canasta", "3 rouges", "Prime de sortie", "Cartes restées en main"):
        expect(sheet).to_contain_text(line)
    expect(sheet.locator("tr", has_text="Primes de canasta")).to_contain_text(re.compile(r"\+[35]00"))
    expect(page.get_by_test_id("winner-line")).to_contain_text("Bravo, ton équipe a gagné")
    page.screenshot(path=str(artifacts_dir / "canasta-end.png"))
    context.close()


def test_a_first_meld_under_the_minimum_is_refused_in_french(live_site, browser, artifacts_dir):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_up(page, live_site, "canasta2")
    low = ["7S1", "7H1", "7D2"]
    table = _prepared_table("canasta2", "canasta", lambda game: rig(
        game, {0: [*low, "9D1", "JH1", "QC2", "4D1", "6S1", "8C1", "10S1", "AS1"]}, current=0, phase="DRAW",
        pile=["5D1"], scores={"A": 0, "B": 0}))
    page.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(page)
    expect(page.get_by_test_id("minimum-us")).to_contain_text("50")
    page.locator("#table-centre button.pile.stock").click()
    expect(page.locator("#table-hand [data-card]")).to_have_count(12, timeout=10000)
    choose(page, *low)
    press(page, "Déposer")
    staged = page.get_by_test_id("staged")
    expect(staged).to_contain_text("Première pose : 15 / 50 pts (il en manque 35)", timeout=10000)
    choose(page, "4D1")
    press(page, "Défausser")
    expect(page.locator("#table-error")).to_contain_text(
        "Première pose insuffisante : 15 points, il en faut 50.", timeout=10000)
    expect(page.locator("#table-status")).to_contain_text("À toi de jouer")  # nothing changed
    expect(page.locator('#table-hand [data-card="4D1"]')).to_have_count(1)
    page.screenshot(path=str(artifacts_dir / "canasta-refused.png"))
    press(page, "Annuler")
    expect(staged).to_have_count(0, timeout=10000)
    expect(page.locator("#table-hand [data-card]")).to_have_count(12)

    # a card dragged onto the pile is discarded
    drag(page, "4D1", "#table-centre [data-cn-pile]",
         lambda: expect(page.locator('#table-hand [data-card="4D1"]')).to_have_count(0, timeout=3000))
    expect(page.locator("#table-hand [data-card]")).to_have_count(11)
    context.close()


# A whole hand from its deal: the robots' hands and the stock are a shuffle of the deck's other cards; I am dealt
# a pair of kings, seven queens and two odd cards, and the king of diamonds is the pile's upcard.
DEALT = ["KS1", "KH1", "QS1", "QH1", "QD1", "QC1", "QS2", "QH2", "QD2", "8S1", "4H1"]


def _a_fresh_deal(game):
    state = rig(game, {0: DEALT}, current=0, phase="DRAW", pile=["KD1"], scores={"A": 0, "B": 0})
    bonus = game.rules.pieces.bonus_threes
    rest = [*state["hands"][1], *state["hands"][2], *state["hands"][3], *state["stock"]]
    red3s = [*state["red3s"]["A"], *state["red3s"]["B"]]
    shuffler = random.Random(14)
    shuffler.shuffle(rest)
    state["hands"][1:4] = [rest[0:11], rest[11:22], rest[22:33]]
    stock = rest[33:]
    for three in red3s:  # the red 3s wait in the stock, laid by whoever draws them
        stock.insert(shuffler.randrange(len(stock) + 1), three)
    state["stock"], state["red3s"] = stock, {"A": [], "B": []}
    assert not any(p in bonus for hand in state["hands"] for p in hand)
    return state


def _buttons(page: Page, *names: str):
    return [page.get_by_role("button", name=name, exact=True) for name in names]


def _play_a_turn(page: Page) -> None:
    """Answer my robot partner's « Partenaire, puis-je sortir ? » (« Oui »), or draw (or, stock empty, what the
    rules leave) and discard the first card of my hand."""
    question = page.get_by_test_id("go-out-question")
    if question.count():
        _act(page, question.get_by_role("button", name="Oui", exact=True))
        return
    draw, take, stop, end, discard = _buttons(page, "Piocher", "Prendre la pile", "Ne pas prendre (fin de la manche)",
                                              "Terminer le tour", "Défausser")
    if draw.count():
        _act(page, draw)
    elif stop.count():
        _act(page, stop)
        return
    elif take.count() and not discard.count():
        _act(page, take)
    if end.count():
        _act(page, end)
        return
    _discard(page, page.locator("#table-hand [data-card]").first.get_attribute("data-card"))


def _discard(page: Page, card: str) -> None:
    """Discard a card and wait until the table has moved on (the turn passes: a stale « my turn » is not mine)."""
    before = _version(page)
    choose(page, card)
    press(page, "Défausser")
    expect(page.locator(f'#table-hand [data-card="{card}"]')).to_have_count(0, timeout=10000)
    expect(page.locator("#table-status")).not_to_have_attribute("data-version", before, timeout=10000)


def test_a_whole_canasta_hand_from_the_deal(live_site, browser, artifacts_dir):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_up(page, live_site, "canasta3")
    table = _prepared_table("canasta3", "canasta", _a_fresh_deal)
    page.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(page)
    expect(page.get_by_test_id("minimum-us")).to_contain_text("50")
    expect(page.locator("#table-hand [data-card]")).to_have_count(11)

    # First turn: the pile, with my kings, and my seven queens laid with it: the first meld is 100 points
    choose(page, "KS1", "KH1", "QS1", "QH1", "QD1", "QC1", "QS2", "QH2", "QD2")
    press(page, "Prendre la pile")
    us = page.get_by_test_id("team-us")
    expect(us.locator('[data-rank="K"]')).to_contain_text("3/7", timeout=10000)
    expect(us.locator('[data-rank="Q"]')).to_contain_text("Canasta naturelle")
    _discard(page, "8S1")

    # Then I draw and discard until the hand ends: a robot goes out, or the stock runs out
    sheet, mine = page.get_by_test_id("round-sheet"), page.locator('#table-status[data-my-turn="1"]')
    for _ in range(80):
        expect(mine.or_(sheet)).to_be_visible(timeout=30000)
        if sheet.is_visible():
            break
        _play_a_turn(page)
    expect(sheet).to_be_visible()
    for line in ("Combinaisons posées", "Primes de canasta", "Cartes restées en main"):
        expect(sheet).to_contain_text(line)
    ours = sheet.locator("tr", has_text="Primes de canasta").locator("td.is-us").inner_text()
    assert int(ours.replace("+", "").replace("\u202f", "").replace(" ", "")) >= 500, ours  # my natural canasta
    page.screenshot(path=str(artifacts_dir / "canasta-whole-hand.png"))
    context.close()


# A friend as my partner: seven kings down (a canasta), I hold three cards and ask him « Partenaire, puis-je
# sortir ? » twice. The stock's top cards: the 5 of diamonds for me, wilds for the robots and my partner, then
# the 5 of clubs for me.
SEVEN_KINGS = ["KS2", "KH1", "KD2", "KC1", "KC2", "KS1", "KH2"]
ASKER = ["5S1", "5H1", "9D1"]
ASKED_DRAWS = ["5C1", "JK1", "2S1", "2H1", "5D1"]  # the stock's top is the last


def _asking_a_friend(game):
    state = rig(game, {0: ASKER, 1: LEFT, 2: PARTNER, 3: RIGHT}, current=0, phase="DRAW",
                melds={"A": [("K", SEVEN_KINGS)]}, pile=["7C1"], scores={"A": 0, "B": 0})
    state["stock"] = [c for c in state["stock"] if c not in ASKED_DRAWS] + ASKED_DRAWS
    return state


def test_a_human_partner_answers_no_then_yes(live_site, browser, artifacts_dir):
    alice_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    bruno_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    alice, bruno = alice_ctx.new_page(), bruno_ctx.new_page()
    sign_up(alice, live_site, "cnalice")
    sign_up(bruno, live_site, "cnbruno")
    table = _prepared_table("cnalice", "canasta", _asking_a_friend, partner="cnbruno")
    alice.goto(f"{live_site}/tables/{table.pk}/")
    bruno.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(alice)

    # « Non » binds: alice may not go out this turn
    press(alice, "Partenaire, puis-je sortir\u00a0?")
    expect(alice.get_by_test_id("go-out-answer")).to_contain_text("En attente de sa réponse", timeout=10000)
    question = bruno.get_by_test_id("go-out-question")
    expect(question).to_contain_text("cnalice te demande", timeout=10000)
    question.get_by_role("button", name="Non", exact=True).click()
    expect(alice.get_by_test_id("go-out-answer")).to_contain_text("a répondu non", timeout=10000)
    expect(bruno.get_by_test_id("go-out-answer")).to_contain_text("Tu as répondu non à cnalice")
    press(alice, "Piocher")
    expect(alice.locator('#table-hand [data-card="5D1"]')).to_have_count(1, timeout=10000)
    choose(alice, "5S1", "5H1", "5D1")
    press(alice, "Déposer")
    expect(alice.get_by_test_id("staged")).to_be_visible(timeout=10000)
    choose(alice, "9D1")
    press(alice, "Défausser")
    expect(alice.locator("#table-error")).to_contain_text(
        "Ton partenaire a répondu non : tu ne peux pas sortir ce tour-ci.", timeout=10000)
    press(alice, "Annuler")
    expect(alice.get_by_test_id("staged")).to_have_count(0, timeout=10000)
    choose(alice, "9D1")
    press(alice, "Défausser")

    # The robot on her left plays, then bruno draws and discards, then the robot on her right
    my_turn(bruno)
    press(bruno, "Piocher")
    expect(bruno.locator("#table-hand [data-card]")).to_have_count(12, timeout=10000)
    card = bruno.locator("#table-hand [data-card]").first.get_attribute("data-card")
    choose(bruno, card)
    press(bruno, "Défausser")

    # « Oui » binds too: she goes out
    my_turn(alice)
    press(alice, "Partenaire, puis-je sortir\u00a0?")
    expect(question).to_be_visible(timeout=10000)
    question.get_by_role("button", name="Oui", exact=True).click()
    expect(alice.get_by_test_id("go-out-answer")).to_contain_text("a répondu oui", timeout=10000)
    press(alice, "Piocher")
    expect(alice.locator('#table-hand [data-card="5C1"]')).to_have_count(1, timeout=10000)
    choose(alice, "5S1", "5H1", "5D1", "5C1")
    press(alice, "Déposer")
    press(alice, "Sortir")
    for page in (alice, bruno):
        expect(page.get_by_test_id("round-sheet")).to_be_visible(timeout=15000)
        expect(page.get_by_test_id("round-sheet")).to_contain_text("Prime de sortie")
    expect(alice.locator("#table-round-end")).to_contain_text("Tu es sorti")
    bruno.screenshot(path=str(artifacts_dir / "canasta-partner-end.png"))
    alice_ctx.close()
    bruno_ctx.close()


# Canasta en équipe (tuiles), one round. Our team has six 9s down; I hold the seventh, a pair of 5s and the 8
# I will go out with; one joker on my account for the « Joker » button.
NINES = ["B9a", "K9a", "R9b", "Y9b", "B9b", "K9b"]
TILES_MINE = ["R5a", "Y5a", "R9a", "K8a"]


def _tiles_near_the_end(game):
    state = rig(game, {0: TILES_MINE}, current=0, phase="DRAW", melds={"A": [("9", NINES)]}, pile=["R13a"],
                scores={"A": 0, "B": 0}, options={"match_length": "1"})
    assert "J1" in state["stock"] or "J2" in state["stock"]
    return state


# A whole tile round from its deal: I am dealt fifteen tiles (I open with a discard), seven 9s and three 5s among
# them; the robots' hands and the stock are a shuffle of the other tiles.
TILES_DEALT = ["R9a", "Y9a", "B9a", "K9a", "R9b", "Y9b", "B9b", "R5a", "Y5a", "K5a",
               "R12a", "Y8a", "B13a", "K11b", "R7b"]


def _a_fresh_tile_deal(game):
    state = rig(game, {0: TILES_DEALT}, current=0, phase="FIRST_TURN", scores={"A": 0, "B": 0},
                options={"match_length": "1"}, fill=False)
    bonus = game.rules.pieces.bonus_threes
    red3s = [*state["red3s"]["A"], *state["red3s"]["B"]]
    rest = [p for p in state["stock"] if p not in bonus]
    shuffler = random.Random(14)
    shuffler.shuffle(rest)
    state["hands"][1:4] = [rest[0:14], rest[14:28], rest[28:42]]
    stock = rest[42:]
    for three in red3s:
        stock.insert(shuffler.randrange(len(stock) + 1), three)
    state["stock"], state["red3s"] = stock, {"A": [], "B": []}
    return state


def test_a_whole_tile_round_from_the_deal(live_site, browser, artifacts_dir):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_up(page, live_site, "tuiles3")
    table = _prepared_table("tuiles3", "canasta-tuiles", _a_fresh_tile_deal, options={"match_length": "1"})
    page.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(page)
    expect(page.locator("#table-hand [data-card]")).to_have_count(15)
    expect(page.locator("#table-status")).to_contain_text("Premier tour")
    choose(page, "R7b")
    press(page, "Défausser")
    expect(page.locator('#table-hand [data-card="R7b"]')).to_have_count(0, timeout=10000)

    # My second turn: I draw, lay my seven 9s (a clean canasta) and my 5s, and discard
    my_turn(page)
    press(page, "Piocher")
    expect(page.locator("#table-hand [data-card]")).to_have_count(15, timeout=10000)
    choose(page, *TILES_DEALT[:7])
    press(page, "Déposer")
    choose(page, *TILES_DEALT[7:10])
    press(page, "Déposer")
    us = page.get_by_test_id("team-us")
    expect(us.locator('[data-rank="9"]')).to_contain_text("Canasta propre", timeout=10000)
    expect(us.locator('[data-rank="5"]')).to_contain_text("3/7")
    _discard(page, "B13a")

    sheet, mine = page.get_by_test_id("round-sheet"), page.locator('#table-status[data-my-turn="1"]')
    for _ in range(80):
        expect(mine.or_(sheet)).to_be_visible(timeout=30000)
        if sheet.is_visible():
            break
        _play_a_turn(page)
    expect(sheet).to_be_visible()
    expect(page.locator("#table-round-end")).to_contain_text("Partie terminée")
    expect(sheet.locator("tr", has_text="Primes de canasta")).to_contain_text("+")
    page.screenshot(path=str(artifacts_dir / "canasta-tiles-whole-round.png"))
    context.close()


def test_a_whole_tile_canasta_round_on_a_phone(live_site, browser, artifacts_dir):
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)  # bypass: axe
    page = context.new_page()
    sign_up(page, live_site, "tuilescn")
    table = _prepared_table("tuilescn", "canasta-tuiles", _tiles_near_the_end, options={"match_length": "1"},
                            jokers=1)
    page.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(page)
    expect(page.locator("#table-hand [data-card]")).to_have_count(4)
    expect(page.locator('#table-hand [data-card="R5a"]')).to_have_attribute("aria-label", re.compile("Tuile 5 rouge"))
    expect(page.get_by_test_id("joker-balance")).to_have_text("1")
    fits_the_screen(page)
    page.screenshot(path=str(artifacts_dir / "canasta-tiles-start.png"))
    assert not (problems := _violations(page, "canasta-tuiles")), "\n".join(problems)

    press(page, "Joker (solde\u00a0: 1)")
    joker = page.locator('#table-hand [data-card^="J"]')
    expect(joker).to_have_count(1, timeout=10000)
    expect(page.get_by_test_id("joker-balance")).to_have_text("0")
    joker_id = joker.get_attribute("data-card")

    choose(page, "R5a", "Y5a", joker_id)
    press(page, "Déposer")
    us = page.get_by_test_id("team-us")
    expect(us.locator('[data-rank="5"]')).to_contain_text("3/7", timeout=10000)
    choose(page, "R9a")
    press(page, "Ajouter")
    expect(us.locator('[data-rank="9"]')).to_contain_text("Canasta propre", timeout=10000)

    choose(page, "K8a")
    press(page, "Défausser")
    expect(page.get_by_test_id("round-sheet")).to_be_visible(timeout=15000)
    expect(page.locator("#table-round-end")).to_contain_text("Partie terminée")
    expect(page.get_by_test_id("round-sheet")).to_contain_text("3 noirs et bleus en main")
    expect(page.get_by_test_id("winner-line")).to_contain_text("Bravo, ton équipe a gagné")
    page.screenshot(path=str(artifacts_dir / "canasta-tiles-end.png"))
    context.close()


# Every pair of overlapping pieces in the teams' melds: the covered piece's number must end before the piece laid
# over it begins. And the pile's count must not sit on its top piece's number or colour mark.
NUMBERS_COVERED = """() => {
  const covered = [];
  for (const meld of document.querySelectorAll('.cn-meld-cards')) {
    const pieces = Array.from(meld.querySelectorAll(':scope > .tile'));
    pieces.slice(0, -1).forEach((piece, i) => {
      const number = piece.querySelector('.tile-n').getBoundingClientRect();
      const next = pieces[i + 1].getBoundingClientRect();
      if (number.right > next.left + 0.5) covered.push(piece.textContent.trim());
    });
  }
  return covered;
}"""
PILE_COUNT_OVER_ITS_FACE = """() => {
  const count = document.querySelector('.cn-pile .pile-count').getBoundingClientRect();
  return ['.tile-n', '.tile-mark'].some(part => {
    const face = document.querySelector(`.cn-pile .tile ${part}`).getBoundingClientRect();
    return !(count.right <= face.left || face.right <= count.left || count.bottom <= face.top
             || face.bottom <= count.top);
  });
}"""


def _two_digit_melds(game):
    melds = {"A": [("10", ["R10a", "Y10a", "B10a"]), ("12", ["R12a", "Y12a", "K12a", "B12a"])],
             "B": [("11", ["R11b", "Y11b", "B11b"]), ("13", ["R13b", "Y13b", "K13b"])]}
    return rig(game, {0: TILES_MINE}, current=0, phase="DRAW", melds=melds, pile=["K7b", "Y4b", "K11a"],
               scores={"A": 0, "B": 0}, options={"match_length": "1"})


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_tile_numbers_stay_whole_in_melds_and_on_the_pile(live_site, browser, artifacts_dir, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    name = f"tuilesnum{viewport['width']}"
    sign_up(page, live_site, name)
    table = _prepared_table(name, "canasta-tuiles", _two_digit_melds, options={"match_length": "1"})
    page.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(page)
    expect(page.locator(".cn-meld-cards > .tile")).to_have_count(13)
    page.screenshot(path=str(artifacts_dir / f"canasta-tiles-numbers-{viewport['width']}.png"))
    assert page.evaluate(NUMBERS_COVERED) == [], "a meld's piece has its number covered by the next one"
    assert not page.evaluate(PILE_COUNT_OVER_ITS_FACE), "the pile's count covers its top piece's number or mark"
    expect(page.locator(".cn-actions [data-sort-hand]")).to_be_visible()
    page.evaluate("""() => { const p = document.createElement('p'); p.id = 'table-last-move'; p.className = 'last-move';
      p.textContent = 'x'; document.getElementById('table-error').before(p); }""")  # as after a robot's turn
    assert not page.evaluate(LAST_MOVE_CUT), "the last move's line is cut on its sides"
    fits_the_screen(page)
    context.close()


# A squeezed tile hand on a phone: mostly two-digit numbers, fifteen tiles as dealt, or twenty-eight as after
# taking a big pile. Each number must be readable (the point at its right edge belongs to its own tile), and the
# hand, the piles and the enabled actions must stay on the screen, the page no taller nor wider than it.
TWO_DIGITS = [f"{c}{n}{copy}" for copy in "ab" for n in (10, 11, 12, 13) for c in "RYB"]
SQUEEZED = {15: [t for t in TWO_DIGITS if t.endswith("a")] + ["Y4a", "K6a", "R2a"],
            28: TWO_DIGITS + ["Y4a", "K6a", "R2a", "B8a"]}
TILE_HAND_ON_SCREEN = """() => {
  const problems = [];
  const inside = (what, r) => {
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1)
      problems.push(`${what} hors de l'écran (${Math.round(r.left)}, ${Math.round(r.top)})`);
  };
  for (const tile of document.querySelectorAll('#table-hand [data-card]')) {
    const n = tile.querySelector('.tile-n');
    const range = document.createRange();
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    inside(`la tuile ${n.textContent}`, tile.getBoundingClientRect());
    const hit = document.elementFromPoint(r.right - 1, r.top + r.height / 2);
    if (!hit || hit.closest('.tile') !== tile) problems.push(`le numéro de ${tile.dataset.card} est couvert`);
  }
  for (const el of document.querySelectorAll('#table-centre .cn-stock, #table-centre .cn-pile'))
    inside('une pile', el.getBoundingClientRect());
  for (const el of document.querySelectorAll('#table-actions .button:not([aria-disabled="true"])'))
    inside(`le bouton « ${el.textContent.trim()} »`, el.getBoundingClientRect());
  if (document.documentElement.scrollHeight > innerHeight + 1) problems.push('la page est plus haute que l\\'écran');
  if (document.documentElement.scrollWidth > innerWidth + 1) problems.push("la page est plus large que l'écran");
  return problems;
}"""


@pytest.mark.parametrize("count", [15, 28])
def test_a_squeezed_tile_hand_keeps_every_number_readable_on_a_phone(live_site, browser, artifacts_dir, count):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    name = f"tuilesserrees{count}"
    sign_up(page, live_site, name)

    def squeezed(game):
        return rig(game, {0: SQUEEZED[count]}, current=0, phase="DRAW", pile=["K7b", "Y4b"],
                   scores={"A": 0, "B": 0}, options={"match_length": "1"})

    table = _prepared_table(name, "canasta-tuiles", squeezed, options={"match_length": "1"})
    page.goto(f"{live_site}/tables/{table.pk}/")
    my_turn(page)
    expect(page.locator("#table-hand [data-card]")).to_have_count(count)
    page.wait_for_timeout(400)  # the hand laid out (fitHand), the pieces settled
    page.screenshot(path=str(artifacts_dir / f"canasta-tiles-squeezed-{count}.png"))
    assert not (problems := page.evaluate(TILE_HAND_ON_SCREEN)), "\n".join(problems)
    context.close()
