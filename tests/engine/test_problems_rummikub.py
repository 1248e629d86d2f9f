"""Rummikub « Problèmes » (engine/problems/rummikub.py): self-play finds exact problems, each choice is a commit
the true state accepts, placing the tiles its figure says, the best is the solver's most; labels in French,
naming no tile hidden on another rack."""

import re

import pytest

from engine import games
from engine.games import rummikub_solver as solver
from engine.problems import themes, verdict
from engine.problems.generate import generate
from engine.problems.rummikub import FINDER, tile_short


@pytest.fixture(scope="module")
def report():
    return generate("rummikub", 4, seed=3)


def test_the_game_names_its_finder():
    assert themes("rummikub") == FINDER.THEMES == {"pose": "Poser le plus de tuiles"}


def test_self_play_accepts_problems(report):
    assert len(report.accepted) == 4
    for found in report.accepted:
        assert verdict(found.candidate) is None
        assert found.candidate.exact and found.candidate.unit == "tuiles"


def placed_by(game, state, seat, move) -> int:
    new, _ = game.apply(state, seat, move)  # raises IllegalMove when the true state refuses it
    if move["action"] in ("draw_stock", "pass"):
        assert move in game.legal_moves(state, seat)
        return 0
    return len(state["racks"][seat]) - len(new["racks"][seat])


def test_every_choice_is_played_as_its_figure_says(report):
    game = games.get("rummikub")
    for found in report.accepted:
        state, seat = found.state, found.seat
        rack = state["racks"][seat]
        table = [t for s in state["table"] for t in s["tiles"]]
        most = solver.solve(list(rack), table).count
        cand = found.candidate
        assert cand.best.value == most
        for choice in cand.choices:
            if not choice.moves:  # a count no play reaches
                assert choice.value < 0 and int(choice.label.split()[1]) > most
                continue
            assert len(choice.moves) == 1
            assert placed_by(game, state, seat, choice.moves[0]) == choice.value <= cand.best.value
        assert cand.facts["broken"], "the best play rearranges the table"


def test_words_are_french_and_name_no_hidden_tile(report):
    for found in report.accepted:
        state, seat = found.state, found.seat
        public = {tile_short(t) for t in state["racks"][seat]}
        public |= {tile_short(t) for s in state["table"] for t in s["tiles"]}
        hidden = {tile_short(t) for s, r in enumerate(state["racks"]) if s != seat for t in r} - public
        cand = found.candidate
        texts = [c.label for c in cand.choices] + [cand.why]
        for choice in cand.choices:
            assert re.match(r"(Poser \d+ tuiles?|Aucune : (piocher|passer))$", choice.label), choice.label
        assert cand.why.startswith("En défaisant")
        for text in texts:
            for words in hidden:
                assert not re.search(rf"{words}\b", text), (words, text)
