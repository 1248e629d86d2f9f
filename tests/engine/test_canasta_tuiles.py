"""Canasta en équipe, tuiles (../shared/rules/canasta-tuiles.md): every worked example of §11, the decisions."""

import pytest

from engine import IllegalMove, games
from tests.engine.test_canasta_properties import check_state, kinds, play, rig

GAME = games.get("canasta-tuiles")


def refused(state, seat, move, code):
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert err.value.code == code
    return err.value.message


def test_info_options_and_deal():
    info = GAME.info
    assert (info.min_players, info.max_players, info.teams) == (4, 4, True)
    assert info.account_points_per_round == 1000 and info.account_jokers
    assert [o.name for o in info.options] == ["match_length"] and info.clean_options({}) == {"match_length": "3"}
    state = GAME.new_match(4, {}, "12" * 32)
    assert GAME.family == "team_meld" and GAME.view(state, 0)["pieces"] == "tiles"
    first, dealer = state["first"], state["dealer"]
    assert first == (dealer - 1) % 4 and state["phase"] == "FIRST_TURN" and state["pile"] == []
    assert len(state["hands"][first]) == 15 and all(len(h) == 14 for s, h in enumerate(state["hands"]) if s != first)
    laid = len(state["red3s"]["A"]) + len(state["red3s"]["B"])
    assert len(state["stock"]) == 49 - laid
    assert not any(p in GAME.rules.pieces.bonus_threes for h in state["hands"] for p in h)
    # the first turn: a discard only, then counter-clockwise
    assert {m["action"] for m in GAME.legal_moves(state, first)} == {"discard"}
    refused(state, first, {"action": "draw_stock"}, "first_turn_discard")
    state, _ = GAME.apply(state, first, {"action": "discard", "card": state["hands"][first][0]})
    assert state["current"] == (first - 1) % 4 and state["phase"] == "DRAW"
    check_state(GAME, state)


@pytest.mark.parametrize("score,threshold", [(-5, 15), (0, 50), (1499, 50), (1500, 90), (2999, 90), (3000, 120),
                                             (6999, 120), (7000, 150)])
def test_thresholds(score, threshold):
    assert GAME.rules.minimum(score) == threshold


# ---------------------------------------------------------------- E1 opening

def test_e1_opening():
    hand = ["R7a", "B7b", "K7a", "J1", "R1a", "Y1b", "B2a", "K9a", "Y13a"]
    state = rig(GAME, {0: hand}, scores={"A": 1500, "B": 0}, pile=["R5a"])
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": ["R7a", "B7b", "K7a", "J1"]})
    msg = refused(state, 0, {"action": "discard", "card": "K9a"}, "below_minimum")
    assert msg == "Première pose insuffisante : 65 points, il en faut 90."
    state, events = play(GAME, state, 0, [{"action": "meld", "cards": ["R1a", "Y1b", "B2a"]},
                                          {"action": "discard", "card": "K9a"}])
    assert {"kind": "opened", "audience": "all", "seat": 0, "team": "A", "points": 135} in events
    check_state(GAME, state, events)


# ---------------------------------------------------------------- E2 taking the pile

def test_e2_pair_needed_and_blocking_tops():
    melds = {"A": [("5", ["R5a", "R5b", "Y5a"])]}
    state = rig(GAME, {0: ["R9b", "K9a", "R4a"]}, phase="DRAW", pile=["B6a", "Y9a"], melds=melds)
    assert {"action": "take_pile", "melds": [["Y9a", "R9b", "K9a"]]} in GAME.legal_moves(state, 0)
    took, _ = GAME.apply(state, 0, {"action": "take_pile", "melds": [["Y9a", "R9b", "K9a"]]})
    assert took["pile"] == [] and sorted(took["hands"][0]) == ["B6a", "R4a"]
    state = rig(GAME, {0: ["R9b", "J1", "R4a"]}, phase="DRAW", pile=["B6a", "Y9a"], melds=melds)
    refused(state, 0, {"action": "take_pile", "melds": [["Y9a", "R9b", "J1"]]}, "need_pair")
    for top in ("B2a", "K3b", "J2"):
        state = rig(GAME, {0: ["R9b", "K9a", "R4a"]}, phase="DRAW", pile=["Y9a", top], melds=melds)
        refused(state, 0, {"action": "take_pile", "melds": [[top, "R9b", "K9a"]]}, "pile_blocked")


def test_e2_lower_joker_freezes_nothing():
    melds = {"A": [("5", ["R5a", "R5b", "Y5a"])]}
    state = rig(GAME, {0: ["R9b", "K9a", "R4a"]}, phase="DRAW", pile=["J2", "B6a", "Y9a"], melds=melds)
    assert not GAME.view(state, 0)["pile"]["frozen"]
    state, _ = GAME.apply(state, 0, {"action": "take_pile", "melds": [["Y9a", "R9b", "K9a"]]})
    assert "J2" in state["hands"][0]


