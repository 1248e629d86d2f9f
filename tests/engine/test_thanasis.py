"""Thanasis engine: deal, turn, closing, scoring, burning, edge cases (../shared/rules/thanasis.md)."""

import copy

import pytest

from engine import IllegalMove, cards, games
from engine.games import thanasis
from engine.games.thanasis import DECK, GAME

SEED = "5eed" * 16


def all_cards(state):
    pile = [c for h in state["hands"] for c in h] + state["stock"] + state["discard"] + state["removed"]
    return pile + ([state["indicator"]] if state["indicator"] else [])


def rig(hands, *, seats=3, indicator="KD1", current=0, phase="DISCARD", dealer=None, scores=None,
        stock=None, discard=()):
    """A mid-round state with chosen hands (other seats filled from the rest), cards conserved."""
    state = copy.deepcopy(GAME.new_match(seats, {}, SEED))
    used = {indicator, *discard, *(c for h in hands.values() for c in h), *(stock or ())}
    pool = [c for c in DECK if c not in used and not cards.is_joker(c)]
    pool += [c for c in DECK if c not in used and cards.is_joker(c)]
    full = {s: list(h) for s, h in hands.items()}
    for s in range(seats):
        if s not in full:
            size = 11 if (s == current and phase == "DISCARD") else 10
            full[s], pool = pool[:size], pool[size:]
    state["hands"] = [full[s] for s in range(seats)]
    state["stock"] = list(stock) if stock is not None else pool
    extra = [] if stock is None else pool
    state["discard"] = list(discard) + extra
    state["indicator"] = indicator
    state["wild_rank"] = cards.rank_of(indicator)
    state["current"] = current
    state["phase"] = phase
    state["dealer"] = (current - 1) % seats if dealer is None else dealer
    if scores is not None:
        state["scores"] = list(scores)
    assert sorted(all_cards(state)) == sorted(DECK)
    return state


def kinds(events):
    return [e["kind"] for e in events]


# ---------------------------------------------------------------- info and deal

def test_registry_and_info():
    assert games.get("thanasis") is GAME
    info = GAME.info
    assert (info.slug, info.name, info.min_players, info.max_players, info.default_players) == (
        "thanasis", "Thanasis", 2, 4, 4)
    assert info.options == ()
    assert info.clean_options({"turn_timer_s": 30}) == {}


@pytest.mark.parametrize(("seats", "stock"), [(2, 85), (3, 75), (4, 65)])
def test_deal(seats, stock):
    state = GAME.new_match(seats, {}, SEED)
    assert len(DECK) == 106
    assert state["phase"] == "DRAW" and state["round"] == 1
    assert [len(h) for h in state["hands"]] == [10] * seats
    assert len(state["stock"]) == stock
    assert state["discard"] == []
    assert not cards.is_joker(state["indicator"])
    assert state["wild_rank"] == cards.rank_of(state["indicator"])
    assert state["current"] == (state["dealer"] + 1) % seats
    assert sorted(all_cards(state)) == sorted(DECK)
    assert GAME.to_act(state) == [state["current"]]


