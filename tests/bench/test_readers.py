"""The ladder's analysis players for Gin (bench.bots): the Reader searching only the draws and the knock, the
Expert told the other's deadwood, the race-rules player and its feed-counting variants. Each plays a whole
one-round match against the reference with legal moves only; the deadwood reader's guessed deals are the ones close
to the truth; the race-rules player takes the upcard exactly when it leaves no more deadwood than a blind draw is
expected to; a discard counts as feeding the other exactly when it makes a meld with two of his cards; a reading
that gets every card right counts what the oracle counts, and a blind one holds his cards only by chance."""

import random

import pytest

from bench import bots as bench_bots
from bench import gin_constraints, gin_reading, reference
from engine import bots, games
from engine.bots import levels as bot_levels


@pytest.mark.parametrize("level", [bench_bots.READER_DRAWS, bench_bots.DEADWOOD_READER, bench_bots.RACE_RULES,
                                   bench_bots.FEED_ORACLE, bench_bots.FEED_GUESS, bench_bots.FEED_READING,
                                   bench_bots.FEED_CHAIN])
def test_an_analysis_player_plays_a_whole_one_round_match(level):
    result = bench_bots.play_match(("gin", 3, level, 0, {"match": "1"}, 8, bench_bots.MAX_STEPS))
    assert result["pair"] == (level, 0) and not result["stalled"] and result["score"] in (0.0, 0.5, 1.0)
    assert bench_bots.name(level) in ("Reader-draws", "DW-reader", "Race-rules", "Feed-oracle", "Feed-guess",
                                      "Feed-reading", "Feed-chain")
    thrown, feeding = result["fed"][level]
    assert thrown >= 1 and 0 <= feeding <= thrown


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


def test_the_race_rules_player_draws_by_the_deadwood_a_blind_draw_is_expected_to_leave():
    game = games.get("gin")
    adapter = bots.adapter_for("gin")
    draws = discards = 0
    for index in range(6):
        state = game.new_match(seats=2, options={"match": "1"}, seed=f"race:{index}")
        rng = random.Random(index)
        while game.result(state) is None and state["phase"] != "ROUND_OVER":
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            view = game.view(state, seat)
            move = bench_bots.race_move(game, view, legal, rng, 8)
            assert any(m["action"] == move["action"] and m.get("card") == move.get("card") for m in legal)
            moves = bots.Moves(legal)
            know = adapter.knowledge(view)
            if moves.has("take_discard") and moves.has("draw_stock"):
                kept = adapter.step(know.hand, know.top, None, taken=know.top)[1]
                blind = bench_bots.expected_after_draw(adapter, know.hand, adapter.unseen(know))
                assert (move["action"] == "take_discard") == (kept <= blind)
                draws += 1
            elif move["action"] == "discard" and not moves.has("knock"):
                order = bot_levels.confirmed_order(adapter, know, list(moves.by_card("discard")), None)
                assert move["card"] in order[:bench_bots.RACE_CANDIDATES]
                discards += 1
            state, _ = game.apply(state, seat, move)
    assert draws >= 10 and discards >= 10


def test_a_gin_rounds_winner_is_the_undercutter_else_the_knocker():
    assert bench_bots.round_winner({"ending": "knock", "knocker": 1, "undercutter": None}) == 1
    assert bench_bots.round_winner({"ending": "undercut", "knocker": 1, "undercutter": 0}) == 0
    assert bench_bots.round_winner({"ending": "out", "winner": 2}) == 2


def test_a_discard_feeds_the_other_hand_by_the_deadwood_the_meld_it_completes_takes_off():
    adapter = bots.adapter_for("gin")
    hand = ["7S1", "7H1", "2C1", "9D1", "KD1", "QS1", "4H1", "JC1", "3S1", "5C1"]
    assert bench_bots.completes_meld(adapter, hand, "7D1")
    assert not bench_bots.completes_meld(adapter, hand, "8D1")
    assert bench_bots.meld_feed(adapter, hand, "8D1") == 0
    # the two sevens join a meld and a ten-point card is thrown after: 14 + 10 points
    assert bench_bots.meld_feed(adapter, hand, "7D1") == 24