def test_e2_top_onto_the_team_meld_needs_the_pair_too():
    melds = {"A": [("9", ["R9a", "B9a", "B9b"])]}
    state = rig(GAME, {0: ["K9a", "R4a", "R6a"]}, phase="DRAW", pile=["B6a", "Y9a"], melds=melds)
    refused(state, 0, {"action": "take_pile", "melds": [["Y9a"]]}, "need_pair")


def test_e2_opening_by_the_pile():
    hand = ["Y10b", "B10a", "K13a", "R13b", "J2", "R4a", "Y4a"]
    state = rig(GAME, {0: hand}, phase="DRAW", pile=["K6a", "B8b", "R10a"], scores={"A": 0, "B": 0})
    msg = refused(state, 0, {"action": "take_pile", "melds": [["R10a", "Y10b", "B10a"]]}, "below_minimum")
    assert msg == "Première pose insuffisante : 30 points, il en faut 50."
    state, events = GAME.apply(state, 0, {"action": "take_pile",
                                          "melds": [["R10a", "Y10b", "B10a"], ["K13a", "R13b", "J2"]]})
    assert state["melded"]["A"] and sorted(state["hands"][0]) == sorted(["R4a", "Y4a", "K6a", "B8b"])
    assert {"kind": "opened", "audience": "all", "seat": 0, "team": "A", "points": 100} in events


def test_pick_up_must_leave_a_discard():
    melds = {"A": [("5", ["R5a", "R5b", "Y5a"])]}
    state = rig(GAME, {0: ["R9b", "K9a"]}, phase="DRAW", pile=["Y9a"], melds=melds)
    refused(state, 0, {"action": "take_pile", "melds": [["Y9a", "R9b", "K9a"]]}, "pile_strands")


# ---------------------------------------------------------------- E3, E4 round scores

def test_e3_round_score_team_a():
    nines = ["R9a", "R9b", "Y9a", "Y9b", "B9a", "B9b", "K9a"]
    twelves = ["R12a", "R12b", "Y12a", "Y12b", "B12a", "B2a", "J1"]
    ones = ["R1a", "R1b", "Y1a"]
    state = rig(GAME, {0: [], 2: ["K13a", "K3a"]}, melds={"A": [("9", nines), ("12", twelves), ("1", ones)]},
                red3s={"A": ["R3a"]})
    state["red3s"] = {"A": ["R3a"], "B": ["R3b", "Y3a", "Y3b"]}
    a = GAME.score_team(state, "A", went_out=0, concealed=False)
    assert (a["melds_points"], a["canasta_bonus"], a["red3_points"], a["black3_points"], a["going_out"],
            a["hand_points"]) == (230, 800, 100, -100, 100, 10)
    assert a["total"] == 1120


def test_e4_round_score_team_b_never_opened():
    state = rig(GAME, {1: ["R1a", "B2a", "R8a", "Y8b", "K10a"], 3: ["J1", "B4a"]}, melds={})
    state["red3s"] = {"A": ["Y3a", "Y3b"], "B": ["R3a", "R3b"]}
    b = GAME.score_team(state, "B", went_out=0, concealed=False)
    assert (b["red3_points"], b["hand_points"], b["total"]) == (-200, 120, -320)


def test_four_bonus_threes_are_400():
    state = rig(GAME, {0: ["R5a"]}, melds={"A": [("9", ["R9a", "R9b", "Y9a"])]})
    state["red3s"] = {"A": ["R3a", "R3b", "Y3a", "Y3b"], "B": []}
    assert GAME.score_team(state, "A", None, False)["red3_points"] == 400


# ---------------------------------------------------------------- E5 canastas of 2s

@pytest.mark.parametrize("pieces,total,kind", [
    (["R2a", "R2b", "Y2a", "Y2b", "B2a", "B2b", "K2a"], 1140, "twos_clean"),
    (["R2a", "R2b", "Y2a", "Y2b", "B2a", "B2b", "J1"], 870, "twos_dirty"),
    (["R2a", "R2b", "Y2a", "Y2b", "B2a", "J1", "J2"], 900, "twos_dirty"),
])
def test_e5_canastas_of_twos(pieces, total, kind):
    state = rig(GAME, {0: []}, melds={"A": [("2", pieces)]}, fill=False)
    assert GAME.meld_error("2", pieces) is None and GAME.meld_kind("2", pieces) == kind
    score = GAME.score_team(state, "A", None, False)
    assert score["melds_points"] + score["canasta_bonus"] == total


