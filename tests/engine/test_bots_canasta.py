"""Canasta bots (engine/bots/canasta/: basic.py, expert.py): legal moves from the view alone in both rule
sets, whole hands, the Confirmé melding and taking the pile, the Expert not going out needlessly, the
partner's answer to « Partenaire, puis-je sortir ? », no use of hidden pieces."""

import copy
import random

import pytest

from engine import bots, games
from tests.engine.test_canasta_properties import rig

SLUGS = ("canasta", "canasta-tuiles")
OPTIONS = {"canasta": {}, "canasta-tuiles": {"match_length": "1"}}
BUDGET = 3  # the expert's deals per decision in these tests (an int: deterministic)


def decide(game, state, seat, level, rng_seed=0):
    view = game.view(state, seat)
    legal = game.legal_moves(state, seat)
    return bots.choose(game, view, legal, level, random.Random(rng_seed), budget=BUDGET)


def play_hand(game, levels, seed, max_steps=1500):
    """One hand by bots of the given levels (per seat); (final state, moves played)."""
    state = game.new_match(4, OPTIONS[game.slug], seed)
    steps = 0
    while not state["history"] and steps < max_steps:
        for seat in game.to_act(state):
            state, _ = game.apply(state, seat, decide(game, state, seat, levels[seat], steps))
            steps += 1
    return state, steps


def positions(game, count, seed):
    """(state, seat) with a decision, reached by bots of mixed levels."""
    rng = random.Random(seed)
    found = []
    match = 0
    while len(found) < count:
        levels = [rng.choice((1, 2, 3)) for _ in range(4)]
        state = game.new_match(4, OPTIONS[game.slug], f"cb-{seed}-{match}")
        match += 1
        for step in range(rng.randrange(3, 120)):
            to_act = game.to_act(state)
            if not to_act:
                break
            seat = to_act[0]
            state, _ = game.apply(state, seat, decide(game, state, seat, levels[seat], step))
        if game.to_act(state):
            found.append((state, game.to_act(state)[0]))
    return found


@pytest.mark.parametrize("slug", SLUGS)
def test_every_level_plays_a_move_the_engine_accepts(slug):
    game = games.get(slug)
    for state, seat in positions(game, 30, 1):
        for level in (1, 2, 3):
            game.apply(state, seat, decide(game, state, seat, level))  # raises IllegalMove if not legal


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("levels", ([1, 1, 1, 1], [2, 2, 2, 2], [3, 2, 3, 2], [1, 3, 1, 3]))
def test_bots_play_whole_hands(slug, levels):
    game = games.get(slug)
    for i in range(2):
        state, _ = play_hand(game, levels, f"whole-{slug}-{levels}-{i}")
        assert state["history"], "the hand did not end"
        assert state["phase"] in ("ROUND_OVER", "MATCH_OVER")


def hidden_variant(game, state, seat, rng):
    """The same position for `seat`, the other hands and the stock dealt again from their pieces."""
    new = copy.deepcopy(state)
    others = [s for s in range(4) if s != seat]
    pool = [p for s in others for p in new["hands"][s]] + new["stock"]
    rng.shuffle(pool)
    for s in others:
        n = len(new["hands"][s])
        new["hands"][s], pool = pool[:n], pool[n:]
    new["stock"] = pool
    return new


@pytest.mark.parametrize("slug", SLUGS)
def test_no_bot_uses_hidden_pieces(slug):
    """A bot receives only its view: with the other hands and the stock dealt again, the same move."""
    game = games.get(slug)
    rng = random.Random(5)
    for state, seat in positions(game, 12, 2):
        other = hidden_variant(game, state, seat, rng)
        assert game.view(other, seat) == game.view(state, seat)
        for level in (1, 2, 3):
            assert decide(game, other, seat, level) == decide(game, state, seat, level)


# ---------------------------------------------------------------- the Confirmé


def test_confirmed_takes_an_open_pile_onto_its_meld():
    game = games.get("canasta")
    state = rig(game, {0: ["8S1", "9D1", "KC1", "4H1", "5S2"]}, phase="DRAW",
                melds={"A": [("8", ["8H2", "8D1", "8C2"])]}, pile=["5D1", "QS1", "JC1", "6H1", "8C1"])
    move = decide(game, state, 0, 2)
    assert move["action"] == "take_pile"
    game.apply(state, 0, move)


