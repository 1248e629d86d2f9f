"""Thunee engine: the worked examples of ../shared/rules/thunee.md §11 and the rules they rest on.

Positions are built with `position`: a state in play with chosen hands, earlier tricks given as summaries
(winner, points) when the example only tells their outcome. Unless stated otherwise the dealer is seat 0,
so the eldest is seat 3 and play goes 3 → 2 → 1 → 0; team A = seats 0 and 2, team B = seats 1 and 3.
"""

import copy

import pytest

from engine import IllegalMove, games
from engine.games import _tricks as tr
from engine.games import thunee
from engine.games.thunee import DECK, GAME
from engine.rng import shuffled

SEED = "7e11" * 16


def fresh(options=None, dealer=0):
    """A new match whose first deal is dealt by `dealer` (the bidding starts with dealer − 1)."""
    state = copy.deepcopy(GAME.new_match(4, options or {}, SEED))
    if state["dealer"] != dealer:
        state["round"] -= 1
        GAME._start_deal(state, dealer)
    return state


def position(hands, *, trump, leader, bidder=3, bid=80, kind="normal", caller=None, tricks=(),
             points=None, jodhis=(), call=None, balls=(0, 0), options=None, phase="PLAY"):
    """A state in play at the start of trick len(tricks) + 1. `tricks`: (winner, points) of the earlier ones."""
    state = fresh(options)
    done = [{"number": i + 1, "leader": None, "cards": [], "winner": w, "team": "AB"[w % 2], "points": p}
            for i, (w, p) in enumerate(tricks)]
    if points is None:
        points = {t: sum(p for w, p in tricks if "AB"[w % 2] == t) for t in "AB"}
    state.update({
        "phase": phase, "hands": [list(hands[s]) for s in range(4)], "stock": [], "blind": [],
        "bid": None if kind == "blind_thunee" else bid, "bidder": None if kind == "blind_thunee" else bidder,
        "declarers": None if kind == "blind_thunee" else "AB"[bidder % 2], "kind": kind, "caller": caller,
        "trump": trump, "named_trump": trump, "queue": [], "leader": leader, "current": leader, "trick": [],
        "tricks": done, "points": dict(points), "jodhis": [dict(j) for j in jodhis], "call": call,
        "balls": {"A": balls[0], "B": balls[1]}, "scores": [balls[s % 2] for s in range(4)],
    })
    return state


def play(state, *cards):
    """Play `cards` in turn order from the current seat; returns (state, events of the last move)."""
    events = []
    for card in cards:
        state, events = GAME.apply(state, state["current"], {"action": "play_card", "card": card})
    return state, events


def legal_cards(state, seat):
    return sorted(m["card"] for m in GAME.legal_moves(state, seat))


def jodhi(seat, cards, points):
    return {"seat": seat, "team": "AB"[seat % 2], "suit": cards[0][-2], "cards": cards, "points": points,
            "after_trick": 1}


# ---------------------------------------------------------------- material and info

def test_registry_info_and_deck():
    assert games.get("thunee") is GAME
    assert GAME.family == "tricks" and GAME.info.teams
    assert (GAME.info.min_players, GAME.info.max_players) == (4, 4)
    assert len(DECK) == 24 and len(set(DECK)) == 24
    assert sum(thunee.ORDER.points(c, "S") for c in DECK) == 154  # any trump suit: 30 + 20 + 44 + 40 + 12 + 8
    assert GAME.info.clean_options({}) == {
        "royals": False, "blind_thunee": False, "first_lead": "dealer_right", "khanuck_13": False,
        "two_ball_margin": False, "mode_strict": True}
    with pytest.raises(ValueError):
        GAME.new_match(3, {}, SEED)


def test_first_dealer_is_the_first_black_jack_dealt_counter_clockwise_from_seat_0():
    info = GAME.new_match(4, {}, SEED)["first_dealer"]
    deck = shuffled(DECK, SEED, "first-dealer")
    first = next(i for i, c in enumerate(deck) if c in ("JS1", "JC1"))
    assert info == {"seat": (-first) % 4, "dealt": first, "jack": deck[first][-2]}


def test_deal_four_then_bidding_from_the_eldest():
    state = fresh()
    assert state["phase"] == "BIDDING" and state["current"] == 3
    assert [len(h) for h in state["hands"]] == [4, 4, 4, 4] and len(state["stock"]) == 8
    assert {m["action"] for m in GAME.legal_moves(state, 3)} == {"bid", "pass"}
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 2, {"action": "pass"})
    assert err.value.code == "not_your_turn"