def test_e5_opening_value_of_twos():
    twos = ["R2a", "R2b", "Y2a", "Y2b", "B2a", "B2b", "K2a"]
    state = rig(GAME, {0: twos + ["R5a"]}, scores={"A": 7000, "B": 0})
    state, _ = GAME.apply(state, 0, {"action": "meld", "cards": twos})
    assert state["staged"][0]["rank"] == "2"
    msg = refused(state, 0, {"action": "discard", "card": "R5a"}, "below_minimum")
    assert msg == "Première pose insuffisante : 140 points, il en faut 150."
    assert GAME.view(state, 0)["staged"]["points"] == 140
    six = ["R2a", "R2b", "Y2a", "Y2b", "B2a", "B2b", "J1"]
    state = rig(GAME, {0: six + ["R5a"]}, scores={"A": 3000, "B": 0})
    state, _ = play(GAME, state, 0, [{"action": "meld", "cards": six}, {"action": "discard", "card": "R5a"}])
    assert state["melded"]["A"] and GAME.view(state, 0)["teams"]["A"]["melds"][0]["canasta"] == "twos_dirty"


@pytest.mark.parametrize("rank,pieces,ok", [
    ("7", ["R7a", "B7a", "R2a"], True), ("7", ["R7a", "B7a", "R2a", "J1"], False),
    ("7", ["R7a", "B7a", "K7a", "R2a", "Y2a", "J1"], False),
    ("7", ["R7a", "B7a", "K7a", "Y7a", "R2a", "Y2a", "J1"], True),
    ("2", ["R2a", "B2a", "K2a"], True), ("2", ["R2a", "B2a", "J1"], True), ("2", ["R2a", "J1", "J2"], False),
])
def test_meld_validity(rank, pieces, ok):
    assert (GAME.meld_error(rank, pieces) is None) == ok


def test_threes_never_meld_and_the_last_tile_is_never_melded():
    state = rig(GAME, {0: ["B3a", "K3a", "B3b", "R5a"]})
    refused(state, 0, {"action": "meld", "cards": ["B3a", "K3a", "B3b"]}, "no_threes")
    state = rig(GAME, {0: ["R5a", "Y5a", "B5a"]}, melds={"A": [("9", ["R9a", "R9b", "Y9a"])]})
    refused(state, 0, {"action": "meld", "cards": ["R5a", "Y5a", "B5a"]}, "keep_a_piece")
    assert all(m["action"] != "go_out" for m in GAME.legal_moves(state, 0))


def test_going_out_by_discard_with_a_canasta():
    nines = ["R9a", "R9b", "Y9a", "Y9b", "B9a", "B9b", "K9a"]
    state = rig(GAME, {0: ["R5a", "Y5a", "B5a", "K3a"], 2: ["R13a"]}, melds={"A": [("9", nines)]})
    state, events = play(GAME, state, 0, [{"action": "meld", "cards": ["R5a", "Y5a", "B5a"]},
                                          {"action": "discard", "card": "K3a"}])
    assert state["last_round"]["ending"] == "out" and state["last_round"]["teams"]["A"]["going_out"] == 100


# ---------------------------------------------------------------- E6 the Joker button

def test_e6_joker_button():
    stock = [f"{c}{n}a" for c in "RY" for n in (4, 5, 6, 7, 8, 9, 10, 11, 12, 13)]
    stock = stock[:19]
    stock.insert(20 - 14, "J2")  # depth 14 from the top (the top is the last element)
    state = rig(GAME, {0: ["K5a", "K6a"]}, phase="DRAW", stock=stock, pile=["B8a"])
    state = GAME.with_joker_balances(state, {0: 3, 1: 0, 2: 0, 3: 0})
    assert {"action": "take_joker"} in GAME.legal_moves(state, 0)
    assert GAME.view(state, 0)["joker_available"] and GAME.view(state, 0)["joker_balance"] == 3
    new, events = GAME.apply(state, 0, {"action": "take_joker"})
    assert "J2" in new["hands"][0] and new["stock"] == [p for p in stock if p != "J2"]
    assert new["jokers"][0] == 2 and new["phase"] == "MELD"
    # Only the drawer learns what he drew: the table sees a draw from the stock, as for any draw.
    assert {"kind": "joker_taken", "audience": {"seat": 0}, "seat": 0} in events
    assert [e for e in events if e["audience"] == "all"] == [
        {"kind": "draw", "audience": "all", "seat": 0, "source": "stock"}]
    assert {"kind": "drawn", "audience": {"seat": 0}, "seat": 0, "card": "J2"} in events
    refused(new, 0, {"action": "take_joker"}, "already_drew")
    # never in autoplay; a zero balance or no joker in the stock: no button
    assert GAME.autoplay(state, 0) == {"action": "draw_stock"}
    zero = GAME.with_joker_balances(state, {0: 0})
    refused(zero, 0, {"action": "take_joker"}, "no_joker_balance")
    assert GAME.view(zero, 0)["joker_available"] is False
    none_left = rig(GAME, {0: ["K5a", "J2"]}, phase="DRAW", stock=stock[:6], pile=["B8a"])
    none_left = GAME.with_joker_balances(none_left, {0: 3})
    refused(none_left, 0, {"action": "take_joker"}, "no_joker_left")
    assert GAME.public_view(new)["joker_balance"] is None