def test_confirmed_takes_the_tile_pile_with_a_natural_pair():
    game = games.get("canasta-tuiles")
    state = rig(game, {0: ["R9b", "K9a", "Y5a", "B12a", "K13b", "R4a"]}, phase="DRAW",
                melds={"A": [("7", ["R7a", "B7b", "K7a"])]}, pile=["B6a", "R11a", "K8b", "Y9a"])
    move = decide(game, state, 0, 2)
    assert move["action"] == "take_pile" and sorted(move["melds"][0]) == ["K9a", "R9b", "Y9a"]
    game.apply(state, 0, move)


def test_beginner_draws_rather_than_take_a_small_pile_with_a_wild():
    game = games.get("canasta")
    state = rig(game, {0: ["9S1", "2D1", "KC1", "4H1", "5S2"]}, phase="DRAW",
                melds={"A": [("K", ["KH2", "KD1", "KC2"])]}, pile=["9D2"])
    assert decide(game, state, 0, 1) == {"action": "draw_stock"}


@pytest.mark.parametrize("slug,hand,opening", [
    ("canasta", ["QS1", "QD1", "QH2", "AS1", "AD2", "2C1", "5H1", "9C1"], True),
    ("canasta-tuiles", ["R12a", "Y12b", "K12a", "R1a", "B1b", "J1", "K5a", "Y9a"], True),
])
def test_confirmed_opens_when_its_melds_reach_the_minimum_then_discards(slug, hand, opening):
    game = games.get(slug)
    state = rig(game, {0: hand}, pile=["K4b" if slug == "canasta-tuiles" else "4C2"])
    first = decide(game, state, 0, 2)
    assert first["action"] == "meld"
    steps = 0
    while state["current"] == 0 and steps < 10:
        state, _ = game.apply(state, 0, decide(game, state, 0, 2))
        steps += 1
    assert state["melded"]["A"] and state["current"] != 0  # opened, then discarded: the turn is over


def test_confirmed_lays_off_and_melds_naturals_once_opened():
    game = games.get("canasta")
    hand = ["9S1", "9D1", "9H2", "KC1", "4H1", "4S1", "7C1"]
    state = rig(game, {0: hand}, melds={"A": [("K", ["KH2", "KD1", "KS2"])]}, pile=["5D1"])
    laid = []
    while state["current"] == 0:
        move = decide(game, state, 0, 2)
        if move["action"] in ("meld", "lay_off"):
            laid.append((move["action"], sorted(move["cards"])))
        state, _ = game.apply(state, 0, move)
    assert ("meld", ["9D1", "9H2", "9S1"]) in laid and ("lay_off", ["KC1"]) in laid
    assert ("meld", ["4H1", "4S1"]) not in laid  # a pair stays in hand (to take the pile with)


# ---------------------------------------------------------------- going out and the partner


def test_every_level_goes_out_when_the_opponents_hold_a_large_hand():
    game = games.get("canasta-tuiles")
    canasta = ["R10a", "Y10b", "B10a", "K10a", "K10b", "Y10a", "B10b"]
    for level in (1, 2, 3):
        state = rig(game, {0: ["R6a", "B6b", "K6a", "Y12a"]}, melds={"A": [("10", canasta)]},
                    pile=["K4b"])
        while state["current"] == 0 and not state["history"]:
            state, _ = game.apply(state, 0, decide(game, state, 0, level))
        assert state["history"] and state["history"][-1]["went_out"] == 0, level


def expert_out_position(partner_cards: int, their_canasta: bool = False):
    """Team A owns a canasta and seat 0 can go out at once (its 6s, then its last card); the opponents
    hold 2 cards each (and a canasta if asked); the partner holds `partner_cards` cards."""
    game = games.get("canasta")
    canasta = ["KH1", "KD1", "KC1", "KS1", "KH2", "KD2", "KC2"]
    nines = ["9H1", "9D1", "9C1"] + (["9S1", "9H2", "9D2", "9C2"] if their_canasta else [])
    melds = {"A": [("K", canasta), ("Q", ["QH1", "QD1", "QC1", "QS1", "QH2", "QD2"])], "B": [("9", nines)]}
    hand = ["6S1", "6D1", "6H1", "7C1"]
    partner = ["AS1", "AD1", "AH1", "AC1", "JK1", "JK2", "JK3", "2S1", "2D1", "2H1", "AS2", "AD2", "AH2",
               "JS1"][:partner_cards]
    state = rig(game, {0: hand, 2: partner, 1: ["5S1", "8D1"], 3: ["4C1", "10D1"]}, melds=melds,
                pile=["5D1"], has_melded=[True, True, True, True])
    return game, state


