"""« Problèmes » of the draw-and-discard family (engine.problems.draw_discard): Thanasis and Gin Rami."""

import json
import random

import pytest

from engine import bots, games
from engine.narration.words import card_words
from engine.problems import finder_for, themes, verdict
from engine.problems.draw_discard import FINDER, meld_words
from engine.problems.generate import decisions, generate


@pytest.fixture(scope="module")
def thanasis_report():
    return generate("thanasis", 6, seed=3)


@pytest.fixture(scope="module")
def gin_report():
    return generate("gin", 3, seed=2)


def public_names(state: dict, seat: int) -> set[str]:
    """Card names the seat may say: its own hand, the pile, the indicator, what others took from the pile (two
    copies of a card, or two jokers, share one name)."""
    shown = set(state["hands"][seat]) | set(state.get("discard") or ()) | set(state.get("picked") or ())
    if state.get("indicator"):
        shown.add(state["indicator"])
    return {card_words(c) for c in shown}


def hidden_names(state: dict, seat: int) -> set[str]:
    return {card_words(c) for s, hand in enumerate(state["hands"]) if s != seat for c in hand} - public_names(
        state, seat)


def check_found(found, game):
    state, seat, candidate = found.state, found.seat, found.candidate
    assert verdict(candidate) is None
    legal = game.legal_moves(state, seat)
    for choice in candidate.choices:
        assert choice.moves[0] in legal
    best = candidate.best
    assert all(best.value >= c.value for c in candidate.choices)
    assert candidate.theme in FINDER.THEMES
    names = hidden_names(state, seat)
    text = " ".join([candidate.why] + [c.label for c in candidate.choices])
    assert not any(name in text for name in names), text
    for choice in candidate.choices:
        assert choice.label.split()[0] in ("Jeter", "Prendre", "Piocher", "Passer")
    assert best.label.split()[-1].rstrip(")") in candidate.why or best.label == "Piocher"


def test_both_games_plug_the_finder_in():
    for slug in ("thanasis", "gin"):
        assert finder_for(slug) is FINDER
        assert themes(slug)["defausse"] == "Meilleure défausse"
    assert themes("gin")["prendre"] == "Prendre ou piocher"


def test_thanasis_problems_are_legal_and_exact(thanasis_report):
    game = games.get("thanasis")
    assert len(thanasis_report.accepted) == 6
    adapter = bots.adapter_for("thanasis")
    for found in thanasis_report.accepted:
        check_found(found, game)
        candidate = found.candidate
        assert candidate.exact and candidate.theme == "defausse" and candidate.unit == "points"
        view = game.view(found.state, found.seat)
        key = adapter.rules_key(view)
        know = adapter.knowledge(view)
        draws = adapter.draws(know, key)
        faces = set()
        for choice in candidate.choices:
            card = choice.moves[0]["card"]
            faces.add(adapter.face_of(card, key))
            kept = list(know.hand)
            kept.remove(card)
            cost = adapter.draw_cost(kept, draws, key, know.scores[know.seat])
            assert choice.value == pytest.approx(-cost, abs=1e-3)  # the Expert's own figure, recomputed
        assert len(faces) == len(candidate.choices)  # two copies of one face are one choice
        # every distinct legal discard is offered
        legal_faces = {adapter.face_of(m["card"], key) for m in game.legal_moves(found.state, found.seat)}
        assert faces == legal_faces


def test_gin_problems_are_legal_and_sampled(gin_report):
    game = games.get("gin")
    assert len(gin_report.accepted) == 3
    for found in gin_report.accepted:
        check_found(found, game)
        candidate = found.candidate
        assert not candidate.exact and candidate.se > 0
        assert candidate.gap >= 3.0 * candidate.se
        assert candidate.unit == "percent"  # heads-up: the chance of winning the match


def test_the_finder_reads_the_view_only():
    """The view holds no hidden card of another seat, and the finder's answer depends on it and its rng only."""
    game = games.get("gin")
    rng = random.Random(7)
    asked = 0
    for state, seat in decisions(game, rng):
        legal = game.legal_moves(state, seat)
        if not any(m["action"] == "take_discard" for m in legal) or len(legal) < 2:
            continue
        view = game.view(state, seat)
        text = json.dumps(view)
        public = set(state.get("picked") or ()) | set(state["discard"])
        for s, hand in enumerate(state["hands"]):
            if s != seat:
                assert not any(f'"{c}"' in text for c in hand if c not in public)
        frozen = json.dumps(view, sort_keys=True)
        one = FINDER.find(game, view, legal, random.Random(1))
        two = FINDER.find(game, json.loads(frozen), legal, random.Random(1))
        assert json.dumps(view, sort_keys=True) == frozen  # the view is not changed
        assert (one is None) == (two is None)
        if one is not None:
            assert [c.value for c in one.choices] == [c.value for c in two.choices]
        asked += 1
        if asked >= 3:
            break
    assert asked == 3


def test_a_legal_close_or_knock_is_declined():
    for slug, end in (("thanasis", "close"), ("gin", "knock")):
        game = games.get(slug)
        view = {"game": slug, "seat": 0, "hand": [], "scores": [0, 0], "active": [0, 1]}
        legal = [{"action": "discard", "card": "KS1"}, {"action": end, "card": "KS1"}]
        assert FINDER.find(game, view, legal, random.Random(0)) is None


def test_meld_words():
    assert meld_words(["5H1", "6H1", "7H1"], {}) == "ta suite 5-6-7 de cœur"
    assert meld_words(["QS1", "QH2", "JK1"], {"JK1": "QD"}) == "ton brelan de Dame"
    assert meld_words(["9D1", "JK1", "JD1"], {"JK1": "10D"}) == "ta suite 9-10-Valet de carreau"
