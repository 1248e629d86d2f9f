"""Rami 40 engine (../shared/rules/rami40.md): 40-point opening, ace high only, the taken discard must be laid
down (or the take undone), two-natural joker releases, Going Rami; the worked examples of §11."""

import copy
from collections import Counter

import pytest

from engine import IllegalMove, games
from engine.games.rami40 import GAME
from tests.engine.test_table_meld_properties import all_cards, play_all, rig

SEED = "4040" * 16


def refuse(state, seat, move, code):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert err.value.code == code, err.value
    assert state == before
    return err.value


def public(events):
    return [e["kind"] for e in events if e["audience"] == "all"]


def preview(state, seat=0):
    return GAME.view(state, seat)["staged"]["table_preview"]


def test_registry_info_and_deal():
    assert games.get("rami40") is GAME
    info = GAME.info
    assert (info.slug, info.name, info.min_players, info.max_players) == ("rami40", "Rami 40", 2, 4)
    assert info.clean_options({}) == {"point_limit": "100"}
    assert len(GAME.deck) == len(set(GAME.deck)) == 106
    assert "go_out" not in GAME.turn_actions
    for seats, stock in ((2, 79), (3, 66), (4, 53)):
        state = GAME.new_match(seats, {}, SEED)
        assert Counter(all_cards(state)) == Counter(GAME.deck)
        assert [len(h) for h in state["hands"]] == [13] * seats and len(state["stock"]) == stock


# ---------------------------------------------------------------- E1

def test_e1_first_lay_down_needs_40():
    state = rig(GAME, {0: ["QH1", "KH1", "AH1", "5C1", "5D2", "5S1", "9D1"]})
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["QH1", "KH1", "AH1"]})
    assert GAME.view(state, 0)["staged"]["opening_points"] == 31
    refuse(state, 0, {"action": "discard", "card": "9D1"}, "below_threshold")
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["5C1", "5D2", "5S1"]})
    assert GAME.view(state, 0)["staged"]["opening_points"] == 46
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "9D1"})
    assert state["opened"][0] and public(events)[:4] == ["meld", "meld", "opened", "discard"]


def test_e1_ace_high_only_and_joker_value():
    state = rig(GAME, {0: ["AH1", "2H1", "3H1", "JK1", "KS1", "AS2", "9D1"]})
    refuse(state, 0, {"action": "meld", "cards": ["AH1", "2H1", "3H1"]}, "invalid_meld")
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["JK1", "KS1", "AS2"]})
    (meld,) = preview(state)
    assert meld["cards"] == ["JK1", "KS1", "AS2"] and meld["wilds"] == {"JK1": "QS"} and meld["points"] == 31
    assert meld["ends"] == {"low": True, "high": False}


# ---------------------------------------------------------------- E2: taking the discard

E2_HAND = ["9S1", "9C1", "10D1", "JD1", "QD1", "3C1", "7S2"]


def test_e2_taken_card_in_a_40_point_first_lay_down():
    state = rig(GAME, {0: E2_HAND}, phase="DRAW", discard=["9H2"])
    state, _ = play_all(GAME, state, 0, [
        {"action": "take_discard"},
        {"action": "meld", "cards": ["9H2", "9S1", "9C1"]},
        {"action": "meld", "cards": ["10D1", "JD1", "QD1"]},
    ])
    assert GAME.view(state, 0)["staged"]["opening_points"] == 57
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "3C1"})
    assert state["opened"][0] and len(state["table"]) == 2


def test_e2_a_take_that_cannot_be_used_is_undone():
    state = rig(GAME, {0: E2_HAND}, phase="DRAW", discard=["4H1", "9H2"])
    state, _ = play_all(GAME, state, 0, [{"action": "take_discard"},
                                         {"action": "meld", "cards": ["9H2", "9S1", "9C1"]}])
    refuse(state, 0, {"action": "discard", "card": "3C1"}, "below_threshold")
    state, _ = GAME.apply(state, 0, {"action": "undo"})
    refuse(state, 0, {"action": "discard", "card": "3C1"}, "taken_card_unused")
    assert GAME.legal_moves(state, 0)[0] == {"action": "undo"}
    assert not any(m["action"] == "discard" for m in GAME.legal_moves(state, 0))
    state, events = GAME.apply(state, 0, {"action": "undo"})
    assert events == [{"kind": "take_undone", "audience": "all", "seat": 0, "card": "9H2"}]
    assert state["phase"] == "DRAW" and state["discard"][-1] == "9H2" and "9H2" not in state["hands"][0]
    assert state["take_undone"] and GAME.legal_moves(state, 0) == [{"action": "draw_stock"}]
    refuse(state, 0, {"action": "take_discard"}, "take_forbidden")
    state, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    assert state["phase"] == "MELD"


