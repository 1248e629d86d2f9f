"""Rami traditionnel engine (../shared/rules/rami-traditionnel.md): no jokers, no threshold, the winner scores
the others' hands (+25 for a chasse), target score, prize split; the worked examples of §11."""

import copy
from collections import Counter
from fractions import Fraction

import pytest

from engine import IllegalMove, games
from engine.games.rami_traditionnel import GAME, prize_split
from tests.engine.test_table_meld_properties import all_cards, play_all, rig

SEED = "7ad1" * 16


def refuse(state, seat, move, code):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert err.value.code == code, err.value
    assert state == before
    return err.value


def test_registry_info_and_deal():
    assert games.get("rami-traditionnel") is GAME
    info = GAME.info
    assert (info.slug, info.name, info.min_players, info.max_players) == (
        "rami-traditionnel", "Rami traditionnel", 2, 4)
    (target,) = info.options
    assert target.name == "target" and target.default == "250"
    assert [v for v, _ in target.choices] == ["1", "100", "250", "500"]
    assert len(GAME.deck) == len(set(GAME.deck)) == 104 and not any(c.startswith("JK") for c in GAME.deck)
    assert "swap_joker" not in GAME.turn_actions and "go_out" in GAME.turn_actions
    for seats, stock in ((2, 83), (3, 73), (4, 63)):
        state = GAME.new_match(seats, {}, SEED)
        assert Counter(all_cards(state)) == Counter(GAME.deck)
        assert [len(h) for h in state["hands"]] == [10] * seats and len(state["stock"]) == stock


def test_no_threshold_and_lay_offs_from_the_first_turn():
    state = rig(GAME, {0: ["2S1", "3S1", "4S1", "8H1", "KC1"]}, table=[(1, ["5H1", "6H1", "7H1"], {})])
    view = GAME.view(state, 0)
    assert view["threshold"] is None and view["suggestions"]["opening"] is None
    assert {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"} in view["legal"]
    state, events = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["2S1", "3S1", "4S1"]},
        {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"},
        {"action": "discard", "card": "KC1"},
    ])
    assert state["opened"] == [True, False]  # « has laid »: no chasse for seat 0 any more


# ---------------------------------------------------------------- E1: round score

def test_e1_round_score_and_chasse():
    hands = {0: ["9S1", "10S1", "JS1", "QS1", "5C1"], 1: ["7C1", "KD2", "AS1"], 2: ["2H1", "3S2"]}
    state = rig(GAME, hands, seats=3, opened=[True, False, False], table=[(0, ["2D1", "3D1", "4D2"], {})])
    state, _ = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["9S1", "10S1", "JS1", "QS1"]},
        {"action": "discard", "card": "5C1"},
    ])
    last = state["last_round"]
    assert last["ending"] == "sortie" and last["points"] == [33, 0, 0] and state["scores"] == [33, 0, 0]
    assert [p["deadwood_points"] for p in last["players"]] == [0, 28, 5]
    state = rig(GAME, hands, seats=3)
    state, _ = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["9S1", "10S1", "JS1", "QS1"]},
        {"action": "discard", "card": "5C1"},
    ])
    assert state["last_round"]["ending"] == "chasse" and state["last_round"]["points"] == [58, 0, 0]


def test_going_out_by_laying_the_last_card():
    state = rig(GAME, {0: ["9S1", "10S1", "JS1"], 1: ["7C1"]}, opened=[True, False])
    state, events = play_all(GAME, state, 0, [{"action": "meld", "cards": ["9S1", "10S1", "JS1"]},
                                              {"action": "go_out"}])
    assert state["last_round"]["winner"] == 0 and state["last_round"]["points"] == [7, 0]
    assert state["last_round"]["last_card"] is None


# ---------------------------------------------------------------- E2: lay-offs

def test_e2_lay_offs_on_a_diamond_run():
    state = rig(GAME, {0: ["AD2", "5D1", "6D1", "KC1"]}, table=[(1, ["2D1", "3D1", "4D2"], {})])
    state, _ = play_all(GAME, state, 0, [
        {"action": "lay_off", "cards": ["AD2"], "meld_id": "M1", "end": "low"},
        {"action": "lay_off", "cards": ["5D1", "6D1"], "meld_id": "M1", "end": "high"},
    ])
    (meld,) = GAME.view(state, 0)["staged"]["table_preview"]
    assert meld["cards"] == ["AD2", "2D1", "3D1", "4D2", "5D1", "6D1"] and meld["ends"]["low"] is False


