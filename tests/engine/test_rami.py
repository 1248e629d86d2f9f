"""Rami (13 cartes) engine (../shared/rules/rami.md): deal, staged melds, threshold, lay-offs, joker swaps,
main lisse, eliminations, stock rebuild, autoplay, leaving; the worked examples of §11."""

import copy
from collections import Counter

import pytest

from engine import IllegalMove, games
from engine.games.rami import GAME
from tests.engine.test_table_meld_properties import all_cards, kinds, play_all, rig

SEED = "5eed" * 16


def public(events):
    return [e["kind"] for e in events if e["audience"] == "all"]


def refuse(state, seat, move, code):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert err.value.code == code, err.value
    assert state == before
    return err.value


# ---------------------------------------------------------------- info and deal

def test_registry_info_and_options():
    assert games.get("rami") is GAME
    info = GAME.info
    assert (info.slug, info.name, info.min_players, info.max_players, info.default_players) == (
        "rami", "Rami (13 cartes)", 2, 4, 4)
    (limit,) = info.options
    assert limit.name == "point_limit" and limit.default == "100"
    assert [v for v, _ in limit.choices] == ["1", "50", "100"]
    assert info.clean_options({}) == {"point_limit": "100"}
    with pytest.raises(ValueError):
        info.clean_options({"point_limit": "200"})


@pytest.mark.parametrize(("seats", "stock"), [(2, 83), (3, 70), (4, 57)])
def test_deal(seats, stock):
    state = GAME.new_match(seats, {}, SEED)
    assert len(GAME.deck) == len(set(GAME.deck)) == 110
    assert Counter(all_cards(state)) == Counter(GAME.deck)
    assert [len(h) for h in state["hands"]] == [13] * seats
    assert len(state["stock"]) == stock and len(state["discard"]) == 1
    assert state["phase"] == "DRAW" and state["current"] == (state["dealer"] + 1) % seats
    assert state["table"] == [] and state["opened"] == [False] * seats
    assert GAME.legal_moves(state, state["current"]) == [{"action": "draw_stock"}, {"action": "take_discard"}]


# ---------------------------------------------------------------- E1: first lay-down count

def test_e1_a_31_point_run_opens_alone():
    state = rig(GAME, {0: ["QH1", "KH1", "AH2", "5C1", "9D1"]})
    state, events = play_all(GAME, state, 0, [{"action": "meld", "cards": ["QH1", "KH1", "AH2"]}])
    assert GAME.view(state, 0)["staged"]["opening_points"] == 31
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "9D1"})
    assert state["opened"] == [True, False]
    assert state["table"] == [{"id": "M1", "owner": 0, "kind": "run", "cards": ["QH1", "KH1", "AH2"], "wilds": {}}]
    assert kinds(events)[:3] == ["meld", "opened", "discard"]
    assert events[0]["points"] == 31 and events[1]["points"] == 31


def test_e1_27_points_refused_then_60_accepted():
    hand = ["7S1", "7D1", "JK1", "AS1", "2S1", "3S1", "AC1", "AD2", "AH1", "9D1"]
    state = rig(GAME, {0: hand})
    state, _ = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["7S1", "7D1", "JK1"], "wilds": {"JK1": "7C"}},
        {"action": "meld", "cards": ["AS1", "2S1", "3S1"]},
    ])
    view = GAME.view(state, 0)
    assert view["staged"]["opening_points"] == 27 and not view["staged"]["commit_ok"]
    assert view["staged"]["table_preview"][0]["wilds"] == {"JK1": "7C"}
    assert not any(m["action"] == "discard" for m in view["legal"])
    err = refuse(state, 0, {"action": "discard", "card": "9D1"}, "below_threshold")
    assert "30" in err.message and "27" in err.message
    refuse(state, 0, {"action": "lay_off", "cards": ["AH1"], "meld_id": "M1"}, "must_open_first")
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["AC1", "AD2", "AH1"]})
    assert GAME.view(state, 0)["staged"]["opening_points"] == 60
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "9D1"})
    assert state["opened"][0] and [m["id"] for m in state["table"]] == ["M1", "M2", "M3"]
    assert state["hands"][0] == []  # went out by discarding: the round is over
    assert state["phase"] in ("ROUND_OVER", "MATCH_OVER")