@pytest.mark.parametrize("accuracy", [1.0, 0.0])
def test_a_reading_as_good_as_the_truth_counts_what_the_oracle_counts(monkeypatch, accuracy):
    monkeypatch.setenv("BENCH_READING", str(accuracy))
    game = games.get("gin")
    adapter = bots.adapter_for("gin")
    state = game.new_match(seats=2, options={"match": "1"}, seed="reading")
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    know = adapter.knowledge(view)
    know.extra["unseen"] = adapter.unseen(know)
    weighed = list(know.hand)
    bench_bots.GUESSED_SHARE.clear()
    read = bench_bots.read_feed(adapter, state, view, know, weighed, random.Random(3))
    (share,) = bench_bots.GUESSED_SHARE
    if accuracy == 1.0:
        assert share == 1.0
        assert read == bench_bots.true_feed(adapter, state, view, know, weighed, random.Random(3))
    else:  # cards drawn at random among those he might hold: about 10 in 41 right
        assert share < 0.5


def reference_round(seed: str, moves: int, until_throws: int | None = None):
    """`moves` moves of two reference players from a new one-round match (or, with `until_throws`, up to the
    reader's turn after that many throws of the other), recorded in the public log; the state and the seat that did
    not move first (the reader)."""
    game = games.get("gin")
    reader_seat = None
    state = game.new_match(seats=2, options={"match": "1"}, seed=seed)
    gin_reading.LOG.start(state)
    rng = random.Random(5)
    for _ in range(moves):
        seat = game.to_act(state)[0]
        reader_seat = 1 - seat if reader_seat is None else reader_seat
        legal = game.legal_moves(state, seat)
        move = reference.choose("gin", game.view(state, seat), legal, rng)
        before = state
        state, _ = game.apply(state, seat, move)
        gin_reading.LOG.record(before, seat, move, state)
        if game.result(state) is not None or state["phase"] == "ROUND_OVER":
            break
        throws = sum(1 for who, action, _c, _t in gin_reading.LOG.moves if who != reader_seat and action == "discard")
        if until_throws is not None and throws >= until_throws and game.to_act(state) == [reader_seat]:
            break
    return state, reader_seat


def test_the_particle_reading_holds_what_he_took_and_nothing_this_seat_has_seen_him_lose():
    state, reader_seat = reference_round("particles", 24)
    other = 1 - reader_seat
    hands = gin_reading.read(reader_seat, random.Random(1))
    taken = [c for c in state["picked"] if c in state["hands"][other]] if state.get("picked") else []
    held = set(state["hands"][other])
    thrown = {card for who, action, card, _top in gin_reading.LOG.moves if who == other and action == "discard"}
    mine = set(gin_reading.LOG.dealt[reader_seat]) | set(gin_reading.LOG.drawn[reader_seat])
    thrown, mine = thrown - held, mine - held  # a card may come back to him: he took it from the pile
    assert len(hands) == gin_reading.PARTICLES
    for hand in hands:
        assert len(hand) == len(state["hands"][other])
        assert set(taken) <= set(hand)
        assert not set(hand) & thrown and not set(hand) & mine


@pytest.mark.parametrize("index", range(6))
def test_the_chain_reading_never_rules_out_the_hand_the_reference_player_holds(index):
    """His last throw was his highest deadwood card, he did not knock, and the upcard he let go by neither made a
    meld nor lowered his deadwood: his true hand breaks none of these, and the hands read hold what he took from the
    pile and nothing this seat has seen elsewhere."""
    state, reader_seat = reference_round(f"chain:{index}", 60, until_throws=index + 1)
    game = games.get("gin")
    if state["phase"] == "ROUND_OVER":
        pytest.skip("the round ended before the reader's turn")
    other = 1 - reader_seat
    story = gin_constraints.his_round(reader_seat, gin_reading.LOG)
    assert story["last"] is not None
    truth = list(state["hands"][other])
    drawn = gin_reading.LOG.drawn[other][-1] if story["last"].get("blind") else None
    drawn = None if drawn == story["last"]["threw"] else drawn
    assert set(gin_constraints.broken(truth, drawn, story)) <= {"old"}
    adapter = bots.adapter_for("gin")
    know = adapter.knowledge(game.view(state, reader_seat))
    known = list(know.known.get(other, ()))
    hands = gin_constraints.read(reader_seat, known, adapter.unseen(know), len(truth), 12, random.Random(index))
    seen = set(know.hand) | set(know.discard_pile)
    assert len(hands) == 12
    for hand in hands:
        assert len(hand) == len(truth) and set(known) <= set(hand) and not set(hand) & seen
