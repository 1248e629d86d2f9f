"""Thunee bots (engine/bots/thunee.py): legal moves from the view alone, whole matches that end, the
Confirmé's card play (win cheaply, never trump a partner's winning trick), the Expert's Jodhis, and the
fast play model agreeing with the engine."""

import copy
import random

import pytest

from engine import bots, games
from engine.bots import thunee as tb
from engine.bots import tricks as tk
from engine.games import thunee as th

GAME = games.get("thunee")
SEED = "7b0e" * 16


def decide(state, seat, level, budget=6, rng_seed=0):
    view = GAME.view(state, seat)
    legal = GAME.legal_moves(state, seat)
    return bots.choose(GAME, view, legal, level, random.Random(rng_seed), budget=budget)


def play_to_end(levels, seed, budget=4, max_steps=4000):
    state = GAME.new_match(4, {}, seed)
    steps = 0
    while GAME.result(state) is None and steps < max_steps:
        to_act = GAME.to_act(state)
        if not to_act:
            state, _ = GAME.apply(state, 0, {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = GAME.legal_moves(state, seat)
        move = decide(state, seat, levels[seat], budget=budget, rng_seed=steps)
        assert move in legal
        state, _ = GAME.apply(state, seat, move)
        steps += 1
    return state


def in_play(hands, trump="H", bidder=3, current=None, trick=()):
    """A PLAY state of trick 1 (dealer 0, eldest 3) with these hands, `trick` already on the table."""
    state = GAME.new_match(4, {}, SEED)
    state = copy.deepcopy(state)
    state.update({"dealer": 0, "phase": th.PLAY, "hands": [list(h) for h in hands], "stock": [], "bid": 80,
                  "bidder": bidder, "declarers": "AB"[bidder % 2], "high": {"seat": bidder, "value": 80},
                  "trump": trump, "named_trump": trump, "leader": 3, "kind": th.NORMAL,
                  "trick": [{"seat": s, "card": c} for s, c in trick]})
    state["current"] = current if current is not None else (3 - len(trick)) % 4
    return state


@pytest.mark.parametrize("levels", [(1, 1, 1, 1), (2, 1, 2, 1), (1, 2, 1, 2), (2, 2, 2, 2)])
def test_whole_matches_end_with_legal_moves(levels):
    state = play_to_end(levels, f"whole-{levels}")
    result = GAME.result(state)
    assert result is not None
    assert max(state["balls"].values()) >= state["target"]


def test_an_expert_match_ends_with_legal_moves():
    state = play_to_end((3, 2, 3, 2), "whole-expert", budget=2)
    assert GAME.result(state) is not None


def test_every_level_plays_a_legal_move_in_every_phase():
    rng = random.Random(5)
    phases = set()
    for match in range(6):
        state = GAME.new_match(4, {"first_lead": rng.choice(["dealer_right", "highest_bidder"])}, f"legal-{match}")
        for step in range(150):
            to_act = GAME.to_act(state)
            if GAME.result(state) is not None:
                break
            if not to_act:
                state, _ = GAME.apply(state, 0, {"action": "next_round"})
                continue
            seat = rng.choice(to_act)
            legal = GAME.legal_moves(state, seat)
            phases.add(state["phase"])
            for level in (1, 2, 3):
                assert decide(state, seat, level, budget=3, rng_seed=step) in legal
            state, _ = GAME.apply(state, seat, decide(state, seat, rng.choice((1, 2, 3)), budget=3))
    assert {th.BIDDING, th.TRUMP, th.THUNEE_WINDOW, th.PLAY, th.JODHI} <= phases


def test_confirme_wins_a_trick_cheaply():
    # Trumps hearts. Seat 3 (B) leads the KS; I am seat 2 (A) with the AS and the 10S: both win the trick
    # for now, and with trumps still out neither is sure; the cheaper winner of the led suit is the 10.
    hands = [["9D1", "JD1", "QD1", "KD1", "AD1", "10D1"],
             ["9C1", "JC1", "QC1", "KC1", "AC1", "10C1"],
             ["AS1", "10S1", "JH1", "9H1", "AH1", "10H1"],
             ["9S1", "JS1", "QS1", "QH1", "KH1"]]
    state = in_play(hands, trick=[(3, "KS1")])
    move = decide(state, 2, 2)
    assert move["card"] in ("AS1", "10S1")
    assert move["card"] == "10S1"


def test_confirme_does_not_trump_its_partners_winning_trick():
    # Seat 3 (B) leads QS, seat 2 (A) wins it with the AS (the top spade); seat 1 (B) discards;
    # me, seat 0 (A), no spade, a trump and plain cards: I do not trump my partner, I give points.
    hands = [["JH1", "AD1", "9D1", "KC1", "QC1", "JC1"],
             ["9C1", "10C1", "AC1", "QD1", "KD1"],
             ["10S1", "9H1", "AH1", "10H1", "KH1"],
             ["9S1", "JS1", "KS1", "QH1", "JD1"]]
    state = in_play(hands, trick=[(3, "QS1"), (2, "AS1"), (1, "10D1")], current=0)
    move = decide(state, 0, 2)
    assert move["card"] != "JH1"
    assert move["card"] == "AD1"  # the most points to the partner's trick


def jodhi_window_state(hand_with_jodhi):
    hands = [list(hand_with_jodhi),
             ["9C1", "10C1", "AC1", "QD1", "KD1"],
             ["10S1", "9H1", "AH1", "10H1", "KH1"],
             ["9S1", "JS1", "KS1", "QH1", "JD1"]]
    state = in_play(hands)
    state.update({"phase": th.JODHI, "current": None,
                  "jodhi_window": {"after_trick": 1, "team": "A", "done": [2]}})
    return state


@pytest.mark.parametrize("level", [2, 3])
def test_expert_and_confirme_declare_their_jodhi(level):
    state = jodhi_window_state(["KC1", "QC1", "JC1", "AD1", "9D1"])
    move = decide(state, 0, level)
    assert move == {"action": "declare_jodhi", "cards": ["JC1", "QC1", "KC1"]}
    state, _ = GAME.apply(state, 0, move)
    assert decide(state, 0, level) == {"action": "jodhi_done"}


def test_a_bot_decides_from_its_view_alone():
    # Two deals that differ only in the cards of two other seats give the same view and the same moves.
    for match in range(3):
        state = GAME.new_match(4, {}, f"secret-{match}")
        rng = random.Random(match)
        while state["phase"] != th.PLAY:
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, decide(state, seat, 2))
        seat = GAME.to_act(state)[0]
        a, b = [s for s in range(4) if s != seat][:2]
        other = copy.deepcopy(state)
        pool = other["hands"][a] + other["hands"][b]
        rng.shuffle(pool)
        other["hands"][a], other["hands"][b] = pool[:len(state["hands"][a])], pool[len(state["hands"][a]):]
        for level in (2, 3):
            view = GAME.view(state, seat)
            assert view == GAME.view(other, seat)
            legal = GAME.legal_moves(state, seat)
            assert bots.choose(GAME, view, legal, level, random.Random(1), budget=5) == \
                bots.choose(GAME, GAME.view(other, seat), legal, level, random.Random(1), budget=5)


def test_determinizations_respect_the_view():
    for match in range(4):
        state = GAME.new_match(4, {}, f"determinize-{match}")
        steps = 0
        while GAME.result(state) is None and steps < 400:
            to_act = GAME.to_act(state)
            if not to_act:
                state, _ = GAME.apply(state, 0, {"action": "next_round"})
                continue
            seat = to_act[0]
            if state["phase"] == th.PLAY:
                seen = tb.seen_of(GAME.view(state, seat))
                for i in range(3):
                    hands = tk.determinize(seen, th.DECK, random.Random(i))
                    assert hands[seat] == seen.hand
                    assert sorted(c for h in hands for c in h) == sorted(c for h in state["hands"] for c in h)
                    for s in range(4):
                        assert len(hands[s]) == len(state["hands"][s])
                        assert not {tk.suit(c) for c in hands[s]} & seen.voids[s] or s == seat
                        assert set(seen.known.get(s, [])) <= set(hands[s])
                    for s, lacking in seen.voids.items():  # the voids inferred are true
                        assert not {tk.suit(c) for c in state["hands"][s]} & lacking
            state, _ = GAME.apply(state, seat, decide(state, seat, 2, rng_seed=steps))
            steps += 1


def test_fast_model_agrees_with_the_engine():
    """From the first lead, the same cards played in `tricks.Table` and in the engine (Jodhis declared,
    no trick-6 call) give the same legal cards, tricks, card points and balls."""
    rng = random.Random(3)
    checked = 0
    for match in range(30):
        state = GAME.new_match(4, {"royals": match % 3 == 0}, f"model-{match}")
        while state["phase"] != th.PLAY:
            seat = GAME.to_act(state)[0]
            move = decide(state, seat, 1, rng_seed=match)
            if state["phase"] == th.THUNEE_WINDOW and match % 5 == 0 and seat == state["bidder"]:
                move = {"action": "call_thunee"}
            state, _ = GAME.apply(state, seat, move)
        view = GAME.view(state, state["current"])
        seen = tb.seen_of(view)
        table = tb.table_from(view, seen, [list(h) for h in state["hands"]])
        while GAME.to_act(state) and state["phase"] not in (th.ROUND_OVER, th.MATCH_OVER):
            seat = GAME.to_act(state)[0]
            if state["phase"] == th.PLAY:
                legal = GAME.legal_moves(state, seat)
                assert table.current == seat
                assert sorted(table.rules.legal(table, seat)) == sorted(m["card"] for m in legal)
                move = rng.choice(legal)
                table.play(seat, move["card"])
            elif state["phase"] == th.JODHI:
                move = tb.jodhi_move(bots.base.Moves(GAME.legal_moves(state, seat)))
            else:
                move = {"action": "pass"}
            state, _ = GAME.apply(state, seat, move)
        assert table.over
        deal = state["last_deal"]
        assert table.winners == [t["winner"] for t in state["tricks"]]
        assert table.points == [deal["points"]["A"], deal["points"]["B"]]
        signed = deal["balls_won"] if deal["team"] == "A" else -deal["balls_won"]
        assert tb.balls_for(table, 0) == signed
        checked += 1
    assert checked == 30


def test_budget_as_int_is_deterministic():
    state = GAME.new_match(4, {}, "deterministic")
    while state["phase"] != th.PLAY:
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, decide(state, seat, 2))
    seat = GAME.to_act(state)[0]
    assert decide(state, seat, 3, budget=8, rng_seed=4) == decide(state, seat, 3, budget=8, rng_seed=4)


def test_bots_play_a_blind_thunee_deal_called_by_someone_else():
    for match in range(4):
        state = GAME.new_match(4, {"blind_thunee": True}, f"blind-{match}")
        caller = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, caller, {"action": "call_blind_thunee"})
        steps = 0
        while state["phase"] not in (th.ROUND_OVER, th.MATCH_OVER):
            seat = GAME.to_act(state)[0]
            move = decide(state, seat, 1 + (seat + match) % 3, budget=3, rng_seed=steps)
            assert move in GAME.legal_moves(state, seat)
            state, _ = GAME.apply(state, seat, move)
            steps += 1
        assert state["last_deal"]["kind"] == th.BLIND