def test_first_dealer_is_random_from_the_seed():
    dealers = {GAME.new_match(4, {}, f"{i:064x}")["dealer"] for i in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert GAME.new_match(4, {}, SEED) == GAME.new_match(4, {}, SEED)


def test_printed_joker_indicator_goes_back_into_the_stock():
    for i in range(2000):
        seed = f"{i:064x}"
        state = GAME.new_match(2, {}, seed)
        from engine.rng import shuffled
        deck = shuffled(DECK, seed, "r1:deal")
        if cards.is_joker(deck[-21]):  # the card turned right after dealing 2 × 10
            break
    else:
        pytest.fail("no seed turned a joker")
    assert not cards.is_joker(state["indicator"])
    assert deck[-21] in state["stock"]
    assert len(state["stock"]) == 85
    assert sorted(all_cards(state)) == sorted(DECK)


def test_bad_new_match_arguments():
    with pytest.raises(ValueError):
        GAME.new_match(5, {}, SEED)
    with pytest.raises(ValueError):
        GAME.new_match(1, {}, SEED)


# ---------------------------------------------------------------- worked examples (§11)

E1_HAND = ["7C2", "8H1", "9H1", "10H1", "KS1", "KD2", "KC1", "4S1", "5S1", "2D1", "QH2"]


def test_e1_which_cards_may_close():
    state = rig({0: E1_HAND}, indicator="7D1")
    left = thanasis.discards(E1_HAND, "7")
    assert {c: left[c] for c in ("QH2", "5S1", "4S1", "2D1", "8H1", "9H1", "7C2", "10H1", "KS1")} == {
        "QH2": 2, "5S1": 6, "4S1": 7, "2D1": 9, "8H1": 11, "9H1": 19, "7C2": 21, "10H1": 21, "KS1": 21}
    assert set(thanasis.closable(E1_HAND, "7")) == {"QH2", "5S1", "4S1", "2D1"}
    view = GAME.view(state, 0)
    assert set(view["closable"]) == {"QH2", "5S1", "4S1", "2D1"}
    assert {m["card"] for m in GAME.legal_moves(state, 0) if m["action"] == "close"} == set(view["closable"])
    assert GAME.autoplay(state, 0) == {"action": "close", "card": "QH2"}
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"action": "close", "card": "8H1"})
    assert err.value.code == "not_closable"
    new, events = GAME.apply(state, 0, {"action": "close", "card": "QH2"})
    assert new["phase"] == "ROUND_OVER"
    assert "thanasis" not in kinds(events)
    assert new["last_round"]["points"][0] == 0
    assert new["discard"][-1] == "QH2"


def test_e2_a_wild_left_outside_melds():
    hand = ["5D1", "2S1", "6H1", "10C1", "KD1", "8S2", "JH1", "3C2", "QS1", "4D1"]
    assert thanasis.best_arrangement(hand, "5").points == 68
    with_joker = ["JK1" if c == "5D1" else c for c in hand]
    assert thanasis.best_arrangement(with_joker, "5").points == 88


E3_KEPT = ["3H1", "4H1", "5H2", "6H1", "9C1", "9D2", "QS1", "JK2", "2S1", "AS2"]


def test_e3_a_thanasis():
    state = rig({1: E3_KEPT + ["8C1"]}, indicator="QD1", current=1)
    assert thanasis.best_arrangement(E3_KEPT, "Q").points == 0
    new, events = GAME.apply(state, 1, {"action": "close", "card": "8C1"})
    assert "thanasis" in kinds(events)
    close = next(e for e in events if e["kind"] == "close")
    assert close["thanasis"] is True and close["audience"] == "all"
    assert new["last_round"]["thanasis"] is True
    assert new["last_round"]["points"][1] == 0
    assert new["history"][-1]["thanasis"] is True


def test_e4_no_wrapping():
    assert thanasis.best_arrangement(["KH1", "AH1", "2H2"], "5").points == 13
    assert thanasis.best_arrangement(["QH1", "KH1", "AH1"], "5").points == 0


E5_A = ["AS1", "2S1", "3S1", "4H1", "5H1", "6H1", "8D1", "9D1", "10D1", "7C1"]  # deadwood 7
E5_B = ["5C1", "6C1", "7C2", "8H1", "9H1", "10H1", "2D1", "3D1", "4D1", "AC1", "JD1"]  # closes with JD1
E5_C = ["AS2", "2S2", "3S2", "4S2", "6H2", "7H2", "8H2", "9H2", "3C2", "10C1"]  # deadwood 13


