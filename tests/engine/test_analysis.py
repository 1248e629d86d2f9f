"""Replays that explain (engine.analysis): the Expert's move at a decision and what the move played cost, from the
seat's own view only, reproducibly."""

import random

import pytest

from engine import analysis, bots, games
from tests.engine.test_coach_advice import decisions

BUDGET = 8


def gin_decision(kind: str = "discard"):
    for state, seat, view, legal in decisions("gin", 200, seed="analysis"):
        if any(m.get("action") == kind for m in legal) and len(legal) >= 2:
            return state, seat, view, legal
    pytest.fail(f"no {kind} decision")


def other_move(legal, best):
    return next(m for m in legal if analysis.key_of(m) != analysis.key_of(best))


def test_two_states_differing_only_in_hidden_cards_get_the_same_analysis():
    game = games.get("gin")
    state, seat, _view, legal = gin_decision()
    opponent = next(s for s in range(len(state["hands"])) if s != seat)
    other = {**state, "hands": [list(h) for h in state["hands"]], "stock": list(state["stock"])}
    hand, stock = other["hands"][opponent], other["stock"]
    hidden = [c for c in hand if c not in (state.get("taken_card"),)]
    hand.remove(hidden[0])
    hand.append(stock.pop(0))  # an opponent's hidden card swapped with one of the stock
    stock.append(hidden[0])
    random.Random(5).shuffle(stock)
    assert game.view(other, seat) == game.view(state, seat)
    assert other["hands"][opponent] != state["hands"][opponent]
    for played in legal[:3]:
        a = analysis.analyse_state(game, state, seat, played, 11, BUDGET)
        b = analysis.analyse_state(game, other, seat, played, 11, BUDGET)
        assert a == b


def test_the_analysis_is_reproducible_and_the_experts_move_costs_nothing():
    game = games.get("gin")
    for kind in ("discard", "take_discard"):
        _state, _seat, view, legal = gin_decision(kind)
        first = analysis.analyse(game, view, legal, legal[0], 42, BUDGET)
        assert first == analysis.analyse(game, view, legal, legal[0], 42, BUDGET)
        assert first.best in legal
        mine = analysis.analyse(game, view, legal, first.best, 42, BUDGET)
        assert mine.same and mine.cost == 0.0
        assert analysis.comment(game, view, mine) == "C'est le coup que le robot Expert aurait joué."
        played = other_move(legal, first.best)
        other = analysis.analyse(game, view, legal, played, 42, BUDGET)
        assert other.best == first.best and not other.same
        assert other.cost is not None and other.cost >= 0
        text = analysis.comment(game, view, other)
        assert text.startswith("Le robot Expert aurait ") and text.endswith(".") and "None" not in text


def test_a_clear_cost_is_told_in_the_experts_unit():
    game = games.get("gin")
    _state, _seat, view, legal = gin_decision()
    a = analysis.Analysis(best={"action": "discard", "card": "9C1"}, played=legal[0], cost=4.2, raw=4.2,
                          unit="points")
    assert analysis.comment(game, view, a) == ("Le robot Expert aurait jeté le 9 de trèfle : ce choix coûte "
                                               "environ 4 points.")
    heads_up = analysis.Analysis(best={"action": "draw_stock"}, played=legal[0], cost=3.4, raw=3.4, unit="percent")
    assert analysis.comment(game, view, heads_up) == ("Le robot Expert aurait pioché : ce choix coûte environ 3 % "
                                                      "de chances de gagner la partie.")


def test_thanasis_weighs_discards_exactly():
    game = games.get("thanasis")
    for _state, _seat, view, legal in decisions("thanasis", 80, seed="analysis"):
        if view["phase"] != "DISCARD" or any(m["action"] == "close" for m in legal):
            continue
        best = analysis.analyse(game, view, legal, legal[0], 3, BUDGET).best
        for played in legal:
            a = analysis.analyse(game, view, legal, played, 3, BUDGET)
            assert a.best == best
            assert a.cost is not None and a.cost >= 0
        return
    pytest.fail("no discard decision")


@pytest.mark.parametrize("slug", ["rami", "thunee"])
def test_a_robot_without_figures_gives_its_move_and_no_cost(slug):
    game = games.get(slug)
    for _state, _seat, view, legal in decisions(slug, 40, seed="analysis"):
        if len(legal) < 2:
            continue
        best = bots.choose(game, view, legal, 3, random.Random(1), BUDGET)
        played = other_move(legal, best)
        a = analysis.analyse(game, view, legal, played, 9, BUDGET)
        if a.same:
            continue
        assert a.best in legal and a.cost is None
        assert analysis.comment(game, view, a).startswith("Le robot Expert aurait ")
        return
    pytest.fail("no decision with a choice")


def test_nothing_to_decide_gives_no_analysis():
    game = games.get("gin")
    _state, _seat, view, legal = gin_decision()
    assert analysis.analyse(game, view, legal[:1], legal[0], 1, BUDGET) is None


def test_the_seed_is_derived_one_way():
    assert analysis.seed_for("s", 3, 1) == analysis.seed_for("s", 3, 1) != analysis.seed_for("s", 4, 1)


def test_a_robot_without_figures_gets_its_games_problem_finders():
    """Thunee's robot gives no figure per move: at a late card the « Problèmes » finder's exact figures (expected
    balls) tell what a card played cost against the Expert's."""
    from engine.problems.generate import generate

    game = games.get("thunee")
    told = 0
    for found in generate("thunee", 6, seed=2).accepted:
        view, legal = game.view(found.state, found.seat), game.legal_moves(found.state, found.seat)
        values = {analysis.key_of(c.moves[0]): c.value for c in found.candidate.choices}
        for choice in found.candidate.choices:
            result = analysis.analyse(game, view, legal, choice.moves[0], seed=5)
            if result.same:
                continue
            assert result.unit == "balles"
            assert result.raw == pytest.approx(values[analysis.key_of(result.best)] - choice.value)
            assert result.cost == (result.raw if result.raw > 0 else 0.0)
            if result.cost:
                told += 1
                assert "balle" in analysis.comment(game, view, result)
    assert told
