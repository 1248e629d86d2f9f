"""Canasta classique (../shared/rules/canasta.md): every worked example of §11, the decisions, the refusals."""

import pytest

from engine import IllegalMove, games
from tests.engine.test_canasta_properties import check_state, kinds, play, rig

GAME = games.get("canasta")


def refused(state, seat, move, code):
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert err.value.code == code
    return err.value.message


def test_info_and_deal():
    info = GAME.info
    assert (info.min_players, info.max_players, info.default_players, info.teams) == (4, 4, 4, True)
    assert GAME.family == "team_meld" and info.options == ()
    state = GAME.new_match(4, {}, "ab" * 32)
    assert len(GAME.rules.pieces.deck) == 108
    assert state["dealer"] == (state["first"] - 1) % 4 and state["current"] == state["first"]
    # 11 each (red 3s of the first player already laid and replaced), the stock 63 minus extra upcards
    assert all(len(h) == 11 for h in state["hands"])
    top = state["pile"][-1]
    assert not GAME.rules.pieces.is_wild(top) and top not in GAME.rules.pieces.bonus_threes
    laid = len(state["red3s"]["A"]) + len(state["red3s"]["B"])
    assert len(state["stock"]) == 63 - (len(state["pile"]) - 1) - laid
    assert state["frozen"] == (len(state["pile"]) > 1)
    view = GAME.view(state, 0)
    assert view["pieces"] == "cards" and view["team"] == "A" and view["partner"] == 2
    check_state(GAME, state)


# ---------------------------------------------------------------- E1 minimum count

@pytest.mark.parametrize("score,minimum", [(-20, 15), (0, 50), (1495, 50), (1500, 90), (1600, 90), (2995, 90),
                                           (3000, 120)])
def test_e1_minimum_by_score(score, minimum):
    assert GAME.rules.minimum(score) == minimum


def e1_state():
    hand = ["AS1", "AH2", "2C1", "KD1", "KC2", "KS1", "7D1", "8C1"]
    return rig(GAME, {0: hand}, scores={"A": 1600, "B": 0}, pile=["9S1"])


def test_e1_first_meld_90_accepted():
    state = e1_state()
    state, events = play(GAME, state, 0, [{"action": "meld", "cards": ["AS1", "AH2", "2C1"]},
                                          {"action": "meld", "cards": ["KD1", "KC2", "KS1"]},
                                          {"action": "discard", "card": "7D1"}])
    assert state["melded"]["A"] and [m["rank"] for m in state["melds"]["A"]] == ["A", "K"]
    assert {"kind": "opened", "audience": "all", "seat": 0, "team": "A", "points": 90} in events
    check_state(GAME, state, events)


def test_e1_first_meld_under_minimum_refused_with_its_reason():
    state = e1_state()
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["AS1", "AH2", "2C1"]})
    before = state
    message = refused(state, 0, {"action": "discard", "card": "7D1"}, "below_minimum")
    assert message == "Première pose insuffisante : 60 points, il en faut 90."
    assert state == before
    assert GAME.view(state, 0)["staged"]["opening_ok"] is False
    assert not any(m["action"] == "discard" for m in GAME.legal_moves(state, 0))


# ---------------------------------------------------------------- E2 taking the pile

def test_e2a_frozen_pile_needs_a_natural_pair():
    state = rig(GAME, {0: ["8S1", "8D2", "2H1", "5C1", "6C1"]}, phase="DRAW",
                melds={"A": [("8", ["8C1", "8C2", "JK1"])]}, pile=["4S1", "2D1", "8H1"])
    assert state["frozen"]
    refused(state, 0, {"action": "take_pile", "melds": [["8H1"]]}, "need_pair")
    refused(state, 0, {"action": "take_pile", "melds": [["8H1", "8S1", "2H1"]]}, "need_pair")
    state, events = GAME.apply(state, 0, {"action": "take_pile", "melds": [["8H1", "8S1", "8D2"]]})
    assert state["phase"] == "MELD" and state["pile"] == [] and not state["frozen"]
    assert sorted(state["hands"][0]) == sorted(["2H1", "5C1", "6C1", "4S1", "2D1"])
    meld = state["melds"]["A"][0]
    assert meld["rank"] == "8" and len(meld["pieces"]) == 6  # into the team's meld of 8s
    take = next(e for e in events if e["kind"] == "take_pile")
    assert take["count"] == 3 and take["card"] == "8H1"
    took = next(e for e in events if e["kind"] == "took")
    assert took["audience"] == {"seat": 0}
    check_state(GAME, state, events)


