"""Bots: always a legal move, from the view alone, within the expert's budget; a few sanity cases."""

import copy
import random

import pytest

from engine import bots, games
from engine.bots import search
from engine.bots.base import Moves
from engine.bots.gin import ADAPTER as GIN
from engine.bots.gin import all_melds, knock_arrangement
from engine.bots.thanasis import ADAPTER as THANASIS
from engine.cards import sort_key

GAMES = ("thanasis", "gin")
CONTRACT = ("new_match", "to_act", "legal_moves", "apply", "view", "public_view", "result", "autoplay", "leave")


def random_positions(slug: str, count: int, seed: int):
    """(state, seat) pairs where a seat has a decision, reached by random legal play."""
    game = games.get(slug)
    rng = random.Random(seed)
    found = []
    match = 0
    while len(found) < count:
        seats = rng.choice((2, 2, 3, 4))
        options = {"match": rng.choice(("1", "100"))} if slug == "gin" else {}
        state = game.new_match(seats=seats, options=options, seed=f"bots-{slug}-{seed}-{match}")
        match += 1
        for _ in range(rng.randrange(0, 60)):
            if game.result(state) is not None:
                break
            to_act = game.to_act(state)
            seat = to_act[0] if to_act else state["active"][0]
            legal = game.legal_moves(state, seat)
            move = rng.choice(legal)
            if move["action"] in ("close", "knock") and rng.random() < 0.8:
                continue  # keep rounds going: deeper positions
            state, _ = game.apply(state, seat, move)
        if game.result(state) is not None:
            continue
        to_act = game.to_act(state)
        seat = to_act[0] if to_act else state["active"][0]
        found.append((state, seat))
    return found


def assert_playable(game, state, seat, move, legal):
    """The move is one of the legal moves, or a knock re-parameterised, and `apply` accepts it."""
    if move not in legal:
        assert move["action"] == "knock", move
        assert move["card"] in {m["card"] for m in legal if m["action"] == "knock"}
    game.apply(state, seat, move)


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("level", (1, 2, 3))
def test_every_level_plays_a_legal_move(slug, level):
    game = games.get(slug)
    for i, (state, seat) in enumerate(random_positions(slug, 40, seed=level)):
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        move = bots.choose(game, view, legal, level, random.Random(i), budget=2)
        assert_playable(game, state, seat, move, legal)