def test_all_four_pass_redeals_by_the_same_dealer_and_nobody_scores():
    state = fresh()
    hands = copy.deepcopy(state["hands"])
    for seat in (3, 2, 1, 0):
        state, events = GAME.apply(state, seat, {"action": "pass"})
    assert "redeal" in [e["kind"] for e in events]
    assert state["phase"] == "BIDDING" and state["dealer"] == 0 and state["current"] == 3
    assert state["round"] == 1 and state["balls"] == {"A": 0, "B": 0} and state["history"] == []
    assert state["hands"] != hands and sorted(sum(state["hands"], []) + state["stock"]) == sorted(DECK)


def test_bids_must_rise_and_a_bid_of_100_closes_the_bidding():
    state = fresh()
    state, _ = GAME.apply(state, 3, {"action": "bid", "value": 90})
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 2, {"action": "bid", "value": 80})
    assert err.value.code == "bid_too_low" and "90" in err.value.message
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 2, {"action": "bid", "value": 85})
    assert err.value.code == "bad_bid"
    state, _ = GAME.apply(state, 2, {"action": "bid", "value": 100})  # over an opponent; partners may too
    assert state["phase"] == "TRUMP" and state["bidder"] == 2 and state["bid"] == 100
    assert [len(h) for h in state["hands"]] == [6, 6, 6, 6] and state["stock"] == []


# ---------------------------------------------------------------- E1, E2: trick winner, sous-coupe

def test_e1_trick_won_with_trumps():
    hands = {3: ["AS1", "QD1"], 2: ["9S1", "QC1"], 1: ["10H1", "KD1"], 0: ["JH1", "KC1"]}
    state = position(hands, trump="H", leader=3)
    state, events = play(state, "AS1", "9S1", "10H1", "JH1")
    trick = state["tricks"][-1]
    assert (trick["winner"], trick["points"]) == (0, 51)
    assert state["points"] == {"A": 51, "B": 0}
    assert [e for e in events if e["kind"] == "trick"][0]["winner"] == 0


def test_e1_with_royals_the_ten_of_trumps_beats_the_jack():
    hands = {3: ["AS1", "QD1"], 2: ["9S1", "QC1"], 1: ["10H1", "KD1"], 0: ["JH1", "KC1"]}
    state = position(hands, trump="H", leader=3, options={"royals": True})
    state, _ = play(state, "AS1", "9S1", "10H1", "JH1")
    assert (state["tricks"][-1]["winner"], state["points"]) == (1, {"A": 0, "B": 51})


def e2_state(hand0, seat1_card="9C1"):
    hands = {3: ["KC1", "AD1"], 2: ["AH1", "10D1"], 1: [seat1_card, "KD1"], 0: hand0}
    state = position(hands, trump="H", leader=3)
    state, _ = play(state, "KC1", "AH1", seat1_card)
    return state


def test_e2_no_under_trump_of_the_partner_while_holding_another_card():
    state = e2_state(["QH1", "JS1"])
    assert legal_cards(state, 0) == ["JS1"]
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"action": "play_card", "card": "QH1"})
    assert err.value.code == "no_under_trump"
    assert err.value.message == "Tu ne peux pas sous-couper ton partenaire tant que tu as une autre carte."
    state, _ = play(state, "JS1")
    assert (state["tricks"][-1]["winner"], state["points"]["A"]) == (2, 14)


def test_e2_only_trumps_left_makes_the_under_trump_legal():
    assert legal_cards(e2_state(["QH1", "KH1"]), 0) == ["KH1", "QH1"]


def test_e2_over_trump_allowed_under_trump_refused():
    assert legal_cards(e2_state(["QH1", "JH1", "JS1"]), 0) == ["JH1", "JS1"]


def test_e2_contrast_under_an_opponents_trump_is_free():
    state = e2_state(["QH1", "JS1"], seat1_card="9H1")  # seat 1 has no club and over-trumps
    assert legal_cards(state, 0) == ["JS1", "QH1"]


