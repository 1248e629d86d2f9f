"""« Problèmes » of the table-meld rummies (engine/problems/table_meld.py): short self-play runs of the four games."""

import re

import pytest

from engine import cards, games
from engine.melds import table as tm
from engine.problems import themes
from engine.problems.generate import generate
from engine.problems.table_meld import meld_words

SLUGS = ("rami", "rami40", "kalooki", "rami-traditionnel")
VERBS = ("Jeter ", "Poser ", "Garder ", "Ajouter ", "Reprendre ")

_runs: dict = {}


def accepted(slug: str):
    if slug not in _runs:
        _runs[slug] = generate(slug, 2, seed=11, time_limit=12)
    return _runs[slug]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_game_has_the_finder(slug):
    assert games.get(slug).info.problems == "table_meld"
    assert themes(slug) == {"defausse": "Meilleure défausse", "pose": "Poser ou garder"}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_short_run_accepts_problems(slug):
    report = accepted(slug)
    assert report.accepted, dict(report.rejected)
    for found in report.accepted:
        candidate = found.candidate
        assert candidate.theme in ("defausse", "pose")
        assert len(candidate.choices) >= 2
        assert candidate.unit == "points" and not candidate.exact and candidate.se >= 0
        assert all(candidate.best.value >= c.value for c in candidate.choices)
        assert candidate.gap >= candidate.margin


@pytest.mark.parametrize("slug", SLUGS)
def test_every_choice_is_a_legal_turn(slug):
    game = games.get(slug)
    for found in accepted(slug).accepted:
        for choice in found.candidate.choices:
            state = found.state
            for move in choice.moves:  # the first move is legal now, and the whole turn plays
                state, _ = game.apply(state, found.seat, move)
            assert state["current"] != found.seat or state["phase"] != "MELD"


@pytest.mark.parametrize("slug", SLUGS)
def test_texts_are_french_and_name_no_hidden_card(slug):
    for found in accepted(slug).accepted:
        state, seat = found.state, found.seat
        public = set(state["hands"][seat]) | set(state["discard"])
        public |= {c for m in state["table"] for c in m["cards"]}
        hidden = {cards.name_fr(c) for s, hand in enumerate(state["hands"]) if s != seat for c in hand
                  if not cards.is_joker(c)} - {cards.name_fr(c) for c in public}
        texts = [c.label for c in found.candidate.choices] + [found.candidate.why]
        for text in texts:
            for name in hidden:
                assert not re.search(rf"(?<![\w-]){re.escape(name)}\b", text, re.IGNORECASE), (name, text)
        for choice in found.candidate.choices:
            assert choice.label.startswith(VERBS), choice.label
        assert "points de mieux" in found.candidate.why


def test_meld_words():
    run = tm.read_meld(["7S1", "JK1", "9S1"], games.get("rami").rules)[0]
    assert meld_words(run) == ("suite 7-joker-9 de pique", "f")
    queens = tm.read_meld(["QS1", "QH1", "QD1"], games.get("rami").rules)[0]
    assert meld_words(queens) == ("brelan de dames", "m")
