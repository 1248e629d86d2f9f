"""Watching and replaying in a real browser against the real site (daphne, websockets, Celery bots)."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_play import create_table, play_one_step, sign_up

pytestmark = [pytest.mark.e2e]


def hidden_ids(table_id: int) -> set[str]:
    """Every card id in a hand or in the stock now (read on the server, as the test's oracle)."""
    from engine import games
    from tables.models import Table

    table = Table.objects.get(pk=table_id)
    engine = games.get(table.game.slug)
    hidden = {c for seat in range(table.seats_count) for c in engine.view(table.state, seat)["hand"]}
    return hidden | set(table.state.get("stock") or [])


def assert_sees_no_hidden_card(page: Page, table_id: int) -> None:
    html = page.content()
    shown = sorted(c for c in hidden_ids(table_id) if f'"{c}"' in html)
    assert not shown, f"the spectator's page shows hidden cards: {shown}"


def table_id_of(page: Page) -> int:
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def test_a_friend_watches_a_table_live_and_never_sees_a_hand(live_site, browser, artifacts_dir):
    alice_ctx, bob_ctx = browser.new_context(), browser.new_context()
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    sign_up(alice, live_site, "alice")
    sign_up(bob, live_site, "bob")
    create_table(alice, live_site, "gin", 2, ["1"])  # private, against a robot: it starts at once
    table_id = table_id_of(alice)
    expect(alice.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
    invite = alice.locator("#invite-url").get_attribute("data-invite-path")

    # The match is under way: the invitation link lets bob watch instead of sitting down.
    bob.goto(live_site + invite)
    bob.wait_for_url(re.compile(rf"/tables/{table_id}/regarder/$"))
    expect(bob.get_by_test_id("spectating")).to_be_visible()
    expect(bob.locator("#table-status")).to_be_visible()
    expect(bob.locator("#table-hand button.card")).to_have_count(0)
    expect(bob.locator("form[data-chat-form]")).to_have_count(0)
    assert_sees_no_hidden_card(bob, table_id)

    # The seat sees him watch.
    expect(alice.get_by_test_id("watchers")).to_contain_text("1 spectateur", timeout=10000)

    # Alice plays: bob's page changes without a reload, and still shows no hand.
    before = bob.locator("#table-status").get_attribute("data-version")
    bob.evaluate("window.__notReloaded = true")
    for _ in range(200):
        if play_one_step(alice):
            break
        alice.wait_for_timeout(100)
    expect(bob.locator(f"#table-status:not([data-version='{before}'])")).to_have_count(1, timeout=10000)
    assert bob.evaluate("window.__notReloaded === true")
    assert_sees_no_hidden_card(bob, table_id)
    bob.screenshot(path=str(artifacts_dir / "watch-spectator.png"), full_page=True)

    # Bob leaves: the count goes away.
    bob.close()
    expect(alice.get_by_test_id("watchers")).to_have_count(0, timeout=10000)
    alice_ctx.close()
    bob_ctx.close()


def test_a_finished_round_is_replayed_step_by_step_with_the_keyboard(live_site, page, artifacts_dir):
    from accounts.models import User
    from tables import replays
    from tests.tables.helpers import create_table as create_in_db
    from tests.tables.helpers import play_out

    sign_up(page, live_site, "zoe")
    table = play_out(create_in_db(User.objects.get(username="zoe"), "gin", seats=2, bots={1: 2}, stake=0))
    # A Gin round can end on its second move; the walk below needs one of four moves or more.
    rnd = max(replays.rounds(table), key=lambda r: len(r.steps))
    last = len(rnd.steps) - 1
    assert last >= 3

    page.goto(f"{live_site}/tables/")
    page.get_by_test_id("finished-tables").get_by_role("link", name=re.compile("Revoir")).first.click()
    page.get_by_role("link", name=f"Manche {rnd.number}", exact=True).click()
    position = page.get_by_test_id("replay-position")
    expect(position).to_have_text(f"La donne, avant les {last} coups de la manche")
    expect(page.locator("#replay-root[data-replay-keys=on]")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Coup 1 sur {last}")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Coup 2 sur {last}")
    expect(page).to_have_url(re.compile(r"etape=2$"))
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Coup 1 sur {last}")
    expect(page.get_by_test_id("replay-hands")).to_have_count(0)
    page.get_by_role("link", name="Suivant ›").click()
    expect(position).to_have_text(f"Coup 2 sur {last}")
    page.keyboard.press("End")
    expect(position).to_have_text(f"Coup {last} sur {last}")
    expect(page.get_by_test_id("replay-hands")).to_be_visible()  # the match is over: the hands are shown
    page.screenshot(path=str(artifacts_dir / "replay-round-end.png"), full_page=True)
    page.keyboard.press("Home")
    expect(position).to_have_text(f"La donne, avant les {last} coups de la manche")
    for _ in range(3):  # keys pressed faster than the steps arrive add up
        page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Coup 3 sur {last}")
    expect(page).to_have_url(re.compile(r"etape=3$"))


def test_the_watch_and_replay_pages_have_no_serious_axe_violation(live_site, browser):
    from accounts.models import User
    from accounts.services import user_create
    from tables import replays
    from tables.models import Table
    from tests.e2e.test_accessibility import _violations
    from tests.tables.helpers import create_table as create_in_db
    from tests.tables.helpers import play_out

    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_up(page, live_site, "axe")
    user = User.objects.get(username="axe")
    finished = play_out(create_in_db(user, "gin", seats=2, bots={1: 2}, stake=0))
    host = user_create(username="axe-host", password="Tr3s-secret!", email="")
    watched = create_in_db(host, "gin", seats=2, bots={1: 1}, stake=0)
    Table.objects.filter(pk=watched.pk).update(private=False)
    problems: list[str] = []
    page.goto(f"{live_site}/tables/")
    problems += _violations(page, "salon avec « Parties en cours »")
    page.goto(f"{live_site}/tables/{watched.pk}/regarder/")
    expect(page.get_by_test_id("spectating")).to_be_visible()
    page.wait_for_timeout(400)
    problems += _violations(page, "page du spectateur")
    page.goto(f"{live_site}/tables/{finished.pk}/revoir/")
    problems += _violations(page, "liste des manches")
    last = len(replays.finished_round(finished, 1).steps) - 1
    for step in (0, 1, last):
        page.goto(f"{live_site}/tables/{finished.pk}/revoir/1/?etape={step}")
        page.wait_for_timeout(300)
        problems += _violations(page, f"manche 1, étape {step}")
    context.close()
    assert not problems, "\n".join(problems)
