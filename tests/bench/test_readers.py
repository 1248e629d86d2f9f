"""The ladder's analysis players for Gin (bench.bots): the Reader searching only the draws and the knock, and the
Expert told the other's deadwood. Each plays a whole one-round match against the reference with legal moves only,
and the deadwood reader's guessed deals are the ones close to the truth."""

import random

import pytest

from bench import bots as bench_bots
from engine import bots, games


@pytest.mark.parametrize("level", [bench_bots.READER_DRAWS, bench_bots.DEADWOOD_READER])
def test_an_analysis_player_plays_a_whole_one_round_match(level):
    result = bench_bots.play_match(("gin", 3, level, 0, {"match": "1"}, 8, bench_bots.MAX_STEPS))
    assert result["pair"] == (level, 0) and not result["stalled"] and result["score"] in (0.0, 0.5, 1.0)
    assert bench_bots.name(level) in ("Reader-draws", "DW-reader")


def test_the_deadwood_reader_searches_deals_close_to_the_others_true_deadwood(monkeypatch):
    game = games.get("gin")
    state = game.new_match(seats=2, options={"match": "1"}, seed="readers")
    seat = game.to_act(state)[0]
    state, _ = game.apply(state, seat, {"action": "pass"})
    seat = game.to_act(state)[0]
    adapter = bots.adapter_for("gin")
    truth = adapter.deadwood(state["hands"][1 - seat], None)
    searched = []
    real_evaluate = type(adapter).evaluate

    def spy(self, world, candidates, know, key):
        searched.append(adapter.deadwood(world["hands"][1 - seat], key))
        return real_evaluate(self, world, candidates, know, key)

    monkeypatch.setattr(type(adapter), "evaluate", spy)
    legal = game.legal_moves(state, seat)
    move = bench_bots.decide(game, game.view(state, seat), legal, bench_bots.DEADWOOD_READER, random.Random(1), 12,
                             state)
    assert move in legal
    close = [d for d in searched if abs(d - truth) <= bench_bots.DEADWOOD_TOLERANCE]
    assert searched and len(close) >= len(searched) * 0.8
