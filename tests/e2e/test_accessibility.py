"""axe-core (vendored in tests/e2e/vendor/axe-core/, no npm needed) in Chromium on the site's pages and on a live
table of each of the ten games: no serious or critical violation.

The site's CSP forbids scripts it did not serve; these pages are opened in a context that bypasses it, only so
that axe can be injected.
"""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.e2e.test_console import ALL_GAMES as GAMES
from tests.e2e.test_play import create_table, sign_up

pytestmark = [pytest.mark.e2e]

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"

# axe's default rules (WCAG 2.x A/AA and best practices), plus the one the issue measured that axe ships as
# experimental: the accessible name of a control starts with its visible text.
RUN_AXE = """async () => {
  const result = await axe.run(document, {
    rules: {'label-content-name-mismatch': {enabled: true}},
    resultTypes: ['violations'],
  });
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 4).map(n => [n.target.join(' '), n.failureSummary.slice(0, 300)])}));
}"""


SHOW_ROUND_END = """() => {
  for (const cell of document.querySelectorAll('#table-scores th:nth-child(2), #table-scores td:nth-child(2)'))
    cell.classList.add('is-out');
  const end = document.getElementById('table-round-end');
  end.hidden = false;
  end.classList.add('is-open');
  end.classList.remove('is-hidden');
  end.innerHTML = '<div class="round-end-panel"><p class="celebrate">Undercut !</p>'
    + '<h2 id="round-end-title">Fin de la manche 1 — Undercut !</h2>'
    + '<ul class="reveal-list"><li class="reveal is-out"><div class="reveal-head">'
    + '<span class="reveal-name">Robot Expert</span>'
    + '<span class="tag tag-red">brûlé</span><span class="reveal-points">+30 pts</span></div>'
    + '<div class="best-disposition" role="group" aria-labelledby="best-1">'
    + '<p id="best-1" class="best-disposition-title">Meilleure disposition</p>'
    + '<p class="reveal-count">Rangée au mieux, cette main laisserait <strong>12</strong> pts'
    + ' hors combinaisons (18 de moins).</p></div></li></ul></div>';
}"""


# Colours are measured once the pieces a push swapped in have faded in (finite animations and transitions done).
SETTLED = """() => document.getAnimations().every(a => a.playState !== 'running'
                                                 || a.effect.getComputedTiming().iterations === Infinity)"""


VERSION = "() => document.querySelector('#table-status')?.dataset.version ?? ''"


def _axe_on_a_still_page(page: Page) -> list[dict]:
    """axe's findings on a page that did not change while it ran: a push landing during the run (a robot's move,
    a fading piece) is measured again, since colours taken mid-fade are not the page's colours."""
    for _ in range(4):
        page.wait_for_function(SETTLED, timeout=5000)
        before = page.evaluate(VERSION)
        found = page.evaluate(RUN_AXE)
        if page.evaluate(VERSION) == before and page.evaluate(SETTLED):
            return found
    return found


def _violations(page: Page, where: str) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = _axe_on_a_still_page(page)
    if found:  # a violation is one that holds: measured again once the page has rested
        page.wait_for_timeout(600)
        again = {v["id"] for v in _axe_on_a_still_page(page)}
        found = [v for v in found if v["id"] in again]
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']}\n    " + json.dumps(v["nodes"], ensure_ascii=False)
            for v in found]