def test_expert_asks_its_partner_before_going_out_while_the_partner_holds_many_cards():
    game, state = expert_out_position(partner_cards=12)
    assert decide(game, state, 0, 3) == {"action": "ask_go_out"}


def test_expert_goes_out_at_once_when_the_opponents_could_go_out_first():
    game, state = expert_out_position(partner_cards=1, their_canasta=True)
    while state["current"] == 0 and not state["history"]:
        move = decide(game, state, 0, 3)
        assert move["action"] != "ask_go_out"
        state, _ = game.apply(state, 0, move)
    assert state["history"] and state["history"][-1]["went_out"] == 0


def test_expert_partner_answers_from_its_own_hand():
    game, state = expert_out_position(partner_cards=12)
    state, _ = game.apply(state, 0, {"action": "ask_go_out"})
    assert game.to_act(state) == [2]
    assert decide(game, state, 2, 3) == {"action": "answer_go_out", "answer": "no"}  # jokers and aces
    for level in (1, 2):
        assert decide(game, state, 2, level) == {"action": "answer_go_out", "answer": "yes"}
    _, light = expert_out_position(partner_cards=12)
    light["hands"][2] = ["4H1", "5H1"]
    light, _ = game.apply(light, 0, {"action": "ask_go_out"})
    assert decide(game, light, 2, 3) == {"action": "answer_go_out", "answer": "yes"}


def test_expert_obeys_a_no_and_keeps_a_card():
    game, state = expert_out_position(partner_cards=12)
    state, _ = game.apply(state, 0, {"action": "ask_go_out"})
    state, _ = game.apply(state, 2, {"action": "answer_go_out", "answer": "no"})
    while state["current"] == 0:
        state, _ = game.apply(state, 0, decide(game, state, 0, 3))
    assert not state["history"] and state["hands"][0]  # the hand goes on, seat 0 kept a card


def test_expert_does_not_go_out_needlessly():
    """Tile game, no question to ask: the opponents own no canasta and hold 2 tiles each, the stock is
    full; its team's meld of 12s is one tile from a second canasta and its partner holds 14 tiles.
    Going out now would give the team the partner's whole hand for 100 points: it plays on."""
    game = games.get("canasta-tuiles")
    canasta = ["R10a", "Y10b", "B10a", "K10a", "K10b", "Y10a", "B10b"]
    melds = {"A": [("10", canasta), ("12", ["R12a", "Y12a", "B12a", "K12a", "R12b", "Y12b"])],
             "B": [("9", ["R9a", "Y9a", "B9a"])]}
    partner = ["R1a", "Y1a", "B1a", "K1a", "J1", "J2", "R2a", "Y2a", "B2a", "K2a", "R13a", "Y13a", "B13a", "K13a"]
    state = rig(game, {0: ["R6a", "B6b", "K6a", "Y4a"], 2: partner, 1: ["R5a", "Y8a"], 3: ["K5b", "B8b"]},
                melds=melds, pile=["K4b"], has_melded=[True, True, True, True])
    while state["current"] == 0 and not state["history"]:
        state, _ = game.apply(state, 0, bots.choose(game, game.view(state, 0), game.legal_moves(state, 0), 3,
                                                    random.Random(0), budget=16))
    assert not state["history"] and len(state["hands"][0]) >= 1


def test_both_games_have_bots():
    from engine.bots import canasta

    for slug in SLUGS:
        assert bots.supports(slug) and bots.adapter_for(slug) is canasta.ADAPTER


# ---------------------------------------------------------------- finding the going out (Planner.going_out)

# Per rule set: a clean canasta of kings / 10s, a meld of six queens / 12s, naturals by name.
OUT_PIECES = {
    "canasta": {"canasta": ("K", ["KH1", "KD1", "KC1", "KS1", "KH2", "KD2", "KC2"]),
                "six": ("Q", ["QH1", "QD1", "QC1", "QS1", "QH2", "QD2"]),
                "five": ("Q", ["QH1", "QD1", "QC1", "QS1", "QH2"]), "more": ["QC2", "QS2"],
                "wild": "2C1", "pair": ["8S1", "8D1"], "loose": "5H1", "twos": ["2C1", "2D1", "2H1"]},
    "canasta-tuiles": {"canasta": ("10", ["R10a", "Y10b", "B10a", "K10a", "K10b", "Y10a", "B10b"]),
                       "six": ("12", ["R12a", "Y12a", "B12a", "K12a", "R12b", "Y12b"]),
                       "five": ("12", ["R12a", "Y12a", "B12a", "K12a", "R12b"]), "more": ["B12b", "K12b"],
                       "wild": "R2a", "pair": ["R8a", "B8a"], "loose": "K5a", "twos": ["R2a", "Y2a", "B2a"]},
}