def test_e5_burning():
    state = rig({0: E5_A, 1: E5_B, 2: E5_C}, indicator="KD1", current=1, scores=[95, 40, 88])
    assert thanasis.best_arrangement(E5_A, "K").points == 7
    assert thanasis.best_arrangement(E5_C, "K").points == 13
    new, events = GAME.apply(state, 1, {"action": "close", "card": "JD1"})
    assert new["scores"] == [102, 40, 101]
    assert [e["seat"] for e in events if e["kind"] == "burnt"] == [0, 2]
    assert new["phase"] == "MATCH_OVER"
    assert new["active"] == [1]
    result = GAME.result(new)
    assert result["winners"] == [1]
    assert result["ranking"][0] == 1
    assert result["shared"] is False
    assert kinds(events)[-1] == "match_over"
    assert new["history"][-1]["burnt"] == [0, 2]
    assert GAME.to_act(new) == [] and GAME.legal_moves(new, 1) == []
    # the round's hands are revealed to everybody
    revealed = {p["seat"]: p for p in GAME.public_view(new)["last_round"]["players"]}
    assert revealed[0]["hand"] == sorted(E5_A, key=cards.sort_key)
    assert revealed[2]["points"] == 13


def test_burning_leaves_the_others_playing():
    state = rig({0: E5_A, 1: E5_B, 2: E5_C}, indicator="KD1", current=1, scores=[95, 40, 10], dealer=2)
    new, events = GAME.apply(state, 1, {"action": "close", "card": "JD1"})
    assert new["phase"] == "ROUND_OVER" and new["active"] == [1, 2]
    assert GAME.to_act(new) == []
    assert GAME.legal_moves(new, 2) == [{"action": "next_round"}]
    assert GAME.legal_moves(new, 0) == []
    with pytest.raises(IllegalMove) as err:
        GAME.apply(new, 0, {"action": "next_round"})
    assert err.value.code == "not_active"
    nxt, events = GAME.apply(new, 2, {"action": "next_round"})
    # dealer 2 -> next active clockwise skipping burnt seat 0 -> 1; seat 2 plays first
    assert nxt["dealer"] == 1 and nxt["current"] == 2 and nxt["round"] == 2
    assert nxt["hands"][0] == [] and [len(nxt["hands"][s]) for s in (1, 2)] == [10, 10]
    assert len(nxt["stock"]) == 106 - 20 - 1
    assert sorted(all_cards(nxt)) == sorted(DECK)
    assert nxt["last_round"] is None and nxt["phase"] == "DRAW"


# ---------------------------------------------------------------- all burnt together (§7)

ZERO = ["AH1", "2H1", "3H1", "6D1", "7D1", "8D1", "8S1", "9S1", "10S1", "JS1"]  # deadwood 0 (wild K)
FIVE = ["AH2", "2H2", "3H2", "4C2", "5C2", "6C2", "8S2", "9S2", "10S2", "5D1"]  # deadwood 5


def test_all_burnt_lowest_total_wins():
    state = rig({0: E5_B, 1: FIVE}, seats=2, current=0, scores=[130, 120])
    new, _ = GAME.apply(state, 0, {"action": "close", "card": "JD1"})
    assert new["scores"] == [130, 125]
    assert GAME.result(new)["winners"] == [1]
    assert GAME.result(new)["reason"] == "all_burnt"


def test_all_burnt_tie_goes_to_the_most_recent_closer():
    state = rig({0: E5_B, 1: FIVE, 2: ZERO}, current=0, scores=[130, 115, 120])
    state["last_close"] = [None, 2, 1]
    new, _ = GAME.apply(state, 0, {"action": "close", "card": "JD1"})
    assert new["scores"] == [130, 120, 120]
    assert GAME.result(new)["winners"] == [1]


def test_all_burnt_tie_without_closer_is_shared():
    state = rig({0: E5_B, 1: FIVE, 2: ZERO}, current=0, scores=[150, 115, 120])
    new, _ = GAME.apply(state, 0, {"action": "close", "card": "JD1"})
    result = GAME.result(new)
    assert result["winners"] == [1, 2] and result["shared"] is True


# ---------------------------------------------------------------- turn and illegal moves