# ---------------------------------------------------------------- E2: meld validity

@pytest.mark.parametrize("meld", [["AS1", "JK1", "JK2"], ["KS1", "AS1", "2S1"], ["10D1", "10C1", "10D2"]])
def test_e2_invalid_melds(meld):
    state = rig(GAME, {0: [*meld, "4C1"]})
    refuse(state, 0, {"action": "meld", "cards": meld}, "invalid_meld")


def test_e2_two_jokers_inside_a_run():
    state = rig(GAME, {0: ["5H1", "JK1", "JK2", "8H1", "4C1"]})
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["8H1", "JK2", "5H1", "JK1"]})
    (meld,) = GAME.view(state, 0)["staged"]["table_preview"]
    assert meld["cards"] == ["5H1", "JK1", "JK2", "8H1"] and meld["wilds"] == {"JK1": "6H", "JK2": "7H"}
    assert meld["kind"] == "run" and meld["points"] == 26 and meld["ends"] == {"low": True, "high": True}


def test_ambiguous_joker_needs_a_statement():
    state = rig(GAME, {0: ["7S1", "8S1", "JK1", "4C1"]})
    err = refuse(state, 0, {"action": "meld", "cards": ["7S1", "8S1", "JK1"]}, "ambiguous_wilds")
    assert "6 de pique" in err.message and "9 de pique" in err.message
    assert err.options == [{"JK1": "6S"}, {"JK1": "9S"}]
    refuse(state, 0, {"action": "meld", "cards": ["7S1", "8S1", "JK1"], "wilds": {"JK1": "9H"}}, "bad_wilds")
    refuse(state, 0, {"action": "meld", "cards": ["7S1", "8S1", "JK1"], "wilds": {"JK1": "nope"}}, "bad_wilds")
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["7S1", "8S1", "JK1"], "wilds": {"JK1": "9S"}})
    assert GAME.view(state, 0)["staged"]["actions"][0]["cards"] == ["7S1", "8S1", "JK1"]


def test_a_set_joker_takes_a_missing_suit():
    state = rig(GAME, {0: ["9S1", "9D1", "JK2", "4C1"]})
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["JK2", "9D1", "9S1"]})
    (meld,) = GAME.view(state, 0)["staged"]["table_preview"]
    assert meld["kind"] == "set" and meld["cards"] == ["9S1", "JK2", "9D1"] and meld["wilds"] == {"JK2": "9H"}
    state2, _ = GAME.apply(rig(GAME, {0: ["9S1", "9D1", "JK2", "4C1"]}), 0,
                           {"action": "meld", "cards": ["JK2", "9D1", "9S1"], "wilds": {"JK2": "9C"}})
    assert GAME.view(state2, 0)["staged"]["table_preview"][0]["wilds"] == {"JK2": "9C"}
    refuse(rig(GAME, {0: ["9S1", "9D1", "JK2", "4C1"]}), 0,
           {"action": "meld", "cards": ["JK2", "9D1", "9S1"], "wilds": {"JK2": "9S"}}, "bad_wilds")


# ---------------------------------------------------------------- E3: penalties, main lisse

LISSE = ["QH1", "KH1", "AH2", "2S1", "3S1", "4S1", "5D1", "6D1", "7D1", "8C1", "9C1", "10C1", "JC1", "9H2"]
LOSER = ["AS1", "KH2", "JK3", "7C1"]


def lay_everything(state):
    return play_all(state=state, game=GAME, seat=0, moves=[
        {"action": "meld", "cards": ["QH1", "KH1", "AH2"]},
        {"action": "meld", "cards": ["2S1", "3S1", "4S1"]},
        {"action": "meld", "cards": ["5D1", "6D1", "7D1"]},
        {"action": "meld", "cards": ["8C1", "9C1", "10C1", "JC1"]},
    ])