def planned(game, state, seat=0, greedy=False, monkeypatch=None):
    from engine.bots.canasta import basic as canasta

    seen = canasta.seen_of(canasta.spec_of(game.slug), game.view(state, seat))
    planner = canasta.Planner(canasta.spec_of(game.slug), canasta.STYLES[2])
    if greedy:
        monkeypatch.setattr(planner, "going_out", lambda seen: None)
    return planner.plan(seen)


def play_turn(game, state, level, seat=0):
    steps = 0
    while state["current"] == seat and not state["history"] and steps < 20:
        for s in game.to_act(state):  # the partner answers « Partenaire, puis-je sortir ? »
            state, _ = game.apply(state, s, decide(game, state, s, level))
        steps += 1
    return state


def went_out(state, seat=0):
    return bool(state["history"]) and state["history"][-1]["went_out"] == seat


@pytest.mark.parametrize("slug", SLUGS)
def test_going_out_moves_the_wild_from_a_canasta_to_a_pair(slug, monkeypatch):
    """The wild would close the meld of six into a second canasta (the greedy plan does, and is then left
    with a pair and a loose piece); going out needs it in a new meld with the pair instead."""
    game = games.get(slug)
    p = OUT_PIECES[slug]
    hand = [p["wild"], *p["pair"], p["loose"]]
    state = rig(game, {0: hand}, melds={"A": [p["canasta"], p["six"]]}, pile=[p["loose"].replace("5", "9")],
                has_melded=[True, True, True, True])
    assert len(planned(game, state, greedy=True, monkeypatch=monkeypatch).left) > 1  # the old greedy plan
    plan = planned(game, state)
    assert plan.left == [p["loose"]] and [(a["action"], sorted(a["cards"])) for a in plan.actions] == [
        ("meld", sorted([*p["pair"], p["wild"]]))]
    assert went_out(play_turn(game, state, 2))  # the Confirmé goes out whenever it can


@pytest.mark.parametrize("slug", SLUGS)
def test_going_out_lays_every_natural_that_closes_the_first_canasta(slug, monkeypatch):
    """Two naturals close the team's first canasta and the last piece is the discard: the greedy plan kept
    two pieces in hand while the team had no canasta, and never went out."""
    game = games.get(slug)
    p = OUT_PIECES[slug]
    state = rig(game, {0: [*p["more"], p["loose"]]}, melds={"A": [p["five"]]}, pile=[p["pair"][0]],
                has_melded=[True, True, True, True])
    assert len(planned(game, state, greedy=True, monkeypatch=monkeypatch).left) > 1
    plan = planned(game, state)
    assert plan.left == [p["loose"]] and [(a["action"], sorted(a["cards"])) for a in plan.actions] == [
        ("lay_off", sorted(p["more"]))]
    assert went_out(play_turn(game, state, 2))


def test_tile_going_out_melds_the_2s_and_keeps_the_canasta_clean():
    """Three 2s: laid as wilds on the clean canasta they would make it dirty (500 → 300); as the naturals
    of a new meld of 2s they go out just as well and keep the 500."""
    game = games.get("canasta-tuiles")
    p = OUT_PIECES["canasta-tuiles"]
    state = rig(game, {0: [*p["twos"], p["loose"]]}, melds={"A": [p["canasta"]]}, pile=["K9b"],
                has_melded=[True, True, True, True])
    plan = planned(game, state)
    assert plan.left == [p["loose"]] and [(a["action"], sorted(a["cards"])) for a in plan.actions] == [
        ("meld", sorted(p["twos"]))]


