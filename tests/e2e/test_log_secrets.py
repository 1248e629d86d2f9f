"""The logs of a whole match, as production writes them (INFO, the site's format), hold no card, no password, no
session key and no shuffle seed: scanned after a match played in a real browser against the real server."""

import re

import pytest
from playwright.sync_api import Page, expect

from tables import services
from tables.models import Table
from tests.e2e.test_play import PASSWORD, create_table, play_until_match_over, sign_up

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def live_site_env():
    return {"LOG_LEVEL": "INFO", "DEBUG": "0"}


def test_a_whole_match_leaves_no_secret_in_the_logs(live_site, page: Page, tmp_path):
    sign_up(page, live_site, "journal")
    create_table(page, live_site, "gin", 2, ["1"], {"match": "1"})
    expect(page.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
    play_until_match_over([page])
    session = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
    table = Table.objects.get(pk=int(re.search(r"/tables/(\d+)/", page.url).group(1)))
    cards = set()
    for _, state in services.replay_steps(table):
        hands = state.get("hands") or []
        for hand in hands.values() if isinstance(hands, dict) else hands:
            cards |= {card for card in hand if isinstance(card, str)}
    assert len(cards) > 20

    log = (tmp_path / "site.log").read_text(encoding="utf-8", errors="replace")
    assert f"[table {table.pk}]" in log or "[table -]" in log  # the site's format, lines there to scan
    for secret, what in ((PASSWORD, "password"), (session, "session key"), (table.seed, "seed")):
        assert secret not in log, f"a {what} in the logs"
    leaked = cards & set(re.findall(r"[A-Za-z0-9]+", log))
    assert not leaked, f"cards in the logs: {sorted(leaked)}"
