"""Cross-check with the open-source tuscan-thunee (github.com/afrojun/tuscan-thunee, src/game/rules.test.ts and
party/handlers/round.ts, read at commit be7a455): the situations of its tests where its rules and ours agree,
computed with our engine. Where they differ (plain-suit order, J and 9 outside trumps, the sous-coupe,
scoring, Thunee) is listed in the engineer's readme, not tested here.

Suits: spades S, hearts H, diamonds D, clubs C; our engine plays the trick through `apply`.
"""

import pytest

from engine.games import _tricks as tr
from engine.games import thunee
from tests.engine.test_thunee import GAME, jodhi, legal_cards, play, position

OTHER = {3: ["QD1"], 2: ["QC1"], 1: ["KD1"], 0: ["KC1"]}


def follow_state(hand, led, trump):
    """Seat 2 to play after seat 3 led `led`; `hand` is seat 2's hand."""
    hands = {3: [led, "10D1"], 2: hand, 1: ["9D1"], 0: ["AD1"]}
    state = position(hands, trump=trump, leader=3)
    return play(state, led)[0]


def test_leading_any_card_is_valid():
    state = position({3: ["JH1", "9S1"], 2: ["QC1"], 1: ["KD1"], 0: ["KC1"]}, trump="C", leader=3)
    assert legal_cards(state, 3) == ["9S1", "JH1"]


def test_must_follow_suit_when_you_have_it():
    state = follow_state(["JH1", "9H1", "AS1"], "QH1", "C")
    assert legal_cards(state, 2) == ["9H1", "JH1"]


def test_any_card_when_void_in_the_led_suit():
    state = follow_state(["JS1", "9C1"], "QH1", "D")
    assert legal_cards(state, 2) == ["9C1", "JS1"]


def test_trumps_do_not_lift_the_follow_suit_rule():
    state = follow_state(["JH1", "9S1"], "QH1", "S")
    assert legal_cards(state, 2) == ["JH1"]


def trick(cards, trump):
    """Winner seat and points of a trick led by seat 3 with `cards` in play order (3, 2, 1, 0)."""
    seats = [3, 2, 1, 0][: len(cards)]
    hands = {s: [c] for s, c in zip(seats, cards, strict=True)}
    for s in (3, 2, 1, 0):
        hands.setdefault(s, [])
    state = position(hands, trump=trump, leader=3)
    state, _ = play(state, *cards)
    if len(cards) < 4:  # tuscan's two- and three-card tricks: the winner so far
        plays = state["trick"]
        return tr.trick_winner(plays, trump, thunee.ORDER), tr.trick_points(plays, trump, thunee.ORDER)
    done = state["tricks"][-1]
    return done["winner"], done["points"]


@pytest.mark.parametrize("cards, trump, winner", [
    (["JH1", "QS1"], "S", 2),                     # trump beats lead suit: even the Q of trumps
    (["JH1", "QS1", "9S1"], "S", 1),              # higher trump beats lower trump: 9 over Q
    (["QH1", "JC1", "KH1"], "S", 1),              # an off-suit non-trump never wins: K of the led suit
    (["JH1", "AS1", "KH1", "QH1"], "S", 2),       # the first trump wins if no higher trump follows
    (["9H1", "JH1"], "C", 2),                     # J beats 9 in the same suit (no trump played)
])
def test_trick_winner_agrees(cards, trump, winner):
    assert trick(cards, trump)[0] == winner


def test_card_points_agree_in_the_trump_suit():
    assert trick(["JH1", "9H1", "AH1", "10H1"], "H") == (3, 71)  # J 30 + 9 20 + A 11 + 10 10
    for card, points in (("JH1", 30), ("9H1", 20), ("AH1", 11), ("10H1", 10), ("KH1", 3), ("QH1", 2)):
        assert thunee.ORDER.points(card, "H") == points
    for card, points in (("AS1", 11), ("10S1", 10), ("KS1", 3), ("QS1", 2)):
        assert thunee.ORDER.points(card, "H") == points  # A, 10, K, Q count the same in every suit


@pytest.mark.parametrize("combo, trump, points", [
    (["KH1", "QH1"], "S", 20), (["KH1", "QH1"], "H", 40),
    (["JH1", "QH1", "KH1"], "S", 30), (["JH1", "QH1", "KH1"], "H", 50),
])
def test_jodhi_values_agree(combo, trump, points):
    hands = {3: combo + ["AC1"], 2: ["10C1", "9D1"], 1: ["KC1", "9S1"], 0: ["JC1", "10S1"]}
    state = position(hands, trump=trump, leader=3, bidder=3)
    state, _ = play(state, "AC1", "10C1", "KC1", "JC1")
    state, events = GAME.apply(state, 3, {"action": "declare_jodhi", "cards": combo})
    assert events[0]["points"] == points


def test_jodhi_is_only_for_the_team_that_won_the_trick():
    hands = {3: ["KH1", "QH1", "AC1"], 2: ["KS1", "QS1", "10C1"], 1: ["KC1", "9S1"], 0: ["JC1", "10S1"]}
    state = position(hands, trump="H", leader=3, bidder=3)
    state, _ = play(state, "AC1", "10C1", "KC1", "JC1")
    assert GAME.to_act(state) == [1, 3]
    assert not any(m["action"] == "declare_jodhi" for m in GAME.legal_moves(state, 2))


@pytest.mark.parametrize("a_points, outcome, balls", [(58, "khanuck_made", {"A": 0, "B": 3}),
                                                      (70, "khanuck_failed", {"A": 4, "B": 0})])
def test_khanuck_by_the_declaring_team_agrees(a_points, outcome, balls):
    """tuscan's evaluateKhanaak (not « backward »): opponents' card points < the caller's Jodhi + 10 → +3,
    else the opponents +4."""
    jodhis = [jodhi(1, ["KS1", "QS1"], 40), jodhi(3, ["KD1", "QD1"], 20)]
    hands = {3: ["AC1"], 2: ["9C1"], 1: ["JC1"], 0: ["10C1"]}  # seat 3 takes trick 6: 11 + 0 + 0 + 10
    state = position(hands, trump="S", leader=3, bidder=1, bid=80, jodhis=jodhis,
                     tricks=[(1, 40), (0, a_points // 2), (3, 20), (2, a_points - a_points // 2), (1, 30)])
    state["phase"], state["queue"], state["current"] = "TRICK6_CALLS", [3, 1], 3
    state, _ = GAME.apply(state, 3, {"action": "call_khanuck"})
    state, _ = play(state, "AC1", "9C1", "JC1", "10C1")
    assert state["points"]["A"] == a_points
    assert (state["last_deal"]["outcome"], state["balls"]) == (outcome, balls)


def test_a_failed_thunee_gives_four_balls_to_the_opponents():
    hands = {3: ["9D1", "AS1"], 2: ["QD1", "KS1"], 1: ["JD1", "AH1"], 0: ["KD1", "AC1"]}
    state = position(hands, trump=None, leader=3, kind="thunee", caller=3)
    state, _ = play(state, "9D1", "QD1", "JD1", "KD1")
    assert (state["last_deal"]["outcome"], state["balls"]) == ("thunee_failed", {"A": 4, "B": 0})