def test_e2b_unfrozen_pile_top_alone_onto_the_team_meld():
    state = rig(GAME, {0: ["5C1", "6C1", "9D1"]}, phase="DRAW",
                melds={"A": [("8", ["8C1", "8C2", "8S2"])]}, pile=["4S1", "8H1"])
    assert not state["frozen"]
    moves = GAME.legal_moves(state, 0)
    assert {"action": "take_pile", "melds": [["8H1"]]} in moves
    state, _ = GAME.apply(state, 0, {"action": "take_pile", "melds": [["8H1"]]})
    assert len(state["melds"]["A"][0]["pieces"]) == 4 and "4S1" in state["hands"][0]


def test_e2c_wild_or_black_three_on_top_blocks_the_pile():
    for top in ("3C1", "JK2"):
        state = rig(GAME, {0: ["8S1", "8D2", "5C1"]}, phase="DRAW", pile=["8H1", top],
                    melds={"A": [("8", ["8C1", "8C2", "8S2"])]})
        refused(state, 0, {"action": "take_pile", "melds": [[top, "8S1", "8D2"]]}, "pile_blocked")
        assert not any(m["action"] == "take_pile" for m in GAME.legal_moves(state, 0))
        assert GAME.view(state, 0)["pile"]["takeable"] is False


def test_unmelded_team_takes_with_a_pair_and_reaches_the_minimum_from_the_hand():
    hand = ["QS1", "QD1", "KS1", "KD1", "KH1", "5C1", "6C1"]
    state = rig(GAME, {0: hand}, phase="DRAW", pile=["4S1", "QH1"], scores={"A": 0, "B": 0})
    # Q Q Q = 30 < 50
    msg = refused(state, 0, {"action": "take_pile", "melds": [["QH1", "QS1", "QD1"]]}, "below_minimum")
    assert msg == "Première pose insuffisante : 30 points, il en faut 50."
    state, _ = GAME.apply(state, 0, {"action": "take_pile", "melds": [["QH1", "QS1", "QD1"], ["KS1", "KD1", "KH1"]]})
    assert state["melded"]["A"] and sorted(state["hands"][0]) == ["4S1", "5C1", "6C1"]


def test_one_card_pile_not_taken_with_one_card_in_hand():
    state = rig(GAME, {0: ["8S1"]}, phase="DRAW", pile=["8H1"], melds={"A": [("8", ["8C1", "8C2", "8S2"])]})
    refused(state, 0, {"action": "take_pile", "melds": [["8H1"]]}, "pile_one_card")


# ---------------------------------------------------------------- E3 hand score

def test_e3_hand_score():
    kings = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    nines = ["9S1", "9H1", "9D1", "9C1", "9S2", "2S1", "2H1"]
    fives = ["5S1", "5H1", "5D1"]
    queens = ["QS1", "QH1", "QD1", "2D1"]
    state = rig(GAME, {0: [], 2: ["JK1", "7S1"], 1: ["AS2", "4D1", "3C1", "2H2"], 3: ["8S1", "8C2"]},
                melds={"A": [("K", kings), ("9", nines), ("5", fives)], "B": [("Q", queens)]},
                red3s={"A": ["3H1", "3D1"], "B": ["3H2"]})
    state["red3s"]["A"], state["red3s"]["B"] = ["3H1", "3D1"], ["3H2"]
    a = GAME.score_team(state, "A", went_out=0, concealed=False)
    assert (a["melds_points"], a["canasta_bonus"], a["red3_points"], a["going_out"], a["hand_points"]) == \
        (175, 800, 200, 100, 55)
    assert a["total"] == 1220
    b = GAME.score_team(state, "B", went_out=0, concealed=False)
    assert b["total"] == 80
    state["melds"]["B"] = []
    assert GAME.score_team(state, "B", went_out=0, concealed=False)["red3_points"] == -100


