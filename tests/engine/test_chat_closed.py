"""`Game.chat_closed(state)`: the rules' word on the table chat. Thunee's `mode_strict` (§8, on by default) closes
it from the first card dealt to the deal's score, in every phase of a deal; it is open between deals and at the
match end, always open with `mode_strict` off, and every other game leaves it open."""

import pytest

from engine import games
from engine.games import thunee
from engine.games.thunee import GAME

SEED = "c4a7" * 16
DEAL_PHASES = ("BIDDING", "TRUMP", "THUNEE_WINDOW", "PLAY", "JODHI", "TRICK6_CALLS")


def match_states(options=None, seed=SEED, max_moves=5000):
    """Every state of a whole match: the first seat asked bids 80, every other decision is the rules' autoplay,
    and the deals follow one another with `next_round`."""
    state = GAME.new_match(4, options or {}, seed)
    states = [state]
    for _ in range(max_moves):
        if state["phase"] == "MATCH_OVER":
            return states
        if state["phase"] == "ROUND_OVER":
            seat, move = 0, {"action": "next_round"}
        else:
            seat = GAME.to_act(state)[0]
            bids = [m for m in GAME.legal_moves(state, seat) if m["action"] == "bid"]
            move = bids[0] if bids and state["high"] is None else GAME.autoplay(state, seat)
        state, _ = GAME.apply(state, seat, move)
        states.append(state)
    raise AssertionError("the match did not end")


@pytest.fixture(scope="module")
def strict_match():
    return match_states()


def test_mode_strict_is_on_by_default():
    assert GAME.info.clean_options({})["mode_strict"] is True


def test_every_phase_of_a_deal_is_visited_by_the_match(strict_match):
    assert {s["phase"] for s in strict_match} == {*DEAL_PHASES, "ROUND_OVER", "MATCH_OVER"}


def test_the_chat_is_closed_in_every_phase_of_a_deal_and_open_at_its_score(strict_match):
    for state in strict_match:
        reason = GAME.chat_closed(state)
        if state["phase"] in DEAL_PHASES:
            assert reason == thunee.STRICT_CHAT, state["phase"]
        else:
            assert state["phase"] in ("ROUND_OVER", "MATCH_OVER")
            assert reason is None, state["phase"]


def test_the_reason_is_a_french_sentence_naming_the_mode():
    assert thunee.STRICT_CHAT.startswith("Mode strict : ")
    assert "discussion" in thunee.STRICT_CHAT and "donne" in thunee.STRICT_CHAT


def test_a_thunee_deal_and_a_redeal_keep_the_chat_closed():
    state = GAME.new_match(4, {}, SEED)
    while state["phase"] == "BIDDING":  # four passes: the same dealer deals again, still a deal under way
        state, _ = GAME.apply(state, GAME.to_act(state)[0], {"action": "pass"})
        assert GAME.chat_closed(state) == thunee.STRICT_CHAT
        if state["shuffles"]:
            break
    assert state["phase"] == "BIDDING" and state["shuffles"] == 1
    bidder = GAME.to_act(state)[0]
    state, _ = GAME.apply(state, bidder, {"action": "bid", "value": 80})
    while state["phase"] == "BIDDING":
        state, _ = GAME.apply(state, GAME.to_act(state)[0], {"action": "pass"})
    state, _ = GAME.apply(state, bidder, {"action": "choose_trump", "suit": "S"})
    state, _ = GAME.apply(state, GAME.to_act(state)[0], {"action": "call_thunee"})
    assert state["kind"] == "thunee" and state["phase"] == "PLAY"
    assert GAME.chat_closed(state) == thunee.STRICT_CHAT


def test_with_mode_strict_off_the_chat_is_always_open():
    states = match_states({"mode_strict": False})
    assert {s["phase"] for s in states} >= {*DEAL_PHASES, "ROUND_OVER", "MATCH_OVER"}
    assert all(GAME.chat_closed(s) is None for s in states)


def test_a_state_saved_before_the_option_existed_follows_its_default():
    state = GAME.new_match(4, {}, SEED)
    state["options"] = {k: v for k, v in state["options"].items() if k != "mode_strict"}
    assert GAME.chat_closed(state) == thunee.STRICT_CHAT


@pytest.mark.parametrize("slug", [s for s in games.available() if s != "thunee"])
def test_other_games_leave_the_chat_open(slug):
    game = games.get(slug)
    state = game.new_match(game.info.default_players, {}, SEED)
    for _ in range(40):  # the first moves of the match: every phase its first round goes through
        assert game.chat_closed(state) is None
        to_act = game.to_act(state)
        if not to_act:
            break
        state, _ = game.apply(state, to_act[0], game.autoplay(state, to_act[0]))
    assert game.chat_closed(state) is None
