"""« Rejouer à partir d'ici » in a real browser: a one-round Gin match finished against a robot, « Revoir », a few
steps forward, the button, and the practice table it makes played on, live (the robot by its Celery task, the
player by a click). No console error on the way (a CSP refusal is one)."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.test_play import play_a_one_round_gin_match, play_one_step, sign_up

pytestmark = [pytest.mark.e2e]


def test_a_finished_gin_match_is_played_on_from_a_replay_step(live_site, page, outside_requests, artifacts_dir):
    from tables.models import Table, TableMove

    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, live_site, "zoe")
    source_id = play_a_one_round_gin_match(page, live_site)

    page.get_by_test_id("round-end-replay").first.click()
    page.wait_for_url(f"{live_site}/tables/{source_id}/revoir/")
    page.get_by_role("link", name="Manche 1").click()
    position = page.get_by_test_id("replay-position")
    expect(position).to_contain_text("La donne")
    for step in (1, 2):
        page.locator("[data-replay-next]").click()
        expect(position).to_contain_text(f"Coup {step} sur")
    form = page.get_by_test_id("practice-form")
    expect(form).to_be_visible()
    level = page.get_by_label("Niveau des robots")
    expect(level).to_have_value("3")  # « Expert » unless the player picks another
    level.select_option("1")
    page.screenshot(path=str(artifacts_dir / "practice-replay-step.png"), full_page=True)
    page.get_by_role("button", name="Rejouer à partir d'ici").click()

    page.wait_for_url(re.compile(r"/tables/(\d+)/$"))
    practice_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    assert practice_id != source_id
    expect(page.locator(".messages")).to_contain_text("Partie d'entraînement")
    expect(page.locator(".table-type-badge").first).to_have_text("Entraînement")
    expect(page.locator("#table-hand button.card").first).to_be_visible(timeout=15000)
    table = Table.objects.get(pk=practice_id)
    assert table.table_type == Table.Type.PRACTICE and table.stake == 0 and not table.rated
    assert [s.bot_level for s in table.seats.all() if s.is_bot] == [1]

    # the player makes a move of his own (the robot plays its turns by itself meanwhile)
    deadline = time.monotonic() + 60
    while not TableMove.objects.filter(table_id=practice_id, actor="player").exists():
        assert time.monotonic() < deadline, "no move of the player's reached the practice table"
        if not play_one_step(page):
            page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts_dir / "practice-table-played.png"), full_page=True)
    from tables import services

    table.refresh_from_db()
    assert table.version > 1 and services.replay(table) == table.state
    assert not errors, errors
    assert outside_requests == []