def test_a_turn():
    state = GAME.new_match(3, {}, SEED)
    seat = state["current"]
    assert GAME.legal_moves(state, seat) == [{"action": "draw_stock"}]
    top = state["stock"][-1]
    new, events = GAME.apply(state, seat, {"action": "draw_stock"})
    assert top in new["hands"][seat] and len(new["hands"][seat]) == 11
    public = [e for e in events if e["audience"] == "all"]
    private = [e for e in events if e["audience"] != "all"]
    assert public == [{"kind": "draw", "audience": "all", "seat": seat, "source": "stock"}]
    assert private[0]["audience"] == {"seat": seat} and private[0]["card"] == top
    assert new["phase"] == "DISCARD"
    new2, events = GAME.apply(new, seat, {"action": "discard", "card": top})
    assert new2["discard"] == [top]
    assert new2["current"] == (seat + 1) % 3 and new2["phase"] == "DRAW"
    assert events == [{"kind": "discard", "audience": "all", "seat": seat, "card": top}]


@pytest.mark.parametrize(("move", "code"), [
    (None, "bad_move"),
    ("draw_stock", "bad_move"),
    ({}, "unknown_action"),
    ({"action": "take_discard"}, "unknown_action"),
    ({"action": 3}, "unknown_action"),
    ({"action": "discard", "card": "QH1"}, "must_draw_first"),
    ({"action": "close", "card": "QH1"}, "must_draw_first"),
    ({"action": "next_round"}, "round_not_over"),
])
def test_illegal_moves_in_draw(move, code):
    state = GAME.new_match(2, {}, SEED)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, state["current"], move)
    assert err.value.code == code
    assert err.value.message and state == before


@pytest.mark.parametrize(("move", "code"), [
    ({"action": "draw_stock"}, "already_drew"),
    ({"action": "discard"}, "bad_card"),
    ({"action": "discard", "card": 7}, "bad_card"),
    ({"action": "discard", "card": "ZZ9"}, "unknown_card"),
    ({"action": "discard", "card": "JK3"}, "unknown_card"),
    ({"action": "discard", "card": "AH2"}, "card_not_in_hand"),
    ({"action": "close", "card": "AH2"}, "card_not_in_hand"),
    ({"action": "close", "card": "8H1"}, "not_closable"),
])
def test_illegal_moves_in_discard(move, code):
    state = rig({0: E1_HAND}, indicator="7D1")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, move)
    assert err.value.code == code
    assert state == before


def test_out_of_turn_and_bad_seats():
    state = GAME.new_match(3, {}, SEED)
    other = (state["current"] + 1) % 3
    for seat, code in ((other, "not_your_turn"), (7, "bad_seat"), ("0", "bad_seat"), (True, "bad_seat")):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, seat, {"action": "draw_stock"})
        assert err.value.code == code
    assert GAME.legal_moves(state, other) == []


# ---------------------------------------------------------------- stock exhaustion (§9)

def test_stock_rebuilt_from_the_discard_pile_except_its_top():
    state = rig({}, current=0, phase="DRAW", stock=["2C1"], discard=[])
    pile = list(state["discard"])
    new, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    assert new["stock"] == []
    new, events = GAME.apply(new, 0, {"action": "discard", "card": "2C1"})
    assert "stock_rebuilt" in kinds(events)
    assert new["discard"] == ["2C1"]
    assert sorted(new["stock"]) == sorted(pile)
    assert new["rebuilds"] == 1 and new["phase"] == "DRAW" and new["current"] == 1
    assert sorted(all_cards(new)) == sorted(DECK)


def test_third_rebuild_voids_the_round_and_the_same_dealer_redeals():
    state = rig({}, current=0, phase="DRAW", stock=["2C1"], dealer=2, scores=[5, 6, 7])
    state["rebuilds"] = 2
    new, _ = GAME.apply(state, 0, {"action": "draw_stock"})
    new, events = GAME.apply(new, 0, {"action": "discard", "card": "2C1"})
    assert "round_void" in kinds(events)
    assert new["phase"] == "ROUND_OVER" and new["last_round"]["void"] is True
    assert new["scores"] == [5, 6, 7]
    assert new["history"][-1]["void"] is True and new["history"][-1]["points"] == [0, 0, 0]
    nxt, _ = GAME.apply(new, 1, {"action": "next_round"})
    assert nxt["dealer"] == 2 and nxt["round"] == state["round"] + 1 and nxt["current"] == 0