def test_the_site_pages_have_no_serious_violation(live_site, axe_page):
    page = axe_page
    problems: list[str] = []
    for path, where in (("/", "accueil"), ("/regles/", "règles"), ("/regles/gin/", "règles du Gin"),
                        ("/compte/connexion/", "connexion"), ("/compte/inscription/", "inscription")):
        page.goto(live_site + path)
        problems += _violations(page, where)
    sign_up(page, live_site, "axe")
    page.goto(live_site + "/tables/")
    problems += _violations(page, "salon des tables")
    page.goto(live_site + "/compte/profil/")
    problems += _violations(page, "profil")
    # With something in each list: a slow table waiting, an unread notification.
    _slow_table_and_a_notification("axe")
    for path, where in (("/tables/mes-parties/", "mes parties"), ("/compte/notifications/", "notifications")):
        page.goto(live_site + path)
        problems += _violations(page, where)
    # The tournaments (one with an entry in its standings) and the seasons
    tournament = _tournament_with_an_entry("axe")
    for path, where in (("/tournois/", "tournois"), (f"/tournois/{tournament}/", "un tournoi"),
                        ("/tournois/nouveau/", "organiser un tournoi"), ("/tournois/joueur/axe/", "ses tournois"),
                        ("/saisons/", "saisons"), ("/saisons/thanasis/", "saison de Thanasis")):
        page.goto(live_site + path)
        problems += _violations(page, where)
    from accounts import mail
    from accounts.models import User

    page.goto(live_site + reverse("accounts:unsubscribe", args=[mail.unsubscribe_token(
        User.objects.get(username="axe"), "mail_turn")]))
    problems += _violations(page, "désabonnement")
    assert not problems, "\n".join(problems)


def _tournament_with_an_entry(pseudo: str) -> int:
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import User
    from tables.models import Game
    from tournaments import services

    tournament = services.tournament_create(name="Tournoi d'essai", game=Game.objects.get(slug="thanasis"),
                                            starts_at=timezone.now() + timedelta(days=1))
    services.register(tournament_id=tournament.pk, user=User.objects.get(username=pseudo))
    return tournament.pk


def _slow_table_and_a_notification(pseudo: str) -> None:
    from accounts.models import Notification, User
    from tables import services
    from tables.models import Game
    from tables.table_types import DAY

    user = User.objects.get(username=pseudo)
    table = services.table_create(host=user, game=Game.objects.get(slug="gin"), seats_count=2, stake=0,
                                  turn_timer_s=DAY)
    Notification.objects.create(user=user, kind=Notification.Kind.TURN, url=f"/tables/{table.pk}/",
                                text="À toi de jouer au Gin Rami (table n° 1) : tu as 24 heures.", key="axe")


def test_the_friends_pages_have_no_serious_violation(live_site, axe_page):
    """« Mes amis » with something in every list, a player's page with its friend buttons, and a waiting table
    with its « Inviter » list and the chat's people (« Masquer sa discussion »)."""
    from accounts import friends
    from accounts.models import User
    from accounts.services import user_create
    from tables import services
    from tables.models import Table

    page = axe_page
    sign_up(page, live_site, "axeamis")
    me = User.objects.get(username="axeamis")
    for name in ("axeami", "axeami2", "axedemande", "axeattente", "axebloque"):
        user_create(username=name, password="Cartes-2026!", email="")
    for name in ("axeami", "axeami2"):
        friends.friend_request(user=User.objects.get(username=name), pseudo="axeamis")
        friends.friend_accept(user=me, pseudo=name)
    friends.friend_request(user=User.objects.get(username="axedemande"), pseudo="axeamis")
    friends.friend_request(user=me, pseudo="axeattente")
    friends.player_block(user=me, pseudo="axebloque")
    create_table(page, live_site, "gin", 3, ["human", "human"])
    services.seat_join(table=Table.objects.get(host=me), user=User.objects.get(username="axeami"))
    page.reload()
    expect(page.get_by_test_id("invite-friends")).to_contain_text("axeami2")
    page.locator("#chat-people summary").click()
    expect(page.locator("#chat-people").get_by_role("button", name="Masquer sa discussion (axeami)")).to_be_visible()
    problems = _violations(page, "table en attente (inviter un ami, joueurs de la table)")
    page.goto(live_site + "/amis/")
    problems += _violations(page, "mes amis")
    page.goto(live_site + "/joueurs/axedemande/")
    problems += _violations(page, "page d'un joueur (demande reçue)")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["desktop", "phone"])
