"""The reference opponents of Rummikub and the partnership Canastas (bench/reference/) play whole deals against
level 1 through the bench's match functions: every move they choose is accepted by the engine, and the deals end."""

import copy
import random

import pytest

from bench import bots as bench_bots
from bench import reference
from engine import games
from engine.base import team_of
from engine.errors import IllegalMove

MAX_STEPS = 3000  # a one-round Rummikub match takes about 150 moves, a Canasta hand about 100


@pytest.fixture
def recorded(monkeypatch):
    """Counts the reference's moves and the ones the engine accepted (an illegal one fails the test)."""
    counts = {"chosen": 0, "applied": 0}
    chosen = {}  # id -> the move itself, kept alive so that no other move reuses its id
    choose = reference.choose

    def choose_and_record(slug, view, legal, rng):
        move = choose(slug, view, legal, rng)
        counts["chosen"] += 1
        chosen[id(move)] = move
        return move

    monkeypatch.setattr(bench_bots.reference, "choose", choose_and_record)
    for slug in ("rummikub", "canasta", "canasta-tuiles"):
        game = games.get(slug)
        apply = game.apply

        def checked_apply(state, seat, move, _apply=apply, _slug=slug):
            try:
                out = _apply(state, seat, move)
            except IllegalMove as err:
                if chosen.get(id(move)) is move:
                    pytest.fail(f"{_slug}: the reference's move {move} was refused: {err}")
                raise
            if chosen.pop(id(move), None) is move:
                counts["applied"] += 1
            return out

        monkeypatch.setattr(game, "apply", checked_apply)
    return counts


@pytest.mark.parametrize("index", [0, 1])  # the reference sits at seat 1, then seat 0
def test_rummikub_reference_plays_a_round_against_level_1(recorded, index):
    options = bench_bots.match_options("rummikub", "1")
    result = bench_bots.play_match(("rummikub", index, 1, reference.REFERENCE, options, None, MAX_STEPS))
    assert not result["stalled"]
    assert sum(result["endings"].values()) >= 1
    assert recorded["chosen"] > 10
    assert recorded["applied"] == recorded["chosen"]


@pytest.mark.parametrize("slug", ["canasta", "canasta-tuiles"])
def test_canasta_reference_plays_a_deal_twice_against_level_1(recorded, slug):
    options = bench_bots.match_options(slug, None)
    result = bench_bots.play_team_match((slug, 0, 1, reference.REFERENCE, options, None, MAX_STEPS))
    assert not result["stalled"]  # both hands (the reference on each team) reached their end
    assert recorded["chosen"] > 20
    assert recorded["applied"] == recorded["chosen"]


def test_canasta_reference_answers_its_partners_question():
    """« Puis-je sortir ? »: the reference answers « oui » only with a few cards in hand (11 here: « non »)."""
    game = games.get("canasta")
    state = game.new_match(seats=4, options={}, seed="reference-question")
    seat = game.to_act(state)[0]
    state, _ = game.apply(state, seat, {"action": "ask_go_out"})
    partner = (seat + 2) % 4
    assert game.to_act(state) == [partner]
    view = game.view(state, partner)
    move = reference.choose("canasta", view, game.legal_moves(state, partner), random.Random(0))
    assert move == {"action": "answer_go_out", "answer": "no"}
    state, _ = game.apply(state, partner, move)
    assert state["turn"]["permission"] == "no"


def test_canasta_reference_ends_the_hand_after_the_last_red_three():
    """The stock's last card is a red 3 (no discard): an opened reference lays what it can, then `end_turn`."""
    game = games.get("canasta")
    state = copy.deepcopy(game.new_match(seats=4, options={}, seed="reference-red-three"))
    seat = game.to_act(state)[0]
    team = team_of(seat)
    red_three = next(c for c in game.P.deck if c in game.P.bonus_threes)
    state["stock"] = [red_three]
    state["pile"] = ["3S1"]  # a black 3 on top: the pile cannot be taken
    state["melds"][team] = [{"id": "M1", "team": team, "rank": "K", "pieces": ["KS1", "KS2", "KH1"]}]
    state["meld_seq"] = 1
    state["melded"][team] = True
    state["hands"][seat] = ["KD1", "KD2", "QS1", "QH1", "QD1", "5S1", "2C1"]
    played = []
    while state["phase"] not in ("ROUND_OVER", "MATCH_OVER"):
        assert len(played) < 10
        move = reference.choose("canasta", game.view(state, seat), game.legal_moves(state, seat), random.Random(0))
        played.append(move)
        state, _ = game.apply(state, seat, move)
    assert [m["action"] for m in played] == ["draw_stock", "lay_off", "meld", "end_turn"]
    assert state["history"][-1]["ending"] == "stock"
