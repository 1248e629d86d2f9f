"""Gin Rami engine: first upcard, turns, knock, showdown, scoring, match modes (../shared/rules/gin.md)."""

import copy
from fractions import Fraction

import pytest

from engine import IllegalMove, cards, games
from engine.games import gin
from engine.games.gin import DECK, GAME

SEED = "917e" * 16


def all_cards(state):
    return [c for h in state["hands"] for c in h] + state["stock"] + state["discard"] + state["removed"]


def rig(hands, *, seats=2, current=0, phase="DISCARD", dealer=None, scores=None, match="1",
        stock=None, discard=(), taken=None):
    """A mid-round state with chosen hands (other seats filled from the rest), cards conserved."""
    state = copy.deepcopy(GAME.new_match(seats, {"match": match}, SEED))
    used = {*discard, *(c for h in hands.values() for c in h), *(stock or ())}
    pool = [c for c in DECK if c not in used]
    size = gin.hand_size(seats)
    full = {s: list(h) for s, h in hands.items()}
    for s in range(seats):
        if s not in full:
            n = size + 1 if (s == current and phase == "DISCARD") else size
            full[s], pool = pool[:n], pool[n:]
    state["hands"] = [full[s] for s in range(seats)]
    if stock is None:
        state["stock"], state["discard"] = pool[1:], list(discard) + pool[:1]
    else:
        state["stock"], state["discard"] = list(stock), pool + list(discard)
    state["current"] = current
    state["phase"] = phase
    state["taken_card"] = taken
    state["forced_draw"] = False
    state["dealer"] = (current - 1) % seats if dealer is None else dealer
    if scores is not None:
        state["scores"] = list(scores)
    assert sorted(all_cards(state)) == sorted(DECK)
    return state


def kinds(events):
    return [e["kind"] for e in events]


# ---------------------------------------------------------------- info and deal

def test_registry_and_info():
    assert games.get("gin") is GAME
    info = GAME.info
    assert (info.slug, info.name, info.min_players, info.max_players, info.default_players) == (
        "gin", "Gin Rami", 2, 4, 2)
    (match,) = info.options
    assert match.name == "match" and match.default == "100"  # a match to 100 points unless the table says 1
    assert match.choices == (("1", "1 manche"), ("100", "100 points de pénalité"))
    assert info.clean_options({"turn_timer_s": 15}) == {"match": "100"}
    with pytest.raises(ValueError):
        info.clean_options({"match": "50"})


@pytest.mark.parametrize(("seats", "size", "stock"), [(2, 10, 31), (3, 7, 30), (4, 7, 23)])
def test_deal(seats, size, stock):
    state = GAME.new_match(seats, {}, SEED)
    assert len(DECK) == 52
    assert [len(h) for h in state["hands"]] == [size] * seats
    assert len(state["stock"]) == stock and len(state["discard"]) == 1
    assert state["phase"] == "FIRST_UPCARD"
    assert state["current"] == (state["dealer"] + 1) % seats
    assert sorted(all_cards(state)) == sorted(DECK)
    assert GAME.legal_moves(state, state["current"]) == [{"action": "take_discard"}, {"action": "pass"}]


# ---------------------------------------------------------------- first upcard

def test_everybody_passes_then_the_first_player_must_draw_from_the_stock():
    state = GAME.new_match(3, {}, SEED)
    first = state["current"]
    order = [first, (first + 1) % 3, (first + 2) % 3]
    for seat in order:
        assert GAME.to_act(state) == [seat]
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, seat, {"action": "draw_stock"})
        assert err.value.code == "wrong_phase"
        state, events = GAME.apply(state, seat, {"action": "pass"})
        assert events[0] == {"kind": "pass", "audience": "all", "seat": seat}
    assert state["phase"] == "DRAW" and state["current"] == first and state["forced_draw"]
    assert GAME.legal_moves(state, first) == [{"action": "draw_stock"}]
    assert GAME.autoplay(state, first) == {"action": "draw_stock"}
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, first, {"action": "take_discard"})
    assert err.value.code == "must_draw_stock"
    state, _ = GAME.apply(state, first, {"action": "draw_stock"})
    assert state["phase"] == "DISCARD" and not state["forced_draw"] and state["taken_card"] is None


