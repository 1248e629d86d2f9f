"""Friends in two real browsers (two players, two browser contexts): a friend request sent from a player's page and
accepted from « Mes amis » (the bell counts it), an invitation to a waiting table that the friend gets as a
notification and follows to sit, and a block that stops an invitation with a French message."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_play import create_table, sign_up

pytestmark = [pytest.mark.e2e]


SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def player(browser: Browser, base: str, pseudo: str, size: str = "desktop") -> Page:
    """A new player in a browser of his own; his console errors (a CSP refusal, an uncaught exception) are kept
    in `page.errors`."""
    page = browser.new_context(viewport=SIZES[size], has_touch=size == "phone").new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    sign_up(page, base, pseudo)
    return page


def no_console_error(*pages: Page) -> None:
    assert not [e for p in pages for e in p.errors], [e for p in pages for e in p.errors]


def bell(page: Page):
    return page.locator("#bell")


def make_friends(asker: str, other: str) -> None:
    """Straight in the database the site runs on (the request and its answer are the first test's)."""
    from accounts import friends
    from accounts.models import User

    friends.friend_request(user=User.objects.get(username=asker), pseudo=other)
    friends.friend_accept(user=User.objects.get(username=other), pseudo=asker)


def waiting_table(page: Page, base: str) -> int:
    """A Gin table for two, its second place left for a friend: it waits."""
    create_table(page, base, "gin", 2, ["human"])
    return int(re.search(r"/tables/(\d+)/$", page.url).group(1))


@pytest.mark.parametrize("size", SIZES)
def test_a_friend_request_from_the_player_page_is_accepted_from_my_friends(live_site, browser, size):
    anna, bruno = player(browser, live_site, "anna", size), player(browser, live_site, "bruno", size)
    bruno.goto(live_site + "/regles/")
    expect(bell(bruno)).to_have_attribute("data-count", "0")

    anna.goto(live_site + "/joueurs/bruno/")
    anna.get_by_role("button", name="Ajouter en ami").click()
    expect(anna.locator(".messages")).to_contain_text("Demande envoyée à bruno.")
    expect(anna.get_by_test_id("friend-actions")).to_contain_text("attend la réponse de bruno")

    # bruno's open page: the bell counts the request at once (its socket), then « Amis » shows it.
    expect(bell(bruno)).to_have_attribute("data-count", "1", timeout=10000)
    bruno.get_by_role("link", name="Amis", exact=True).click()
    expect(bruno.get_by_role("heading", name="Mes amis", level=1)).to_be_visible()
    received = bruno.get_by_test_id("requests-received")
    expect(received).to_contain_text("anna")
    received.get_by_role("button", name="Accepter anna").click()
    expect(bruno.locator(".messages")).to_contain_text("anna et toi êtes maintenant amis.")
    expect(bruno.get_by_test_id("friends")).to_contain_text("anna")
    expect(bruno.get_by_test_id("requests-received")).to_have_count(0)
    expect(bell(bruno)).to_have_attribute("data-count", "0")  # the request answered is read

    # anna is told, and finds bruno among her friends, online.
    expect(bell(anna)).to_have_attribute("data-count", "1", timeout=10000)
    anna.goto(live_site + "/amis/")
    row = anna.locator('[data-testid="friends"] li[data-pseudo="bruno"]')
    expect(row).to_contain_text("en ligne")
    anna.goto(live_site + "/compte/notifications/")
    expect(anna.locator(".notification-list")).to_contain_text("bruno a accepté ta demande d'ami.")
    no_console_error(anna, bruno)


@pytest.mark.parametrize("size", SIZES)
def test_an_invitation_from_my_friends_brings_the_friend_to_my_table(live_site, browser, size):
    anna, bruno = player(browser, live_site, "anna", size), player(browser, live_site, "bruno", size)
    make_friends("anna", "bruno")  # bruno accepted: nothing unread in his bell
    table_id = waiting_table(anna, live_site)
    # The waiting table lists anna's friends too.
    expect(anna.get_by_test_id("invite-friends")).to_contain_text("bruno")

    anna.goto(live_site + "/amis/")
    row = anna.locator('[data-testid="friends"] li[data-pseudo="bruno"]')
    row.get_by_label("Table où inviter bruno").select_option(str(table_id))
    row.get_by_role("button", name="Inviter bruno").click()
    expect(anna.locator(".messages")).to_contain_text("Invitation envoyée à bruno.")

    bruno.goto(live_site + "/regles/")
    expect(bell(bruno)).to_have_attribute("data-count", "1", timeout=10000)
    bell(bruno).click()
    invitation = bruno.get_by_role("link", name=re.compile(r"anna t'invite à jouer au Gin Rami"))
    expect(invitation).to_be_visible()
    invitation.click()
    bruno.wait_for_url(re.compile(rf"/tables/{table_id}/$"))
    expect(bruno.locator("#table-root")).to_be_visible()
    # He sits: anna's friends page now finds him at her table.
    # (her page is drawn when she opens it: on a loaded machine his seat may come a moment after it, so she
    # looks again, as a player would)
    row = anna.locator('[data-testid="friends"] li[data-pseudo="bruno"]')
    for _ in range(20):
        anna.goto(live_site + "/amis/")
        if f"à la table n° {table_id}" in row.inner_text():
            break
        anna.wait_for_timeout(500)
    expect(row).to_contain_text(f"à la table n° {table_id}")
    no_console_error(anna, bruno)


def test_a_block_stops_an_invitation_with_a_french_message(live_site, browser):
    anna, bruno = player(browser, live_site, "anna"), player(browser, live_site, "bruno")
    make_friends("anna", "bruno")  # bruno accepted: nothing unread in his bell
    table_id = waiting_table(anna, live_site)
    anna.goto(live_site + "/amis/")  # bruno is still listed on the page she has open

    bruno.goto(live_site + "/joueurs/anna/")
    bruno.get_by_role("button", name="Bloquer").click()
    expect(bruno.locator(".messages")).to_contain_text("Tu as bloqué anna.")
    expect(bruno.get_by_role("button", name="Débloquer")).to_be_visible()

    row = anna.locator('[data-testid="friends"] li[data-pseudo="bruno"]')
    row.get_by_label("Table où inviter bruno").select_option(str(table_id))
    row.get_by_role("button", name="Inviter bruno").click()
    expect(anna.locator(".message.error")).to_have_text("Invitation impossible : tu ne peux inviter que tes amis.")
    expect(anna.get_by_test_id("friends")).to_have_count(0)
    # Nor may she ask him again: the block is not named.
    anna.goto(live_site + "/joueurs/bruno/")
    anna.get_by_role("button", name="Ajouter en ami").click()
    expect(anna.locator(".message.error")).to_have_text("Demande impossible.")
    bruno.goto(live_site + "/amis/")
    expect(bell(bruno)).to_have_attribute("data-count", "0")
    expect(bruno.get_by_test_id("blocked")).to_contain_text("anna")
    # Nor sit at her private table with its link.
    from tables.models import Table

    link = Table.objects.get(pk=table_id).invite_token
    bruno.goto(f"{live_site}/tables/invitation/{link}/")
    expect(bruno.locator(".message.error")).to_contain_text("débloque-le")


def test_hiding_a_players_discussion_at_a_table_hides_his_lines_for_me_alone(live_site, browser):
    anna, bruno = player(browser, live_site, "anna"), player(browser, live_site, "bruno")
    table_id = waiting_table(anna, live_site)
    from tables.models import Table

    bruno.goto(f"{live_site}/tables/invitation/{Table.objects.get(pk=table_id).invite_token}/")
    bruno.wait_for_url(re.compile(rf"/tables/{table_id}/$"))
    anna.reload()  # the page drawn with bruno at the table: his name among the table's people

    def write(page: Page, text: str) -> None:
        page.locator("#chat-text").fill(text)
        page.locator("[data-chat-form]").get_by_role("button", name="Envoyer").click()

    anna_chat, bruno_chat = anna.locator("#table-chat-log"), bruno.locator("#table-chat-log")
    write(bruno, "Coucou")
    expect(anna_chat).to_contain_text("Coucou", timeout=10000)
    anna.locator("#chat-people summary").click()
    anna.get_by_role("button", name="Masquer sa discussion (bruno)").click()
    expect(anna.locator("#chat-people [role=status]")).to_have_text(
        "La discussion de bruno est masquée pour toi à cette table.")
    expect(anna_chat).not_to_contain_text("Coucou", timeout=10000)
    write(bruno, "Encore moi")
    expect(bruno_chat).to_contain_text("Encore moi", timeout=10000)
    write(anna, "Je suis là")
    expect(bruno_chat).to_contain_text("Je suis là", timeout=10000)
    expect(anna_chat).to_contain_text("Je suis là")
    expect(anna_chat).not_to_contain_text("Encore moi")
    anna.get_by_role("button", name="Afficher sa discussion (bruno)").click()
    expect(anna_chat).to_contain_text("Encore moi", timeout=10000)
    expect(anna_chat).to_contain_text("Coucou")
    no_console_error(anna, bruno)


def test_a_table_page_rings_its_bell_through_its_one_socket(live_site, browser):
    """At a table, a friend request rings the header's bell through the table's socket: the page opens no other."""
    anna, bruno = player(browser, live_site, "anna"), player(browser, live_site, "bruno")
    waiting_table(bruno, live_site)
    sockets: list[str] = []
    bruno.on("websocket", lambda ws: sockets.append(ws.url))
    bruno.reload()  # the sockets of the table page alone
    expect(bruno.locator("#table-status")).to_be_visible()
    anna.goto(live_site + "/joueurs/bruno/")
    anna.get_by_role("button", name="Ajouter en ami").click()
    expect(bell(bruno)).to_have_attribute("data-count", "1", timeout=10000)
    expect(bruno.locator("#bell-news")).to_contain_text("Nouvelle notification")
    assert sockets and all("/ws/tables/" in url for url in sockets), sockets  # no socket of the bell
    no_console_error(anna, bruno)
