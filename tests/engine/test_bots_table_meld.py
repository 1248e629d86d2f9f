"""Bots of the table-meld rummies (Rami, Rami 40, Kalooki, Rami traditionnel): a legal move at every level
from the view alone, whole matches that end (bots must go out: autoplay never does), the expert's budget,
and a few positions from the rules files."""

import copy
import random

import pytest

from engine import bots, cards, games
from engine.bots import table_meld as tmb
from engine.bots.table_meld import basic as tm_basic
from engine.bots.table_meld import expert as tx

SLUGS = ("rami", "rami40", "kalooki", "rami-traditionnel")
CONTRACT = ("new_match", "to_act", "legal_moves", "apply", "view", "public_view", "result", "autoplay", "leave")
TABLE_ACTIONS = ("meld", "lay_off", "swap_joker")


def options_for(slug: str, value: str = "1") -> dict:
    return {"target": value} if slug == "rami-traditionnel" else {"point_limit": value}


def random_positions(slug: str, count: int, seed: int):
    """(state, seat) pairs with a decision to make, reached by level-2 play mixed with random legal moves
    (so that tables fill up, seats open, and turns stop half-staged)."""
    game = games.get(slug)
    rng = random.Random(seed)
    found = []
    match = 0
    while len(found) < count:
        seats = rng.choice((2, 2, 3, 4))
        state = game.new_match(seats=seats, options=options_for(slug, rng.choice(("1", "100"))),
                               seed=f"tm-bots-{slug}-{seed}-{match}")
        match += 1
        for step in range(rng.randrange(0, 90)):
            if game.result(state) is not None:
                break
            to_act = game.to_act(state)
            seat = to_act[0] if to_act else state["active"][0]
            legal = game.legal_moves(state, seat)
            if rng.random() < 0.25:
                move = rng.choice(legal)
            else:
                move = bots.choose(game, game.view(state, seat), legal, 2, random.Random(step))
            state, _ = game.apply(state, seat, move)
        if game.result(state) is not None:
            continue
        to_act = game.to_act(state)
        seat = to_act[0] if to_act else state["active"][0]
        found.append((state, seat))
    return found


def assert_playable(game, state, seat, move, legal):
    """The move is legal: one of the listed moves, or a valid parameterisation of a listed action."""
    if move not in legal:
        actions = {m["action"] for m in legal}
        assert move["action"] in actions and move["action"] in (*TABLE_ACTIONS, "undo"), (move, legal)
    game.apply(state, seat, move)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", (1, 2, 3))
def test_every_level_plays_a_legal_move(slug, level):
    game = games.get(slug)
    for i, (state, seat) in enumerate(random_positions(slug, 30, seed=level)):
        legal = game.legal_moves(state, seat)
        move = bots.choose(game, game.view(state, seat), legal, level, random.Random(i), budget=2)
        assert_playable(game, state, seat, move, legal)


class StateFreeGame:
    """Stands for the game: only its slug may be read."""

    def __init__(self, slug):
        self.slug = slug

    def __getattr__(self, name):
        raise AssertionError(f"a bot touched game.{name}")


@pytest.mark.parametrize("slug", SLUGS)
def test_bots_see_only_the_view(slug, monkeypatch):
    game = games.get(slug)
    prepared = []
    for state, seat in random_positions(slug, 10, seed=50):
        prepared.append((state, seat, copy.deepcopy(game.view(state, seat)), game.legal_moves(state, seat)))

    def forbidden(*args, **kwargs):
        raise AssertionError("a bot called the game engine")

    for name in CONTRACT:
        monkeypatch.setattr(type(game), name, forbidden)
    chosen = []
    for i, (_state, _seat, view, legal) in enumerate(prepared):
        assert "stock" not in view and "seed" not in view and "hands" not in view
        before = copy.deepcopy(view)
        for level in (1, 2, 3):
            move = bots.choose(StateFreeGame(slug), view, copy.deepcopy(legal), level, random.Random(i), budget=2)
            assert view == before, "the bot changed the view it was given"
            chosen.append((i, move))
    monkeypatch.undo()
    for i, move in chosen:
        state, seat, _view, legal = prepared[i]
        assert_playable(game, state, seat, move, legal)


def play_match(slug, levels: dict, seed: str, options: dict, max_steps: int = 4000, budget=2):
    """A whole match between bots (levels by seat); (state, steps). Every move is checked by `apply`."""
    game = games.get(slug)
    state = game.new_match(seats=len(levels), options=options, seed=seed)
    steps = 0
    while game.result(state) is None and steps < max_steps:
        to_act = game.to_act(state)
        if not to_act:  # ROUND_OVER: the table service plays « Manche suivante »
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        move = bots.choose(game, game.view(state, seat), legal, levels[seat], random.Random(steps), budget=budget)
        state, _ = game.apply(state, seat, move)
        steps += 1
    return state, steps


