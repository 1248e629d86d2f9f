"""« Revanche » in real browsers: two players at the end of a match with a robot, each in his own browser."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_accessibility import _violations
from tests.e2e.test_play import sign_up

pytestmark = [pytest.mark.e2e]

STAKE = 10


def finished_match(host: str, guest: str):
    """A three-place Gin match (one round) of `host` (place 1) and `guest` (place 2) against an Expert (place 3),
    played to its end on the server (the rules' autoplay for the humans): what matters here is its end."""
    from accounts.models import User
    from tables import services
    from tables.models import Game
    from tests.tables.helpers import play_out

    alice, bruno = User.objects.get(username=host), User.objects.get(username=guest)
    table = services.table_create(host=alice, game=Game.objects.get(slug="gin"), seats_count=3, bot_levels={2: 3},
                                  options={"match": "1"}, stake=STAKE, turn_timer_s=60, private=True)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    return play_out(table)


def seats_of(table_id: int) -> dict[int, tuple]:
    from tables.models import Table

    return {s.position: (s.user.username if s.user_id and not s.is_bot else None, s.bot_level)
            for s in Table.objects.get(pk=table_id).seats.select_related("user")}


def table_id_of(page: Page) -> int:
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def two_players(browser, size, live_site, *, watched: str = "bruno"):
    """alice's and bruno's browsers. The `watched` one keeps the site's CSP and records every console error (a CSP
    refusal of an inline style or script is one); the other runs axe-core (its context lets a test add a
    script)."""
    width, height = size
    contexts = {name: browser.new_context(bypass_csp=name != watched, viewport={"width": width, "height": height})
                for name in ("alice", "bruno")}
    alice_ctx, bruno_ctx = contexts["alice"], contexts["bruno"]
    alice, bruno = alice_ctx.new_page(), bruno_ctx.new_page()
    errors: list[str] = []
    page = {"alice": alice, "bruno": bruno}[watched]
    page.on("console", lambda msg: errors.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(alice, live_site, "alice")
    sign_up(bruno, live_site, "bruno")
    return (alice_ctx, alice), (bruno_ctx, bruno), errors


@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["desktop", "phone"])
def test_both_players_accept_a_rematch_and_land_on_the_new_table_started(live_site, browser, artifacts_dir, size):
    (alice_ctx, alice), (bruno_ctx, bruno), errors = two_players(browser, size, live_site)
    old = finished_match("alice", "bruno")
    for page in (alice, bruno):
        page.goto(f"{live_site}/tables/{old.pk}/")
        expect(page.locator("#table-round-end h2")).to_contain_text("Partie terminée")
        expect(page.get_by_role("button", name="Revanche", exact=True)).to_be_visible()
        expect(page.get_by_role("link", name="Autre partie")).to_be_visible()
    if size[0] > 800:
        problems = _violations(alice, "fin de partie avec « Revanche »")
        assert not problems, "\n".join(problems)

    # alice offers: she goes to the new table, at her place, bruno's kept for him
    alice.get_by_role("button", name="Revanche", exact=True).click()
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    new_id = table_id_of(alice)
    assert new_id != old.pk
    room = alice.get_by_test_id("rematch-room")
    expect(room.get_by_test_id("rematch-place-2")).to_contain_text("gardée pour bruno")
    expect(room.get_by_test_id("rematch-place-3")).to_contain_text("Robot Expert")

    # bruno's page of the finished match learns it without a reload, and he accepts
    bruno.evaluate("window.__notReloaded = true")
    expect(bruno.locator("[data-rematch-news]")).to_contain_text("alice propose une revanche", timeout=10000)
    assert bruno.evaluate("window.__notReloaded === true")
    bruno.screenshot(path=str(artifacts_dir / f"rematch-offer-{size[0]}.png"))
    if size[0] > 800:
        problems = _violations(alice, "salle d'attente de la revanche")
        assert not problems, "\n".join(problems)
    bruno.get_by_role("button", name="Accepter la revanche").click()
    bruno.wait_for_url(f"{live_site}/tables/{new_id}/")

    # every place taken: it started by itself, on both pages, with the same seats
    for page in (alice, bruno):
        expect(page.locator("#table-root")).to_have_attribute("data-status", "playing", timeout=20000)
        expect(page.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
        expect(page.locator("#table-opponents")).to_contain_text("Robot Expert")
    expect(alice.locator("#table-opponents")).to_contain_text("bruno")
    expect(bruno.locator("#table-opponents")).to_contain_text("alice")
    assert seats_of(new_id) == seats_of(old.pk) == {0: ("alice", None), 1: ("bruno", None), 2: (None, 3)}
    alice.screenshot(path=str(artifacts_dir / f"rematch-started-{size[0]}.png"))

    # the finished match's page now leads to the rematch
    bruno.goto(f"{live_site}/tables/{old.pk}/")
    bruno.get_by_role("link", name="Aller à la revanche").click()
    bruno.wait_for_url(f"{live_site}/tables/{new_id}/")
    assert not errors, errors
    alice_ctx.close()
    bruno_ctx.close()


def test_a_refusal_is_shown_and_the_host_gives_the_place_to_a_robot(live_site, browser, artifacts_dir):
    (alice_ctx, alice), (bruno_ctx, bruno), errors = two_players(browser, (1280, 800), live_site, watched="alice")
    old = finished_match("alice", "bruno")
    bruno.goto(f"{live_site}/tables/{old.pk}/")
    bruno.get_by_role("button", name="Revanche", exact=True).click()  # bruno offers this time
    bruno.wait_for_url(re.compile(r"/tables/\d+/$"))
    new_id = table_id_of(bruno)
    room = bruno.get_by_test_id("rematch-room")
    expect(room.get_by_test_id("rematch-place-2")).to_contain_text("toi")  # his old place, not the first one
    expect(room.get_by_test_id("rematch-place-1")).to_contain_text("gardée pour alice")

    alice.goto(f"{live_site}/tables/{old.pk}/")
    expect(alice.locator("[data-rematch-news]")).to_contain_text("bruno propose une revanche")
    alice.get_by_role("button", name="Refuser la revanche").click()
    expect(alice.locator(".messages")).to_contain_text("Tu as refusé la revanche.")
    expect(alice.get_by_test_id("rematch")).to_contain_text("Tu as refusé")

    # bruno's waiting room learns it live; he gives alice's place to a robot, and the rematch starts
    expect(room.get_by_test_id("rematch-answer")).to_contain_text("alice a refusé", timeout=10000)
    expect(room.get_by_test_id("rematch-place-1")).to_contain_text("libre")
    bruno.screenshot(path=str(artifacts_dir / "rematch-refused.png"))
    problems = _violations(bruno, "salle d'attente de la revanche, une place à donner")
    assert not problems, "\n".join(problems)
    room.get_by_label("Donner la place").select_option(label="Place 1")
    room.get_by_label("à un robot").select_option(label="Débutant")
    room.get_by_role("button", name="Donner au robot").click()
    expect(bruno.locator("#table-root")).to_have_attribute("data-status", "playing", timeout=20000)
    expect(bruno.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
    expect(bruno.locator("#table-opponents")).to_contain_text("Robot Débutant")
    assert seats_of(new_id) == {0: (None, 1), 1: ("bruno", None), 2: (None, 3)}
    assert not errors, errors
    alice_ctx.close()
    bruno_ctx.close()