def test_must_follow_suit_with_a_french_reason():
    hands = {3: ["AS1", "QD1"], 2: ["9S1", "QC1"], 1: ["10H1", "KD1"], 0: ["JH1", "KS1"]}
    state = position(hands, trump="H", leader=3)
    state, _ = play(state, "AS1", "9S1", "10H1")
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"action": "play_card", "card": "JH1"})
    assert (err.value.code, err.value.message) == ("must_follow", "Tu dois fournir à pique.")
    assert GAME.view(state, 0)["playable"] == ["KS1"]


# ---------------------------------------------------------------- E3: a deal against a bid of 80

E3_B = ["JS1", "AS1", "KS1", "AH1", "10H1", "QH1", "AD1", "9D1", "JD1", "10C1", "KC1", "9C1"]
E3_A = ["9S1", "10S1", "QS1", "KH1", "JH1", "9H1", "10D1", "KD1", "QD1", "AC1", "QC1", "JC1"]


def test_e3_bidding_to_a_contract_of_80_for_team_b():
    state = fresh()
    state, _ = GAME.apply(state, 3, {"action": "bid", "value": 80})
    for seat in (2, 1):
        state, _ = GAME.apply(state, seat, {"action": "pass"})
    state, events = GAME.apply(state, 0, {"action": "pass"})
    assert (state["phase"], state["declarers"], state["bid"], state["current"]) == ("TRUMP", "B", 80, 3)
    state, _ = GAME.apply(state, 3, {"action": "choose_trump", "suit": "S"})
    assert state["trump"] == "S" and GAME.view(state, 0)["trump"] == "S"
    assert state["phase"] == "THUNEE_WINDOW" and state["current"] == 3


def e3_final(bid):
    """Tricks 1–5 already taken (B: 2 of its 3 tricks), trick 6 = JD1 10C1 KC1 9C1 for seat 3."""
    order = thunee.ORDER
    groups_b = [E3_B[0:4], E3_B[4:8]]
    groups_a = [E3_A[0:4], E3_A[4:8], E3_A[8:12]]
    tricks = [(3, tr.trick_points([{"seat": 0, "card": c} for c in g], "S", order)) for g in groups_b]
    tricks += [(0, tr.trick_points([{"seat": 0, "card": c} for c in g], "S", order)) for g in groups_a]
    hands = {3: ["10C1"], 2: ["KC1"], 1: ["9C1"], 0: ["JD1"]}
    state = position(hands, trump="S", leader=3, bidder=3, bid=bid, tricks=tricks)
    return play(state, "10C1", "KC1", "9C1", "JD1")


def test_e3_team_b_makes_80_with_91_card_points():
    state, events = e3_final(80)
    assert state["points"] == {"A": 63, "B": 91} and sum(state["points"].values()) == 154
    deal = state["last_deal"]
    assert (deal["outcome"], deal["team"], deal["balls_won"]) == ("made", "B", 1)
    assert state["balls"] == {"A": 0, "B": 1} and state["phase"] == "ROUND_OVER"
    assert deal["reason"] == "Contrat réussi : l'équipe B a 91 points pour 80 annoncés. +1 balle pour l'équipe B."


def test_e3_against_100_the_same_tricks_give_the_ball_to_a():
    state, _ = e3_final(100)
    assert (state["last_deal"]["outcome"], state["balls"]) == ("set", {"A": 1, "B": 0})


# ---------------------------------------------------------------- E4: a Jodhi makes the bid

def test_e4_bidding_with_an_outbid_partner():
    state = fresh()
    for seat, move in ((3, {"action": "pass"}), (2, {"action": "bid", "value": 80}),
                       (1, {"action": "bid", "value": 90}), (0, {"action": "pass"}), (2, {"action": "pass"})):
        state, _ = GAME.apply(state, seat, move)
    assert (state["phase"], state["declarers"], state["bid"], state["current"]) == ("TRUMP", "B", 90, 1)


def e4_after_trick1():
    hands = {3: ["QS1", "KH1", "QH1", "JH1", "AC1", "9C1"], 2: ["AS1", "KD1", "QD1", "10C1", "9D1", "9H1"],
             1: ["9S1", "10S1", "10D1", "JD1", "KC1", "QC1"], 0: ["JS1", "KS1", "AD1", "JC1", "AH1", "10H1"]}
    state = position(hands, trump="H", leader=3, bidder=1, bid=90)
    return play(state, "AC1", "10C1", "KC1", "JC1")  # seat 3 takes trick 1