def test_card_going_out_after_a_yes_finds_the_only_way():
    """« Partenaire, puis-je sortir ? » answered « oui » binds (the engine sees a way out): the Expert finds
    it, the wild moved from closing the queens to the pair of 8s, and goes out."""
    game = games.get("canasta")
    p = OUT_PIECES["canasta"]
    partner = ["AS1", "AD1", "AH1", "JK1", "JK2", "7S1", "7D1", "9H2"]
    state = rig(game, {0: [p["wild"], *p["pair"], p["loose"]], 2: partner, 1: ["5S1", "8D2"], 3: ["4C1", "10D1"]},
                melds={"A": [p["canasta"], p["six"]], "B": [("9", ["9H1", "9D1", "9C1"])]}, pile=["6D1"],
                has_melded=[True, True, True, True])
    state, _ = game.apply(state, 0, {"action": "ask_go_out"})
    state, _ = game.apply(state, 2, {"action": "answer_go_out", "answer": "yes"})
    assert game.go_out_plan(state, 0) is not None  # the « oui » binds
    assert went_out(play_turn(game, state, 3))


@pytest.mark.parametrize("slug", SLUGS)
def test_going_out_respects_the_minimum_and_the_wild_limits(slug):
    """Not yet opened: the going out must also reach the opening minimum; a meld takes 3 wilds at most."""
    game = games.get(slug)
    p = OUT_PIECES[slug]
    # the team has not opened: two 8s, one wild and a loose piece make no canasta: no going out
    state = rig(game, {0: [p["wild"], *p["pair"], p["loose"]]}, pile=["K9b" if game.slug != "canasta" else "9S2"])
    assert planned(game, state).left  # no going out: pieces stay
    # four wilds and a pair: a meld takes three of them at most (the pair one, the canasta three)
    wilds = p["twos"] + (["JK1"] if slug == "canasta" else ["J1"])
    state = rig(game, {0: [*wilds, *p["pair"], p["loose"]]}, melds={"A": [p["canasta"]]},
                pile=["6D1" if slug == "canasta" else "K9b"], has_melded=[True, True, True, True])
    plan = planned(game, state)
    assert plan.left == [p["loose"]]
    for a in plan.actions:
        laid = a["cards"]
        assert sum(1 for c in laid if c in wilds) <= 3


def test_tile_expert_throws_a_blocking_three_at_once():
    """A blue or black 3 kept costs 100 when the hand ends: the tile Expert throws it first."""
    game = games.get("canasta-tuiles")
    state = rig(game, {0: ["K3a", "R9a", "Y9b", "B6a", "R11a", "Y13a"]}, melds={"A": [("7", ["R7a", "B7b", "K7a"])]},
                pile=["K4b"], has_melded=[True, True, True, True])
    assert decide(game, state, 0, 3) == {"action": "discard", "card": "K3a"}


def test_tile_expert_deals_the_hidden_tiles_as_the_table_allows():
    """The playouts' deal (tile game): every piece once, the counts of the view; no red or yellow 3 in a hand
    (laid at once), no blocking 3 in another hand (thrown at once), no natural of a rank a melded team owns
    in its players' hands and no three naturals of one rank there (laid off, melded)."""
    from engine.bots.canasta import basic as cb
    from engine.bots.canasta import rollout

    game = games.get("canasta-tuiles")
    state = rig(game, {0: ["R9a", "Y9b", "B6a", "R11a", "Y13a", "K5a"]},
                melds={"A": [("7", ["R7a", "B7b", "K7a"])], "B": [("10", ["R10a", "B10b", "K10a"]),
                                                                   ("12", ["R12a", "Y12a", "K12a"])]},
                pile=["K4b", "B3a", "Y8a"], has_melded=[True, True, True, True],
                options=OPTIONS["canasta-tuiles"])
    view = game.view(state, 0)
    spec = cb.spec_of("canasta-tuiles")
    seen = cb.seen_of(spec, view)
    for i in range(20):
        h = rollout.deal(spec, seen, view, random.Random(i))
        everything = [p for x in h.hands for p in x] + h.pile + h.stock
        everything += [p for team in h.melds for v in team.values() for p in v]
        everything += [p for t in view["teams"].values() for p in t["red3s"]]
        assert sorted(everything) == sorted(spec.P.deck)
        assert [len(x) for x in h.hands] == view["hand_counts"]
        assert len(h.pile) == view["pile"]["size"] and h.pile[-1] == "Y8a" and len(h.stock) == view["stock_count"]
        for s in (1, 2, 3):
            keys = [spec.key(p) for p in h.hands[s]]
            assert not [p for p in h.hands[s] if p in spec.P.bonus_threes or spec.key(p) == cb.BLOCK]
            melded = {"7"} if s == 2 else {"10", "12"}
            assert not melded & set(keys)
            assert max(keys.count(k) for k in set(keys) if k is not None) <= 2