def test_the_taken_card_must_be_in_the_first_lay_down_not_a_lay_off():
    table = [(1, ["6H1", "7H1", "8H1"], {})]
    hand = ["QS1", "KS1", "AS1", "10D1", "JD1", "QD1", "3C1"]
    state = rig(GAME, {0: hand}, phase="DRAW", discard=["9H2"], table=table)
    state, _ = play_all(GAME, state, 0, [
        {"action": "take_discard"},
        {"action": "meld", "cards": ["QS1", "KS1", "AS1"]},
        {"action": "meld", "cards": ["10D1", "JD1", "QD1"]},
        {"action": "lay_off", "cards": ["9H2"], "meld_id": "M1", "end": "high"},
    ])
    refuse(state, 0, {"action": "discard", "card": "3C1"}, "taken_card_not_in_meld")
    # an opened player may use it in a lay-off
    state = rig(GAME, {0: ["3C1", "5D1"]}, phase="DRAW", discard=["9H2"], table=table, opened=[True, True])
    state, _ = GAME.apply(state, 0, {"action": "take_discard"})
    refuse(state, 0, {"action": "discard", "card": "3C1"}, "taken_card_unused")
    legal = GAME.legal_moves(state, 0)
    assert {"action": "lay_off", "cards": ["9H2"], "meld_id": "M1", "end": "high"} in legal
    state, _ = play_all(GAME, state, 0, [{"action": "lay_off", "cards": ["9H2"], "meld_id": "M1", "end": "high"},
                                         {"action": "discard", "card": "3C1"}])
    assert state["table"][0]["cards"] == ["6H1", "7H1", "8H1", "9H2"]


def test_suggested_opening_uses_the_taken_card():
    state = rig(GAME, {0: E2_HAND + ["KS2", "KH2", "KC2"]}, phase="DRAW", discard=["9H2"])
    state, _ = GAME.apply(state, 0, {"action": "take_discard"})
    opening = GAME.view(state, 0)["suggestions"]["opening"]
    assert opening["reaches"] and any("9H2" in m["cards"] for m in opening["melds"])


def test_autoplay_undoes_the_take_then_draws():
    state = rig(GAME, {0: E2_HAND}, phase="DRAW", discard=["4H1", "9H2"])
    state, _ = GAME.apply(state, 0, {"action": "take_discard"})
    move = GAME.autoplay(state, 0)
    assert move == {"action": "undo", "all": True}
    state, _ = GAME.apply(state, 0, move)
    assert state["phase"] == "DRAW" and GAME.autoplay(state, 0) == {"action": "draw_stock"}
    staged = rig(GAME, {0: E2_HAND + ["9H2"]}, discard=["4H1"])
    staged, _ = GAME.apply(staged, 0, {"action": "meld", "cards": ["9H2", "9S1", "9C1"]})
    assert GAME.autoplay(staged, 0) == {"action": "undo", "all": True}


def test_undoing_the_take_with_no_stock_left_voids_the_round():
    state = rig(GAME, {0: E2_HAND}, phase="DRAW", stock=[], discard=[])
    rest = list(state["discard"])
    state["discard"], state["removed"] = ["9H2"], [c for c in rest if c != "9H2"]
    assert Counter(all_cards(state)) == Counter(GAME.deck)
    state, _ = GAME.apply(state, 0, {"action": "take_discard"})
    state, events = GAME.apply(state, 0, {"action": "undo"})
    assert state["phase"] == "ROUND_OVER" and state["last_round"]["void"]
    assert "round_void" in [e["kind"] for e in events]
    state, _ = GAME.apply(state, 1, {"action": "next_round"})
    assert state["round"] == 2 and state["phase"] == "DRAW"


# ---------------------------------------------------------------- E3: joker releases

@pytest.mark.parametrize(("meld", "wilds", "cards", "joker", "after"), [
    (["10S1", "10H1", "JK1"], {}, ["10D1", "10C2"], "JK1", ["10S1", "10H1", "10D1", "10C2"]),
    (["10S1", "JK1", "JK2"], {"JK1": "10H", "JK2": "10D"}, ["10H1", "10D2"], "JK1", ["10S1", "10H1", "10D2", "JK2"]),
    (["7C1", "JK1", "9C2"], {}, ["8C1"], "JK1", ["7C1", "8C1", "9C2"]),
])
def test_e3_joker_releases(meld, wilds, cards, joker, after):
    state = rig(GAME, {0: [*cards, "3C1", "4D1"]}, opened=[True, True], table=[(1, meld, wilds)])
    move = {"action": "swap_joker", "cards": cards, "meld_id": "M1", "joker": joker}
    assert move in GAME.legal_moves(state, 0)
    state, _ = GAME.apply(state, 0, move)
    (m,) = preview(state)
    assert sorted(m["cards"]) == sorted(after) and joker in GAME.view(state, 0)["hand"]
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "3C1"})
    assert sorted(state["table"][0]["cards"]) == sorted(after) and joker in state["hands"][0]