# ---------------------------------------------------------------- §9 stock exhausted, match lengths

def test_last_tile_drawn_the_round_ends_after_the_turn():
    state = rig(GAME, {0: ["K5a", "K6a"]}, phase="DRAW", stock=["R8a"], pile=["B8a"])
    state, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    assert state["final_turn"] and state["phase"] == "MELD"
    state, _ = GAME.apply(state, 0, {"action": "discard", "card": "K5a"})
    assert state["phase"] in ("ROUND_OVER", "MATCH_OVER") and state["last_round"]["ending"] == "stock"


def test_last_tile_a_bonus_three_ends_the_round_at_once():
    state = rig(GAME, {0: ["K5a", "K6a"]}, phase="DRAW", stock=["Y3a"], pile=["B8a"])
    state, events = GAME.apply(state, 0, {"action": "draw_stock"})
    assert "Y3a" in state["red3s"]["A"] and state["last_round"]["ending"] == "stock"


@pytest.mark.parametrize("length,rnd,scores,over", [
    ("1", 1, {"A": 100, "B": 50}, True), ("1", 1, {"A": 50, "B": 50}, False),
    ("3", 2, {"A": 100, "B": 50}, False), ("3", 3, {"A": 100, "B": 50}, True), ("3", 4, {"A": 10, "B": 5}, True),
    ("10000", 5, {"A": 9990, "B": 50}, False), ("10000", 5, {"A": 10010, "B": 50}, True),
])
def test_match_lengths(length, rnd, scores, over):
    state = rig(GAME, {0: ["R5a"]}, options={"match_length": length})
    state["round"], state["team_scores"] = rnd, scores
    assert GAME.match_decided(state) == over


def test_direction_and_next_dealer():
    state = GAME.new_match(4, {"match_length": "3"}, "34" * 32)
    first = state["first"]
    state, _ = GAME.apply(state, first, {"action": "discard", "card": state["hands"][first][0]})
    while state["phase"] not in ("ROUND_OVER", "MATCH_OVER"):
        (seat,) = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, GAME.autoplay(state, seat))
    new, events = GAME.apply(state, 0, {"action": "next_round"})
    assert new["dealer"] == first and new["first"] == (first - 1) % 4 and new["round"] == 2
    assert "deal" in kinds(events)


def test_top_and_pair_added_to_the_team_meld():
    melds = {"A": [("9", ["R9a", "B9a", "B9b"])]}
    state = rig(GAME, {0: ["K9a", "Y9b", "R4a", "R6a"]}, phase="DRAW", pile=["B6a", "Y9a"], melds=melds)
    state, events = GAME.apply(state, 0, {"action": "take_pile", "melds": [["Y9a", "K9a", "Y9b"]]})
    assert [len(m["pieces"]) for m in state["melds"]["A"]] == [6]
    assert "team_lay_off" in kinds(events) and sorted(state["hands"][0]) == ["B6a", "R4a", "R6a"]


def test_narration_names_the_canastas_with_this_rule_sets_words():
    """canasta-tuiles.md §1 and §5: « propre », « sale », « de 2 propre », « de 2 sale »."""
    from engine import narration

    def told(rank, six, lay):
        state = rig(GAME, {0: [*lay, "R5a", "R6a"]}, melds={"A": [(rank, six)]})
        _, events = play(GAME, state, 0, [{"action": "lay_off", "cards": lay, "meld_id": "M1"},
                                          {"action": "discard", "card": "R5a"}])
        entries = [{"seat": 0, "events": narration.public_events(events)}]
        return narration.turns(entries, {s: f"Robot {s}" for s in range(4)})[0]["text"]

    nines = ["R9a", "Y9a", "B9a", "K9a", "R9b", "Y9b"]
    twos = ["R2a", "R2b", "Y2a", "Y2b", "B2a", "B2b"]
    assert "a fermé une canasta propre" in told("9", nines, ["K9b"])
    assert "a fermé une canasta sale" in told("9", nines, ["J1"])
    assert "a fermé une canasta de 2 propre" in told("2", twos, ["K2a"])
    assert "a fermé une canasta de 2 sale" in told("2", twos, ["J1"])