def test_every_table_page_has_no_serious_violation(live_site, axe_page, size):
    page = axe_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    sign_up(page, live_site, f"axe{size[0]}")
    problems: list[str] = []
    for game in GAMES:
        create_table(page, live_site, game, 4, ["1", "2", "3"])
        expect(page.locator("#table-hand [data-card], #table-hand [data-tile]").first).to_be_visible(timeout=30000)
        mine = page.locator('#table-status[data-my-turn="1"], #table-round-end.is-open')
        expect(mine.first).to_be_visible(timeout=30000)
        page.wait_for_timeout(400)  # the arriving cards' animation ends
        problems += _violations(page, f"{game} {size[0]}")
        if page.locator("#table-centre button.pile.stock").count():  # acting: « Déposer », « Je ferme ! »…
            version = page.locator("#table-status").get_attribute("data-version")
            page.locator("#table-centre button.pile.stock").click()
            expect(page.locator("#table-status")).not_to_have_attribute("data-version", version, timeout=10000)
            page.wait_for_timeout(400)
            problems += _violations(page, f"{game} {size[0]} après la pioche")
        assert re.search(r"/tables/\d+/$", page.url)
    # The colours of what a round's end shows (a burnt player struck through, the gold « Undercut ! »), drawn
    # here with the site's classes rather than waiting for such a round.
    page.evaluate(SHOW_ROUND_END)
    page.wait_for_timeout(1300)  # the celebration's animation ends
    problems += _violations(page, f"fin de manche {size[0]}")
    assert not problems, "\n".join(problems)


def test_every_games_spectator_and_replay_pages_have_no_serious_violation(live_site, axe_page):
    """The pages around a table, for each of the ten games: the spectator's (another user watching) and the
    replay of a finished round, at its deal, a move in and its last step."""
    from tests.e2e.test_console import ALL_GAMES, _table_in_its_second_round

    page = axe_page
    sign_up(page, live_site, "axeregard")
    problems: list[str] = []
    for slug in ALL_GAMES:
        table_id = _table_in_its_second_round("axeregard", slug)
        page.goto(f"{live_site}/tables/{table_id}/revoir/1/")
        position = page.get_by_test_id("replay-position")
        expect(position).to_contain_text("La donne")
        problems += _violations(page, f"{slug} revoir (donne)")
        page.keyboard.press("ArrowRight")
        expect(position).to_contain_text("Coup 1")
        problems += _violations(page, f"{slug} revoir (coup 1)")
        page.keyboard.press("End")
        expect(position).to_have_text(re.compile(r"Coup (\d+) sur \1$"))
        problems += _violations(page, f"{slug} revoir (fin)")
    # A spectator: another user on a public table of each game (the seat is the test's own player).
    page.context.clear_cookies()
    sign_up(page, live_site, "axespectateur")
    for slug in ALL_GAMES:
        table_id = _table_in_its_second_round("axeregard", slug)
        page.goto(f"{live_site}/tables/{table_id}/regarder/")
        expect(page.get_by_test_id("spectating")).to_be_visible()
        page.wait_for_timeout(300)
        problems += _violations(page, f"{slug} spectateur")
    assert not problems, "\n".join(problems)


def test_the_practice_button_of_a_finished_matchs_replay_has_no_serious_violation(live_site, axe_page):
    """« Rejouer à partir d'ici » (tables.practice): the form on a finished match's replay step, its level select
    labelled, for a player of the match."""
    from accounts.models import User
    from tests.tables.helpers import create_table as table_in_db
    from tests.tables.helpers import play_out

    page = axe_page
    sign_up(page, live_site, "axeentrainement")
    table = play_out(table_in_db(User.objects.get(username="axeentrainement"), "gin", seats=2, bots={1: 1}, stake=0))
    page.goto(f"{live_site}/tables/{table.pk}/revoir/1/?etape=1")
    expect(page.get_by_test_id("practice-form")).to_be_visible()
    problems = _violations(page, "revoir (rejouer à partir d'ici)")
    assert not problems, "\n".join(problems)