def test_e4_jodhi_window_after_trick_1_for_the_winning_team():
    state, events = e4_after_trick1()
    assert state["phase"] == "JODHI" and GAME.to_act(state) == [1, 3]
    assert [m for m in GAME.legal_moves(state, 3) if m["action"] == "declare_jodhi"] == [
        {"action": "declare_jodhi", "cards": ["KH1", "QH1"]},
        {"action": "declare_jodhi", "cards": ["JH1", "QH1", "KH1"]}]
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 2, {"action": "declare_jodhi", "cards": ["KD1", "QD1"]})
    assert err.value.code == "not_your_turn"
    state, events = GAME.apply(state, 3, {"action": "declare_jodhi", "cards": ["QH1", "KH1"]})
    assert events[0]["kind"] == "jodhi" and events[0]["audience"] == "all" and events[0]["points"] == 40
    assert GAME.view(state, 0)["shown"] == ["KH1", "QH1"] and GAME.view(state, 0)["jodhi_points"]["B"] == 40
    with pytest.raises(IllegalMove) as err:  # no later upgrade with the same K and Q
        GAME.apply(state, 3, {"action": "declare_jodhi", "cards": ["JH1", "QH1", "KH1"]})
    assert err.value.code == "jodhi_used"
    state, _ = GAME.apply(state, 3, {"action": "jodhi_done"})
    assert state["phase"] == "JODHI" and GAME.to_act(state) == [1]
    state, _ = GAME.apply(state, 1, {"action": "jodhi_done"})
    assert state["phase"] == "PLAY" and state["current"] == 3


def test_e4_defending_jodhi_does_not_count_and_b_makes_90():
    jodhis = [jodhi(3, ["KH1", "QH1"], 40), jodhi(2, ["KD1", "QD1"], 20)]
    hands = {3: ["QC1"], 2: ["JC1"], 1: ["9C1"], 0: ["10D1"]}
    state = position(hands, trump="H", leader=3, bidder=1, bid=90, jodhis=jodhis,
                     tricks=[(3, 10), (2, 30), (2, 30), (1, 33), (0, 39)])
    state, _ = play(state, "QC1", "JC1", "9C1", "10D1")
    assert state["points"] == {"A": 99, "B": 55}
    deal = state["last_deal"]
    assert (deal["outcome"], deal["team"], deal["jodhi_points"]) == ("made", "B", {"A": 20, "B": 40})
    assert "95 points (55 en plis + 40 de Jodhi)" in deal["reason"]


def test_e4_without_the_jodhi_a_takes_the_ball():
    hands = {3: ["QC1"], 2: ["JC1"], 1: ["9C1"], 0: ["10D1"]}
    state = position(hands, trump="H", leader=3, bidder=1, bid=90,
                     tricks=[(3, 10), (2, 30), (2, 30), (1, 33), (0, 39)])
    state, _ = play(state, "QC1", "JC1", "9C1", "10D1")
    assert (state["last_deal"]["outcome"], state["balls"]) == ("set", {"A": 1, "B": 0})


# ---------------------------------------------------------------- E5: failed Double

def e5_trick5(seat3):
    hands = {0: ["AS1", "AC1"], 3: ["9S1", seat3], 2: ["10S1", "9D1"], 1: ["KS1", "9C1"]}
    state = position(hands, trump="H", leader=0, bidder=2, bid=100, balls=(6, 3),
                     tricks=[(0, 40), (2, 40), (0, 20), (2, 17)])
    state, _ = play(state, "AS1", "9S1", "10S1", "KS1")
    return state


def test_e5_trick6_calls_skip_the_team_without_a_call():
    state = e5_trick5("QH1")
    assert state["phase"] == "TRICK6_CALLS" and state["queue"] == [0, 2] and state["current"] == 0
    assert GAME.legal_moves(state, 0) == [{"action": "call_double"}, {"action": "pass"}]


def test_e5_failed_double_gives_four_balls_to_the_opponents():
    state = e5_trick5("QH1")
    state, _ = GAME.apply(state, 0, {"action": "pass"})
    state, _ = GAME.apply(state, 2, {"action": "call_double"})
    assert state["phase"] == "PLAY" and state["current"] == 0
    state, _ = play(state, "AC1", "QH1", "9D1", "9C1")
    assert state["tricks"][-1]["winner"] == 3 and state["points"]["A"] == 141
    assert (state["last_deal"]["outcome"], state["balls"]) == ("double_failed", {"A": 6, "B": 7})


