"""Partnership Canastas: the pick-ups of the pile that legal_moves offers (engine/games/_canasta_pickup.py).

Issue 31 §6: a team's first meld with the pile. The pick-ups offered are the minimal legal ones; a position offers
one whenever the rules allow one (checked against a slow brute force that asks `apply`), each offered one is
accepted, and « Prendre la pile » is said impossible only when no pick-up is legal.
"""

import random
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalMove, games
from engine.base import team_of
from tests.engine.test_canasta_properties import check_state, rig

CARDS = games.get("canasta")
TILES = games.get("canasta-tuiles")


def takes(game, state, seat=0):
    return [m for m in game.legal_moves(state, seat) if m["action"] == "take_pile"]


def opened_points(events):
    return next(e["points"] for e in events if e["kind"] == "opened")


# ---------------------------------------------------------------- the issue's example, in both games

# 10♣ 10♣ 9♣ 9♠ D♦ D♠ 2♣ 2♦ 2♠ and two odd cards; top 9♥; minimum 120 (team score 3,000)
CARD_HAND = ["10C1", "10C2", "9C1", "9S1", "QD1", "QS1", "2C1", "2D1", "2S1", "5H1", "7D1"]


def test_cards_first_meld_with_two_wilds_on_one_pair_is_offered():
    state = rig(CARDS, {0: CARD_HAND}, phase="DRAW", pile=["4S1", "6C1", "9H1"], scores={"A": 3000, "B": 0})
    # the issue's arrangement: [9♥ 9♠ 9♣] 30 + [D♦ D♠ 2♣] 40 + [10♣ 10♣ 2♦ 2♠] 60 = 130 ≥ 120
    issue = {"action": "take_pile", "melds": [["9H1", "9S1", "9C1"], ["QD1", "QS1", "2C1"],
                                              ["10C1", "10C2", "2D1", "2S1"]]}
    after, events = CARDS.apply(state, 0, issue)
    assert opened_points(events) == 130
    offered = takes(CARDS, state)
    assert offered, "a legal first meld with the pile must be offered"
    view = CARDS.view(state, 0)
    assert view["pile"]["refusal"] is None
    for move in offered:
        after, events = CARDS.apply(state, 0, move)
        assert opened_points(events) >= 120 and after["melded"]["A"]
        check_state(CARDS, after, events)
    # the same pieces: the three 9s, the two Queens, the two 10s and the three 2s (however the 2s are spread)
    pieces = sorted(p for m in offered[0]["melds"] for p in m)
    assert pieces == sorted(["9H1", "9S1", "9C1", "QD1", "QS1", "10C1", "10C2", "2C1", "2D1", "2S1"])


# the same hand in tiles: 10 → black 10s, 9♣ 9♠ → black and blue 9s, D (12) → red and blue 12s, the 2s → 2s;
# the top 9♥ → red 9. Tile values differ (9 = 5) and a tile meld needs more naturals than wilds.
TILE_HAND = ["K10a", "K10b", "K9a", "B9a", "R12a", "B12a", "K2a", "R2a", "B2a", "R5a", "Y7a", "B11a", "Y13a",
             "R6a"]


def test_tiles_same_hand_reaches_115_at_most():
    # [9 9 9 2] 35 + [12 12 2] 40 + [10 10 2] 40 = 115: under 120 the pile is refused, and the view says so truly
    state = rig(TILES, {0: TILE_HAND}, phase="DRAW", pile=["K6a", "R9a"], scores={"A": 3000, "B": 0})
    assert takes(TILES, state) == []
    refusal = TILES.view(state, 0)["pile"]["refusal"]
    assert refusal.endswith("au mieux 115 points, il en faut 120.")
    with pytest.raises(IllegalMove) as err:
        TILES.apply(state, 0, {"action": "take_pile", "melds": [["R9a", "K9a", "B9a", "R2a"], ["R12a", "B12a", "K2a"],
                                                                 ["K10a", "K10b", "B2a"]]})
    assert err.value.code == "below_minimum"
    # minimum 90: offered, and every offer is accepted
    state = rig(TILES, {0: TILE_HAND}, phase="DRAW", pile=["K6a", "R9a"], scores={"A": 1500, "B": 0})
    offered = takes(TILES, state)
    assert offered and TILES.view(state, 0)["pile"]["refusal"] is None
    for move in offered:
        after, events = TILES.apply(state, 0, move)
        assert opened_points(events) >= 90


