"""Match export and import (issue 37, item 3): a finished match downloads as text and as JSON (tables.match_file,
docs/export-format.md), with its deals but never the table's seed nor a card nobody saw; an imported file replays
in « Revoir »'s pages to the same states as the table's log; a file that is not one is refused in French and
changes nothing."""

import html
import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Counter, CounterEntry
from accounts.services import counter_move
from engine import bots, games, narration
from tables import exports, match_file, replays, services
from tables.models import Game, ImportedMatch, Table, TableMove
from tests.tables.helpers import create_table, play_out

pytestmark = pytest.mark.django_db

# The shortest match each game offers (its options), at its smallest table.
SHORT = {"thanasis": (2, {}), "rami": (2, {"point_limit": "1"}), "rami40": (2, {"point_limit": "1"}),
         "kalooki": (2, {"point_limit": "1"}), "rami-traditionnel": (2, {"target": "1"}), "gin": (2, {"match": "1"}),
         "rummikub": (2, {"rounds": "1"}), "canasta": (4, {}), "canasta-tuiles": (4, {"match_length": "1"}),
         "thunee": (4, {})}


def test_every_game_has_a_short_match_here():
    assert set(SHORT) == set(games.available())


def finished(host, slug: str, seed: int = 1) -> Table:
    """A table of `slug` started by the site (its seed, its start), then played to its end by Débutant robots at
    every place, host included, and logged as the table service logs (faster than the tasks for the long games)."""
    seats, options = SHORT[slug]
    table = create_table(host, slug, seats=seats, bots=dict.fromkeys(range(1, seats), 1), stake=0, options=options)
    engine = games.get(slug)
    rng = random.Random(seed)
    state, seq, rows = table.state, table.version, []
    while engine.result(state) is None:
        to_act = engine.to_act(state)
        if not to_act:
            seat, move, actor = state["active"][0], {"action": "next_round"}, "system"
        else:
            seat, actor = to_act[0], "bot"
            try:
                move = bots.choose(engine, engine.view(state, seat), engine.legal_moves(state, seat), 1, rng)
            except Exception:  # as tables.tasks.bot_turn: the rules' autoplay plays instead
                move, actor = engine.autoplay(state, seat), "autoplay"
        move = engine.clean_move(move)
        state, _events = engine.apply(state, seat, move)
        seq += 1
        rows.append(TableMove(table=table, seq=seq, seat=seat, move=move, actor=actor))
        assert seq < 6000, "the match did not end"
    TableMove.objects.bulk_create(rows)
    Table.objects.filter(pk=table.pk).update(state=state, version=seq, public_version=seq,
                                             status=Table.Status.FINISHED, finished_at=timezone.now())
    return Table.objects.get(pk=table.pk)


def download(client, table: Table, kind: str):
    return client.get(reverse("tables:export_text" if kind == "txt" else "tables:export_json", args=[table.pk]))


