"""Canasta « Problèmes » (engine/problems/canasta.py), both rule sets: self-play finds « talon » problems, each
choice's move is legal in the true state, the best has the highest figure, labels in French naming no card hidden
in another hand. The playouts are cut short here (fewer deals) to keep the file fast."""

import re

import pytest

from engine import games
from engine.narration.words import card_words
from engine.problems import canasta as finder
from engine.problems import themes, verdict
from engine.problems.generate import generate

SLUGS = ("canasta", "canasta-tuiles")


@pytest.fixture(scope="module", params=SLUGS)
def report(request):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(finder, "MAX_DEALS", 32)
        mp.setattr(finder, "MIN_DEALS", 16)
        mp.setattr(finder, "MIN_PILE", 5)  # big piles: clear answers come sooner
        yield generate(request.param, 1, seed=2)


def test_both_games_name_the_finder():
    for slug in SLUGS:
        assert themes(slug) == finder.THEMES == {"talon": "Prendre le talon ou piocher"}


def test_self_play_accepts_a_problem(report):
    assert len(report.accepted) == 1
    cand = report.accepted[0].candidate
    assert verdict(cand) is None and not cand.exact and cand.se > 0
    assert cand.gap >= 3 * cand.se


def test_choices_are_legal_and_ranked(report):
    game = games.get(report.game)
    for found in report.accepted:
        legal = game.legal_moves(found.state, found.seat)
        cand = found.candidate
        actions = [c.moves[0]["action"] for c in cand.choices]
        assert actions.count("draw_stock") == 1 and "take_pile" in actions
        for choice in cand.choices:
            assert choice.moves[0] in legal
            assert cand.best.value >= choice.value


def test_words_are_french_and_name_no_hidden_card(report):
    for found in report.accepted:
        state, seat = found.state, found.seat
        public = list(state["hands"][seat]) + [state["pile"][-1]]
        public += [p for team in state["melds"].values() for m in team for p in m["pieces"]]
        shown = {card_words(p).lower() for p in public}
        hidden = {card_words(p).lower() for s, h in enumerate(state["hands"]) if s != seat for p in h} - shown
        cand = found.candidate
        for choice in cand.choices:
            assert re.match(r"(Prendre la pile \(|Piocher$)", choice.label)
        assert cand.why.startswith(("Prendre la pile", "Piocher plutôt"))
        for text in [c.label for c in cand.choices] + [cand.why]:
            for words in hidden:
                assert not re.search(rf"{re.escape(words)}\b", text.lower()), (words, text)
