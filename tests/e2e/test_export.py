"""A finished match downloaded from « Revoir » and imported back, in a real browser (issue 37, item 3): the text file
arrives as an attachment, « Importer une partie » refuses a file that is not one in French and takes the real one,
and the imported replay shows the match's players and cards. No console error on the way (a CSP refusal is one)."""

import re

import pytest
from playwright.sync_api import expect

from engine import cards
from tests.e2e.test_play import play_a_one_round_gin_match, sign_up

pytestmark = [pytest.mark.e2e]


def test_a_gin_match_downloads_as_text_and_imports_into_the_replay(live_site, page, tmp_path, outside_requests,
                                                                   artifacts_dir):
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, live_site, "zoe")
    table_id = play_a_one_round_gin_match(page, live_site)

    page.get_by_test_id("round-end-replay").first.click()
    page.wait_for_url(f"{live_site}/tables/{table_id}/revoir/")
    page.screenshot(path=str(artifacts_dir / "export-replays-page.png"), full_page=True)
    with page.expect_download() as info:
        page.get_by_role("link", name="Télécharger la partie (texte)").click()
    download = info.value
    assert download.suggested_filename == f"gin-table-{table_id}.txt"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# cartes-et-rami/match v1\n")
    assert "joueur 1: zoe" in text and "robot 2: Confirmé" in text and "\n== manche 1 ==\n" in text
    # the up-card as dealt (the file writes it in a patch line only when its place differs from what the import
    # deals itself, so it is read from the table's own log)
    from tables import services
    from tables.models import Table

    _start, dealt, _events = next(iter(services.replay_moves(Table.objects.get(pk=table_id))))
    upcard = dealt["discard"][-1]

    page.get_by_role("link", name="Importer une partie").click()
    page.wait_for_url(f"{live_site}/tables/importer/")
    field = page.get_by_label("Fichier de la partie (.txt ou .json)")
    field.set_input_files(files=[{"name": "pas-une-partie.txt", "mimeType": "text/plain", "buffer": b"Bonjour !\n"}])
    page.get_by_role("button", name="Importer").click()
    expect(page.locator(".field .error")).to_contain_text("n'est pas une partie exportée de Cartes & Rami")
    expect(page.get_by_test_id("imported-list")).to_have_count(0)
    page.screenshot(path=str(artifacts_dir / "import-refused.png"), full_page=True)

    page.get_by_label("Fichier de la partie (.txt ou .json)").set_input_files(str(path))
    page.get_by_role("button", name="Importer").click()
    page.wait_for_url(re.compile(r"/tables/importees/\d+/$"))
    expect(page.locator(".messages")).to_contain_text("Partie importée")
    label = f"zoe, Robot Confirmé · d'après la table n° {table_id}"
    expect(page.get_by_test_id("imported-label")).to_contain_text(label)

    page.get_by_role("link", name="Manche 1").click()
    position = page.get_by_test_id("replay-position")
    expect(position).to_contain_text("La donne")
    expect(page.get_by_test_id("replay-move")).to_contain_text("distribue les cartes.")
    expect(page.locator("#table-opponents")).to_contain_text("zoe")
    expect(page.locator("#table-opponents")).to_contain_text("Robot Confirmé")
    expect(page.locator(f'#table-centre .pile.discard [aria-label="{cards.name_fr(upcard)}"]')).to_be_visible()
    # « Fin » (its key, End, is bound once replay.js has run: a click does not depend on it)
    page.locator("[data-replay-last]").click()
    expect(position).to_have_text(re.compile(r"Coup (\d+) sur \1$"), timeout=10000)
    expect(page.get_by_test_id("replay-hands")).to_contain_text("zoe")
    page.screenshot(path=str(artifacts_dir / "import-replay-end.png"), full_page=True)
    assert not errors, errors
    assert outside_requests == []
