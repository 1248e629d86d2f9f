"""Kalooki (Rami 51) engine (../shared/rules/kalooki.md): 51-point opening, ace low or high, one natural per
meld, joker releases, Going Rami only with new melds of one's own; the worked examples of §11."""

import copy
from collections import Counter

import pytest

from engine import IllegalMove, games
from engine.games.kalooki import GAME
from tests.engine.test_table_meld_properties import all_cards, play_all, rig

SEED = "ca10" * 16


def refuse(state, seat, move, code):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert err.value.code == code, err.value
    assert state == before
    return err.value


def preview(state, seat=0):
    return GAME.view(state, seat)["staged"]["table_preview"]


def test_registry_info_and_deal():
    assert games.get("kalooki") is GAME
    info = GAME.info
    assert (info.slug, info.name, info.min_players, info.max_players) == ("kalooki", "Kalooki (Rami 51)", 2, 4)
    assert info.clean_options({}) == {"point_limit": "100"}
    assert len(GAME.deck) == len(set(GAME.deck)) == 108
    assert sum(c.startswith("JK") for c in GAME.deck) == 4
    for seats, stock in ((2, 81), (3, 68), (4, 55)):
        state = GAME.new_match(seats, {}, SEED)
        assert Counter(all_cards(state)) == Counter(GAME.deck)
        assert [len(h) for h in state["hands"]] == [13] * seats and len(state["stock"]) == stock


# ---------------------------------------------------------------- E1

def test_e1_first_lay_down_needs_51():
    state = rig(GAME, {0: ["QS1", "KS1", "AS1", "8D1", "8H2", "8C1", "4C2"]})
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["QS1", "KS1", "AS1"]})
    refuse(state, 0, {"action": "discard", "card": "4C2"}, "below_threshold")
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["8D1", "8H2", "8C1"]})
    assert GAME.view(state, 0)["staged"]["opening_points"] == 55
    state, _ = GAME.apply(state, 0, {"action": "discard", "card": "4C2"})
    assert state["opened"][0]


def test_e1_low_ace_and_the_stated_joker():
    state = rig(GAME, {0: ["AS1", "2S1", "3S1", "JK1", "2S2", "3S2", "9D1"]})
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["AS1", "2S1", "3S1"]})
    assert preview(state)[0]["points"] == 6
    err = refuse(state, 0, {"action": "meld", "cards": ["JK1", "2S2", "3S2"]}, "ambiguous_wilds")
    assert "As de pique" in err.message and "4 de pique" in err.message
    low, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["JK1", "2S2", "3S2"], "wilds": {"JK1": "AS"}})
    high, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["JK1", "2S2", "3S2"], "wilds": {"JK1": "4S"}})
    assert preview(low)[1]["points"] == 6 and preview(high)[1]["points"] == 9
    assert preview(low)[1]["cards"] == ["JK1", "2S2", "3S2"] and preview(high)[1]["cards"] == ["2S2", "3S2", "JK1"]


def test_one_natural_is_enough():
    state = rig(GAME, {0: ["10S1", "JK1", "JK2", "JK3", "9D1"]})
    refuse(state, 0, {"action": "meld", "cards": ["10S1", "JK1", "JK2", "JK3"]}, "ambiguous_wilds")
    move = {"action": "meld", "cards": ["10S1", "JK1", "JK2", "JK3"], "wilds": {"JK1": "10H", "JK2": "10D"}}
    state, _ = GAME.apply(state, 0, move)
    (meld,) = preview(state)
    assert meld["kind"] == "set" and meld["wilds"] == {"JK1": "10H", "JK2": "10D", "JK3": "10C"}
    assert meld["points"] == 40


# ---------------------------------------------------------------- E2: penalties

def test_e2_penalties_and_going_rami():
    hand = ["QS1", "KS1", "AS1", "8D1", "8H2", "8C1", "4H1", "5H1", "6H1", "7H1", "9C1", "10C1", "JC2", "2D2"]
    loser = ["AS2", "JK3", "10H1"]
    state = rig(GAME, {0: hand, 1: loser})
    state, events = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["QS1", "KS1", "AS1"]},
        {"action": "meld", "cards": ["8D1", "8H2", "8C1"]},
        {"action": "meld", "cards": ["4H1", "5H1", "6H1", "7H1"]},
        {"action": "meld", "cards": ["9C1", "10C1", "JC2"]},
    ])
    assert GAME.view(state, 0)["staged"]["opening_points"] == 106  # E3: 31 + 24 + 22 + 29
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "2D2"})
    last = state["last_round"]
    assert last["ending"] == "going_rami" and last["players"][1]["deadwood_points"] == 46
    assert last["points"] == [0, 71]