def test_e5_made_double_gives_two_balls():
    state = e5_trick5("10C1")
    state, _ = GAME.apply(state, 0, {"action": "call_double"})
    state, _ = play(state, "AC1", "10C1", "9D1", "9C1")
    assert (state["last_deal"]["outcome"], state["balls"]) == ("double_made", {"A": 8, "B": 3})


# ---------------------------------------------------------------- E6: Khanuck

def e6(trick2_points=45, seat3_club="AC1"):
    jodhis = [jodhi(1, ["KS1", "QS1"], 40), dict(jodhi(3, ["KD1", "QD1"], 20), after_trick=3)]
    hands = {1: ["9H1", "JC1"], 0: ["AH1", "10C1"], 3: ["JH1", seat3_club], 2: ["QH1", "9C1"]}
    tricks = [(1, 40), (2, trick2_points), (3, 20), (1, 30)]
    state = position(hands, trump="S", leader=1, bidder=2, bid=90, jodhis=jodhis, tricks=tricks)
    state, _ = play(state, "9H1", "AH1", "JH1", "QH1")  # seat 0 takes trick 5 (13 points)
    assert state["phase"] == "TRICK6_CALLS" and state["queue"] == [3, 1]
    state, _ = GAME.apply(state, 3, {"action": "call_khanuck"})
    return play(state, "10C1", seat3_club, "9C1", "JC1")


def test_e6_khanuck_made():
    state, _ = e6()
    assert state["points"]["A"] == 58
    assert (state["last_deal"]["outcome"], state["balls"]) == ("khanuck_made", {"A": 0, "B": 3})


def test_e6_khanuck_fails_at_70_points():
    state, _ = e6(trick2_points=57)
    assert state["points"]["A"] == 70
    assert (state["last_deal"]["outcome"], state["balls"]) == ("khanuck_failed", {"A": 4, "B": 0})


def test_e6_khanuck_fails_when_trick_6_is_lost():
    state, _ = e6(seat3_club="KC1")
    assert state["tricks"][-1]["winner"] == 0
    assert (state["last_deal"]["outcome"], state["balls"]) == ("khanuck_failed", {"A": 4, "B": 0})


# ---------------------------------------------------------------- E7: Thunee

E7_HANDS = {3: ["9D1", "AD1", "10D1", "9S1", "10S1", "AS1"], 2: ["QD1", "KS1", "QS1", "JS1", "9H1", "10H1"],
            1: ["JD1", "AH1", "KH1", "QH1", "JH1", "9C1"], 0: ["KD1", "10C1", "AC1", "KC1", "QC1", "JC1"]}


def thunee_window(hands, **kw):
    state = position(hands, trump="C", leader=3, bidder=3, phase="THUNEE_WINDOW", **kw)
    state["queue"] = [3, 2, 1, 0]
    return state


def test_e7_thunee_caught_by_the_partner():
    state = thunee_window(E7_HANDS)
    state, _ = GAME.apply(state, 3, {"action": "call_thunee"})
    assert state["trump"] is None and state["kind"] == "thunee" and state["current"] == 3
    assert GAME.view(state, 2)["trump_known"] is False
    state, events = play(state, "9D1", "QD1")
    assert state["trump"] == "D"
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 1, {"action": "play_card", "card": "AH1"})
    assert err.value.message == "Tu dois fournir à carreau."
    state, _ = play(state, "JD1", "KD1")
    assert state["tricks"][-1]["winner"] == 1 and len(state["tricks"]) == 1
    assert (state["last_deal"]["outcome"], state["balls"]) == ("thunee_failed", {"A": 4, "B": 0})


def test_e7_thunee_made_gives_two_balls():
    hands = {3: ["JD1", "9D1", "AD1", "10D1", "KD1", "QD1"], 2: ["AS1", "KS1", "QS1", "JS1", "9H1", "10H1"],
             1: ["9S1", "AH1", "KH1", "QH1", "JH1", "9C1"], 0: ["10S1", "10C1", "AC1", "KC1", "QC1", "JC1"]}
    state = thunee_window(hands)
    for seat in (3, 2):
        state, _ = GAME.apply(state, seat, {"action": "pass"})
    state, _ = GAME.apply(state, 1, {"action": "call_thunee"})  # any seat may call, here the bidder's partner
    assert state["current"] == 1 and state["phase"] == "PLAY"
    state = thunee_window(hands)
    state, _ = GAME.apply(state, 3, {"action": "call_thunee"})
    while state["phase"] == "PLAY":
        seat = state["current"]
        state, _ = GAME.apply(state, seat, GAME.autoplay(state, seat)) if seat != 3 else \
            GAME.apply(state, 3, {"action": "play_card", "card": state["hands"][3][0]})
    assert (state["last_deal"]["outcome"], state["balls"]) == ("thunee_made", {"A": 0, "B": 2})
    assert state["jodhis"] == [] and all(t["winner"] == 3 for t in state["tricks"])