# ---------------------------------------------------------------- E4 concealed going out

def test_e4_concealed_going_out_needs_no_minimum():
    sevens = ["7S1", "7H1", "7D1", "7C1", "7S2", "7H2", "7D2"]
    hand = sevens + ["KH1", "KS2", "KD1", "2C1", "9D1"]
    state = rig(GAME, {1: hand, 3: ["QS1", "QH1", "QD1"]}, current=1, scores={"A": 0, "B": 2000})
    state["red3s"] = {"A": state["red3s"]["A"] + state["red3s"]["B"], "B": []}
    assert state["minimums"]["B"] == 90
    state, events = play(GAME, state, 1, [{"action": "meld", "cards": sevens},
                                          {"action": "meld", "cards": ["KH1", "KS2", "KD1", "2C1"]},
                                          {"action": "discard", "card": "9D1"}])
    assert state["phase"] == "ROUND_OVER"
    lr = state["last_round"]
    assert lr["ending"] == "concealed" and lr["went_out"] == 1
    b = lr["teams"]["B"]
    assert (b["melds_points"], b["canasta_bonus"], b["going_out"], b["hand_points"]) == (85, 500, 200, 30)
    assert b["total"] == 755
    assert {"kind": "go_out", "audience": "all", "seat": 1, "concealed": True} in events


def test_e4_not_going_out_the_85_points_are_refused():
    sevens = ["7S1", "7H1", "7D1", "7C1", "7S2", "7H2", "7D2"]
    hand = sevens + ["KH1", "KS2", "KD1", "2C1", "9D1", "9S1"]
    state = rig(GAME, {1: hand}, current=1, scores={"A": 0, "B": 2000})
    state, _ = play(GAME, state, 1, [{"action": "meld", "cards": sevens},
                                     {"action": "meld", "cards": ["KH1", "KS2", "KD1", "2C1"]}])
    msg = refused(state, 1, {"action": "discard", "card": "9D1"}, "below_minimum")
    assert msg == "Première pose insuffisante : 85 points, il en faut 90."


# ---------------------------------------------------------------- E5 red threes

def test_e5_four_red_threes():
    state = rig(GAME, {0: ["5S1"]}, melds={"A": [("K", ["KS1", "KH1", "KD1"])]},
                red3s={"A": ["3H1", "3D1", "3H2", "3D2"]})
    assert GAME.score_team(state, "A", None, False)["red3_points"] == 800
    state["melds"]["A"] = []
    assert GAME.score_team(state, "A", None, False)["red3_points"] == -800


def test_red_three_drawn_is_laid_and_replaced():
    state = rig(GAME, {0: ["5S1", "6S1"]}, phase="DRAW", stock=["9C1", "3H1"], pile=["4C1"])
    state, events = GAME.apply(state, 0, {"action": "draw_stock"})
    assert "3H1" in state["red3s"]["A"] and "9C1" in state["hands"][0] and state["stock"] == []
    assert kinds(events).count("red_three") == 1


# ---------------------------------------------------------------- §5 melds

@pytest.mark.parametrize("pieces,ok", [
    (["5S1", "5H1", "2C1"], True), (["5S1", "5H1", "2C1", "2D1", "JK1"], True),
    (["5S1", "2C1", "2D1"], False), (["5S1", "5H1", "2C1", "2D1", "2H1", "2S1"], False),
])
def test_meld_validity(pieces, ok):
    assert (GAME.meld_error("5", pieces) is None) == ok


def test_wilds_alone_and_red_threes_never_meld():
    state = rig(GAME, {0: ["2C1", "2D1", "2H1", "5S1", "6S1"]})
    refused(state, 0, {"action": "meld", "cards": ["2C1", "2D1", "2H1"]}, "only_wilds")
    assert GAME.meld_error("3", ["3H1", "3S1", "3C1"]) == "bonus_three"