def test_e3_a_four_card_set_locks_its_joker_and_a_set_release_needs_two_cards():
    state = rig(GAME, {0: ["10C2", "3C1", "4D1"]}, opened=[True, True],
                table=[(1, ["10S1", "10H1", "10D1", "JK1"], {}), (1, ["8S1", "8H1", "JK2"], {})])
    refuse(state, 0, {"action": "swap_joker", "cards": ["10C2"], "meld_id": "M1", "joker": "JK1"}, "joker_locked")
    state = rig(GAME, {0: ["8D1", "8C1", "3C1", "4D1"]}, opened=[True, True], table=[(1, ["8S1", "8H1", "JK2"], {})])
    err = refuse(state, 0, {"action": "swap_joker", "cards": ["8D1"], "meld_id": "M1", "joker": "JK2"}, "cannot_swap")
    assert "deux" in err.message
    state = rig(GAME, {0: ["8S2", "8C1", "3C1", "4D1"]}, opened=[True, True], table=[(1, ["8S1", "8H1", "JK2"], {})])
    refuse(state, 0, {"action": "swap_joker", "cards": ["8S2", "8C1"], "meld_id": "M1", "joker": "JK2"},
           "cannot_swap")


# ---------------------------------------------------------------- E4: penalties, Going Rami

GOING = ["QH1", "KH1", "AH1", "5C1", "5D2", "5S1", "2D1", "3D1", "4D1", "7S1", "8S1", "9S1", "10S1", "6C2"]
LOSER = ["AS1", "JK2", "9D1"]


def test_e4_going_rami_adds_25():
    state = rig(GAME, {0: GOING, 1: LOSER})
    state, events = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["QH1", "KH1", "AH1"]},
        {"action": "meld", "cards": ["5C1", "5D2", "5S1"]},
        {"action": "meld", "cards": ["2D1", "3D1", "4D1"]},
        {"action": "meld", "cards": ["7S1", "8S1", "9S1", "10S1"]},
        {"action": "discard", "card": "6C2"},
    ])
    last = state["last_round"]
    assert last["ending"] == "going_rami" and last["points"] == [0, 60]
    assert last["players"][1]["deadwood_points"] == 35


def test_e4_sortie_rami_counts_the_hand():
    state = rig(GAME, {0: ["8H1", "6C2"], 1: LOSER}, opened=[True, True], table=[(0, ["5H1", "6H1", "7H1"], {})])
    state, _ = play_all(GAME, state, 0, [
        {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"},
        {"action": "discard", "card": "6C2"},
    ])
    assert state["last_round"]["ending"] == "sortie_rami" and state["last_round"]["points"] == [0, 35]


def test_a_card_must_stay_for_the_discard():
    state = rig(GAME, {0: ["QH1", "KH1", "AH1"]}, opened=[True, True])
    refuse(state, 0, {"action": "meld", "cards": ["QH1", "KH1", "AH1"]}, "keep_a_card")
    refuse(state, 0, {"action": "go_out"}, "unknown_action")
    state = rig(GAME, {0: ["8H1"]}, opened=[True, True], table=[(0, ["5H1", "6H1", "7H1"], {})])
    refuse(state, 0, {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"}, "keep_a_card")
    assert GAME.legal_moves(state, 0) == [{"action": "discard", "card": "8H1"}]


def test_no_low_ace_lay_off():
    state = rig(GAME, {0: ["AS2", "5S2", "3C1"]}, opened=[True, True],
                table=[(1, ["2S1", "3S1", "4S1"], {}), (1, ["QD1", "KD1", "AD1"], {})])
    assert GAME.view(state, 0)["table"][0]["ends"] == {"low": False, "high": True}
    assert GAME.view(state, 0)["table"][1]["ends"] == {"low": True, "high": False}
    refuse(state, 0, {"action": "lay_off", "cards": ["AS2"], "meld_id": "M1", "end": "low"}, "cannot_lay_off")
    lay = [m for m in GAME.legal_moves(state, 0) if m["action"] == "lay_off"]
    assert lay == [{"action": "lay_off", "cards": ["5S2"], "meld_id": "M1", "end": "high"}]


def test_draw_suggestions_tell_whether_the_discard_opens():
    state = rig(GAME, {0: E2_HAND}, phase="DRAW", discard=["9H2"])
    sugg = GAME.view(state, 0)["suggestions"]
    assert sugg["opening"]["points"] == 30 and not sugg["opening"]["reaches"]
    assert sugg["discard_opening"]["points"] == 57 and sugg["discard_opening"]["reaches"]
    assert any("9H2" in m["cards"] for m in sugg["discard_opening"]["melds"])
    assert GAME.view(state, 1)["suggestions"] is None
    state = rig(GAME, {0: ["9S1", "9C1", "3C1", "7S2"]}, phase="DRAW", discard=["9H2"], opened=[True, True],
                table=[(1, ["6H1", "7H1", "8H1"], {})])
    sugg = GAME.view(state, 0)["suggestions"]
    assert sugg["discard_melds"] == [{"cards": ["9S1", "9H2", "9C1"]}]
    assert sugg["discard_layoffs"] == [{"cards": ["9H2"], "meld_id": "M1", "end": "high"}]