@pytest.mark.parametrize("slug", SLUGS)
def test_whole_matches_end(slug):
    """Bots go out: single-round matches heads-up and at four, and a short match over several rounds."""
    game = games.get(slug)
    for seed, levels, value in ((f"{slug}-a", {0: 1, 1: 2}, "1"), (f"{slug}-b", {0: 3, 1: 2}, "1"),
                                (f"{slug}-c", {0: 1, 1: 2, 2: 3, 3: 2}, "1"),
                                (f"{slug}-d", {0: 2, 1: 1}, "50" if slug != "rami-traditionnel" else "100")):
        state, steps = play_match(slug, levels, seed, options_for(slug, value))
        assert game.result(state) is not None, (seed, steps)
        assert all(row["winner"] is not None for row in state["history"]), "a bot went out in every round"


# ---------------------------------------------------------------- positions from the rules files


def rigged_view(slug, hand, *, phase="MELD", table=(), opened=(False, False), top="2C2", taken=None,
                options=None):
    """A heads-up position (seat 0 to play) with a chosen hand and table; (game, state, view, legal)."""
    game = games.get(slug)
    state = game.new_match(seats=2, options=options or options_for(slug), seed="tm-rig")
    melds = []
    for i, (owner, meld_cards, wilds) in enumerate(table):
        (reading,) = tm_basic.tm.read_meld(list(meld_cards), game.rules, wilds)
        melds.append({"id": f"M{i + 1}", "owner": owner, **reading.as_dict()})
    used = set(hand) | {c for m in melds for c in m["cards"]} | {top}
    pool = [c for c in game.deck if c not in used]
    state["hands"] = [list(hand), pool[:game.hand_size]]
    state["stock"] = pool[game.hand_size:]
    state["discard"] = [top]
    state["table"] = melds
    state["opened"] = list(opened)
    state["current"], state["phase"], state["taken_card"] = 0, phase, taken
    state["take_undone"], state["staged"], state["dealer"] = False, [], 1
    return game, state, game.view(state, 0), game.legal_moves(state, 0)


def play_turn(game, state, level, rng_seed=0, budget=2):
    """Let the bot play seat 0's whole turn (from MELD) and return the moves it played."""
    played = []
    for _ in range(40):
        legal = game.legal_moves(state, 0)
        move = bots.choose(game, game.view(state, 0), legal, level, random.Random(rng_seed), budget=budget)
        played.append(move)
        state, _ = game.apply(state, 0, move)
        if move["action"] in ("discard", "go_out"):
            return played, state
    raise AssertionError(f"the turn did not end: {played}")


RAMI_E1 = ["QH1", "KH1", "AH2", "5S1", "9D1", "JK1", "2C1", "4C1", "7D2", "8S1", "3H1", "6C2", "10S2", "JD1"]


@pytest.mark.parametrize("level", (1, 2, 3))
def test_rami_every_level_opens_with_30_points(level):
    # rami.md E1: Q-K-A of hearts is worth 31 >= 30
    game, state, view, legal = rigged_view("rami", RAMI_E1, options={"point_limit": "100"})
    played, after = play_turn(game, state, level)
    assert played[0]["action"] == "meld"
    assert after["opened"][0]
    assert any(set(m["cards"]) >= {"QH1", "KH1", "AH2"} for m in after["table"])


def test_rami_confirmed_swaps_a_joker_that_lets_it_meld_more():
    # rami.md E5: table run [5H1 6H1 JK1 8H2] (JK1 = 7H); with 7H2 the joker comes back and melds 9C 9D
    hand = ["7H2", "9C1", "9D1", "2S1", "KD1", "4C1"]
    game, state, view, legal = rigged_view(
        "rami", hand, table=[(1, ["5H1", "6H1", "JK1", "8H2"], {"JK1": "7H"})], opened=(True, True),
        options={"point_limit": "100"})
    played, after = play_turn(game, state, 2)
    assert played[0] == {"action": "swap_joker", "cards": ["7H2"], "meld_id": "M1", "joker": "JK1"}
    assert any(set(m["cards"]) >= {"9C1", "9D1", "JK1"} for m in after["table"])


@pytest.mark.parametrize("level", (1, 2, 3))
def test_going_out_when_the_hand_melds(level):
    hand = ["4S1", "5S1", "6S1", "9H1", "9D1", "9C2", "KC1"]
    game, state, view, legal = rigged_view("rami-traditionnel", hand)
    played, after = play_turn(game, state, level)
    assert after["phase"] in ("ROUND_OVER", "MATCH_OVER") and after["history"][-1]["winner"] == 0