def test_black_threes_meld_only_when_going_out():
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(GAME, {0: ["3S1", "3C1", "3S2", "5S1", "6D1"]}, melds={"A": [("K", canasta)]})
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["3S1", "3C1", "3S2"]})
    refused(state, 0, {"action": "discard", "card": "5S1"}, "black_threes_out")
    state = rig(GAME, {0: ["3S1", "3C1", "3S2", "5S1"]}, melds={"A": [("K", canasta)]})
    state, _ = play(GAME, state, 0, [{"action": "meld", "cards": ["3S1", "3C1", "3S2"]},
                                     {"action": "discard", "card": "5S1"}])
    assert state["last_round"]["ending"] == "out"


def test_canasta_kinds_and_a_wild_on_a_natural_canasta():
    kings = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(GAME, {0: ["2C1", "5S1", "6S1"]}, melds={"A": [("K", kings)]})
    assert GAME.view(state, 0)["teams"]["A"]["melds"][0]["canasta"] == "clean"
    state, _ = play(GAME, state, 0, [{"action": "lay_off", "cards": ["2C1"], "meld_id": "M1"},
                                     {"action": "discard", "card": "5S1"}])
    meld = GAME.view(state, 0)["teams"]["A"]["melds"][0]
    assert meld["canasta"] == "dirty" and meld["bonus"] == 300 and meld["wilds"] == 1


def test_going_out_needs_a_canasta():
    state = rig(GAME, {0: ["5S1", "5H1", "5D1", "9C1"]}, melds={"A": [("K", ["KS1", "KH1", "KD1"])]})
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["5S1", "5H1", "5D1"]})
    refused(state, 0, {"action": "discard", "card": "9C1"}, "need_canasta")


def test_no_lay_off_on_the_opponents_melds():
    state = rig(GAME, {0: ["QS2", "5S1", "6S1"]}, melds={"B": [("Q", ["QS1", "QH1", "QD1"])]},
                melded={"A": True, "B": True})
    refused(state, 0, {"action": "lay_off", "cards": ["QS2"], "meld_id": "M1"}, "unknown_meld")


# ---------------------------------------------------------------- the go-out question

def test_ask_partner_binds_no_and_yes():
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(GAME, {0: ["5S1", "5H1", "5D1", "9C1", "8D1"]}, phase="DRAW", stock=["9D1"],
                melds={"A": [("K", canasta)]})
    state, events = GAME.apply(state, 0, {"action": "ask_go_out"})
    assert GAME.to_act(state) == [2]
    assert GAME.legal_moves(state, 0) == []
    refused(state, 0, {"action": "draw_stock"}, "wait_answer")
    refused(state, 1, {"action": "answer_go_out", "answer": "yes"}, "no_question")
    no, _ = GAME.apply(state, 2, {"action": "answer_go_out", "answer": "no"})
    assert GAME.to_act(no) == [0] and GAME.view(no, 1)["question"]["answer"] == "no"
    refused(no, 0, {"action": "ask_go_out"}, "already_asked")
    no, _ = GAME.apply(no, 0, {"action": "draw_stock"})
    no, _ = GAME.apply(no, 0, {"action": "meld", "cards": ["5S1", "5H1", "5D1"]})
    no, _ = GAME.apply(no, 0, {"action": "discard", "card": "8D1"})
    assert no["phase"] == "DRAW" and no["current"] == 1
    # « oui », but no going out is possible (9C1, 9D1 and 8D1 cannot all go): he ends his turn normally
    yes, _ = GAME.apply(state, 2, {"action": "answer_go_out", "answer": "yes"})
    yes, _ = GAME.apply(yes, 0, {"action": "draw_stock"})
    assert yes["turn"]["permission"] == "yes"
    yes, _ = GAME.apply(yes, 0, {"action": "discard", "card": "8D1"})
    assert yes["phase"] == "DRAW"