def test_taking_the_upcard():
    state = GAME.new_match(2, {}, SEED)
    first = state["current"]
    state, _ = GAME.apply(state, first, {"action": "pass"})
    second = 1 - first
    upcard = state["discard"][-1]
    assert GAME.autoplay(state, second) == {"action": "pass"}
    state, events = GAME.apply(state, second, {"action": "take_discard"})
    assert events == [{"kind": "take_discard", "audience": "all", "seat": second, "card": upcard}]
    assert state["taken_card"] == upcard and state["discard"] == [] and state["phase"] == "DISCARD"
    legal = GAME.legal_moves(state, second)
    assert all(m.get("card") != upcard for m in legal)
    for action in ("discard", "knock"):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, second, {"action": action, "card": upcard})
        assert err.value.code == "taken_card"
    assert GAME.view(state, first)["taken_card"] == upcard  # public: everybody saw it taken
    card = next(c for c in state["hands"][second] if c != upcard)
    state, _ = GAME.apply(state, second, {"action": "discard", "card": card})
    assert state["current"] == first and state["phase"] == "DRAW" and state["taken_card"] is None
    assert {"action": "take_discard"} in GAME.legal_moves(state, first)


def test_pass_is_only_for_the_upcard():
    state = rig({}, phase="DRAW")
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"action": "pass"})
    assert err.value.code == "wrong_phase"


# ---------------------------------------------------------------- knock validation

E1_KNOCKER = ["AS1", "2S1", "3S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1", "4D1"]
E1_MELDS = [["AS1", "2S1", "3S1"], ["7H1", "7D1", "7C1"], ["9C1", "10C1", "JC1"]]
E1_OPPONENT = ["8C1", "7S1", "QC1", "KD1", "KS1", "4H1", "5H1", "6H1", "2D1", "9D1"]


def test_e1_knock_with_lay_offs():
    state = rig({0: E1_KNOCKER + ["KH1"], 1: E1_OPPONENT})
    knock = {"action": "knock", "card": "KH1", "arrangement": E1_MELDS}
    assert any(m["action"] == "knock" and m["card"] == "KH1" for m in GAME.legal_moves(state, 0))
    new, events = GAME.apply(state, 0, knock)
    assert new["phase"] == "MATCH_OVER"
    last = new["last_round"]
    assert last["ending"] == "knock" and last["knocker"] == 0
    opp = last["players"][1]
    assert {x["card"] for x in opp["layoffs"]} == {"7S1", "8C1", "QC1"}
    assert sorted(opp["deadwood"]) == sorted(["KD1", "KS1", "2D1", "9D1"])
    assert opp["deadwood_points"] == 31
    assert last["points"] == [0, 27]
    assert last["players"][0]["deadwood_points"] == 4
    assert new["scores"] == [0, 27]
    result = GAME.result(new)
    assert result["winners"] == [0] and result["match"] == "1"
    assert result["prize_split"] == ["1", "0"]  # 27 penalty points: no share
    assert kinds(events)[:1] == ["knock"] and "match_over" in kinds(events)


def test_e2_undercut_two_players():
    assert gin.score_showdown(0, {0: 8, 1: 8}, [1]) == ("undercut", 1, {0: 25, 1: 0})
    assert gin.score_showdown(0, {0: 8, 1: 5}, [1]) == ("undercut", 1, {0: 28, 1: 0})
    assert gin.score_showdown(0, {0: 8, 1: 9}, [1]) == ("knock", None, {0: 0, 1: 1})


GIN_KNOCKER = ["AS1", "2S1", "3S1", "4S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1"]
GIN_OPPONENT = ["4H1", "5H1", "6H1", "QH1", "QD1", "QS1", "KD1", "5S1", "7S1", "9D1"]