def test_e2_ace_high_run_and_no_corner():
    state = rig(GAME, {0: ["QD1", "KD1", "AD1", "2D1", "5C1"]})
    state2, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["QD1", "KD1", "AD1"]})
    assert GAME.view(state2, 0)["staged"]["table_preview"][0]["points"] == 31
    refuse(state, 0, {"action": "meld", "cards": ["KD1", "AD1", "2D1"]}, "invalid_meld")


def test_three_kings_take_the_fourth():
    state = rig(GAME, {0: ["KC1", "KS2", "5C1"]}, table=[(1, ["KS1", "KH1", "KD1"], {})])
    lay = [m for m in GAME.legal_moves(state, 0) if m["action"] == "lay_off"]
    assert lay == [{"action": "lay_off", "cards": ["KC1"], "meld_id": "M1"}]
    refuse(state, 0, {"action": "lay_off", "cards": ["KS2"], "meld_id": "M1"}, "cannot_lay_off")


# ---------------------------------------------------------------- E3: match end, E4: prize split

def test_e3_reaching_the_target_wins():
    hands = {0: ["9S1", "10S1", "JS1", "QS1", "5C1"], 1: ["7C1", "KD2", "AS1"], 2: ["2H1", "3S2"]}
    state = rig(GAME, hands, seats=3, opened=[True, False, False], scores=[240, 180, 100])
    state, events = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["9S1", "10S1", "JS1", "QS1"]},
        {"action": "discard", "card": "5C1"},
    ])
    assert state["phase"] == "MATCH_OVER" and state["scores"] == [273, 180, 100]
    result = GAME.result(state)
    assert result["winners"] == [0] and result["ranking"] == [0, 1, 2] and result["reason"] == "target"
    assert result["prize_split"] == ["1", "0", "0"]  # nobody within 80 points of 273


def test_below_the_target_the_match_goes_on():
    hands = {0: ["9S1", "10S1", "JS1", "QS1", "5C1"], 1: ["7C1"]}
    state = rig(GAME, hands, opened=[True, False], scores=[100, 50])
    state, _ = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["9S1", "10S1", "JS1", "QS1"]},
        {"action": "discard", "card": "5C1"},
    ])
    assert state["phase"] == "ROUND_OVER" and state["scores"] == [107, 50]
    state, _ = GAME.apply(state, 1, {"action": "next_round"})
    assert state["round"] == 2 and state["opened"] == [False, False] and state["table"] == []


def test_e4_prize_split():
    assert prize_split([273, 210, 150], 0, [0, 1, 2]) == ["3/4", "1/4", "0"]
    shares = [Fraction(s) for s in prize_split([273, 210, 200], 0, [0, 1, 2])]
    assert shares == [Fraction(3, 4), Fraction(1, 4) * Fraction(210, 410), Fraction(1, 4) * Fraction(200, 410)]
    assert float(100 * shares[1]) == pytest.approx(12.80, abs=0.01)
    assert float(100 * shares[2]) == pytest.approx(12.20, abs=0.01)
    assert prize_split([33, 0, 0], 0, [0, 1, 2]) == ["1", "0", "0"]  # qualifying totals all 0


def test_single_round_table():
    state = rig(GAME, {0: ["9S1", "10S1", "JS1", "QS1", "5C1"], 1: ["7C1"]}, options={"target": "1"})
    state, _ = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["9S1", "10S1", "JS1", "QS1"]},
        {"action": "discard", "card": "5C1"},
    ])
    result = GAME.result(state)
    assert state["phase"] == "MATCH_OVER" and result["winners"] == [0] and result["reason"] == "single_round"


def test_a_leaver_cannot_win():
    state = rig(GAME, {0: ["5C1", "9D1"]}, seats=3, scores=[200, 150, 20])
    new, events = GAME.leave(state, 0)
    assert new["active"] == [1, 2] and new["current"] == 1 and new["phase"] == "DRAW"
    new, _ = GAME.leave(new, 2)
    result = GAME.result(new)
    assert new["phase"] == "MATCH_OVER" and result["winners"] == [1] and result["ranking"] == [1, 2, 0]
    assert result["prize_split"] == ["0", "1", "0"]


def test_autoplay_discards_the_highest_deadwood_value():
    state = rig(GAME, {0: ["2S1", "3S1", "4S1", "AH1", "KD1", "9C1"]})
    assert GAME.autoplay(state, 0) == {"action": "discard", "card": "AH1"}  # an ace in hand is worth 11