def test_e3_main_lisse_doubles_the_penalties():
    state, _ = lay_everything(rig(GAME, {0: LISSE, 1: LOSER}, options={"point_limit": "1"}))
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "9H2"})
    last = state["last_round"]
    assert last["ending"] == "main_lisse" and last["winner"] == 0
    assert last["points"] == [0, 124]
    assert last["players"][1]["deadwood_points"] == 62
    assert state["phase"] == "MATCH_OVER" and GAME.result(state)["winners"] == [0]


def test_e3_plain_going_out_counts_the_hand_once():
    state = rig(GAME, {0: ["9H2", "4C1"], 1: LOSER}, opened=[True, False])
    state, events = GAME.apply(state, 0, {"action": "discard", "card": "4C1"})
    assert state["hands"][0] == ["9H2"] and state["phase"] == "DRAW"  # one card left: play goes on
    state = rig(GAME, {0: ["8H1", "4C1"], 1: LOSER}, opened=[True, False], table=[(0, ["5H1", "6H1", "7H1"], {})])
    state, events = play_all(GAME, state, 0, [
        {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"},
        {"action": "discard", "card": "4C1"},
    ])
    assert state["last_round"]["ending"] == "out" and state["last_round"]["points"] == [0, 62]
    assert public(events)[:2] == ["lay_off", "discard"]


def test_going_out_without_a_discard():
    state, _ = lay_everything(rig(GAME, {0: LISSE[:-1], 1: LOSER}))
    assert {"action": "go_out"} in GAME.legal_moves(state, 0)
    state, events = GAME.apply(state, 0, {"action": "go_out"})
    assert "go_out" in kinds(events) and state["last_round"]["ending"] == "main_lisse"
    refuse(rig(GAME, {0: ["5C1", "9D1"]}), 0, {"action": "go_out"}, "hand_not_empty")


# ---------------------------------------------------------------- E4: elimination

def test_e4_elimination_over_the_limit():
    hands = {0: LOSER, 1: ["5S1"], 2: ["10S1", "10D1"], 3: ["8H1", "9C1"]}
    state = rig(GAME, hands, seats=4, current=3, opened=[True] * 4, scores=[80, 95, 30, 10],
                table=[(3, ["5H1", "6H1", "7H1"], {})])
    state, events = play_all(GAME, state, 3, [
        {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"},
        {"action": "discard", "card": "9C1"},
    ])
    assert state["scores"] == [142, 100, 50, 10]
    assert state["active"] == [1, 2, 3] and state["phase"] == "ROUND_OVER"
    assert state["last_round"]["eliminated"] == [0] and state["out"][0]["reason"] == "eliminated"
    assert [e["seat"] for e in events if e["kind"] == "eliminated"] == [0]
    state, _ = GAME.apply(state, 1, {"action": "next_round"})
    assert state["round"] == 2 and state["hands"][0] == [] and all(len(state["hands"][s]) == 13 for s in (1, 2, 3))


def test_two_players_the_first_over_the_limit_loses():
    state = rig(GAME, {0: ["8H1", "9C1"], 1: ["KS1", "KD1"]}, opened=[True, True], scores=[40, 35],
                options={"point_limit": "50"}, table=[(0, ["5H1", "6H1", "7H1"], {})])
    state, events = play_all(GAME, state, 0, [
        {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"},
        {"action": "discard", "card": "9C1"},
    ])
    assert state["phase"] == "MATCH_OVER" and state["scores"] == [40, 55]
    result = GAME.result(state)
    assert result["winners"] == [0] and result["ranking"] == [0, 1] and result["reason"] == "last_standing"


# ---------------------------------------------------------------- E5: joker swaps

def test_e5_run_joker_swap():
    state = rig(GAME, {0: ["7H2", "9S2", "4C1", "KD1"], 1: ["2C1", "3D1"]}, opened=[True, True],
                table=[(1, ["5H1", "6H1", "JK1", "8H2"], {"JK1": "7H"}), (1, ["9S1", "9D1", "JK2"], {})])
    assert {"action": "swap_joker", "cards": ["7H2"], "meld_id": "M1", "joker": "JK1"} in GAME.legal_moves(state, 0)
    state2, _ = GAME.apply(state, 0, {"action": "swap_joker", "cards": ["7H2"], "meld_id": "M1", "joker": "JK1"})
    view = GAME.view(state2, 0)
    assert view["staged"]["table_preview"][0]["cards"] == ["5H1", "6H1", "7H2", "8H2"]
    assert view["staged"]["table_preview"][0]["wilds"] == {}
    assert "JK1" in view["hand"] and "7H2" not in view["hand"]
    assert GAME.view(state2, 1)["table"][0]["cards"] == ["5H1", "6H1", "JK1", "8H2"]  # staged: not published
    state3, events = GAME.apply(state2, 0, {"action": "discard", "card": "JK1"})  # no obligation to keep it
    assert state3["table"][0]["cards"] == ["5H1", "6H1", "7H2", "8H2"] and state3["discard"][-1] == "JK1"
    assert kinds(events)[:2] == ["swap_joker", "discard"]


def test_e5_set_joker_swap_for_a_missing_suit_only():
    table = [(1, ["9S1", "9D1", "JK2"], {})]
    for card in ("9H1", "9C2"):
        state = rig(GAME, {0: [card, "4C1", "KD1"]}, opened=[True, True], table=table)
        state, _ = GAME.apply(state, 0, {"action": "swap_joker", "cards": [card], "meld_id": "M1", "joker": "JK2"})
        meld = GAME.view(state, 0)["staged"]["table_preview"][0]
        assert sorted(meld["cards"]) == sorted(["9S1", "9D1", card]) and meld["wilds"] == {}
    state = rig(GAME, {0: ["9S2", "4C1", "KD1"]}, opened=[True, True], table=table)
    refuse(state, 0, {"action": "swap_joker", "cards": ["9S2"], "meld_id": "M1", "joker": "JK2"}, "cannot_swap")
    refuse(state, 0, {"action": "swap_joker", "cards": ["9S2"], "meld_id": "M1", "joker": "JK5"}, "bad_joker")
    state = rig(GAME, {0: ["9H1", "4C1", "KD1"]}, table=table)  # not opened
    refuse(state, 0, {"action": "swap_joker", "cards": ["9H1"], "meld_id": "M1", "joker": "JK2"}, "must_open_first")


def test_swap_in_a_four_card_set_keeps_the_other_joker_meaning():
    table = [(1, ["9S1", "9D1", "JK2", "JK3"], {"JK2": "9H", "JK3": "9C"})]
    state = rig(GAME, {0: ["9C1", "4C1", "KD1"]}, opened=[True, True], table=table)
    state, _ = GAME.apply(state, 0, {"action": "swap_joker", "cards": ["9C1"], "meld_id": "M1", "joker": "JK3"})
    meld = GAME.view(state, 0)["staged"]["table_preview"][0]
    assert meld["cards"] == ["9S1", "JK2", "9D1", "9C1"] and meld["wilds"] == {"JK2": "9H"}


# ---------------------------------------------------------------- lay-offs

def test_lay_offs_at_either_end_and_the_ace():
    table = [(1, ["2S1", "3S1", "4S1"], {}), (1, ["JD1", "QD1", "KD1"], {}), (1, ["AC1", "2C1", "3C1"], {})]
    state = rig(GAME, {0: ["AS2", "AD2", "KC1", "5S1", "JK1", "9H1"]}, opened=[True, True], table=table)
    legal = GAME.legal_moves(state, 0)
    lay = [(m["cards"][0], m["meld_id"], m.get("end")) for m in legal if m["action"] == "lay_off"]
    assert ("AS2", "M1", "low") in lay and ("5S1", "M1", "high") in lay and ("AD2", "M2", "high") in lay
    assert not any(c == "KC1" for c, _, _ in lay)  # K-A-2 is no run
    assert ("JK1", "M1", "low") in lay and ("JK1", "M1", "high") in lay and ("JK1", "M3", "high") in lay
    assert ("JK1", "M3", "low") not in lay and ("JK1", "M2", "high") in lay
    assert GAME.view(state, 0)["table"][2]["ends"] == {"low": False, "high": True}
    refuse(state, 0, {"action": "lay_off", "cards": ["KC1"], "meld_id": "M3", "end": "low"}, "cannot_lay_off")
    refuse(state, 0, {"action": "lay_off", "cards": ["JK1"], "meld_id": "M1"}, "ambiguous_end")
    refuse(state, 0, {"action": "lay_off", "cards": ["JK1"], "meld_id": "M1", "end": "top"}, "bad_end")
    refuse(state, 0, {"action": "lay_off", "cards": ["JK1"], "meld_id": "M9", "end": "low"}, "unknown_meld")
    # the end is inferred when only one fits; several cards at once
    state, _ = play_all(GAME, state, 0, [
        {"action": "lay_off", "cards": ["AS2"], "meld_id": "M1"},
        {"action": "lay_off", "cards": ["JK1", "5S1"], "meld_id": "M1", "end": "high"},
    ])
    meld = GAME.view(state, 0)["staged"]["table_preview"][0]
    assert meld["cards"] == ["AS2", "2S1", "3S1", "4S1", "5S1", "JK1"] and meld["wilds"] == {"JK1": "6S"}


def test_lay_off_after_reaching_the_threshold_in_the_same_turn():
    table = [(1, ["5H1", "6H1", "7H1"], {})]
    state = rig(GAME, {0: ["QS1", "KS1", "AS1", "8H1", "2C1"]}, table=table)
    refuse(state, 0, {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"}, "must_open_first")
    state, events = play_all(GAME, state, 0, [
        {"action": "meld", "cards": ["QS1", "KS1", "AS1"]},
        {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"},
        {"action": "discard", "card": "2C1"},
    ])
    assert state["table"][0]["cards"] == ["5H1", "6H1", "7H1", "8H1"]
    assert public(events)[:4] == ["meld", "lay_off", "opened", "discard"]


# ---------------------------------------------------------------- staging, undo, taken card

def test_undo_and_staged_privacy():
    state = rig(GAME, {0: ["QH1", "KH1", "AH2", "5C1", "9D1"]})
    refuse(state, 0, {"action": "undo"}, "nothing_to_undo")
    public_before = GAME.public_view(state)
    staged, events = GAME.apply(state, 0, {"action": "meld", "cards": ["QH1", "KH1", "AH2"]})
    assert events == [{**events[0], "audience": {"seat": 0}}] and events[0]["kind"] == "staged"
    assert GAME.public_view(staged) == public_before
    assert GAME.view(staged, 0)["hand"] == ["9D1", "5C1"]  # order S, H, D, C
    assert GAME.view(staged, 1)["players"][0]["hand_count"] == 5
    undone, events = GAME.apply(staged, 0, {"action": "undo"})
    assert undone == state and events[0]["kind"] == "unstaged" and events[0]["audience"] == {"seat": 0}


def test_take_discard_card_cannot_be_discarded():
    state = rig(GAME, {0: ["QH1", "KH1", "5C1"]}, phase="DRAW", discard=["AH2"])
    state, events = GAME.apply(state, 0, {"action": "take_discard"})
    assert events == [{"kind": "take_discard", "audience": "all", "seat": 0, "card": "AH2"}]
    assert state["taken_card"] == "AH2" and state["phase"] == "MELD"
    refuse(state, 0, {"action": "discard", "card": "AH2"}, "taken_card")
    assert {"action": "discard", "card": "AH2"} not in GAME.legal_moves(state, 0)
    refuse(state, 0, {"action": "undo"}, "nothing_to_undo")  # no undoing the take in Rami
    state, _ = play_all(GAME, state, 0, [{"action": "meld", "cards": ["QH1", "KH1", "AH2"]},
                                         {"action": "discard", "card": "5C1"}])
    assert state["phase"] in ("ROUND_OVER", "MATCH_OVER")


def test_moves_out_of_turn_and_phase():
    state = rig(GAME, {0: ["QH1", "KH1", "AH2", "5C1"]}, phase="DRAW")
    refuse(state, 1, {"action": "draw_stock"}, "not_your_turn")
    refuse(state, 0, {"action": "meld", "cards": ["QH1", "KH1", "AH2"]}, "must_draw_first")
    refuse(state, 0, {"action": "discard", "card": "5C1"}, "must_draw_first")
    refuse(state, 0, {"action": "next_round"}, "round_not_over")
    state, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    refuse(state, 0, {"action": "draw_stock"}, "already_drew")
    refuse(state, 0, {"action": "take_discard"}, "already_drew")
    refuse(state, 0, {"action": "meld", "cards": ["QH1", "KH1", "ZZ1"]}, "unknown_card")
    refuse(state, 0, {"action": "meld", "cards": ["QH1", "KH1", "QS2"]}, "card_not_in_hand")
    refuse(state, 0, {"action": "meld", "cards": ["QH1", "QH1", "KH1"]}, "bad_cards")
    refuse(state, 0, {"action": "meld", "cards": "QH1"}, "bad_cards")


# ---------------------------------------------------------------- stock, autoplay, leaving

def test_stock_rebuild_keeps_the_top_discard():
    state = rig(GAME, {0: ["5C1", "9D1"]}, phase="DRAW", stock=[], discard=["2S1", "3S1", "4D1", "8C2"])
    pile = list(state["discard"])
    new, events = GAME.apply(state, 0, {"action": "draw_stock"})
    assert new["discard"] == ["8C2"] and new["rebuilds"] == 1
    assert kinds(events)[0] == "stock_rebuilt" and events[0]["cards"] == len(pile) - 1
    again, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    assert again == new  # the rebuild shuffle is replayable


def test_an_empty_stock_with_one_discard_forces_the_take():
    state = rig(GAME, {0: ["5C1", "9D1"]}, phase="DRAW", stock=[], discard=[])
    pool = all_cards(state)
    state["discard"], state["removed"] = ["KD2"], [c for c in state["discard"] if c != "KD2"]
    assert Counter(all_cards(state)) == Counter(pool)
    assert GAME.legal_moves(state, 0) == [{"action": "take_discard"}]
    refuse(state, 0, {"action": "draw_stock"}, "stock_empty")
    assert GAME.autoplay(state, 0) == {"action": "take_discard"}


def test_autoplay_policy():
    state = rig(GAME, {0: ["2S1", "3S1", "4S1", "KD1", "AC2", "9H1", "JK2"]}, phase="DRAW")
    assert GAME.autoplay(state, 0) == {"action": "draw_stock"}
    state["phase"] = "MELD"
    # best arrangement 2S-3S-4S-JK2; deadwood KD1 (10), AC2 (15), 9H1 (9): the ace has the highest penalty
    assert GAME.autoplay(state, 0) == {"action": "discard", "card": "AC2"}
    state["taken_card"] = "AC2"
    assert GAME.autoplay(state, 0) == {"action": "discard", "card": "KD1"}
    state["taken_card"] = None
    staged, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["2S1", "3S1", "4S1"]})
    assert GAME.autoplay(staged, 0) == {"action": "undo", "all": True}
    undone, _ = GAME.apply(staged, 0, {"action": "undo", "all": True})
    assert undone == state
    assert GAME.autoplay(rig(GAME, {0: ["KS1", "KD1"]}), 0) == {"action": "discard", "card": "KS1"}  # id order
    state["phase"], state["current"] = "ROUND_OVER", None
    assert GAME.autoplay(state, 1) == {"action": "next_round"}


def test_leaving_with_three_players_keeps_the_melds():
    table = [(1, ["5H1", "6H1", "7H1"], {})]
    state = rig(GAME, {0: ["8H1", "9C1"], 1: ["KD1", "2C1"]}, seats=3, current=1, opened=[True, True, False],
                table=table)
    new, events = GAME.leave(state, 1)
    assert new["active"] == [0, 2] and new["current"] == 2 and new["phase"] == "DRAW"
    assert new["table"] == state["table"] and sorted(new["removed"]) == ["2C1", "KD1"]
    assert events[0]["kind"] == "left" and events[1] == {**events[1], "kind": "eliminated", "left": True}
    assert GAME.apply(state, 1, {"action": "leave"}) == (new, events)
    # the meld of the leaver still takes lay-offs
    new["current"], new["phase"] = 0, "MELD"
    after, _ = GAME.apply(new, 0, {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"})
    assert GAME.view(after, 0)["staged"]["table_preview"][0]["cards"][-1] == "8H1"


def test_leaving_with_two_players_loses():
    state = rig(GAME, {0: ["8H1", "9C1"]})
    new, events = GAME.leave(state, 0)
    assert new["phase"] == "MATCH_OVER" and GAME.result(new)["winners"] == [1]
    assert GAME.result(new)["reason"] == "left"


def test_leaving_drops_the_staged_actions():
    state = rig(GAME, {0: ["QH1", "KH1", "AH2", "5C1"]}, seats=3)
    staged, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["QH1", "KH1", "AH2"]})
    new, events = GAME.leave(staged, 0)
    assert new["staged"] == [] and new["table"] == [] and sorted(new["removed"]) == sorted(state["hands"][0])
    assert "meld" not in kinds(events)


def test_short_game_limit_one_ends_after_one_round():
    state = rig(GAME, {0: ["8H1", "9C1"]}, seats=3, opened=[True, False, False], options={"point_limit": "1"},
                table=[(0, ["5H1", "6H1", "7H1"], {})])
    state, _ = play_all(GAME, state, 0, [
        {"action": "lay_off", "cards": ["8H1"], "meld_id": "M1", "end": "high"},
        {"action": "discard", "card": "9C1"},
    ])
    assert state["phase"] == "MATCH_OVER" and GAME.result(state)["winners"] == [0]
    assert set(state["last_round"]["eliminated"]) == {1, 2}


def test_views_show_the_table_and_suggestions():
    table = [(1, ["5H1", "6H1", "JK1"], {"JK1": "7H"})]
    state = rig(GAME, {0: ["QS1", "KS1", "AS1", "8H1", "7H2", "2C1"]}, table=table)
    view = GAME.view(state, 0)
    assert view["table"] == [{"id": "M1", "owner": 1, "cards": ["5H1", "6H1", "JK1"], "wilds": {"JK1": "7H"},
                              "kind": "run", "ends": {"low": True, "high": True}, "points": 18}]
    assert view["threshold"] == 30 and view["opened"] == [False, False]
    sugg = view["suggestions"]
    assert sugg["opening"]["reaches"] and sugg["opening"]["points"] == 31
    assert sugg["melds"] == [{"cards": ["QS1", "KS1", "AS1"]}] and sugg["layoffs"] == [] and sugg["swaps"] == []
    assert {"action": "meld", "cards": ["QS1", "KS1", "AS1"]} in view["legal"]
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["QS1", "KS1", "AS1"]})
    sugg = GAME.view(state, 0)["suggestions"]
    assert {"cards": ["8H1"], "meld_id": "M1", "end": "high"} in sugg["layoffs"]
    assert sugg["swaps"] == [{"cards": ["7H2"], "meld_id": "M1", "joker": "JK1"}]
    assert GAME.view(state, 1)["suggestions"] is None and GAME.public_view(state)["staged"] is None