def test_e3_gin_has_no_lay_offs():
    assert gin.best_arrangement(GIN_OPPONENT).points == 31
    state = rig({0: GIN_KNOCKER + ["KH1"], 1: GIN_OPPONENT})
    new, events = GAME.apply(state, 0, {"action": "knock", "card": "KH1"})  # server's arrangement
    assert "gin" in kinds(events)
    last = new["last_round"]
    assert last["ending"] == "gin" and last["players"][1]["layoffs"] == []
    assert last["points"] == [0, 56]
    # after a plain knock on the same kind of melds the opponent lays 7S1 off
    knocker = ["AS1", "2S1", "3S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1", "2D1", "KH1"]
    new2, _ = GAME.apply(rig({0: knocker, 1: GIN_OPPONENT}), 0, {"action": "knock", "card": "KH1"})
    assert new2["last_round"]["ending"] == "knock"
    assert [x["card"] for x in new2["last_round"]["players"][1]["layoffs"]] == ["7S1"]
    assert new2["last_round"]["players"][1]["deadwood_points"] == 24


E4_K = ["AS1", "2S1", "3S1", "5H1", "5D1", "5C1", "6H1"]  # deadwood 6 (+ KC1 to discard)
E4_B = ["8H1", "9H1", "10H1", "JD1", "JS1", "JC1", "4D1"]  # deadwood 4
E4_C = ["2C1", "3C1", "4C1", "AD1", "2H1", "3D1", "9S1"]  # deadwood 15


def test_e4_undercut_with_three_players():
    state = rig({0: E4_K + ["KC1"], 1: E4_B, 2: E4_C}, seats=3)
    new, events = GAME.apply(state, 0, {"action": "knock", "card": "KC1"})
    last = new["last_round"]
    assert [p["deadwood_points"] for p in last["players"]] == [6, 4, 15]
    assert last["ending"] == "undercut" and last["undercutter"] == 1
    assert last["points"] == [27, 0, 11]
    assert {"kind": "undercut", "audience": "all", "seat": 1, "knocker": 0} in events
    result = GAME.result(new)
    assert result["winners"] == [1]
    shares = [Fraction(s) for s in result["prize_split"]]
    assert shares == [0, Fraction(3, 4), Fraction(1, 4)] and sum(shares) == 1


def test_undercut_tie_goes_to_the_first_player_clockwise_from_the_knocker():
    kind, u, pts = gin.score_showdown(2, {2: 6, 3: 4, 0: 4, 1: 9}, [3, 0, 1])
    assert (kind, u) == ("undercut", 3)
    assert pts == {2: 27, 3: 0, 0: 0, 1: 5}
    assert gin.score_showdown(1, {1: 0, 2: 0, 0: 3}, [2, 0]) == ("gin", None, {1: 0, 2: 25, 0: 28})


def test_prize_split():
    assert gin.prize_split([0, 5, 19], 0, [0, 1, 2]) == ["3/4", "5/26", "3/52"]
    assert gin.prize_split([0, 25, 40], 0, [0, 1, 2]) == ["1", "0", "0"]
    # an undercut where another player also ends with 0 penalty points
    assert gin.prize_split([27, 0, 0], 1, [0, 1, 2]) == ["0", "3/4", "1/4"]


@pytest.mark.parametrize(("arrangement", "code"), [
    ("melds", "bad_arrangement"),
    ([["AS1", "2S1", "3S1"], "7H1"], "bad_arrangement"),
    ([["AS1", "2S1", "3S1"], ["AS1", "7D1", "7C1"]], "bad_arrangement"),
    ([["AS1", "2S1", "KH1"]], "bad_arrangement"),
    ([["AS1", "2S1", 3]], "bad_arrangement"),
    ([["AS1", "2S1", "3S1", "4D1"]], "invalid_meld"),
    ([["AS1", "2S1"]], "invalid_meld"),
    ([["QS1", "KS1", "AS1"]], "card_not_in_hand"),
    ([["XX1"]], "unknown_card"),
    ([["AS1", "2S1", "3S1"], ["7H1", "7D1", "7C1"]], "deadwood_too_high"),
])
def test_knock_arrangement_is_checked(arrangement, code):
    state = rig({0: E1_KNOCKER + ["KH1"], 1: E1_OPPONENT})
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"action": "knock", "card": "KH1", "arrangement": arrangement})
    assert err.value.code == code
    assert state == before