@pytest.mark.parametrize("level", (1, 2, 3))
def test_rami40_taken_discard_is_laid_down(level):
    # rami40.md E2: not opened, top 9H2 with 9S 9C and 10D JD QD in hand: 27 + 30 >= 40, take and lay down
    hand = ["9S1", "9C1", "10D1", "JD1", "QD1", "2S1", "4H1", "6C1", "KS2", "3D2", "5H2", "7S1", "8C2"]
    game, state, view, legal = rigged_view("rami40", hand, phase="DRAW", top="9H2")
    move = bots.choose(game, view, legal, level, random.Random(0), budget=2)
    assert move == {"action": "take_discard"}
    state, _ = game.apply(state, 0, move)
    played, after = play_turn(game, state, level)
    assert after["opened"][0] and any("9H2" in m["cards"] for m in after["table"])


def test_confirmed_never_throws_a_joker_nor_a_card_the_next_player_lays_off():
    hand = ["JK2", "7C1", "KD1", "QS1", "3H1"]
    game, state, view, legal = rigged_view(
        "kalooki", hand, table=[(1, ["8C1", "9C1", "10C2"], {})], opened=(True, True))
    played, after = play_turn(game, state, 2)
    assert played[-1]["action"] == "discard" and played[-1]["card"] not in ("JK2", "7C1")


# ---------------------------------------------------------------- level 3: hidden cards, holding back

# 12 cards in four melds (Q-K-A-free, 96 meld points) and two loose cards: enough to open, not to go out
READY = ["7H1", "8H1", "9H1", "QS1", "QD1", "QC1", "3C1", "4C1", "5C1", "10S1", "10H2", "10D1", "2D1", "6S1"]


def rami_position(*, scores, opponent_cards=13, opponent_opened=False, table=()):
    """Rami to 100, seat 0 not opened after its draw with READY; the opponent's hand cut to a size."""
    game, state, _view, _legal = rigged_view("rami", READY, table=table, opened=(False, opponent_opened),
                                             options={"point_limit": "100"})
    state["scores"] = list(scores)
    state["stock"] += state["hands"][1][opponent_cards:]
    state["hands"][1] = state["hands"][1][:opponent_cards]
    return game, state, game.view(state, 0), game.legal_moves(state, 0)


@pytest.mark.parametrize("rng_seed", (0, 1))
def test_expert_holds_back_for_a_main_lisse(rng_seed):
    # The opponent has not opened and holds 13 cards, 60 points of the 100 already: laying down now would
    # rarely lose, but going out later in one turn doubles his penalty and likely eliminates him.
    game, state, view, legal = rami_position(scores=[0, 60])
    assert bots.choose(game, view, legal, 2, random.Random(rng_seed))["action"] == "meld"
    move = bots.choose(game, view, legal, 3, random.Random(rng_seed), budget=32)
    assert move["action"] == "discard" and move["card"] in ("6S1", "2D1"), move
    assert tx.last_stats.chosen > 0 and max(tx.last_stats.means[1:]) > tx.last_stats.means[0] + 20
    after, _ = game.apply(state, 0, move)
    assert not after["opened"][0] and len(after["hands"][0]) == 13


@pytest.mark.parametrize("rng_seed", (0, 1))
def test_expert_lays_down_when_caught_would_eliminate_it(rng_seed):
    # Seat 0 has 60 points; the opponent, opened, holds one card and three melds take lay-offs: holding
    # back risks 13 cards of penalty (over the limit), laying down leaves one card.
    table = [(1, ["4S1", "5S1", "6S2", "7S1"], {}), (1, ["JH1", "JD1", "JC1"], {}), (1, ["2H1", "3H1", "4H1"], {})]
    game, state, view, legal = rami_position(scores=[60, 0], opponent_cards=1, opponent_opened=True, table=table)
    move = bots.choose(game, view, legal, 3, random.Random(rng_seed), budget=32)
    assert move["action"] == "meld", move
    assert tx.last_stats.chosen == 0 and tx.last_stats.means[0] > max(tx.last_stats.means[1:]) + 20


def test_expert_with_an_int_budget_is_deterministic():
    """An int budget: no time limit, the same move and the same estimates for the same view and rng,
    whatever the expert decided before (one-round and 100-point positions of every game, in two orders)."""
    positions = [(games.get(slug), state, seat) for slug in SLUGS for state, seat in random_positions(slug, 6, 77)]

    def decide(order):
        out = {}
        for i in order:
            game, state, seat = positions[i]
            move = bots.choose(game, game.view(state, seat), game.legal_moves(state, seat), 3, random.Random(i),
                               budget=6)
            out[i] = (move, tx.last_stats.means)
        return out

    first = decide(range(len(positions)))
    assert first == decide(reversed(range(len(positions))))


