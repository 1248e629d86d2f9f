"""Thunee's « Problèmes » (engine/problems/thunee.py): a short self-play run accepts problems, every answer is
legal in the true state, the best figure is the highest, the words name only the seat's own cards, the
enumeration of distributions holds the true deal, and the double-dummy solver agrees with the real engine."""

import random

import pytest

from engine import cards, games
from engine.bots import thunee as bot
from engine.games import thunee as th
from engine.problems import thunee as finder
from engine.problems import verdict
from engine.problems.generate import generate

GAME = games.get("thunee")


@pytest.fixture(scope="module")
def report():
    return generate("thunee", 12, seed=3)


def test_generate_accepts_exact_problems(report):
    assert len(report.accepted) == 12
    for found in report.accepted:
        cand = found.candidate
        assert verdict(cand) is None
        assert cand.exact and cand.theme == "carte" and cand.unit == "balles"
        assert cand.gap >= finder.MARGIN


def test_every_choice_is_legal_in_the_true_state(report):
    for found in report.accepted:
        legal = GAME.legal_moves(found.state, found.seat)
        assert len(found.candidate.choices) == len(legal)
        for choice in found.candidate.choices:
            assert choice.moves[0] in legal


def test_best_figure_is_the_highest(report):
    for found in report.accepted:
        best = found.candidate.best.value
        assert all(best >= c.value for c in found.candidate.choices)
        assert all(-1.0 <= c.value <= 1.0 for c in found.candidate.choices)


def test_words_are_french_and_name_no_hidden_card(report):
    for found in report.accepted:
        state, cand = found.state, found.candidate
        played = {p["card"] for t in state["tricks"] for p in t["cards"]} | {p["card"] for p in state["trick"]}
        hidden = [c for s in range(4) if s != found.seat for c in state["hands"][s] if c not in played]
        text = " ".join([cand.why] + [c.label for c in cand.choices])
        assert all(c.label.startswith("Jouer ") for c in cand.choices)
        assert "Jouer" not in cand.why and ("répartition" in cand.why or "se déduisent" in cand.why)
        for card in hidden:
            assert cards.name_fr(card) not in text, (card, text)


def test_true_deal_is_among_the_distributions(report):
    for found in report.accepted:
        seen = bot.seen_of(GAME.view(found.state, found.seat))
        truth = [sorted(h) for h in found.state["hands"]]
        assert truth in [[sorted(h) for h in hands] for hands in finder.deals(seen)]


def _engine_makes(state: dict) -> bool:
    """Double dummy on the real engine: whether the declarers make their contract."""
    if state["phase"] in (th.ROUND_OVER, th.MATCH_OVER):
        return state["last_deal"]["outcome"] == "made"
    seat = GAME.to_act(state)[0]
    legal = GAME.legal_moves(state, seat)
    if state["phase"] != th.PLAY:
        move = next(m for m in legal if m["action"] in ("pass", "jodhi_done"))
        return _engine_makes(GAME.apply(state, seat, move)[0])
    results = (_engine_makes(GAME.apply(state, seat, m)[0]) for m in legal)
    return any(results) if "AB"[seat % 2] == state["declarers"] else all(results)


def test_solver_agrees_with_the_engine(report):
    checked = 0
    for found in report.accepted:
        state, seat = found.state, found.seat
        if len(state["hands"][seat]) > 2:
            continue
        view = GAME.view(state, seat)
        seen = bot.seen_of(view)
        decl = "AB".index(view["declarers"])
        need = finder.count_needed(view, decl)
        table = bot.table_from(view, seen, [list(h) for h in state["hands"]])
        for choice in found.candidate.choices:
            card = choice.moves[0]["card"]
            ours = finder.after(table, seat, card, need, decl, {})
            assert ours == _engine_makes(GAME.apply(state, seat, choice.moves[0])[0]), card
        checked += 1
    assert checked


def test_declines_outside_the_theme():
    rng = random.Random(0)
    state = GAME.new_match(4, {}, "pd-seed")
    seat = GAME.to_act(state)[0]
    view = GAME.view(state, seat)
    assert finder.FINDER.find(GAME, view, GAME.legal_moves(state, seat), rng) is None


def test_declines_a_thunee(report):
    found = report.accepted[0]
    view = GAME.view(found.state, found.seat)
    view["kind"] = th.THUNEE
    legal = GAME.legal_moves(found.state, found.seat)
    assert finder.FINDER.find(GAME, view, legal, random.Random(0)) is None