def upload(client, content: bytes, name: str = "partie.txt"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(reverse("tables:import"), {"file": SimpleUploadedFile(name, content)})


def piles_sorted(value):
    """A state with every list of pieces in sorted order: what stays of a state once the order of the pieces
    nobody will see again is set aside."""
    if isinstance(value, dict):
        return {key: piles_sorted(item) for key, item in value.items()}
    if isinstance(value, list):
        items = [piles_sorted(item) for item in value]
        return sorted(items) if items and all(match_file.is_piece(item) for item in items) else items
    return value


def assert_replays_as_the_log(table: Table, steps: list[match_file.Step]) -> None:
    """The imported steps, cut into rounds as « Revoir » cuts them, are the log's: the same rounds and steps, the
    same view for every seat and for the spectators at every step, the same words, and the same state but for the
    order of the pieces nobody sees again and the seed."""
    engine = games.get(table.game.slug)
    theirs = replays.rounds(table)
    mine = replays.rounds_from(engine, ((s.n, s.seat, s.move, s.state, s.events) for s in steps))
    assert [(r.number, len(r.steps)) for r in mine] == [(r.number, len(r.steps)) for r in theirs]
    for my_round, their_round in zip(mine, theirs, strict=True):
        for a, b in zip(my_round.steps, their_round.steps, strict=True):
            assert a.seat == b.seat
            assert engine.public_view(a.state) == engine.public_view(b.state), (their_round.number, b.seq)
            for seat in range(table.seats_count):
                assert engine.view(a.state, seat) == engine.view(b.state, seat), (their_round.number, b.seq, seat)
            assert narration.public_events(a.events) == narration.public_events(b.events), (b.seq, b.events)
            assert "seed" not in a.state
            assert piles_sorted(a.state) == piles_sorted(match_file.without_seed(b.state)), (b.seq,)
    assert engine.result(steps[-1].state) == engine.result(table.state)


@pytest.mark.parametrize("slug", sorted(SHORT))
def test_export_then_import_replays_every_game_to_the_states_of_its_log(slug, player, player_client):
    table = finished(player, slug)
    text, js = download(player_client, table, "txt"), download(player_client, table, "json")
    assert text.status_code == js.status_code == 200
    for response, kind in ((text, "txt"), (js, "json")):
        assert response["Content-Disposition"] == f'attachment; filename="{slug}-table-{table.pk}.{kind}"'
        assert "charset=utf-8" in response["Content-Type"]
        assert table.seed not in response.content.decode()
    doc = json.loads(js.content)
    assert (doc["format"], doc["version"], doc["game"]) == ("cartes-et-rami/match", 1, slug)
    assert match_file.read(text.content) == match_file.read(js.content)  # one document, two forms

    for response, name in ((text, "partie.txt"), (js, "partie.json")):
        answer = upload(player_client, response.content, name)
        assert answer.status_code == 302, answer.content.decode()[:2000]
        imported = ImportedMatch.objects.filter(owner=player).first()
        assert answer["Location"] == imported.get_absolute_url()
        assert_replays_as_the_log(table, exports.imported_steps(imported))

    # The imported match shows in « Revoir »'s pages, drawn by the live table's pieces.
    rounds = replays.rounds(table)
    page = player_client.get(imported.get_absolute_url()).content.decode()
    assert page.count('href="/tables/importees/') >= len(rounds) and "partie importée" in page
    for rnd in (rounds[0], rounds[-1]):
        url = reverse("tables:imported_round", args=[imported.pk, rnd.number])
        first = player_client.get(url)
        assert first.status_code == 200 and "La donne, avant" in first.content.decode()
        end = player_client.get(f"{url}?etape={len(rnd.steps) - 1}").content.decode()
        assert 'data-testid="replay-hands"' in end
        engine = games.get(slug)
        for seat in range(table.seats_count):
            for piece in engine.view(rnd.steps[-1].state, seat).get("hand") or []:
                assert f'data-piece="{replays.piece_id(piece)}"' in end


def test_the_text_is_one_line_per_move_with_the_deal_in_french_card_names(player, player_client):
    table = play_out(create_table(player, "gin", seats=2, bots={1: 2}, stake=0, options={"match": "1"}))
    text = download(player_client, table, "txt").content.decode("utf-8")
    lines = text.splitlines()
    assert lines[0] == "# cartes-et-rami/match v1"
    for header in ("format: cartes-et-rami/match", "version: 1", "jeu: gin", 'options: {"match":"1"}', "places: 2",
                   "joueur 1: alice", "robot 2: Confirmé", f"table: {table.pk}"):
        assert header in lines, header
    assert "== manche 1 ==" in lines
    deal = [line for line in lines if line.startswith("#   alice : ")]
    assert deal and re.search(r"(A|[2-9]|10|V|D|R)[♠♥♦♣]", deal[0])
    steps = [line for line in lines if re.match(r"^\d+\. ", line)]
    assert steps[0].startswith("1. départ @")
    assert len(steps) == table.moves.count()  # gin stages nothing: every move of the log is a line
    assert all(re.match(r"^\d+\. (départ|J[12] [a-z_]+( \{.*\})?) @[0-9a-f]{16}(  # .+)?$", line) for line in steps)
    assert any(" # Robot Confirmé a " in line or " # alice a " in line for line in steps)
    assert any(line.startswith("  = /hands ") for line in lines)  # the deal, for the importer


def test_an_unfinished_match_is_not_downloaded(player, player_client):
    table = create_table(player, "gin", seats=2, bots={1: 2}, stake=0, options={"match": "1"})
    for kind in ("txt", "json"):
        assert download(player_client, table, kind).status_code == 404
    page = player_client.get(reverse("tables:replays", args=[table.pk])).content.decode()
    assert "Télécharger la partie" not in page


def test_the_replays_page_of_a_finished_match_offers_both_files(player, player_client):
    table = play_out(create_table(player, "gin", seats=2, bots={1: 2}, stake=0, options={"match": "1"}))
    page = player_client.get(reverse("tables:replays", args=[table.pk])).content.decode()
    assert "Télécharger la partie (texte)" in page and "Télécharger la partie (JSON)" in page
    assert reverse("tables:export_text", args=[table.pk]) in page and reverse("tables:import") in page


def test_who_may_not_replay_a_match_may_not_download_it(player, client, make_player):
    table = play_out(create_table(player, "gin", seats=2, bots={1: 2}, stake=0, options={"match": "1"}))
    assert table.private
    client.force_login(make_player("bruno"), backend="accounts.backends.HumanOnlyBackend")
    for kind in ("txt", "json"):
        assert download(client, table, kind).status_code == 404
    Table.objects.filter(pk=table.pk).update(private=False)  # a public table: anyone logged in replays it
    assert download(client, table, "txt").status_code == 200
    client.logout()
    answer = download(client, table, "txt")
    assert answer.status_code == 302 and "/compte/" in answer["Location"]


def test_a_match_a_player_left_replays_with_his_leave(player, player_client):
    from tables import tasks

    engine = games.get("thanasis")
    for _ in range(5):  # a match may end on its first moves (a close at once): then another table
        table = create_table(player, "thanasis", seats=3, bots={1: 1, 2: 1}, stake=0)
        for _ in range(6):  # a few moves (the rules' autoplay for me), then I leave
            table = Table.objects.get(pk=table.pk)
            to_act = engine.to_act(table.state)
            if table.status != Table.Status.PLAYING:
                break
            if not to_act:
                tasks.next_round.run(table.pk, table.version)
            elif to_act[0] == 0:
                tasks.autoplay_turn.run(table.pk, table.version, 0)
            else:
                tasks.bot_turn.run(table.pk, table.version, to_act[0])
        if Table.objects.get(pk=table.pk).status == Table.Status.PLAYING:
            break
    services.seat_abandon(table_id=table.pk, user=player)
    table = play_out(Table.objects.get(pk=table.pk))
    assert table.moves.filter(move__action="leave").exists()
    text = download(player_client, table, "txt").content
    assert re.search(rb"\n\d+\. J1 leave @", text)
    assert_replays_as_the_log(table, match_file.replay(match_file.read(text)))


def test_account_jokers_are_written_as_those_spent_not_the_balance(player, player_client):
    counter_move(user=player, kind=Counter.Kind.JOKERS, amount=7, reason=CounterEntry.Reason.GRANT,
                 idempotency_key="grant-export")
    table = finished(player, "canasta-tuiles")
    assert table.moves.get(seq=1).move["balances"] == {"0": 7}
    doc = json.loads(download(player_client, table, "json").content)
    spent = sum(1 for _entry, _state, events in services.replay_moves(table) for evt in events
                if evt.get("kind") == services.JOKER_TAKEN and evt.get("seat") == 0)
    steps = match_file.replay(match_file.read(json.dumps(doc).encode()))
    assert steps[0].state["jokers"] == [spent, 0, 0, 0]  # what he spent, nothing of his account
    assert steps[-1].state["jokers"][0] == 0
    assert_replays_as_the_log(table_with_balances(table, {"0": spent}), steps)


def table_with_balances(table: Table, balances: dict) -> Table:
    """The table with its start's balances replaced (in the database), for comparing with its log."""
    start = table.moves.get(seq=1)
    TableMove.objects.filter(pk=start.pk).update(move={**start.move, "balances": balances})
    return Table.objects.get(pk=table.pk)


def test_staged_actions_taken_back_are_left_out():
    """A rummy turn staged, taken back and staged again: the file keeps the fewest staged moves that make the same
    committed turn."""
    engine = games.get("rami")
    state = engine.new_match(2, {}, "f" * 64)
    for attempt in range(2000):
        seat = engine.to_act(state)[0]
        legal = engine.legal_moves(state, seat)
        meld = next((m for m in legal if m["action"] == "meld"), None)
        if meld is not None:
            break
        state, _ = engine.apply(state, seat, bots.choose(engine, engine.view(state, seat), legal, 1,
                                                         random.Random(attempt)))
    else:
        pytest.fail("no meld came up")
    discard = lambda s: next(m for m in engine.legal_moves(s, seat) if m["action"] == "discard")  # noqa: E731
    run, current = [], state
    for move in (meld, {"action": "undo"}, meld):
        current, events = engine.apply(current, seat, move)
        assert engine.is_private(state, seat, move) or move["action"] == "undo"
        run.append((seat, move))
    commit = (seat, discard(current))
    after, _ = engine.apply(current, seat, commit[1])
    assert match_file.fewest_staged(engine, state, run, commit, after) == [(seat, meld)]


def test_the_robots_names_are_the_sites():
    from tables.models import Seat
    from tables.presenters.frame import seat_names

    players = [{"name": "alice"}, {"robot": 3}, {"robot": 3}, {"robot": 1}]
    seats = [Seat(position=i, bot_level=p.get("robot")) for i, p in enumerate(players)]
    seats[0].username = "alice"
    assert match_file.player_names(players) == seat_names(seats)


# ---------------------------------------------------------------- files that are not match files

@pytest.fixture
def gin_files(player, player_client):
    """A one-round Gin match's two files, with a few moves to edit (a deal can be knocked at the first draw)."""
    for _ in range(20):
        table = play_out(create_table(player, "gin", seats=2, bots={1: 2}, stake=0, options={"match": "1"}))
        text = download(player_client, table, "txt").content.decode("utf-8")
        if len(_step_lines(text)) >= 6:
            return text, download(player_client, table, "json").content.decode("utf-8")
    raise AssertionError("20 one-round Gin matches, none of 6 moves")


def _step_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines()) if re.match(r"^\d+\. J", line)]