def test_tiles_wilds_and_a_third_natural_join_the_top_meld():
    # minimum 90; top 9 and three 9s in hand, 12 12, three 2s: without a wild on the 9s the best is
    # [9 9 9] 15 + [12 12 2] 40 = 55 (or a meld of 2s: 75). With them: [9 9 9 2 2] 55 + [12 12 2] 40 = 95.
    hand = ["K9a", "B9a", "K9b", "R12a", "B12a", "K2a", "R2a", "B2a", "R5a", "Y7a", "B11a", "Y13a", "R6a", "Y4a"]
    state = rig(TILES, {0: hand}, phase="DRAW", pile=["K6a", "R9a"], scores={"A": 1500, "B": 0})
    offered = takes(TILES, state)
    assert offered and all(any(p.startswith(("K2", "R2", "B2")) for p in m["melds"][0]) for m in offered)
    for move in offered:
        after, events = TILES.apply(state, 0, move)
        assert opened_points(events) >= 90
    # the rule decided: the top meld may hold more naturals than the pair, and wilds (fewer than its naturals)
    after, events = TILES.apply(state, 0, {"action": "take_pile", "melds": [["R9a", "K9a", "B9a", "K9b", "K2a", "R2a"],
                                                                            ["R12a", "B12a", "B2a"]]})
    assert opened_points(events) == 100 and len(after["melds"]["A"][0]["pieces"]) == 6


def test_cards_a_wild_on_the_top_meld_keeps_two_pieces_in_hand():
    # a one-card pile, hand 9 9 K K 2, minimum 50: [9 9 9] + [K K 2] = 70 would leave no piece and no canasta;
    # [9 9 9 2] = 50 leaves K K: legal, and offered
    state = rig(CARDS, {0: ["9S1", "9C1", "KS1", "KD1", "2C1"]}, phase="DRAW", pile=["9H1"],
                scores={"A": 0, "B": 0})
    assert takes(CARDS, state) == [{"action": "take_pile", "melds": [["9H1", "9S1", "9C1", "2C1"]]}]


def test_the_top_alone_onto_the_team_meld_is_the_only_offer_when_it_is_allowed():
    state = rig(CARDS, {0: ["8S1", "8D2", "2H1", "5C1", "6C1"]}, phase="DRAW",
                melds={"A": [("8", ["8C1", "8C2", "JK1"])]}, pile=["4S1", "8H1"])
    assert takes(CARDS, state) == [{"action": "take_pile", "melds": [["8H1"]]}]


def test_unfrozen_pile_melded_team_natural_and_wild_or_pair():
    state = rig(CARDS, {0: ["8S1", "8D2", "2H1", "JK1", "5C1", "6C1"]}, phase="DRAW",
                melds={"A": [("K", ["KC1", "KC2", "KS1"])]}, pile=["4S1", "8H1"])
    offered = [m["melds"] for m in takes(CARDS, state)]
    assert offered[0] == [["8H1", "8S1", "8D2"]]  # no wild first
    assert [["8H1", "8S1", "2H1"]] in offered and [["8H1", "8S1", "JK1"]] in offered and len(offered) == 3


def test_refusal_names_the_missing_pair():
    state = rig(CARDS, {0: ["8S1", "2H1", "5C1", "6C1"]}, phase="DRAW", pile=["4S1", "8H1"], scores={"A": 0, "B": 0})
    assert takes(CARDS, state) == []
    assert "deux cartes naturelles" in CARDS.view(state, 0)["pile"]["refusal"]


# ---------------------------------------------------------------- a brute force, against legal_moves