@pytest.mark.parametrize("slug", GAMES)
def test_levels_play_whole_matches_heads_up(slug):
    game = games.get(slug)
    state = game.new_match(seats=2, options={"match": "100"} if slug == "gin" else {}, seed=f"whole-{slug}")
    levels = {0: 1, 1: 2}
    rng = random.Random(5)
    for _ in range(3000):
        if game.result(state) is not None:
            break
        to_act = game.to_act(state)
        if not to_act:  # ROUND_OVER: nobody is asked; a bot would say « Manche suivante »
            seat = state["active"][0]
            legal = game.legal_moves(state, seat)
            assert bots.choose(game, game.view(state, seat), legal, 2, rng) == {"action": "next_round"}
            state, _ = game.apply(state, seat, {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        move = bots.choose(game, game.view(state, seat), legal, levels[seat], rng)
        assert_playable(game, state, seat, move, legal)
        state, _ = game.apply(state, seat, move)
    assert game.result(state) is not None


class StateFreeGame:
    """Stands for the game: only its slug may be read."""

    def __init__(self, slug):
        self.slug = slug

    def __getattr__(self, name):
        raise AssertionError(f"a bot touched game.{name}")


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("level", (1, 2, 3))
def test_bots_see_only_the_view(slug, level, monkeypatch):
    game = games.get(slug)
    positions = random_positions(slug, 12, seed=10 + level)
    prepared = []
    for state, seat in positions:
        prepared.append((state, seat, copy.deepcopy(game.view(state, seat)), game.legal_moves(state, seat)))

    def forbidden(*args, **kwargs):
        raise AssertionError("a bot called the game engine")

    for name in CONTRACT:
        monkeypatch.setattr(type(game), name, forbidden)
    for i, (_state, _seat, view, legal) in enumerate(prepared):
        assert "stock" not in view and "seed" not in view and "hands" not in view
        before = copy.deepcopy(view)
        move = bots.choose(StateFreeGame(slug), view, copy.deepcopy(legal), level, random.Random(i), budget=2)
        assert view == before, "the bot changed the view it was given"
        assert move in legal or move["action"] == "knock"
    monkeypatch.undo()
    for i, (state, seat, view, legal) in enumerate(prepared):
        move = bots.choose(StateFreeGame(slug), view, legal, level, random.Random(i), budget=2)
        assert_playable(game, state, seat, move, legal)


@pytest.mark.parametrize("slug", ["gin"])  # Thanasis' expert plays no playouts (below)
def test_expert_respects_its_budget_and_is_deterministic(slug, monkeypatch):
    game = games.get(slug)
    adapter = bots.adapter_for(slug)
    calls = []
    real = type(adapter).determinize

    def counting(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(type(adapter), "determinize", counting)
    searched = 0
    for i, (state, seat) in enumerate(random_positions(slug, 25, seed=99)):
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        for budget in (1, 3):
            calls.clear()
            search.last_stats = search.SearchStats()
            first = bots.choose(game, view, legal, 3, random.Random(i), budget=budget)
            assert len(calls) <= budget
            assert search.last_stats.iterations <= budget
            searched += bool(calls)
            again = bots.choose(game, view, legal, 3, random.Random(i), budget=budget)
            assert first == again
    assert searched > 0
    with pytest.raises(ValueError):
        search.as_budget(0)


def test_choose_rejects_no_decision_and_unknown_levels():
    game = games.get("thanasis")
    state = game.new_match(seats=2, options={}, seed="x")
    seat = 1 - game.to_act(state)[0]
    with pytest.raises(ValueError):
        bots.choose(game, game.view(state, seat), [], 2, random.Random(0))
    with pytest.raises(ValueError):
        bots.choose(game, game.view(state, seat), [{"action": "draw_stock"}], 4, random.Random(0))


# ---------------------------------------------------------------- sanity scenarios


def thanasis_view(hand, wild_rank="7", pile=(), scores=(0, 0)):
    legal = [{"action": "discard", "card": c} for c in sorted(hand, key=sort_key)]
    left = THANASIS.discards(hand, wild_rank)
    legal += [{"action": "close", "card": c} for c in sorted(hand, key=sort_key) if left[c] <= 10]
    view = {
        "game": "thanasis", "seats": 2, "seat": 0, "phase": "DISCARD", "current": 0, "active": [0, 1],
        "scores": list(scores), "players": [{"seat": 0, "hand_count": 11}, {"seat": 1, "hand_count": 10}],
        "stock_count": 60, "stock_rebuilds": 0, "discard_top": pile[-1] if pile else None,
        "discard_pile": list(pile), "hand": sorted(hand, key=sort_key), "legal": legal,
        "indicator": "7D1", "wild_rank": wild_rank,
    }
    return view, legal


E1 = ["7C2", "8H1", "9H1", "10H1", "KS1", "KD2", "KC1", "4S1", "5S1", "2D1", "QH2"]  # rules §11 E1


@pytest.mark.parametrize("level", (1, 2, 3))
def test_thanasis_every_level_closes_when_it_can(level):
    view, legal = thanasis_view(E1)
    move = bots.choose(StateFreeGame("thanasis"), view, legal, level, random.Random(1), budget=4)
    assert move["action"] == "close"
    assert move["card"] in {"QH2", "5S1", "4S1", "2D1"}  # the closable set of the worked example


def close_chance(hand: list[str], view: dict) -> float:
    """The share of the unseen cards that, drawn next, let `hand` (10 cards) close."""
    know = THANASIS.knowledge(view)
    unseen = THANASIS.unseen(know)
    return sum(THANASIS.step(hand, card, view["wild_rank"])[1] <= 10 for card in unseen) / len(unseen)


def test_thanasis_expert_keeps_the_cards_that_close_sooner():
    # Tens are wild. The set of 2s is made; 8♦ twice, J♦ and a wild 10 are a run. Throwing the second 8♦ or
    # the J♣ leaves 16 points either way: the Confirmé throws the J♣ (more points), the Expert the 8♦ that can
    # never join the run beside its twin, keeping J♣ J♦ for a set: twice the chance to close at the next draw.
    hand = ["2S2", "10S1", "2H2", "2D2", "8D1", "8D2", "10D1", "JD1", "AC1", "7C2", "JC2"]
    view, legal = thanasis_view(hand, wild_rank="10")
    confirmed = bots.choose(StateFreeGame("thanasis"), view, legal, 2, random.Random(0))
    expert = bots.choose(StateFreeGame("thanasis"), view, legal, 3, random.Random(0))
    assert confirmed == {"action": "discard", "card": "JC2"}
    assert expert["action"] == "discard" and expert["card"] in {"8D1", "8D2"}
    left = THANASIS.discards(hand, "10")
    assert left[expert["card"]] == left["JC2"] == 16
    after_expert = close_chance([c for c in hand if c != expert["card"]], view)
    after_confirmed = close_chance([c for c in hand if c != "JC2"], view)
    assert after_expert > 1.8 * after_confirmed > 0
    # No dice in it: the same move whatever the robot's random source.
    assert all(bots.choose(StateFreeGame("thanasis"), view, legal, 3, random.Random(seed)) == expert
               for seed in range(1, 6))


def test_thanasis_expert_near_the_burn_plays_for_the_close():
    """At 92 points, any hand still above 10 when the other player closes burns the Expert: it then throws
    what gives it the best chance to close at its next draw, even if that leaves more points now."""
    hand = ["3S1", "4S1", "6S1", "10S1", "8H2", "9H2", "4D1", "8D1", "9C2", "10C2", "JC2"]
    calm, legal = thanasis_view(hand, wild_rank="9", scores=(0, 0))
    pressed, _ = thanasis_view(hand, wild_rank="9", scores=(92, 0))
    at_ease = bots.choose(StateFreeGame("thanasis"), calm, legal, 3, random.Random(0))["card"]
    at_risk = bots.choose(StateFreeGame("thanasis"), pressed, legal, 3, random.Random(0))["card"]
    left = THANASIS.discards(hand, "9")
    assert at_ease != at_risk and left[at_risk] > left[at_ease]
    assert (close_chance([c for c in hand if c != at_risk], pressed)
            > close_chance([c for c in hand if c != at_ease], calm))


def test_thanasis_confirmed_discards_to_the_least_deadwood():
    hand = ["2S1", "3S1", "4S1", "9H1", "9D1", "9C2", "KH1", "QD1", "5C1", "6D2", "JS1"]
    view, legal = thanasis_view(hand, wild_rank="A")
    left = THANASIS.discards(hand, "A")
    move = bots.choose(StateFreeGame("thanasis"), view, legal, 2, random.Random(0))
    assert move["action"] == "discard"
    assert left[move["card"]] == min(left.values())


def test_confirmed_tie_break_keeps_live_potential():
    # JH, JS and 10C all leave 31: the confirmed bot keeps the pair of jacks, throws the lone 10C
    hand = ["AS1", "2S1", "3S1", "KH1", "KD1", "KC1", "JH1", "JS1", "10C1", "4D1", "7H1"]
    view, legal = thanasis_view(hand, wild_rank="5")
    move = bots.choose(StateFreeGame("thanasis"), view, legal, 2, random.Random(0))
    assert move == {"action": "discard", "card": "10C1"}


def test_confirmed_counts_dead_partners():
    # two pairs worth 10 a card; every other jack is in the discard pile: the jacks go first
    hand = ["AS1", "2S1", "3S1", "KH1", "KD1", "KC1", "JH1", "JS1", "10C1", "10D1", "4D1"]
    view, legal = thanasis_view(hand, wild_rank="5", pile=("JD1", "JD2", "JC1", "JC2"))
    move = bots.choose(StateFreeGame("thanasis"), view, legal, 2, random.Random(0))
    assert move["card"] in ("JH1", "JS1")
    view, legal = thanasis_view(hand, wild_rank="5", pile=("10S1", "10S2", "10H1", "10H2"))
    move = bots.choose(StateFreeGame("thanasis"), view, legal, 2, random.Random(0))
    assert move["card"] in ("10C1", "10D1")


def gin_view(hand, phase="DISCARD", pile=("KC1",), taken=None, scores=(0, 0), stock=20, match="100"):
    hand = sorted(hand, key=sort_key)
    legal = []
    if phase == "DISCARD":
        left = GIN.discards(hand, None)
        legal = [{"action": "discard", "card": c} for c in hand if c != taken]
        for c in hand:
            if c != taken and left[c] <= 10:
                rest = [x for x in hand if x != c]
                legal.append({"action": "knock", "card": c,
                              "arrangement": [list(m) for m in GIN.arrangement(rest, None).melds]})
    elif phase == "DRAW":
        legal = [{"action": "draw_stock"}, {"action": "take_discard"}]
    else:
        legal = [{"action": "take_discard"}, {"action": "pass"}]
    view = {
        "game": "gin", "seats": 2, "seat": 0, "phase": phase, "current": 0, "active": [0, 1], "dealer": 1,
        "scores": list(scores), "players": [{"seat": 0, "hand_count": len(hand)}, {"seat": 1, "hand_count": 10}],
        "stock_count": stock, "stock_rebuilds": 0, "discard_top": pile[-1] if pile else None,
        "discard_pile": list(pile), "hand": hand, "legal": legal, "match": match, "hand_size": 10,
        "taken_card": taken, "forced_draw": False,
    }
    return view, legal


GIN_KNOCK = ["AS1", "2S1", "3S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1", "4D1", "KH1"]  # rules §11 E1 + KH


def game_meld_ok(meld):
    from engine import melds

    return melds.is_valid_meld(list(meld), melds.gin_rules())


def check_knock(move, hand):
    kept = [c for c in hand if c != move["card"]]
    flat = [c for m in move["arrangement"] for c in m]
    assert set(flat) <= set(kept) and len(flat) == len(set(flat))
    assert all(game_meld_ok(m) for m in move["arrangement"])
    dead = sum(GIN.value(c, None) for c in kept if c not in flat)
    assert dead == GIN.deadwood(kept, None) <= 10
    return dead


@pytest.mark.parametrize("level", (1, 2))
def test_gin_beginner_and_confirmed_knock_when_they_can(level):
    view, legal = gin_view(GIN_KNOCK)
    move = bots.choose(StateFreeGame("gin"), view, legal, level, random.Random(0))
    assert move["action"] == "knock" and move["card"] == "KH1"
    assert check_knock(move, GIN_KNOCK) == 4


def test_gin_expert_returns_a_legal_knock_choice_or_waits():
    view, legal = gin_view(GIN_KNOCK)
    move = bots.choose(StateFreeGame("gin"), view, legal, 3, random.Random(0), budget=6)
    assert move["action"] in ("knock", "discard")
    if move["action"] == "knock":
        check_knock(move, GIN_KNOCK)
    else:
        assert move in legal


@pytest.mark.parametrize("rng_seed", (0, 1))
def test_gin_expert_plays_on_for_a_gin_while_the_stock_lasts(rng_seed):
    # Level 2 knocks with 4 points; the expert keeps its hand low and waits for a gin, which undercuts a
    # player who knocks as soon as he may (or wins the gin bonus).
    view, legal = gin_view(GIN_KNOCK, stock=20)
    move = bots.choose(StateFreeGame("gin"), view, legal, 3, random.Random(rng_seed), budget=6)
    assert move["action"] == "discard" and move["card"] == "KH1"


@pytest.mark.parametrize(("match", "stock", "scores", "knock_searched", "plays_on_by_default"), [
    ("100", 20, (0, 0), False, True),  # the gin hunt: a knock-at-once player is undercut
    ("100", 20, (40, 75), True, True),  # a knock may end the match: weighed by the chance of winning it
    ("100", 6, (0, 0), True, False),
    ("100", 3, (0, 0), True, False),
    ("1", 20, (0, 0), True, False),  # one round: knocking first wins the pot; playing on is weighed too
    ("1", 3, (0, 0), True, False),
])
def test_gin_expert_weighs_knocking_by_the_match(match, stock, scores, knock_searched, plays_on_by_default):
    # The default is kept unless the playouts clearly prefer another candidate.
    view, legal = gin_view(GIN_KNOCK, stock=stock, match=match, scores=scores)
    candidates = GIN.discard_candidates(GIN.knowledge(view), Moves(legal), None)
    assert any(m["action"] == "knock" for m in candidates) is knock_searched
    assert any(m["action"] == "discard" for m in candidates)
    assert (candidates[0]["action"] == "discard") is plays_on_by_default


def test_gin_expert_values_a_round_by_what_it_is_worth_in_the_match():
    def value(points, winner, match="100", scores=(0, 0)):
        view, _legal = gin_view(GIN_KNOCK, scores=scores, match=match)
        know = GIN.knowledge(view)
        return GIN.utility(points, winner, know), GIN.void_value(know)

    # One round (§7): the winner takes 3/4 of the pot, all of it if the loser has 25 points or more.
    assert value({0: 0, 1: 30}, 0, "1")[0] == 100 and value({0: 0, 1: 12}, 0, "1")[0] == 75
    assert value({0: 12, 1: 0}, 1, "1")[0] == 25 and value({0: 30, 1: 0}, 1, "1") == (0, 50)
    # To 100: the chance of winning the match. The same 12 points given to the other end the match when he
    # is on 95, and are worth far less at 0 – 0.
    early, standing = value({0: 0, 1: 12}, 0)
    assert standing == pytest.approx(50) and 50 < early < 70
    assert value({0: 0, 1: 12}, 0, scores=(40, 95))[0] == 100
    assert value({0: 12, 1: 0}, 1, scores=(95, 40))[0] == 0
    late, standing = value({0: 0, 1: 12}, 0, scores=(60, 60))
    assert late - standing > early - 50  # points weigh more as both near the limit


def test_gin_match_equity_is_a_chance_of_winning_the_match():
    from engine.bots.gin_match import equity

    assert equity(0, 0) == pytest.approx(0.5, abs=1e-9)
    assert equity(30, 70) == pytest.approx(1 - equity(70, 30), abs=1e-9)
    assert equity(101, 40) == 0.0 and equity(40, 101) == 1.0
    assert equity(0, 90) > equity(0, 50) > equity(0, 0) > equity(50, 0) > equity(90, 0)
    assert 0.0 < equity(99, 99) < 1.0


def test_gin_expert_knocks_a_gin_at_once():
    hand = ["AS1", "2S1", "3S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1", "QC1", "KH1"]
    view, legal = gin_view(hand)
    move = bots.choose(StateFreeGame("gin"), view, legal, 3, random.Random(0), budget=3)
    assert move["action"] == "knock" and move["card"] == "KH1"
    assert check_knock(move, hand) == 0


def test_gin_confirmed_takes_the_discard_only_when_it_improves():
    hand = ["AS1", "2S1", "7H1", "7D1", "9C1", "10C1", "4D1", "KH1", "QS1", "JD1"]
    view, legal = gin_view(hand, phase="DRAW", pile=("5H1", "3S1"))
    assert bots.choose(StateFreeGame("gin"), view, legal, 2, random.Random(0)) == {"action": "take_discard"}
    view, legal = gin_view(hand, phase="DRAW", pile=("3S1", "QH1"))
    assert bots.choose(StateFreeGame("gin"), view, legal, 2, random.Random(0)) == {"action": "draw_stock"}
    view, legal = gin_view(hand, phase="FIRST_UPCARD", pile=("8C1",))
    assert bots.choose(StateFreeGame("gin"), view, legal, 1, random.Random(0)) == {"action": "take_discard"}
    view, legal = gin_view(hand, phase="FIRST_UPCARD", pile=("QH1",))
    assert bots.choose(StateFreeGame("gin"), view, legal, 1, random.Random(0)) == {"action": "pass"}
    # A 4 of hearts would lower the deadwood (the King goes) but completes nothing: a blind draw is better.
    view, legal = gin_view(hand, phase="DRAW", pile=("3S1", "4H1"))
    assert bots.choose(StateFreeGame("gin"), view, legal, 2, random.Random(0)) == {"action": "draw_stock"}


@pytest.mark.parametrize("level", (2, 3))
def test_gin_confirmed_and_expert_do_not_feed_the_cards_the_other_took(level):
    """Two Kings are equally useless; the other player took the Jack and Queen of one suit from the pile (public):
    the robot keeps that suit's King and throws the other."""
    hand = ["2D1", "4H1", "5S1", "7H1", "7D1", "7C1", "9C1", "10C1", "JC1", "KH1", "KS1"]
    for picked, thrown in ((["JS1", "QS1"], "KH1"), (["JH1", "QH1"], "KS1")):
        view, legal = gin_view(hand, stock=30, match="1")
        view["players"][1]["picked"] = picked
        move = bots.choose(StateFreeGame("gin"), view, legal, level, random.Random(0), budget=24)
        assert move == {"action": "discard", "card": thrown}


def test_gin_knock_arrangement_prefers_fewer_layoffs():
    # all melded either way: [7S 7H 7D] + [7C..10C] offers 6C/JC lay-offs, [7S 7H 7D 7C] + [8C 9C 10C]
    # only JC (the 7C is ours): the set of four is chosen
    kept = ["7S1", "7H1", "7D1", "7C1", "8C1", "9C1", "10C1", "AS1", "2S1", "3S1"]
    arrangement = knock_arrangement(kept, live=set(GIN.deck) - set(kept))
    assert ["7S1", "7H1", "7D1", "7C1"] in [sorted(m, key=sort_key) for m in arrangement]
    assert sorted(map(len, arrangement)) == [3, 3, 4]
    # least deadwood first: a set of three and a run beat the set of four
    kept = ["7S1", "7H1", "7D1", "7C1", "8C1", "9C1", "AS1", "2S1", "3S1", "KD1"]
    arrangement = knock_arrangement(kept, live=set(GIN.deck) - set(kept))
    assert sorted(map(len, arrangement)) == [3, 3, 3]
    assert all(game_meld_ok(m) for m in arrangement)
    assert len(all_melds(kept)) >= 5


# ---------------------------------------------------------------- the playout step is exact


@pytest.mark.parametrize("adapter,key", [(THANASIS, "7"), (THANASIS, "Q"), (GIN, None)])
def test_playout_step_matches_the_solver(adapter, key):
    rng = random.Random(3)
    deck = list(adapter.deck)
    for _ in range(150):
        cards_ = rng.sample(deck, 11)
        hand, drawn = cards_[:10], cards_[10]
        card, dw = adapter.step(hand, drawn, key)
        left = adapter.discards(cards_, key)
        best = min(left.values())
        assert dw == best == left[card]
        top = max(adapter.value(c, key) for c in left if left[c] == best)
        assert adapter.value(card, key) == top


def test_moves_grouping():
    moves = Moves([{"action": "discard", "card": "AS1"}, {"action": "close", "card": "AS1"}, {"action": "x"}])
    assert moves.by_card("discard") == {"AS1": {"action": "discard", "card": "AS1"}}
    assert moves.first("x") == {"action": "x"} and not moves.has("knock")


def test_gin_view_tells_which_cards_the_others_took_from_the_discard_pile():
    game = games.get("gin")
    state = game.new_match(seats=2, options={}, seed="picked")
    taker = game.to_act(state)[0]
    upcard = state["discard"][-1]
    state, _ = game.apply(state, taker, {"action": "take_discard"})
    view = game.view(state, 1 - taker)
    player = next(p for p in view["players"] if p["seat"] == taker)
    assert upcard in (player.get("taken") or player.get("picked") or [])