def _edited(text: str, index: int, edit) -> str:
    lines = text.splitlines()
    lines[index] = edit(lines[index])
    return "\n".join(lines) + "\n"


def _illegal_move(text: str) -> str:
    """A discard of a card the player does not hold (another seat's), its digest left as it was."""
    doc = match_file.read(text.encode())
    steps = match_file.replay(doc)
    index = next(i for i, s in enumerate(steps) if s.move.get("action") == "discard")
    engine = games.get("gin")
    before = steps[index - 1].state
    other = engine.view({**before, "seed": "x"}, 1 - steps[index].seat)["hand"][0]
    line = _step_lines(text)[index - 1]
    return _edited(text, line, lambda ln: re.sub(r'\{"card":"[^"]+"\}', f'{{"card":"{other}"}}', ln))


def _tampered_deal(text: str) -> str:
    """Two cards of the deal swapped between the hands: every move may still be legal, the digests tell."""
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("  = /hands "))
    hands = json.loads(lines[index][len("  = /hands "):])
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    lines[index] = "  = /hands " + json.dumps(hands, separators=(",", ":"))
    return "\n".join(lines) + "\n"


MALFORMED = {
    "vide": (lambda text, js: b"", "vide"),
    "pas UTF-8": (lambda text, js: "é".encode("latin-1") * 50, "UTF-8"),
    "trop gros": (lambda text, js: b"#" * (match_file.MAX_BYTES + 1), "1 Mo"),
    "autre chose": (lambda text, js: b"Bonjour, voici ma partie !\n", "n'est pas une partie exportée"),
    "tronqué (texte)": (lambda text, js: "\n".join(text.splitlines()[:_step_lines(text)[3] + 1]).encode(),
                        "pas terminée"),
    "tronqué dans la donne": (lambda text, js: "\n".join(
        line for line in text.splitlines() if not line.startswith("  = /stock ")).encode(), "retire des cartes"),
    "tronqué (JSON)": (lambda text, js: js[:len(js) // 2].encode(), "mal formé"),
    "autre version": (lambda text, js: text.replace("# cartes-et-rami/match v1", "# cartes-et-rami/match v2")
                      .encode(), "version 1"),
    "autre version (JSON)": (lambda text, js: js.replace('"version": 1', '"version": 2').encode(), "version 1"),
    "coup illégal": (lambda text, js: _illegal_move(text).encode(), "refusé par les règles"),
    "empreinte changée": (lambda text, js: _edited(text, _step_lines(text)[3], lambda ln: re.sub(
        r"@([0-9a-f])", lambda m: "@" + ("0" if m.group(1) != "0" else "1"), ln)).encode(), "empreinte"),
    "donne changée": (lambda text, js: _tampered_deal(text).encode(), "empreinte"),
    "coup manquant": (lambda text, js: "\n".join(line for i, line in enumerate(text.splitlines())
                                               if i != _step_lines(text)[2]).encode(), "manque"),
    "ligne inconnue": (lambda text, js: text.replace("== manche 1 ==", "== manche 1 ==\nbonjour").encode(),
                       "Ligne"),
    "jeu inconnu": (lambda text, js: js.replace('"game": "gin"', '"game": "belote"').encode(), "belote"),
    "caractère nul": (lambda text, js: js.replace('"name":"alice"', '"name":"al\\u0000ice"').encode(),
                      "caractères"),
    "trop imbriqué": (lambda text, js: js.replace('"result":', '"deep":' + "[" * 100 + "]" * 100 + ',"result":', 1)
                      .encode(), "imbriqué"),
    "nombre à virgule": (lambda text, js: js.replace('"seats": 2', '"seats": 2.0').encode(), "nombres"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_file_that_is_not_a_match_file_is_refused_in_french_and_nothing_is_kept(case, gin_files, player_client):
    make, words = MALFORMED[case]
    content = make(*gin_files)
    answer = upload(player_client, content)
    page = html.unescape(answer.content.decode())
    assert answer.status_code == 200, page[:500]
    assert words in page, re.findall(r'<p class="error"[^>]*>([^<]*)</p>', page)
    assert ImportedMatch.objects.count() == 0
    with pytest.raises(match_file.FileRefused):  # the same refusal without the site around it
        exports.import_file(None, content)


def test_the_untouched_files_are_taken(gin_files, player_client):
    for content in gin_files:
        assert upload(player_client, content.encode()).status_code == 302
    assert ImportedMatch.objects.count() == 2


def test_an_upload_too_large_is_refused_before_it_is_read(player_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    big = SimpleUploadedFile("gros.txt", b"#" * (match_file.MAX_BYTES + 200 * 1024))
    answer = player_client.post(reverse("tables:import"), {"file": big})
    assert answer.status_code == 200 and "1 Mo" in answer.content.decode()


def test_the_import_page_needs_a_login_and_a_file(player_client):
    assert Client().get(reverse("tables:import")).status_code == 302
    page = player_client.get(reverse("tables:import")).content.decode()
    assert "Importer une partie" in page and 'enctype="multipart/form-data"' in page and "style=" not in page
    answer = player_client.post(reverse("tables:import"), {})
    assert answer.status_code == 200
    assert "Choisis le fichier d'une partie exportée." in html.unescape(answer.content.decode())


# ---------------------------------------------------------------- imported matches: who sees them, how many

def test_an_imported_match_is_its_owners_alone_and_he_may_delete_it(gin_files, player, player_client, make_player):
    assert upload(player_client, gin_files[0].encode()).status_code == 302
    imported = ImportedMatch.objects.get()
    listing = player_client.get(reverse("tables:import")).content.decode()
    assert imported.get_absolute_url() in listing and "Gin" in listing
    client = Client()
    client.force_login(make_player("bruno"), backend="accounts.backends.HumanOnlyBackend")
    assert client.get(imported.get_absolute_url()).status_code == 404
    assert client.get(reverse("tables:imported_round", args=[imported.pk, 1])).status_code == 404
    assert client.post(reverse("tables:imported_delete", args=[imported.pk])).status_code == 404
    answer = player_client.post(reverse("tables:imported_delete", args=[imported.pk]))
    assert answer.status_code == 302 and not ImportedMatch.objects.exists()


def test_a_player_keeps_a_limited_number_of_imported_matches(gin_files, player, player_client):
    doc = match_file.read(gin_files[1].encode())
    game = Game.objects.get(slug="gin")
    ImportedMatch.objects.bulk_create([ImportedMatch(owner=player, game=game, document=doc)
                                       for _ in range(exports.MAX_IMPORTS)])
    answer = upload(player_client, gin_files[0].encode())
    assert answer.status_code == 200 and "supprimes-en une" in answer.content.decode()
    assert ImportedMatch.objects.count() == exports.MAX_IMPORTS


def test_an_imported_match_that_no_longer_replays_is_told_not_crashed(gin_files, player, player_client):
    assert upload(player_client, gin_files[1].encode()).status_code == 302
    imported = ImportedMatch.objects.get()
    doc = imported.document
    doc["rounds"][0]["steps"][1]["digest"] = "0" * 16  # as if the rules had changed since
    ImportedMatch.objects.filter(pk=imported.pk).update(document=doc)
    assert player_client.get(imported.get_absolute_url()).status_code == 404


def test_an_import_without_the_forms_token_is_refused(gin_files, player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
    from django.core.files.uploadedfile import SimpleUploadedFile

    answer = client.post(reverse("tables:import"), {"file": SimpleUploadedFile("p.txt", gin_files[0].encode())})
    assert answer.status_code == 403 and not ImportedMatch.objects.exists()


def test_the_stocks_cards_never_drawn_are_written_in_sorted_order_not_the_dealt_one(player, player_client,
                                                                                   monkeypatch):
    monkeypatch.setattr(services, "new_seed", lambda: "1" * 64)  # a match whose stock is never rebuilt
    table = play_out(create_table(player, "gin", seats=2, bots={1: 2}, stake=0, options={"match": "1"}))
    never_drawn = table.state["stock"]
    assert len(never_drawn) > 1 and table.state["rebuilds"] == 0
    steps = match_file.replay(match_file.read(download(player_client, table, "json").content))
    assert steps[-1].state["stock"] == sorted(never_drawn)
    dealt = next(services.replay_steps(table))[1]["stock"]  # the real stock as dealt, the last card on top
    written = steps[0].state["stock"]
    assert written[:len(never_drawn)] == sorted(never_drawn)  # the bottom nobody reached: its set, not its order
    assert written[len(never_drawn):] == dealt[len(never_drawn):]  # the cards drawn, in the order they came
    assert dealt[:len(never_drawn)] == never_drawn


def test_the_admin_lists_imported_matches(gin_files, player, player_client, admin_client):
    assert upload(player_client, gin_files[0].encode()).status_code == 302
    page = admin_client.get(reverse("admin:tables_importedmatch_changelist")).content.decode()
    assert "alice" in page


# ---------------------------------------------------------------- files made by hand, digests and all

def resigned(doc: dict) -> dict:
    """The document with every digest recomputed after its patches: what a forger would write. A step the engine
    refuses is kept as it is (the import refuses it)."""
    engine = games.get(doc["game"])
    state = {}
    for rnd in doc["rounds"]:
        for step in rnd["steps"]:
            try:
                if step["n"] == 1:
                    reached = engine.new_match(doc["seats"], doc["options"], match_file.PLACEHOLDER_SEED)
                else:
                    reached, _ = match_file._apply(engine, state, step["seat"], step["move"])
            except Exception:
                return doc
            state = match_file.patched(match_file.without_seed(reached), step)
            step["digest"] = match_file.digest(state)
    return doc


def test_a_forged_deal_may_not_change_the_cards_in_play_nor_a_hands_size(gin_files, player_client):
    doc = match_file.read(gin_files[1].encode())
    start = doc["rounds"][0]["steps"][0]["set"]
    big = json.loads(json.dumps(doc))  # the whole stock in the first hand: the solvers would never end
    big["rounds"][0]["steps"][0]["set"]["/hands"][0] += start["/stock"]
    big["rounds"][0]["steps"][0]["set"]["/stock"] = []
    extra = json.loads(json.dumps(doc))  # a card twice
    extra["rounds"][0]["steps"][0]["set"]["/stock"] = start["/stock"] + [start["/hands"][0][0]]
    for forged, words in ((big, "nombre de cartes en main"), (extra, "ajoute ou retire des cartes")):
        answer = upload(player_client, json.dumps(resigned(forged)).encode(), "faux.json")
        assert words in html.unescape(answer.content.decode())
    assert not ImportedMatch.objects.exists()


def test_an_imported_step_that_cannot_be_drawn_is_told_not_crashed(gin_files, player, player_client):
    doc = match_file.read(gin_files[1].encode())
    start = doc["rounds"][0]["steps"][0]["set"]
    start["/discard"] = ["ZZ", *start["/discard"]]  # no card of the game: the table cannot draw it
    imported = ImportedMatch.objects.create(owner=player, game=Game.objects.get(slug="gin"), document=resigned(doc))
    for url in (imported.get_absolute_url(), reverse("tables:imported_round", args=[imported.pk, 1])):
        assert player_client.get(url).status_code in (200, 404)


def test_the_example_of_the_formats_page_is_a_file_the_site_takes():
    """docs/export-format.md's example replays as it is: the page describes the format the code reads."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "export-format.md").read_text(encoding="utf-8")
    example = re.search(r"```text\n(.*?)```", page, re.S).group(1)
    doc = match_file.read(example.encode())
    steps = match_file.replay(doc)
    assert (doc["game"], len(steps), steps[-1].state["scores"]) == ("gin", 8, [0, 24])
    assert match_file.to_text({**doc, "rounds": [{**r, "hands": match_file.hands_of(games.get("gin"), steps[0].state)}
                                                 for r in doc["rounds"]]}, steps) == example