# ---------------------------------------------------------------- E3: Going Rami or Sortie Rami

def test_e3_a_lay_off_on_an_older_meld_makes_it_a_sortie_rami():
    hand = ["QS1", "KS1", "AS1", "8D1", "8H2", "8C1", "4H1", "5H1", "6H1", "7H1", "9C1", "10C1", "JC2", "2D2"]
    loser = ["AS2", "JK3", "10H1"]
    state = rig(GAME, {0: hand, 1: loser}, table=[(1, ["8S2", "9S2", "10S2"], {}), (1, ["8H1", "9H1", "10H2"], {})])
    state, _ = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["QS1", "KS1", "AS1"]},
        {"action": "meld", "cards": ["8D1", "8H2", "8C1"]},
        {"action": "meld", "cards": ["4H1", "5H1", "6H1"]},
        {"action": "meld", "cards": ["9C1", "10C1", "JC2"]},
        {"action": "lay_off", "cards": ["7H1"], "meld_id": "M2", "end": "low"},
        {"action": "discard", "card": "2D2"},
    ])
    last = state["last_round"]
    assert last["ending"] == "sortie_rami" and last["points"] == [0, 46]


def test_a_lay_off_on_an_own_new_meld_is_still_going_rami():
    hand = ["QS1", "KS1", "AS1", "8D1", "8H2", "8C1", "4H1", "5H1", "6H1", "7H1", "9C1", "10C1", "JC2", "2D2"]
    state = rig(GAME, {0: hand, 1: ["AS2", "JK3", "10H1"]})
    state, _ = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["QS1", "KS1", "AS1"]},
        {"action": "meld", "cards": ["8D1", "8H2", "8C1"]},
        {"action": "meld", "cards": ["4H1", "5H1", "6H1"]},
        {"action": "meld", "cards": ["9C1", "10C1", "JC2"]},
        {"action": "lay_off", "cards": ["7H1"], "meld_id": "M3", "end": "high"},
        {"action": "discard", "card": "2D2"},
    ])
    assert state["last_round"]["ending"] == "going_rami"


# ---------------------------------------------------------------- E4: joker releases

def test_e4_joker_releases():
    table = [(1, ["10S1", "JK1", "JK2"], {"JK1": "10H", "JK2": "10D"}), (1, ["5C1", "JK3", "7C2"], {})]
    state = rig(GAME, {0: ["10H1", "10D1", "6C2", "3C1", "4D1"]}, opened=[True, True], table=table)
    swaps = [m for m in GAME.legal_moves(state, 0) if m["action"] == "swap_joker"]
    assert {"action": "swap_joker", "cards": ["10H1", "10D1"], "meld_id": "M1", "joker": "JK1"} in swaps
    assert {"action": "swap_joker", "cards": ["6C2"], "meld_id": "M2", "joker": "JK3"} in swaps
    state, _ = play_all(GAME, state, 0, [
        {"action": "swap_joker", "cards": ["10H1", "10D1"], "meld_id": "M1", "joker": "JK1"},
        {"action": "swap_joker", "cards": ["6C2"], "meld_id": "M2", "joker": "JK3"},
    ])
    m1, m2 = preview(state)
    assert m1["cards"] == ["10S1", "10H1", "10D1", "JK2"] and m1["wilds"] == {"JK2": "10C"}
    assert m2["cards"] == ["5C1", "6C2", "7C2"] and m2["wilds"] == {}
    assert {"JK1", "JK3"} <= set(GAME.view(state, 0)["hand"])
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "3C1"})
    assert [e["kind"] for e in events if e["audience"] == "all"][:3] == ["swap_joker", "swap_joker", "discard"]
    # JK2 is now locked in a set of four
    state = {**state, "current": 0, "phase": "MELD"}
    refuse(state, 0, {"action": "swap_joker", "cards": ["JK1"], "meld_id": "M1", "joker": "JK2"}, "joker_locked")


def test_taking_the_discard_creates_no_obligation():
    state = rig(GAME, {0: ["3C1", "5D1", "9S1"]}, phase="DRAW", discard=["KH2"])
    state, _ = GAME.apply(state, 0, {"action": "take_discard"})
    refuse(state, 0, {"action": "undo"}, "nothing_to_undo")
    state, _ = GAME.apply(state, 0, {"action": "discard", "card": "3C1"})
    assert "KH2" in state["hands"][0] and state["phase"] == "DRAW"


def test_lay_offs_before_opening_are_refused():
    state = rig(GAME, {0: ["8H1", "3C1"]}, table=[(1, ["5H1", "6H1", "7H1"], {})])
    refuse(state, 0, {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"}, "must_open_first")
    assert not any(m["action"] == "lay_off" for m in GAME.legal_moves(state, 0))
