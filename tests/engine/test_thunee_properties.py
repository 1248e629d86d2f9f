"""Thunee under random play (hypothesis): cards conserved, no leak of a hidden card (partner included),
replay equals the state, illegal moves change nothing, random legal play ends every deal and the match."""

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalMove
from engine.base import visible_to
from engine.games.thunee import DECK, GAME

OPTIONS = st.fixed_dictionaries({
    "royals": st.booleans(), "blind_thunee": st.booleans(), "khanuck_13": st.booleans(),
    "two_ball_margin": st.booleans(), "first_lead": st.sampled_from(["dealer_right", "highest_bidder"]),
})


def strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from strings(v)


def cards_in_play(state):
    pile = [c for h in state["hands"] for c in h] + state["stock"] + state["blind"]
    pile += [p["card"] for p in state["trick"]]
    pile += [p["card"] for t in state["tricks"] for p in t["cards"]]
    return pile


def hidden_from(state, seat):
    """Cards `seat` (None: a spectator) must not see: other hands (the partner's too) but their shown
    Jodhi cards, the cards still to deal, a blind-Thunee caller's 2 unseen cards (hidden from him too)."""
    shown = {c for j in state["jodhis"] for c in j["cards"]}
    hidden = set(state["stock"]) | set(state["blind"])
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            hidden |= set(hand) - shown
    return hidden


def check_state(state, events=()):
    assert Counter(cards_in_play(state)) == Counter(DECK)
    json.dumps(state)
    json.dumps(events)
    assert state["scores"] == [state["balls"]["AB"[s % 2]] for s in range(4)]
    for seat in (0, 1, 2, 3, None):
        view = GAME.public_view(state) if seat is None else GAME.view(state, seat)
        words = set(strings(view))
        leak = words & hidden_from(state, seat)
        assert not leak, (seat, leak)
        assert "seed" not in view and "stock" not in view and state["seed"] not in words
        if seat is not None:
            assert Counter(view["hand"]) == Counter(state["hands"][seat])
            assert set(view["playable"]) <= set(view["hand"])
        for evt in events:
            if visible_to(evt, seat):
                assert not set(strings(evt)) & hidden_from(state, seat), (seat, evt)


def illegal_candidates(state, rnd):
    yield 0, {"action": "fly"}
    yield 0, "play_card"
    yield 5, {"action": "pass"}
    to_act = GAME.to_act(state)
    if not to_act:
        if state["phase"] == "ROUND_OVER":
            yield 0, {"action": "pass"}
        return
    seat = to_act[0]
    yield seat, {"action": "next_round"}
    others = [s for s in range(4) if s not in to_act]
    if others:
        yield rnd.choice(others), rnd.choice(GAME.legal_moves(state, seat))
    foreign = [c for c in DECK if c not in state["hands"][seat]]
    yield seat, {"action": "play_card", "card": rnd.choice(foreign)}
    yield seat, {"action": "play_card", "card": "ZZ1"}
    yield seat, {"action": "bid", "value": 85}
    yield seat, {"action": "declare_jodhi", "cards": ["KS1"]}
    if state["phase"] == "PLAY":
        refused = [c for c in state["hands"][seat] if {"action": "play_card", "card": c}
                   not in GAME.legal_moves(state, seat)]
        for card in refused:
            yield seat, {"action": "play_card", "card": card}


def choose(state, rnd, autoplay_rate, leave_rate):
    if rnd.random() < leave_rate:
        return rnd.randrange(4), {"action": "leave"}
    to_act = GAME.to_act(state)
    if not to_act:
        return rnd.randrange(4), {"action": "next_round"}
    seat = rnd.choice(to_act)
    if rnd.random() < autoplay_rate and state["phase"] != "BIDDING":
        return seat, GAME.autoplay(state, seat)
    return seat, rnd.choice(GAME.legal_moves(state, seat))


def run(options, seed, rnd, steps, autoplay_rate=0.3, leave_rate=0.0, check=True):
    state = GAME.new_match(4, options, seed)
    log = []
    check and check_state(state)
    for _ in range(steps):
        if state["phase"] == "MATCH_OVER":
            break
        if check and rnd.random() < 0.2:
            before = copy.deepcopy(state)
            for seat, move in illegal_candidates(state, rnd):
                with pytest.raises(IllegalMove):
                    GAME.apply(state, seat, move)
                assert state == before
        seat, move = choose(state, rnd, autoplay_rate, leave_rate)
        before = copy.deepcopy(state) if check else None
        new, events = GAME.apply(state, seat, move)
        if check:
            assert state == before, "apply mutated its input"
            check_state(new, events)
        log.append((seat, move))
        state = new
    return state, log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.binary(min_size=16, max_size=16).map(bytes.hex), policy=st.integers(0, 2**32),
       autoplay_rate=st.sampled_from([0.0, 0.5, 0.9]), leave_rate=st.sampled_from([0.0, 0.02]))
def test_random_play_keeps_every_invariant_and_replays(options, seed, policy, autoplay_rate, leave_rate):
    state, log = run(options, seed, random.Random(policy), 150, autoplay_rate, leave_rate)
    replayed = GAME.new_match(4, options, seed)
    for seat, move in log:
        replayed, _ = GAME.apply(replayed, seat, move)
    assert replayed == state


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.binary(min_size=16, max_size=16).map(bytes.hex), policy=st.integers(0, 2**32))
def test_random_legal_play_ends_the_match(options, seed, policy):
    """Each deal gives balls to one team, so random legal play reaches the target in bounded steps."""
    state, log = run(options, seed, random.Random(policy), 20000, autoplay_rate=0.0, check=False)
    assert state["phase"] == "MATCH_OVER", len(log)
    result = GAME.result(state)
    team = result["team"]
    assert result["winners"] == [s for s in range(4) if "AB"[s % 2] == team]
    assert state["balls"][team] >= state["target"]
    assert sum(row["balls_won"] for row in state["history"]) == sum(state["balls"].values())
