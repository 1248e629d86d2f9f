"""« Partie lente » in real browsers, with real e-mail: two players at a table with a day per move, each moving
while the other's table page is closed. The other's bell rings on whatever page he is on; the e-mail goes through
a real SMTP server on loopback (aiosmtpd, started here) and its links work; a day later (the table's deadline moved
into the past, not waited for) the rules' autoplay plays for the player who did not come."""

import email
import re
import socket
import time
from datetime import timedelta
from email import policy

import pytest
from aiosmtpd.controller import Controller
from django.utils import timezone
from playwright.sync_api import Page, expect

from engine import games
from tables.models import Table
from tests.e2e.test_play import sign_up

pytestmark = [pytest.mark.e2e]


class Inbox:
    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list:
        return [m for m in self.messages if address in m["To"]]

    def wait_for(self, address: str, count: int, timeout: float = 20.0) -> list:
        deadline = time.monotonic() + timeout
        while len(self.to(address)) < count and time.monotonic() < deadline:
            time.sleep(0.1)
        return self.to(address)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def inbox():
    box = Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=_free_port())
    controller.start()
    box.port = controller.port
    yield box
    controller.stop()


@pytest.fixture
def live_site_env(inbox):
    return {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(inbox.port)}


def set_address(page: Page, base: str, address: str) -> None:
    page.goto(base + "/compte/profil/")
    page.get_by_label("Adresse e-mail").fill(address)
    page.get_by_role("button", name="Enregistrer mes e-mails").click()
    expect(page.locator(".messages")).to_contain_text("Tes choix d'e-mails sont enregistrés.")


def play_my_turn(page: Page) -> None:
    """Draw, then throw the last card of the hand."""
    page.locator("#table-centre button.pile.stock").click()
    expect(page.locator("#table-hand.can-discard")).to_be_attached(timeout=10000)
    page.locator("#table-hand button[data-card]").last.click()
    expect(page.locator('#table-status[data-my-turn="0"]')).to_be_attached(timeout=10000)


def body_of(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_a_slow_game_over_days_with_the_bell_an_email_and_the_autoplay(live_site, browser, inbox, size):
    contexts = [browser.new_context(viewport=SIZES[size], has_touch=size == "phone") for _ in range(2)]
    alice, bruno = (ctx.new_page() for ctx in contexts)
    sign_up(alice, live_site, "alice")
    sign_up(bruno, live_site, "bruno")
    set_address(alice, live_site, "alice@example.org")
    set_address(bruno, live_site, "bruno@example.org")

    alice.goto(f"{live_site}/tables/?jeu=thanasis")
    form = alice.locator("form[action$='/tables/nouvelle/']").first
    form.locator("select[name=seats_count]").select_option("2")
    form.locator("select[name=seat_1]").select_option("human")
    form.get_by_label("Temps par coup").select_option("86400")
    form.get_by_role("button", name="Créer la table").click()
    alice.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(alice.locator(".table-meta")).to_contain_text("Partie lente : 24 heures par coup")
    table_path = re.search(r"/tables/\d+/$", alice.url).group(0)
    bruno.goto(live_site + alice.locator("#invite-url").get_attribute("data-invite-path"))
    bruno.wait_for_url(re.compile(r"/tables/\d+/$"))
    start = alice.get_by_role("button", name="Commencer")
    expect(start).to_be_enabled(timeout=10000)
    start.click()
    expect(alice.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
    expect(bruno.locator("#table-hand button.card").first).to_be_visible(timeout=15000)

    table = Table.objects.get(pk=int(table_path.strip("/").split("/")[-1]))
    first = games.get("thanasis").to_act(table.state)[0]
    mover, waiter = (alice, bruno) if first == 0 else (bruno, alice)
    waiter_address = "alice@example.org" if waiter is alice else "bruno@example.org"
    expect(mover.get_by_test_id("slow-clock")).to_contain_text("encore 23 h 59")

    # The waiter closes the table and reads the rules: the other's move rings his bell there, live.
    waiter.goto(live_site + "/regles/")
    expect(waiter.locator("#bell")).to_have_attribute("data-count", "0")
    play_my_turn(mover)
    expect(waiter.locator("#bell")).to_have_attribute("data-count", "1", timeout=15000)
    expect(waiter.locator("#bell-news")).to_contain_text("À toi de jouer au Thanasis")

    # …and the e-mail came through SMTP (his page at the table was closed), its links working.
    [message] = inbox.wait_for(waiter_address, 1)
    assert str(message["Subject"]).strip().startswith("Cartes & Rami : À toi de jouer au Thanasis")
    assert str(message["List-Unsubscribe-Post"]).strip() == "List-Unsubscribe=One-Click"
    text = body_of(message)
    assert live_site + table_path in text
    waiter.goto(live_site + table_path)  # the e-mail's link: his move, at the table
    expect(waiter.locator('#table-status[data-my-turn="1"]')).to_be_attached(timeout=15000)
    expect(waiter.locator("#bell")).to_have_attribute("data-count", "0")  # opening the table read it

    # Now the mover is away in his turn: the waiter plays, the mover's bell rings on his notifications page.
    mover.goto(live_site + "/compte/notifications/")
    # (His page may have been away for an instant when « Commencer » reloaded it: then the first move was told too.)
    before = int(mover.locator("#bell").get_attribute("data-count"))
    play_my_turn(waiter)
    expect(mover.locator("#bell")).to_have_attribute("data-count", str(before + 1), timeout=15000)
    if size == "phone":  # the bell shows on a phone's page too
        expect(mover.locator("#bell")).to_be_visible()
    mover.locator("#bell").click()
    expect(mover).to_have_url(re.compile(r"/compte/notifications/$"))
    mover.get_by_role("link", name=re.compile("À toi de jouer au Thanasis")).first.click()
    expect(mover).to_have_url(live_site + table_path)
    expect(mover.locator('#table-status[data-my-turn="1"]')).to_be_attached(timeout=15000)
    expect(mover.locator("#bell")).to_have_attribute("data-count", "0", timeout=15000)

    # He leaves without playing. A day later his time is up: the rules' autoplay plays for him, and the waiter,
    # at the table, sees it live.
    mover.goto(live_site + "/regles/")
    version = Table.objects.get(pk=table.pk).version
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    expect(waiter.locator('#table-status[data-my-turn="1"]')).to_be_attached(timeout=20000)
    table.refresh_from_db()
    assert table.version > version and table.moves.filter(actor="autoplay").exists()

    # The e-mail's one-click unsubscribe link works without logging in.
    unsubscribe = str(message["List-Unsubscribe"]).strip().strip("<>")
    assert unsubscribe in text
    stranger = browser.new_context().new_page()
    stranger.goto(unsubscribe)
    expect(stranger.locator("h1")).to_have_text("Tu es désabonné")
    for ctx in contexts:
        ctx.close()