# ---------------------------------------------------------------- autoplay (§9)

def test_autoplay_draws_first():
    state = GAME.new_match(2, {}, SEED)
    assert GAME.autoplay(state, state["current"]) == {"action": "draw_stock"}
    with pytest.raises(IllegalMove):
        GAME.autoplay(state, 1 - state["current"])


def test_autoplay_discard_tie_breaks():
    # wild rank 5, no wild in hand, no meld possible: removing any 10-point card leaves the same
    # deadwood; ties -> highest value (all 10), then first in S,H,D,C order: 10S1.
    hand = ["KH1", "QD1", "10S1", "JC1", "AS1", "3H1", "7D1", "9C1", "2C2", "6S2", "8H2"]
    state = rig({0: hand}, indicator="5D1")
    assert GAME.autoplay(state, 0) == {"action": "discard", "card": "10S1"}


def test_autoplay_closes_with_the_lowest_deadwood_then_the_tie_breaks():
    hand = ZERO + ["QD1"]
    state = rig({0: hand}, indicator="KD1")
    assert GAME.autoplay(state, 0) == {"action": "close", "card": "QD1"}
    # [AH 2H 3H] [4C 5C 6C] [8S 9S 10S] + QS1 + JD1: discarding QS1 or JD1 both leave 10;
    # same value 10, then spades before diamonds -> QS1
    hand2 = ["AH1", "2H1", "3H1", "4C1", "5C1", "6C1", "8S1", "9S1", "10S1", "QS1", "JD1"]
    state2 = rig({0: hand2}, indicator="KD1")
    assert GAME.autoplay(state2, 0) == {"action": "close", "card": "QS1"}


def test_autoplay_at_round_over_is_next_round():
    state = rig({0: E1_HAND}, indicator="7D1")
    new, _ = GAME.apply(state, 0, {"action": "close", "card": "QH2"})
    assert GAME.autoplay(new, 1) == {"action": "next_round"}


# ---------------------------------------------------------------- leaving (§9)

def test_leaving_on_ones_turn_passes_play_on():
    state = rig({0: E1_HAND}, indicator="7D1")
    new, events = GAME.leave(state, 0)
    assert 0 not in new["active"] and new["hands"][0] == []
    assert sorted(new["removed"]) == sorted(E1_HAND)
    assert new["current"] == 1 and new["phase"] == "DRAW"
    assert "burnt" in kinds(events)
    assert sorted(all_cards(new)) == sorted(DECK)
    assert state["hands"][0] == E1_HAND  # input untouched
    # the leave is also an ordinary move, for the move log
    assert GAME.apply(state, 0, {"action": "leave"})[0] == new


def test_leaving_with_two_players_gives_the_win():
    state = GAME.new_match(2, {}, SEED)
    new, events = GAME.leave(state, 0)
    assert new["phase"] == "MATCH_OVER" and GAME.result(new)["winners"] == [1]
    again, events = GAME.leave(new, 1)  # free to go once the match has a winner
    assert again == new and events == []


def test_view_contents():
    state = rig({0: E1_HAND}, indicator="7D1")
    view = GAME.view(state, 0)
    assert view["hand"] == sorted(E1_HAND, key=cards.sort_key)
    assert view["wild_rank"] == "7" and view["indicator"] == "7D1"
    assert view["wild_cards"] == ["7C2"]
    assert view["arrangement"]["points"] == thanasis.best_arrangement(E1_HAND, "7").points
    assert view["players"][1]["hand_count"] == 10
    other = GAME.view(state, 1)
    assert other["closable"] == [] and other["legal"] == []
    assert "seed" not in view and "stock" not in view and SEED not in str(view)
    public = GAME.public_view(state)
    assert public["hand"] == [] and public["seat"] is None and public["legal"] == []
    assert not set(E1_HAND) & set(strings(public))
    assert not set(E1_HAND) & set(strings(other))


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