def brute_force(game, state, seat):
    """A pick-up `apply` accepts, or None. Simple and slow: every number of naturals of each rank held (the top's
    rank with the top piece), every spread of the 2s and of the jokers over those melds (tiles: or a meld of 2s)
    or the hand; each candidate that reaches the minimum and has 3 pieces per meld is tried with `apply`."""
    P = game.rules.pieces
    hand = state["hands"][seat]
    top = state["pile"][-1]
    top_rank = P.rank[top]
    team = team_of(seat)
    need = 0 if state["melded"][team] else state["minimums"][team]
    by_rank: dict = {}
    for p in hand:
        if not P.is_wild(p):
            by_rank.setdefault(P.rank[p], []).append(p)
    ranks = sorted(set(by_rank) | {top_rank})
    twos = [p for p in hand if P.rank[p] == "2"]
    jokers = [p for p in hand if P.is_wild(p) and P.rank[p] != "2"]
    dests = [None, *ranks] + (["2s"] if game.rules.twos_meld else [])
    for counts in product(*(range(len(by_rank.get(r, [])) + 1) for r in ranks)):
        for two_to in combinations_with_replacement(dests, len(twos)):
            for joker_to in combinations_with_replacement(dests, len(jokers)):
                melds = {r: by_rank.get(r, [])[:n] for r, n in zip(ranks, counts, strict=True)}
                melds[top_rank] = [top, *melds[top_rank]]
                melds["2s"] = []
                for p, d in [*zip(twos, two_to, strict=True), *zip(jokers, joker_to, strict=True)]:
                    if d is not None:
                        melds[d] = [*melds[d], p]
                lists = [melds[top_rank]] + [m for r, m in melds.items() if r != top_rank and m]
                if any(len(m) < 3 for m in lists[1:]) or sum(P.value[p] for m in lists for p in m) < need:
                    continue
                move = {"action": "take_pile", "melds": lists}
                try:
                    game.apply(state, seat, move)
                except IllegalMove:
                    continue
                return move
    return None


def first_meld_position(game, rng):
    """A random position where seat 0 (team A, not melded) is to draw and the pile's top may be taken: a hand
    rich in pairs and wilds, or a short one (a pick-up may strand it), a minimum from the game's table."""
    P = game.rules.pieces
    deck = [p for p in P.deck if p not in P.bonus_threes]
    rng.shuffle(deck)
    naturals = [p for p in deck if not P.is_wild(p) and P.rank[p] != "3"]
    top = naturals[0]
    same = [p for p in deck if P.rank[p] == P.rank[top] and p != top]
    size = rng.choice([3, 4, 5, 6, 8, 11, 11, 11, 14 if P.kind == "tiles" else 11])
    hand = same[:rng.choice([1, 2, 2, 2, 3, 4])]
    wilds = [p for p in deck if P.is_wild(p)]
    hand += wilds[:rng.choice([0, 1, 2, 2, 3, 3, 4])]
    others = [p for p in naturals if P.rank[p] != P.rank[top]]
    for rank in rng.sample(sorted({P.rank[p] for p in others}), rng.randrange(0, 5)):
        hand += [p for p in others if P.rank[p] == rank][:rng.choice([2, 2, 3])]
    filler = [p for p in deck if p not in hand and p != top]
    hand = hand[:size] + filler[:max(0, size - len(hand))]
    used = {top, *hand}
    below = [p for p in deck if p not in used][:rng.choice([0, 1, 3])]
    score = rng.choice([-10, 0, 1500, 3000] + ([7000] if P.kind == "tiles" else []))
    state = rig(game, {0: hand}, phase="DRAW", pile=[*below, top], scores={"A": score, "B": 0})
    return state


@pytest.mark.parametrize("game", [CARDS, TILES], ids=["canasta", "canasta-tuiles"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_offered_iff_brute_force_finds_one_and_each_offer_is_accepted(game, seed):
    state = first_meld_position(game, random.Random(seed))
    offered = takes(game, state)
    found = brute_force(game, state, 0)
    assert bool(offered) == (found is not None), (state["hands"][0], state["pile"][-1], found, offered)
    for move in offered:
        game.apply(state, 0, move)  # raises if refused
    assert len({str(m) for m in offered}) == len(offered)
    refusal = game.view(state, 0)["pile"]["refusal"]
    assert (refusal is None) == bool(offered)
