"""Properties of both engines under random play (hypothesis): conservation, secrecy, replay, purity."""

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalMove, games
from engine.base import visible_to

DECKS = {"thanasis": games.get("thanasis").deck, "gin": games.get("gin").deck}
OVER = ("ROUND_OVER", "MATCH_OVER")


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
    pile = [c for h in state["hands"] for c in h] + state["stock"] + state["discard"] + state["removed"]
    if state.get("indicator"):
        pile.append(state["indicator"])  # Thanasis: face up beside the stock, out of play
    return pile


def revealed(state):
    """Cards the rules have shown to everybody at the end of the round."""
    if state["phase"] not in OVER or not state["last_round"]:
        return set()
    return {c for p in state["last_round"]["players"] for c in p["hand"]}


def hidden_from(state, seat):
    """Cards `seat` (None = spectator) must not see: other hands, the stock, cards of leavers."""
    hidden = set(state["stock"]) | set(state["removed"])
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            hidden |= set(hand)
    hidden -= revealed(state)
    hidden.discard(state.get("taken_card"))  # Gin: taken face up from the pile, in front of all
    hidden -= set(state.get("picked") or ())  # Gin: every card so taken this round, while its taker holds it
    return hidden


def check_state(game, state, events=()):
    deck = DECKS[game.slug]
    assert Counter(cards_in_play(state)) == Counter(deck)
    json.dumps(state)
    seats = list(range(state["seats"]))
    for seat in [*seats, None]:
        view = game.public_view(state) if seat is None else game.view(state, seat)
        words = set(strings(view))
        assert not words & hidden_from(state, seat), (seat, words & hidden_from(state, seat))
        assert state["seed"] not in words and "seed" not in view and "stock" not in view
        if seat is not None:
            assert Counter(view["hand"]) == Counter(state["hands"][seat])
        for evt in events:
            if visible_to(evt, seat):
                assert not set(strings(evt)) & hidden_from(state, seat), (seat, evt)


def choose(game, state, rnd, autoplay_rate, leave_rate=0.0):
    """(seat, move) by a mixed policy: the rules' autoplay, a random legal move, or a leave."""
    to_act = game.to_act(state)
    if rnd.random() < leave_rate and len(state["active"]) > 1:
        return rnd.choice(state["active"]), {"action": "leave"}
    if not to_act:
        return rnd.choice(state["active"]), {"action": "next_round"}
    seat = to_act[0]
    if rnd.random() < autoplay_rate:
        return seat, game.autoplay(state, seat)
    return seat, rnd.choice(game.legal_moves(state, seat))


def illegal_candidates(game, state, rnd):
    deck = DECKS[game.slug]
    yield None, {"action": "draw_stock"}
    yield 0, "discard"
    yield 0, {"card": "AS1"}
    yield 0, {"action": "fly"}
    if state["phase"] == "MATCH_OVER":
        yield state["active"][0] if state["active"] else 0, {"action": "next_round"}
        return
    out = [s for s in range(state["seats"]) if s not in state["active"]]
    if out:
        yield out[0], {"action": "next_round"}
    to_act = game.to_act(state)
    if not to_act:
        yield state["active"][0], {"action": "draw_stock"}
        return
    seat = to_act[0]
    yield seat, {"action": "next_round"}
    others = [s for s in state["active"] if s != seat]
    if others:
        yield rnd.choice(others), rnd.choice(game.legal_moves(state, seat))
    foreign = [c for c in deck if c not in state["hands"][seat]]
    yield seat, {"action": "discard", "card": rnd.choice(foreign)}
    yield seat, {"action": "discard", "card": "ZZ1"}
    yield seat, {"action": "discard", "card": None}


def play(game, seats, options, seed, rnd, steps, autoplay_rate, leave_rate, check_illegal=True):
    state = game.new_match(seats, options, seed)
    log = []
    check_state(game, state)
    for _ in range(steps):
        if state["phase"] == "MATCH_OVER":
            break
        if check_illegal and rnd.random() < 0.3:
            before = copy.deepcopy(state)
            for seat, move in illegal_candidates(game, state, rnd):
                with pytest.raises(IllegalMove):
                    game.apply(state, seat, move)
                assert state == before
        seat, move = choose(game, state, rnd, autoplay_rate, leave_rate)
        before = copy.deepcopy(state)
        new, events = game.apply(state, seat, move)
        assert state == before, "apply mutated its input"
        log.append((seat, move))
        check_state(game, new, events)
        state = new
    return state, log


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    slug=st.sampled_from(["thanasis", "gin"]),
    seats=st.integers(2, 4),
    seed=st.binary(min_size=16, max_size=16).map(bytes.hex),
    policy=st.integers(0, 2**32),
    match=st.sampled_from(["1", "100"]),
    autoplay_rate=st.sampled_from([0.0, 0.5, 0.9]),
    leave_rate=st.sampled_from([0.0, 0.01]),
)
def test_random_play_keeps_every_invariant_and_replays(slug, seats, seed, policy, match, autoplay_rate,
                                                        leave_rate):
    game = games.get(slug)
    options = {"match": match} if slug == "gin" else {}
    state, log = play(game, seats, options, seed, random.Random(policy), 250, autoplay_rate, leave_rate)
    replayed = game.new_match(seats, options, seed)
    for seat, move in log:
        replayed, _ = game.apply(replayed, seat, move)
    assert replayed == state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    slug=st.sampled_from(["thanasis", "gin"]),
    seats=st.integers(2, 4),
    seed=st.binary(min_size=16, max_size=16).map(bytes.hex),
    policy=st.integers(0, 2**32),
)
def test_random_rounds_always_end(slug, seats, seed, policy):
    """Purely random legal play ends every round (a close/knock, or a void round) in bounded steps."""
    game = games.get(slug)
    rnd = random.Random(policy)
    state = game.new_match(seats, {}, seed)
    for _ in range(3):
        for _ in range(1000):
            if state["phase"] in OVER:
                break
            seat = game.to_act(state)[0]
            state, _ = game.apply(state, seat, rnd.choice(game.legal_moves(state, seat)))
        else:
            pytest.fail("a round did not end")
        if state["phase"] == "MATCH_OVER":
            break
        state, _ = game.apply(state, state["active"][0], {"action": "next_round"})


@pytest.mark.parametrize("slug", ["thanasis", "gin"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_matches_end_under_the_autoplay_policy(slug, seats):
    game = games.get(slug)
    for i, match in enumerate(["1", "100"] if slug == "gin" else [None]):
        options = {"match": match} if match else {}
        state, log = play(game, seats, options, f"{seats}{i}" * 8, random.Random(seats), 20000, 0.8, 0.0,
                          check_illegal=False)
        assert state["phase"] == "MATCH_OVER", len(log)
        result = game.result(state)
        assert result["winners"] and set(result["ranking"]) == set(range(seats))
        assert result["ranking"][: len(result["winners"])] == result["winners"]