def test_knock_limit_ten_allowed_eleven_refused():
    ten = ["AS1", "2S1", "3S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1", "QD1"]
    state = rig({0: ten + ["KH1"], 1: E1_OPPONENT})
    assert GAME.apply(state, 0, {"action": "knock", "card": "KH1"})[0]["last_round"]["players"][0][
        "deadwood_points"] == 10
    eleven = ["AS1", "2S1", "3S1", "4S1", "8H1", "9H1", "10H1", "JH1", "5D1", "6C1"]
    state = rig({0: eleven + ["KH1"], 1: E1_OPPONENT})
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"action": "knock", "card": "KH1"})
    assert err.value.code == "deadwood_too_high"
    assert not any(m["action"] == "knock" for m in GAME.legal_moves(state, 0))


OTHER = ["KD1", "KS1", "QD1", "5H1", "6H1", "10D1", "JS1", "4D1", "6D1", "8D1"]


def test_knocker_chooses_his_arrangement():
    hand = ["7S1", "7H1", "7D1", "8S1", "9S1", "2C1", "3C1", "4C1", "AD1", "2D1"]
    state = rig({0: hand + ["KH1"], 1: OTHER})
    chosen = [["7H1", "7D1", "7S1"], ["2C1", "3C1", "4C1"]]  # leaves 8S 9S AD 2D = 20 > 10
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"action": "knock", "card": "KH1", "arrangement": chosen})
    chosen = [["7S1", "8S1", "9S1"], ["2C1", "3C1", "4C1"]]  # leaves 7H 7D AD 2D = 17 > 10
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"action": "knock", "card": "KH1", "arrangement": chosen})
    hand = ["7S1", "7H1", "7D1", "7C1", "8S1", "9S1", "2C1", "3C1", "4C1", "AD1"]
    state = rig({0: hand + ["KH1"], 1: OTHER})
    sets = [["7S1", "7H1", "7D1", "7C1"], ["2C1", "3C1", "4C1"]]  # 8S 9S AD = 18: refused
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"action": "knock", "card": "KH1", "arrangement": sets})
    runs = [["7S1", "8S1", "9S1"], ["7H1", "7D1", "7C1"], ["2C1", "3C1", "4C1"]]
    new, events = GAME.apply(state, 0, {"action": "knock", "card": "KH1", "arrangement": runs})
    assert new["last_round"]["knocker_melds"] == [["7S1", "8S1", "9S1"], ["7H1", "7D1", "7C1"],
                                                  ["2C1", "3C1", "4C1"]]


# ---------------------------------------------------------------- turn errors

@pytest.mark.parametrize(("phase", "move", "code"), [
    ("DRAW", {"action": "discard", "card": "AS1"}, "must_draw_first"),
    ("DRAW", {"action": "knock", "card": "AS1"}, "must_draw_first"),
    ("DISCARD", {"action": "draw_stock"}, "already_drew"),
    ("DISCARD", {"action": "take_discard"}, "already_drew"),
    ("DISCARD", {"action": "close", "card": "AS1"}, "unknown_action"),
    ("DISCARD", {"action": "discard", "card": "AS2"}, "unknown_card"),
    ("DISCARD", {"action": "discard", "card": "JK1"}, "unknown_card"),
    ("DISCARD", {"action": "discard", "card": ["AS1"]}, "bad_card"),
    ("DISCARD", {"action": "discard", "card": "KS1"}, "card_not_in_hand"),
    ("DISCARD", {"action": "next_round"}, "round_not_over"),
])
def test_illegal_moves(phase, move, code):
    hand = E1_KNOCKER + (["KH1"] if phase == "DISCARD" else [])
    state = rig({0: hand, 1: E1_OPPONENT}, phase=phase)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, move)
    assert err.value.code == code and err.value.message
    assert state == before
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 1, {"action": "draw_stock"})
    assert err.value.code == "not_your_turn"


# ---------------------------------------------------------------- stock (§9)