def test_answer_no_forbids_going_out_and_yes_obliges_it():
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    base = rig(GAME, {0: ["5S1", "5H1", "5D1", "9C1"]}, phase="DRAW", stock=["8D1"],
               melds={"A": [("K", canasta)]})
    asked, _ = GAME.apply(base, 0, {"action": "ask_go_out"})
    no, _ = play(GAME, GAME.apply(asked, 2, {"action": "answer_go_out", "answer": "no"})[0], 0,
                 [{"action": "draw_stock"}, {"action": "meld", "cards": ["5S1", "5H1", "5D1"]},
                  {"action": "undo"}])
    # after « non » a discard that would empty the hand is refused
    solo = rig(GAME, {0: ["9C1"]}, melds={"A": [("K", canasta)]})
    solo["turn"]["permission"] = "no"
    refused(solo, 0, {"action": "discard", "card": "9C1"}, "not_allowed_out")
    # after « oui », discarding while a going out is possible is refused
    yes = rig(GAME, {0: ["5S1", "5H1", "5D1", "9C1", "KC2"]}, melds={"A": [("K", canasta)]})
    yes["turn"]["permission"] = "yes"
    refused(yes, 0, {"action": "discard", "card": "KC2"}, "must_go_out")
    done, _ = play(GAME, yes, 0, [{"action": "meld", "cards": ["5S1", "5H1", "5D1"]},
                                  {"action": "lay_off", "cards": ["KC2"], "meld_id": "M1"},
                                  {"action": "discard", "card": "9C1"}])
    assert done["last_round"]["ending"] == "out"
    assert no["phase"] == "MELD"


# ---------------------------------------------------------------- §9 stock exhausted

def test_stock_empty_pass_ends_the_hand_without_bonus():
    state = rig(GAME, {0: ["5S1", "6D1"]}, phase="DRAW", stock=[], pile=["9C1"])
    assert {"action": "pass"} in GAME.legal_moves(state, 0)
    state, events = GAME.apply(state, 0, {"action": "pass"})
    assert state["phase"] == "ROUND_OVER" and state["last_round"]["ending"] == "stock"
    assert state["last_round"]["teams"]["A"]["going_out"] == 0


def test_stock_empty_compulsory_take():
    state = rig(GAME, {0: ["5S1", "6D1"]}, phase="DRAW", stock=[], pile=["9C1"], frozen=False,
                melds={"A": [("9", ["9S1", "9H1", "9D1"])]})
    refused(state, 0, {"action": "pass"}, "must_take_pile")
    assert GAME.autoplay(state, 0) == {"action": "take_pile", "melds": [["9C1"]]}


def test_last_card_a_red_three_no_discard_end_turn():
    state = rig(GAME, {0: ["5S1", "6D1"]}, phase="DRAW", stock=["3D1"], pile=["9C1"])
    state, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    assert state["turn"]["last_red3"]
    refused(state, 0, {"action": "discard", "card": "5S1"}, "no_discard_last_red3")
    assert GAME.autoplay(state, 0) == {"action": "end_turn"}
    state, _ = GAME.apply(state, 0, {"action": "end_turn"})
    assert state["phase"] == "ROUND_OVER"


# ---------------------------------------------------------------- staging, views, autoplay, leave, match

def test_staged_actions_private_and_undo():
    state = rig(GAME, {0: ["QS1", "QH1", "QD1", "5C1"]}, scores={"A": -10, "B": 0})
    before = GAME.view(state, 2)
    staged, events = GAME.apply(state, 0, {"action": "meld", "cards": ["QS1", "QH1", "QD1"]})
    assert all(e["audience"] == {"seat": 0} for e in events)
    assert GAME.view(staged, 2) == before and GAME.view(staged, 0)["hand"] == ["5C1"]
    assert GAME.view(staged, 0)["staged"]["melds_after"][0]["rank"] == "Q"
    undone, _ = GAME.apply(staged, 0, {"action": "undo"})
    assert undone["staged"] == [] and GAME.view(undone, 0)["hand"] == GAME.view(state, 0)["hand"]


def test_autoplay_discard_rule():
    assert GAME.autoplay_discards(["KS1", "3C1", "5H1"])[0] == "3C1"
    assert GAME.autoplay_discards(["KS1", "5H1", "5D1", "8C1", "JK1"])[0] == "8C1"
    assert GAME.autoplay_discards(["5H1", "5D1", "2C1"])[0] == "5H1"
    assert GAME.autoplay_discards(["JK1", "2C1"])[0] == "2C1"


def test_leave_keeps_the_seat_and_the_score():
    state = GAME.new_match(4, {}, "cd" * 32)
    new, events = GAME.leave(state, 1)
    assert new["left"] == [1] and kinds(events) == ["left"] and GAME.to_act(new) == GAME.to_act(state)