def blind_position():
    hands = {3: ["JD1", "9D1", "AD1", "10D1"], 2: ["AS1", "KS1", "QS1", "JS1", "9H1", "10H1"],
             1: ["9S1", "AH1", "KH1", "QH1", "JH1", "9C1"], 0: ["10S1", "10C1", "AC1", "KC1", "QC1", "JC1"]}
    state = position(hands, trump=None, leader=3, kind="blind_thunee", caller=3,
                     options={"blind_thunee": True})
    state["blind"] = ["KD1", "QD1"]
    return state


def test_blind_thunee_plays_the_first_four_cards_then_sees_the_last_two():
    state = blind_position()
    view = GAME.view(state, 3)
    assert view["hidden_count"] == 2 and "KD1" not in view["hand"] and "KD1" not in str(view)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 3, {"action": "play_card", "card": "KD1"})
    for _ in range(4):
        state, events = play(state, state["hands"][3][0])
        while state["current"] != 3 or state["trick"]:
            seat = state["current"]
            state, events = GAME.apply(state, seat, GAME.autoplay(state, seat))
    private = [e for e in events if e["kind"] == "blind_cards"]
    assert private and private[0]["audience"] == {"seat": 3} and sorted(private[0]["cards"]) == ["KD1", "QD1"]
    assert sorted(state["hands"][3]) == ["KD1", "QD1"] and state["blind"] == []
    while state["phase"] == "PLAY":
        seat = state["current"]
        state, _ = GAME.apply(state, seat, GAME.autoplay(state, seat))
    assert (state["last_deal"]["outcome"], state["balls"]) == ("blind_thunee_made", {"A": 0, "B": 4})


def test_blind_thunee_failed_gives_eight_balls():
    state = blind_position()
    state["hands"][3] = ["9D1", "AD1", "10D1", "9S1"]
    state["hands"][2] = ["AS1", "KS1", "QS1", "JS1", "JD1", "10H1"]
    state, _ = play(state, "9D1", "JD1")
    while state["phase"] == "PLAY":
        seat = state["current"]
        state, _ = GAME.apply(state, seat, GAME.autoplay(state, seat))
    assert (state["last_deal"]["outcome"], state["balls"]) == ("blind_thunee_failed", {"A": 8, "B": 0})


def test_call_blind_thunee_in_bidding_voids_the_bids():
    state = fresh({"blind_thunee": True})
    state, _ = GAME.apply(state, 3, {"action": "bid", "value": 100})
    assert GAME.legal_moves(state, 2) == [{"action": "pass"}, {"action": "call_blind_thunee"}]
    state, _ = GAME.apply(state, 2, {"action": "call_blind_thunee"})
    assert (state["kind"], state["caller"], state["bid"], state["phase"], state["current"]) == (
        "blind_thunee", 2, None, "PLAY", 2)
    assert len(state["hands"][2]) == 4 and len(state["blind"]) == 2
    assert not any(f"'{c}'" in str(GAME.view(state, 2)) for c in state["blind"])


# ---------------------------------------------------------------- E8: end of match

def normal_last_trick(declarers_points, *, bidder=3, bid=80, balls=(0, 0), options=None, winner_team="B"):
    """Trick 6 (no call) ending a normal deal where the declarers hold `declarers_points` after it."""
    hands = {3: ["QC1"], 2: ["JC1"], 1: ["9C1"], 0: ["10D1"]}  # seat 3 wins 12 points
    team = "AB"[bidder % 2]
    before = declarers_points - (12 if team == winner_team else 0)
    other = "B" if team == "A" else "A"
    points = {team: before, other: 154 - 12 - before}
    state = position(hands, trump="H", leader=3, bidder=bidder, bid=bid, balls=balls, options=options,
                     tricks=[(0, 0), (1, 0), (2, 0), (3, 0), (0, 0)], points=points)
    return play(state, "QC1", "JC1", "9C1", "10D1")[0]