def test_stock_down_to_two_is_rebuilt_once_then_the_round_is_void():
    state = rig({}, phase="DRAW", stock=["2C1", "3C1", "4C1"], dealer=1)
    pile = list(state["discard"])
    state, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    drawn = state["hands"][0][-1]
    state, events = GAME.apply(state, 0, {"action": "discard", "card": drawn})
    assert "stock_rebuilt" in kinds(events)
    assert state["discard"] == [drawn]
    assert state["stock"][-2:] == ["2C1", "3C1"]  # the two cards left stay on top
    assert sorted(state["stock"][:-2]) == sorted(pile)
    assert state["rebuilds"] == 1 and state["current"] == 1
    assert sorted(all_cards(state)) == sorted(DECK)
    # second time down to 2 cards: void round, the deal passes on
    state["stock"] = state["stock"][-3:]
    state["discard"] = state["discard"] + [c for c in pile if c not in state["stock"]]
    state, _ = GAME.apply(state, 1, {"action": "draw_stock"})
    drawn = state["hands"][1][-1]
    state, events = GAME.apply(state, 1, {"action": "discard", "card": drawn})
    assert "round_void" in kinds(events)
    assert state["phase"] == "ROUND_OVER" and state["last_round"]["void"] is True
    assert state["history"][-1]["points"] == [0, 0] and state["scores"] == [0, 0]
    nxt, _ = GAME.apply(state, 0, {"action": "next_round"})
    assert nxt["dealer"] == 0 and nxt["phase"] == "FIRST_UPCARD" and nxt["current"] == 1


# ---------------------------------------------------------------- match to 100

def test_penalty_limit_two_players():
    state = rig({0: E1_KNOCKER + ["KH1"], 1: E1_OPPONENT}, match="100", scores=[50, 80])
    new, events = GAME.apply(state, 0, {"action": "knock", "card": "KH1", "arrangement": E1_MELDS})
    assert new["scores"] == [50, 107]
    assert new["phase"] == "MATCH_OVER" and GAME.result(new)["winners"] == [0]
    assert "prize_split" not in GAME.result(new)
    state = rig({0: E1_KNOCKER + ["KH1"], 1: E1_OPPONENT}, match="100", scores=[50, 73])
    new, _ = GAME.apply(state, 0, {"action": "knock", "card": "KH1", "arrangement": E1_MELDS})
    assert new["scores"] == [50, 100] and new["phase"] == "ROUND_OVER"  # 100 is not over 100
    assert new["history"][-1]["totals"] == [50, 100]


def test_penalty_limit_three_players_eliminates_and_deals_ten_cards():
    state = rig({0: E4_K + ["KC1"], 1: E4_B, 2: E4_C}, seats=3, match="100", scores=[80, 10, 10], dealer=2)
    new, events = GAME.apply(state, 0, {"action": "knock", "card": "KC1"})
    assert new["scores"] == [107, 10, 21]
    assert new["active"] == [1, 2] and new["phase"] == "ROUND_OVER"
    assert {"kind": "eliminated", "audience": "all", "seat": 0, "total": 107} in events
    nxt, _ = GAME.apply(new, 1, {"action": "next_round"})
    assert nxt["dealer"] == 1  # dealer 2 -> next active clockwise, skipping seat 0
    assert [len(h) for h in nxt["hands"]] == [0, 10, 10]
    assert len(nxt["stock"]) == 31 and nxt["current"] == 2
    assert GAME.view(nxt, 1)["hand_size"] == 10


# ---------------------------------------------------------------- autoplay, leaving, views

def test_autoplay_knocks_with_the_best_discard():
    state = rig({0: E1_KNOCKER + ["KH1"], 1: E1_OPPONENT})
    move = GAME.autoplay(state, 0)
    assert move["action"] == "knock" and move["card"] == "KH1"
    assert sorted(map(sorted, move["arrangement"])) == sorted(map(sorted, E1_MELDS))
    GAME.apply(state, 0, move)


def test_autoplay_discard_skips_the_taken_card():
    hand = ["KS1", "QH1", "JD1", "9C1", "AS1", "3H1", "5D1", "7C1", "2C1", "6S1", "KH1"]
    state = rig({0: hand}, taken="KS1")
    # no meld: drop a 10-point card; KS1 was just taken; then id order S,H,D,C and A…K -> QH1
    assert GAME.autoplay(state, 0) == {"action": "discard", "card": "QH1"}