def test_match_to_5000_tie_adds_a_hand():
    state = rig(GAME, {0: ["5S1"]})
    state["team_scores"] = {"A": 5000, "B": 5000}
    assert not GAME.match_decided(state)
    state["team_scores"] = {"A": 5005, "B": 5000}
    assert GAME.match_decided(state)


def test_result_names_both_winning_partners():
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(GAME, {1: ["9C1"]}, current=1, melds={"B": [("K", canasta)]}, scores={"A": 0, "B": 4500})
    state, events = GAME.apply(state, 1, {"action": "discard", "card": "9C1"})
    assert state["phase"] == "MATCH_OVER"
    assert GAME.result(state)["winners"] == [1, 3]
    assert "match_over" in kinds(events)


def test_after_yes_the_way_out_is_offered_and_leads_out():
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(GAME, {0: ["5S1", "5H1", "2D2", "9C1", "KC2", "QS1", "QD1", "QH1"]}, melds={"A": [("K", canasta)]})
    state["turn"]["permission"] = "yes"
    plan = GAME.go_out_plan(state, 0)
    assert plan[0] in GAME.legal_moves(state, 0) and plan[-1] == {"action": "discard", "card": "9C1"}
    while state["phase"] == "MELD":
        state, _ = GAME.apply(state, 0, GAME.go_out_plan(state, 0)[0])
    assert state["last_round"]["ending"] == "out" and state["last_round"]["went_out"] == 0


def test_after_a_last_red_three_the_yes_offers_no_discard():
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(GAME, {0: ["5S1", "5H1", "5D1", "9C1"]}, phase="DRAW", stock=["3D1"], pile=["8C1"], frozen=False,
                melds={"A": [("K", canasta)]})
    state["turn"]["permission"] = "yes"
    state, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    assert GAME.go_out_plan(state, 0) is None
    assert all(m["action"] != "discard" for m in GAME.legal_moves(state, 0))
    assert {"action": "end_turn"} in GAME.legal_moves(state, 0)


def test_after_a_last_red_three_melding_everything_is_a_going_out():
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(GAME, {0: ["5S1", "5H1", "5D1"]}, phase="DRAW", stock=["3D1"], pile=["8C1"], frozen=False,
                melds={"A": [("K", canasta)]})
    state, _ = play(GAME, state, 0, [{"action": "draw_stock"}, {"action": "meld", "cards": ["5S1", "5H1", "5D1"]}])
    assert {"action": "go_out"} in GAME.legal_moves(state, 0)
    state, events = GAME.apply(state, 0, {"action": "go_out"})
    assert state["last_round"]["ending"] == "out" and state["last_round"]["teams"]["A"]["going_out"] == 100


def test_autoplay_after_yes_goes_out_the_way_found():
    canasta = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2", "KD2"]
    state = rig(GAME, {0: ["5S1", "5H1", "2D2", "9C1", "KC2"]}, melds={"A": [("K", canasta)]})
    state["turn"]["permission"] = "yes"
    state, _ = GAME.apply(state, 0, {"action": "lay_off", "cards": ["KC2"], "meld_id": "M1"})
    for _ in range(6):
        if state["phase"] != "MELD":
            break
        state, _ = GAME.apply(state, 0, GAME.autoplay(state, 0))
    assert state["last_round"]["ending"] == "out"


def test_narration_names_the_canastas_with_this_rule_sets_words():
    """canasta.md §1 and §5: « canasta naturelle » and « canasta mixte » (not the tile game's propre / sale)."""
    from engine import narration

    def told(lay):
        six = ["KS1", "KH1", "KD1", "KC1", "KS2", "KH2"]
        state = rig(GAME, {0: [*lay, "5S1", "6S1"]}, melds={"A": [("K", six)]})
        _, events = play(GAME, state, 0, [{"action": "lay_off", "cards": lay, "meld_id": "M1"},
                                          {"action": "discard", "card": "5S1"}])
        entries = [{"seat": 0, "events": narration.public_events(events)}]
        return narration.turns(entries, {s: f"Robot {s}" for s in range(4)})[0]["text"]

    assert "a fermé une canasta naturelle" in told(["KD2"])
    assert "a fermé une canasta mixte" in told(["2C1"])