def test_expert_budget():
    assert bots.Budget(iterations=64, time_limit=0.2) == tx.DEFAULT_BUDGET
    game, state, view, legal = rami_position(scores=[0, 60])
    bots.choose(game, view, legal, 3, random.Random(0))  # the production default: capped at 64 deals
    assert 1 <= tx.last_stats.iterations <= 64
    bots.choose(game, view, legal, 3, random.Random(0), budget=bots.Budget(iterations=64, time_limit=0.0))
    assert tx.last_stats.iterations == 1  # the time cap stops the search after one deal
    bots.choose(game, view, legal, 3, random.Random(0), budget=5)
    assert tx.last_stats.iterations == 5 and tx.last_stats.candidates == 3
    with pytest.raises(ValueError):
        bots.choose(game, view, legal, 3, random.Random(0), budget=0)


def test_router_and_supports():
    for slug in SLUGS:
        assert bots.supports(slug)
        assert bots.adapter_for(slug) is tmb.ADAPTER
        assert tmb.ADAPTER.of(slug).spec.slug == slug
    with pytest.raises(KeyError):
        tmb.ADAPTER.of("gin")


def test_partial_outs_follow_each_games_aces():
    rami40 = tmb.ADAPTER.of("rami40").spec
    rami = tmb.ADAPTER.of("rami").spec
    assert tm_basic.partial_outs(rami, "AS1", "2S1") == ["3S"]  # A-2 low: only the 3 (no K-A-2)
    assert tm_basic.partial_outs(rami40, "AS1", "2S1") is None  # Rami 40: the ace is high only
    assert sorted(tm_basic.partial_outs(rami40, "KS1", "AS1")) == ["QS"]
    assert sorted(tm_basic.partial_outs(rami, "7S1", "7H2")) == ["7C", "7D"]
    assert tm_basic.partial_outs(rami, "7S1", "7S2") is None
    assert cards.is_joker("JK1")


# Rami traditionnel, 10 cards + the draw: two melds and five loose cards, seat 0 has laid nothing yet
TRAD_HAND = ["7H1", "8H1", "9H1", "QS1", "QD1", "QC1", "3C1", "KD2", "5S1", "2H2", "JC1"]


def trad_position(opponent_cards):
    game, state, _view, _legal = rigged_view("rami-traditionnel", TRAD_HAND, options={"target": "250"})
    state["stock"] += state["hands"][1][opponent_cards:]
    state["hands"][1] = state["hands"][1][:opponent_cards]
    return game, state, game.view(state, 0), game.legal_moves(state, 0)


@pytest.mark.parametrize("rng_seed", (0, 1))
def test_expert_holds_its_hand_back_for_a_chasse_in_rami_traditionnel(rng_seed):
    # Only the round's winner scores: a hand held back costs nothing if the other goes out first, and laying
    # it all in one turn later earns the chasse (+25). Level 2 lays its melds at once.
    game, state, view, legal = trad_position(opponent_cards=10)
    assert bots.choose(game, view, legal, 2, random.Random(rng_seed))["action"] == "meld"
    played, after = play_turn(game, state, 3, rng_seed=rng_seed)
    assert [m["action"] for m in played] == ["discard"] and not after["opened"][0]


@pytest.mark.parametrize("rng_seed", (0, 1))
def test_expert_lays_down_when_the_other_is_about_to_go_out(rng_seed):
    game, state, view, legal = trad_position(opponent_cards=3)
    played, after = play_turn(game, state, 3, rng_seed=rng_seed)
    assert played[0]["action"] == "meld" and after["opened"][0]


def test_expert_lays_its_whole_hand_at_once_for_the_chasse():
    hand = ["7H1", "8H1", "9H1", "QS1", "QD1", "QC1", "3C1", "4C1", "5C1", "6C1", "KS1"]
    game, state, view, legal = rigged_view("rami-traditionnel", hand, options={"target": "250"})
    played, after = play_turn(game, state, 3)
    assert played[-1]["action"] in ("discard", "go_out")
    assert after["history"][-1]["ending"] == "chasse" and after["history"][-1]["winner"] == 0


@pytest.mark.parametrize("opponent_cards", (13, 2))
def test_expert_in_a_one_round_rami_lays_its_hand_only_all_at_once(opponent_cards):
    # One round decides: only going out first counts. Laying the whole hand in one turn (main lisse) beats
    # laying down as soon as 30 points allow, whatever the other holds.
    game, state, _view, _legal = rigged_view("rami", READY, options={"point_limit": "1"})
    state["stock"] += state["hands"][1][opponent_cards:]
    state["hands"][1] = state["hands"][1][:opponent_cards]
    assert bots.choose(game, game.view(state, 0), game.legal_moves(state, 0), 2, random.Random(0))["action"] == "meld"
    played, after = play_turn(game, state, 3)
    assert [m["action"] for m in played] == ["discard"] and not after["opened"][0]