def test_leaving():
    state = GAME.new_match(2, {}, SEED)
    new, events = GAME.leave(state, 1)
    assert new["phase"] == "MATCH_OVER" and GAME.result(new)["winners"] == [0]
    state = GAME.new_match(3, {}, SEED)
    first = state["current"]
    new, events = GAME.apply(state, first, {"action": "leave"})
    assert new["active"] == sorted({0, 1, 2} - {first}) and new["phase"] == "FIRST_UPCARD"
    assert new["current"] == (first + 1) % 3
    assert len(new["removed"]) == 7 and sorted(all_cards(new)) == sorted(DECK)
    new, _ = GAME.apply(new, new["current"], {"action": "pass"})
    new, _ = GAME.apply(new, new["current"], {"action": "pass"})
    assert new["phase"] == "DRAW" and new["forced_draw"] and new["current"] == (first + 1) % 3


def test_views():
    state = rig({0: E1_KNOCKER + ["KH1"], 1: E1_OPPONENT})
    view = GAME.view(state, 0)
    assert view["hand"] == sorted(E1_KNOCKER + ["KH1"], key=cards.sort_key)
    assert view["match"] == "1" and view["knock_limit"] == 10
    assert [o["card"] for o in view["knock_options"]] == view["closable"]
    assert "KH1" in view["closable"]
    assert view["arrangement"]["points"] == 4 + 10
    other = GAME.view(state, 1)
    assert other["knock_options"] == [] and not set(E1_KNOCKER) & set(other["hand"])
    assert "seed" not in view and "stock" not in view and SEED not in repr(view)
    new, _ = GAME.apply(state, 0, {"action": "knock", "card": "KH1"})
    public = GAME.public_view(new)
    assert public["last_round"]["players"][0]["hand"] == sorted(E1_KNOCKER, key=cards.sort_key)
    assert public["result"]["winners"] == [0]


def test_e5_meld_validity():
    assert gin.best_arrangement(["AH1", "2H1", "3H1"]).points == 0
    assert gin.best_arrangement(["QH1", "KH1", "AH1"]).points == 21
    hand = ["QH1", "KH1", "AH1", "2S1", "3S1", "4S1", "5D1", "6D1", "7D1", "AC1"]
    state = rig({0: hand + ["8S1"], 1: E1_OPPONENT})
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"action": "knock", "card": "8S1", "arrangement": [["QH1", "KH1", "AH1"]]})
    assert err.value.code == "invalid_meld"


def test_all_cards_melded_after_the_draw_still_discards_one():
    hand = ["AS1", "2S1", "3S1", "4S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1", "QC1"]
    state = rig({0: hand, 1: E1_OPPONENT[:2] + E1_OPPONENT[3:] + ["KH1"]})
    move = GAME.autoplay(state, 0)
    assert move["action"] == "knock" and move["card"] == "QC1"  # ties at 0: highest value first
    new, events = GAME.apply(state, 0, move)
    assert new["last_round"]["ending"] == "gin" and len(new["last_round"]["players"][0]["hand"]) == 10


def test_cards_taken_from_the_pile_are_shown_to_all_while_their_taker_holds_them():
    game = games.get("gin")
    state = game.new_match(seats=2, options={}, seed="picked-public")
    taker = game.to_act(state)[0]
    other = 1 - taker
    upcard = state["discard"][-1]
    state, _ = game.apply(state, taker, {"action": "take_discard"})

    def picked(view, seat):
        return next(p for p in view["players"] if p["seat"] == seat)["picked"]

    for view in (game.view(state, other), game.view(state, taker), game.public_view(state)):
        assert picked(view, taker) == [upcard] and picked(view, other) == []
    keep = next(c for c in state["hands"][taker] if c != upcard)
    state, _ = game.apply(state, taker, {"action": "discard", "card": keep})
    state, _ = game.apply(state, other, {"action": "draw_stock"})
    state, _ = game.apply(state, other, {"action": "discard", "card": state["hands"][other][0]})
    assert picked(game.view(state, other), taker) == [upcard]
    state, _ = game.apply(state, taker, {"action": "draw_stock"})
    state, _ = game.apply(state, taker, {"action": "discard", "card": upcard})
    assert picked(game.view(state, other), taker) == [], "thrown back: no longer in his hand"
