"""The tile table (Rummikub) rendered server-side for each phase, and what each seat's push may hold.

The table is built in the database with a state driven by the engine: my turn, another's turn, a proposal the
server holds, the end of a round and of the match. No push ever holds another rack's tiles nor a pool tile."""

import re

import pytest

from engine import games
from engine.games import _tiles
from tables import reads
from tables.families import presenter_for
from tables.models import Table
from tables.rendering import render_push, table_context
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db

TILE_ID = re.compile(r"(?<![A-Za-z0-9])([RYBK](?:1[0-3]|[1-9])[ab]|J[12])(?![A-Za-z0-9])")
ENGINE = games.get("rummikub")


def _table(player, state, seats=3, version=5):
    table = create_table(player, "rummikub", seats=seats, bots=dict.fromkeys(range(1, seats), 2), stake=0,
                         start=False)
    Table.objects.filter(pk=table.pk).update(state=state, status=Table.Status.PLAYING, version=version)
    table.refresh_from_db()
    return table


def _pushes(table):
    seats = reads.seats_of(table.pk)
    return {s.position: render_push(table, seats, s) for s in seats}, seats


def _scripted(seats=3, rounds="3"):
    """A fresh match with seat 0 to play, holding R10 R11 R12 and K6 K7 (more than 30 to open)."""
    state = ENGINE.new_match(seats, {"rounds": rounds}, "tiles-render")
    mine = ["R10a", "R11a", "R12a", "K6a", "K7a", "J1"]
    everything = [t for r in state["racks"] for t in r] + state["pool"]
    rest = [t for t in everything if t not in mine]
    state["racks"] = [mine] + [[rest.pop(0) for _ in range(14)] for _ in range(seats - 1)]
    state["pool"] = rest
    state["current"] = 0
    return state


def _allowed(state, seat):
    return set(state["racks"][seat]) | {t for s in state["table"] for t in s["tiles"]}


def test_the_presenter_is_the_tile_familys():
    assert presenter_for(ENGINE).folder == "tiles"


def test_my_turn_draws_my_rack_the_pool_count_and_the_turn_buttons(player):
    state = _scripted()
    table = _table(player, state)
    pushes, seats = _pushes(table)
    html = pushes[0]
    for tile in state["racks"][0]:
        assert f'data-tile="{tile}"' in html
    assert 'aria-label="Tuile 10 rouge"' in html and 'aria-label="Joker"' in html
    assert "data-tl-acting" in html and "data-tl-commit" in html and "Valider" in html
    assert "Annuler le tour" in html and "Piocher" in html and "Trier par couleur" in html
    assert f"Pioche&nbsp;: {len(state['pool'])} tuiles" in html
    assert "Aucune combinaison sur la table." in html
    assert "Qui pose toutes ses tuiles marque" in html and "pénalités : le moins possible" not in html
    assert "… réfléchit" not in html  # it is my turn
    # the others: not acting, the acting seat (me) shown thinking, 14 tiles each
    other = pushes[1]
    assert "data-tl-acting" not in other and "data-tl-commit" not in other
    assert 'data-testid="thinking-0"' in other and "… réfléchit" in other
    assert 'aria-label="14 tuiles sur son chevalet"' in html


def test_no_push_holds_another_rack_or_a_pool_tile(player):
    state = _scripted()
    # seat 0 opens: its set is on the table for all to see
    state, _ = ENGINE.apply(state, 0, {"action": "end_turn", "table": [["R10a", "R11a", "R12a"]]})
    state, _ = ENGINE.apply(state, 1, {"action": "draw_stock"})
    table = _table(player, state)
    pushes, seats = _pushes(table)
    for position, html in pushes.items():
        shown = set(TILE_ID.findall(html))
        assert shown <= _allowed(state, position), (position, shown - _allowed(state, position))
        assert set(state["racks"][position]) <= shown
        assert not shown & set(state["pool"])
    assert 'aria-label="Suite 10-11-12 rouge"' in pushes[1]


def test_a_proposal_the_server_holds_is_only_in_the_actors_push(player):
    state = _scripted()
    state, _ = ENGINE.apply(state, 0, {"action": "rearrange", "table": [["R10a", "R11a", "K6a"]]})
    table = _table(player, state)
    pushes, _ = _pushes(table)
    assert "data-tl-staged=" in pushes[0] and "data-tl-undo-all" in pushes[0]
    for position in (1, 2):
        assert "data-tl-staged" not in pushes[position]
        assert "K6a" not in pushes[position]


def test_round_end_shows_each_rack_tile_by_tile(player):
    state = _scripted()
    state["racks"][0] = ["R10a", "R11a", "R12a"]
    state["pool"] += ["K6a", "K7a", "J1"]
    state, _ = ENGINE.apply(state, 0, {"action": "end_turn", "table": [["R10a", "R11a", "R12a"]]})
    assert state["phase"] == "ROUND_OVER"
    table = _table(player, state)
    pushes, _ = _pushes(table)
    html = pushes[0]
    assert "Fin de la manche 1" in html and "a posé toutes ses tuiles" in html
    assert "Plus aucune tuile sur son chevalet." in html
    for p in state["last_round"]["players"][1:]:
        values = [str(_tiles.rack_value([t])) for t in p["rack"]]
        assert " + ".join(values) + f" = <strong>{p['value']}</strong>" in html
        for tile in p["rack"]:
            assert f'data-tile="{tile}"' in html  # the racks are shown to all once the round is over
    assert "Manche suivante" in html


def test_match_over_names_the_winner(player):
    state = _scripted(rounds="1")
    state["racks"][0] = ["R10a", "R11a", "R12a"]
    state["pool"] += ["K6a", "K7a", "J1"]
    state, _ = ENGINE.apply(state, 0, {"action": "end_turn", "table": [["R10a", "R11a", "R12a"]]})
    assert state["phase"] == "MATCH_OVER"
    table = _table(player, state)
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status"])
    pushes, _ = _pushes(table)
    assert "Partie terminée" in pushes[0] and "Bravo, tu as gagné" in pushes[0]


def test_the_context_has_no_other_rack(player):
    state = _scripted()
    table = _table(player, state)
    seats = reads.seats_of(table.pk)
    me = next(s for s in seats if s.position == 1)
    ctx = table_context(table, seats, me)
    assert [t["id"] for t in ctx["tl_rack"]] == _tiles.sorted_tiles(state["racks"][1])