def test_e8_end_of_match():
    state = normal_last_trick(74, balls=(10, 11))
    assert state["balls"] == {"A": 11, "B": 11} and state["phase"] == "ROUND_OVER"
    assert GAME.result(state) is None and GAME.legal_moves(state, 1) == [{"action": "next_round"}]
    hands = {0: ["JD1", "9D1", "AD1", "10D1", "KD1", "QD1"], 1: ["AS1", "KS1", "QS1", "JS1", "9H1", "10H1"],
             2: ["9S1", "AH1", "KH1", "QH1", "JH1", "9C1"], 3: ["10S1", "10C1", "AC1", "KC1", "QC1", "JC1"]}
    for options in ({}, {"two_ball_margin": True}):
        state = position(hands, trump=None, leader=0, kind="thunee", caller=0, balls=(11, 11), options=options)
        while state["phase"] == "PLAY":
            seat = state["current"]
            state, _ = GAME.apply(state, seat, GAME.autoplay(state, seat))
        assert state["balls"] == {"A": 13, "B": 11} and state["phase"] == "MATCH_OVER"
        assert GAME.result(state)["winners"] == [0, 2]


def test_e8_two_ball_margin():
    state = normal_last_trick(60, balls=(11, 11))  # B set: A +1
    assert state["balls"] == {"A": 12, "B": 11} and GAME.result(state)["winners"] == [0, 2]
    state = normal_last_trick(60, balls=(11, 11), options={"two_ball_margin": True})
    assert state["balls"] == {"A": 12, "B": 11} and state["phase"] == "ROUND_OVER"


@pytest.mark.parametrize("options, over", [({"khanuck_13": True}, False), ({}, True)])
def test_e8_khanuck_13(options, over):
    jodhis = [jodhi(0, ["KS1", "QS1"], 40)]
    hands = {3: ["QC1"], 2: ["JC1"], 1: ["9C1"], 0: ["AC1"]}
    state = position(hands, trump="S", leader=3, bidder=1, bid=80, jodhis=jodhis, balls=(9, 0), options=options,
                     tricks=[(0, 20), (1, 10), (2, 20), (3, 10), (0, 20)])
    state["phase"], state["queue"], state["current"] = "TRICK6_CALLS", [0, 2], 0
    state, _ = GAME.apply(state, 0, {"action": "call_khanuck"})
    state, _ = play(state, "QC1", "JC1", "9C1", "AC1")
    assert state["balls"]["A"] == 12 and (state["phase"] == "MATCH_OVER") is over
    assert state["target"] == (12 if over else 13)


# ---------------------------------------------------------------- views, rotation, autoplay, leave

def test_next_deal_moves_the_dealer_counter_clockwise():
    state = normal_last_trick(90)
    state, _ = GAME.apply(state, 2, {"action": "next_round"})
    assert (state["round"], state["dealer"], state["current"], state["phase"]) == (2, 3, 2, "BIDDING")


def test_first_lead_option_gives_the_first_trick_to_the_highest_bidder():
    state = fresh({"first_lead": "highest_bidder"})
    state, _ = GAME.apply(state, 3, {"action": "pass"})
    state, _ = GAME.apply(state, 2, {"action": "bid", "value": 80})
    for seat in (1, 0):
        state, _ = GAME.apply(state, seat, {"action": "pass"})
    state, _ = GAME.apply(state, 2, {"action": "choose_trump", "suit": "D"})
    assert state["queue"] == [2, 1, 0, 3]
    for seat in (2, 1, 0, 3):
        state, _ = GAME.apply(state, seat, {"action": "pass"})
    assert state["phase"] == "PLAY" and state["current"] == 2


def test_view_shows_my_hand_sorted_and_never_another_hand():
    state = fresh()
    state, _ = GAME.apply(state, 3, {"action": "bid", "value": 80})
    view = GAME.view(state, 0)
    words = str(view)
    for seat in (1, 2, 3):
        assert not any(f"'{c}'" in words for c in state["hands"][seat])
    assert not any(f"'{c}'" in words for c in state["stock"])
    assert view["bids"] == [{"seat": 3, "action": "bid", "value": 80}] and view["high"] == {"seat": 3, "value": 80}
    hand = ["9S1", "AS1", "JH1", "QH1", "10C1", "JC1"]
    state = position({0: hand, 1: [], 2: [], 3: []}, trump="C", leader=0)
    assert GAME.view(state, 0)["hand"] == ["AS1", "9S1", "QH1", "JH1", "JC1", "10C1"]
    assert GAME.public_view(state)["hand"] == [] and GAME.public_view(state)["seat"] is None


def test_autoplay_policy():
    state = position({0: ["9S1", "QS1", "AH1", "JD1", "10D1", "KD1"], 1: [], 2: [], 3: []}, trump=None,
                     leader=0, phase="TRUMP")
    assert GAME.autoplay(state, 0) == {"action": "choose_trump", "suit": "D"}
    assert thunee.autoplay_trump(["JS1", "9H1", "AC1", "QD1"], thunee.ORDER) == "S"  # all length 1: J = 30
    state = position({0: ["9S1", "AS1", "QH1", "JC1"], 1: [], 2: [], 3: []}, trump="C", leader=0)
    assert GAME.autoplay(state, 0) == {"action": "play_card", "card": "9S1"}
    assert thunee.lowest_card(["QH1", "QS1", "JC1"], "C", thunee.ORDER) == "QS1"


def test_leave_keeps_the_seat_for_a_bot():
    state = fresh()
    state2, events = GAME.leave(state, 3)
    assert state2["left"] == [3] and events[0]["kind"] == "left" and GAME.to_act(state2) == [3]
    assert state["left"] == []


def test_bad_moves_change_nothing():
    state = fresh()
    before = copy.deepcopy(state)
    for move, code in (({"action": "fly"}, "unknown_action"), ({"action": "play_card", "card": "AS1"}, "wrong_phase"),
                       ({"action": "bid", "value": 70}, "bad_bid"), ({"action": "next_round"}, "round_not_over")):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, 3, move)
        assert err.value.code == code
    assert state == before
    with pytest.raises(IllegalMove):
        GAME.clean_move({"action": "bid", "value": "x"})
    assert GAME.clean_move({"action": "bid", "value": "90"}) == {"action": "bid", "value": 90}


def test_narration_tells_a_trick_game():
    from engine import narration
    state = fresh()
    entries = []
    for seat, move in ((3, {"action": "bid", "value": 80}), (2, {"action": "pass"})):
        state, events = GAME.apply(state, seat, move)
        entries.append({"seat": seat, "events": narration.public_events(events)})
    hands = {3: ["AS1", "QD1"], 2: ["9S1", "QC1"], 1: ["10H1", "KD1"], 0: ["JH1", "KC1"]}
    state = position(hands, trump="H", leader=3)
    for card in ("AS1", "9S1", "10H1", "JH1"):
        seat = state["current"]
        state, events = GAME.apply(state, seat, {"action": "play_card", "card": card})
        entries.append({"seat": seat, "events": narration.public_events(events)})
    names = {0: "Sud", 1: "Est", 2: "Nord", 3: "Ouest"}
    told = [t["text"] for t in narration.turns(entries, names)]
    assert told[:2] == ["Ouest a annoncé 80.", "Nord a passé."]
    assert told[-1] == "Sud a joué le Valet de cœur, a pris le pli (51 points)."


def test_the_engine_contract_for_a_whole_deal():
    """tests/engine/test_contract.py's checks (it lists only the 2-seat games): JSON states, views and events,
    the card family's view keys, autoplay among the legal moves."""
    import json

    from tests.engine.test_contract import REQUIRED_STATE_KEYS, REQUIRED_VIEW_KEYS
    state = fresh()
    assert set(state) >= REQUIRED_STATE_KEYS
    for _ in range(80):
        assert json.loads(json.dumps(state)) == state
        for seat in range(4):
            view = GAME.view(state, seat)
            assert set(view) >= REQUIRED_VIEW_KEYS and view["legal"] == GAME.legal_moves(state, seat)
        to_act = GAME.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        move = GAME.autoplay(state, seat) if state["phase"] != "BIDDING" else GAME.legal_moves(state, seat)[0]
        assert move in GAME.legal_moves(state, seat)
        state, events = GAME.apply(state, seat, move)
        for evt in events:
            assert evt["audience"] == "all" or set(evt["audience"]) <= {"seat", "team"}
    assert state["phase"] == "ROUND_OVER" and state["history"]
