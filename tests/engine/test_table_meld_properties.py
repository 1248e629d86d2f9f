"""Table-meld rummies (Rami, Rami 40, Kalooki, Rami traditionnel): properties under random play, and the
meld helpers (engine.melds.table) against brute force.

Also the shared test helpers of test_rami*.py and test_kalooki.py (`rig`, `all_cards`, `play_all`).
"""

import copy
import itertools
import json
import random
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalMove, cards, games
from engine.base import visible_to
from engine.melds import is_valid_meld
from engine.melds import table as tm

SLUGS = ["rami", "rami40", "kalooki", "rami-traditionnel"]
DECK_SIZES = {"rami": 110, "rami40": 106, "kalooki": 108, "rami-traditionnel": 104}
OVER = ("ROUND_OVER", "MATCH_OVER")
SEED = "7ab1e" * 12 + "0000"


# ---------------------------------------------------------------- helpers shared by the game tests

def all_cards(state):
    return ([c for h in state["hands"] for c in h] + state["stock"] + state["discard"] + state["removed"]
            + [c for m in state["table"] for c in m["cards"]])


def rig(game, hands, *, seats=2, current=0, phase="MELD", table=(), opened=None, discard=None, stock=None,
        scores=None, taken=None, options=None, dealer=None):
    """A mid-round state with chosen hands and table melds (others filled from the rest), cards conserved.

    table: [(owner, cards, wilds)]; melds get ids M1, M2… in order. discard: pile, top last.
    """
    state = copy.deepcopy(game.new_match(seats, options or {}, SEED))
    melds = []
    for i, (owner, meld_cards, wilds) in enumerate(table):
        (reading,) = tm.read_meld(list(meld_cards), game.rules, wilds)
        melds.append({"id": f"M{i + 1}", "owner": owner, **reading.as_dict()})
    used = {*(discard or ()), *(c for h in hands.values() for c in h), *(stock or ()),
            *(c for m in melds for c in m["cards"])}
    pool = [c for c in game.deck if c not in used]
    full = {s: list(h) for s, h in hands.items()}
    for s in range(seats):
        if s not in full:
            n = game.hand_size
            full[s], pool = pool[:n], pool[n:]
    state["hands"] = [full[s] for s in range(seats)]
    if discard is None:
        discard = pool[:1]
        pool = pool[1:]
    if stock is None:
        state["stock"], state["discard"] = pool, list(discard)
    else:
        state["stock"], state["discard"] = list(stock), pool + list(discard)
    state["table"] = melds
    state["opened"] = list(opened) if opened is not None else [False] * seats
    state["current"] = current
    state["phase"] = phase
    state["taken_card"] = taken
    state["take_undone"] = False
    state["staged"] = []
    state["dealer"] = (current - 1) % seats if dealer is None else dealer
    if scores is not None:
        state["scores"] = list(scores)
    assert Counter(all_cards(state)) == Counter(game.deck)
    return state


def play_all(game, state, seat, moves):
    """Apply moves in order; (state, all events)."""
    events = []
    for move in moves:
        state, evs = game.apply(state, seat, move)
        events += evs
    return state, events


def kinds(events):
    return [e["kind"] for e in events]


# ---------------------------------------------------------------- invariants

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


def revealed(state):
    if state["phase"] not in OVER or not state["last_round"]:
        return set()
    return {c for p in state["last_round"]["players"] for c in p["hand"]}


def hidden_from(state, seat):
    """Cards `seat` (None = spectator) must not see: other hands, the stock, cards of leavers."""
    hidden = set(state["stock"]) | set(state["removed"])
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            hidden |= set(hand)
    hidden -= revealed(state)
    hidden.discard(state.get("taken_card"))  # taken face up from the pile, in front of everyone
    return hidden


def check_state(game, state, events=()):
    assert len(game.deck) == DECK_SIZES[game.slug]
    assert Counter(all_cards(state)) == Counter(game.deck)
    json.dumps(state)
    unstaged = {**state, "staged": []}
    for meld in state["table"]:  # every table meld reads back as itself
        reading = game.reading(meld)
        assert list(reading.cards) == meld["cards"] and reading.wild_map == meld["wilds"]
        assert is_valid_meld(meld["cards"], game.rules)
    # a released joker went to the hand in front of everyone (it was on the table, or the same commit
    # published it there): its id is no secret
    released = {e["joker"] for e in events if e["kind"] == "swap_joker"}
    for seat in [*range(state["seats"]), None]:
        view = game.public_view(state) if seat is None else game.view(state, seat)
        json.dumps(view)
        words = set(strings(view))
        assert not words & hidden_from(state, seat), (seat, words & hidden_from(state, seat))
        assert state["seed"] not in words and "seed" not in view and "stock" not in view
        if seat is None or seat != state["current"]:
            # nothing staged shows anywhere but in the acting seat's own view
            other = game.public_view(unstaged) if seat is None else game.view(unstaged, seat)
            assert view == other
            assert view["staged"] is None and view["suggestions"] is None
        if seat is not None and seat != state["current"]:
            assert Counter(view["hand"]) == Counter(state["hands"][seat])
        for evt in events:
            if visible_to(evt, seat):
                assert not set(strings(evt)) & (hidden_from(state, seat) - released), (seat, evt)
                if evt["kind"] in ("staged", "unstaged"):
                    assert seat == evt["seat"]
    if state["phase"] == "MELD":
        seat = state["current"]
        hand, table = game.preview(state, seat)
        assert Counter(hand + [c for m in table for c in m["cards"]]) == Counter(
            state["hands"][seat] + [c for m in state["table"] for c in m["cards"]])
        for meld in table:
            assert is_valid_meld(meld["cards"], game.rules)


def greedy_move(game, state, seat, rnd):
    """A simple player: lay down / lay off / swap what the suggestions offer, then the rules' discard."""
    legal = game.legal_moves(state, seat)
    table_moves = [m for m in legal if m["action"] in ("meld", "lay_off", "swap_joker", "go_out")]
    if table_moves and rnd.random() < 0.9:
        return table_moves[0]
    return game.autoplay(state, seat)


def choose(game, state, rnd, autoplay_rate, greedy_rate, leave_rate=0.0):
    to_act = game.to_act(state)
    if rnd.random() < leave_rate and len(state["active"]) > 1:
        return rnd.choice(state["active"]), {"action": "leave"}
    if not to_act:
        return rnd.choice(state["active"]), {"action": "next_round"}
    seat = to_act[0]
    r = rnd.random()
    if r < autoplay_rate:
        return seat, game.autoplay(state, seat)
    if r < autoplay_rate + greedy_rate:
        return seat, greedy_move(game, state, seat, rnd)
    return seat, rnd.choice(game.legal_moves(state, seat))


def illegal_candidates(game, state, rnd):
    deck = game.deck
    yield None, {"action": "draw_stock"}
    yield 0, "discard"
    yield 0, {"card": "AS1"}
    yield 0, {"action": "fly"}
    if state["phase"] == "MATCH_OVER":
        yield state["active"][0] if state["active"] else 0, {"action": "next_round"}
        return
    out = [s for s in range(state["seats"]) if s not in state["active"]]
    if out:
        yield out[0], {"action": "next_round"}
    to_act = game.to_act(state)
    if not to_act:
        yield state["active"][0], {"action": "draw_stock"}
        return
    seat = to_act[0]
    hand, table = game.preview(state, seat)
    yield seat, {"action": "next_round"}
    others = [s for s in state["active"] if s != seat]
    if others:
        yield rnd.choice(others), rnd.choice(game.legal_moves(state, seat))
    foreign = [c for c in deck if c not in hand]
    yield seat, {"action": "discard", "card": rnd.choice(foreign)}
    yield seat, {"action": "discard", "card": "ZZ1"}
    yield seat, {"action": "discard", "card": None}
    yield seat, {"action": "meld", "cards": "AS1"}
    yield seat, {"action": "meld", "cards": []}
    yield seat, {"action": "meld", "cards": [rnd.choice(foreign)]}
    yield seat, {"action": "lay_off", "cards": hand[:1], "meld_id": "M999"}
    yield seat, {"action": "lay_off", "cards": hand[:1], "meld_id": 3}
    yield seat, {"action": "swap_joker", "cards": hand[:1], "meld_id": "M1", "joker": "AS1"}
    if state["phase"] == "MELD":
        yield seat, {"action": "meld", "cards": hand[:2]}  # two cards are never a meld
        if hand:
            yield seat, {"action": "meld", "cards": [hand[0], hand[0], hand[0]]}
        if state["taken_card"] is not None and state["taken_card"] in hand:
            yield seat, {"action": "discard", "card": state["taken_card"]}
        if hand and game.go_out:
            yield seat, {"action": "go_out"}
        if not state["staged"] and not (game.undo_take and state["taken_card"]):
            yield seat, {"action": "undo"}
        yield seat, {"action": "draw_stock"}
    else:
        yield seat, {"action": "undo"}
        yield seat, {"action": "discard", "card": hand[0]}


def play(game, seats, options, seed, rnd, steps, autoplay_rate, greedy_rate, leave_rate, check_illegal=True):
    state = game.new_match(seats, options, seed)
    log = []
    check_state(game, state)
    for _ in range(steps):
        if state["phase"] == "MATCH_OVER":
            break
        if check_illegal and rnd.random() < 0.3:
            before = copy.deepcopy(state)
            for seat, move in illegal_candidates(game, state, rnd):
                with pytest.raises(IllegalMove) as err:
                    game.apply(state, seat, move)
                assert err.value.message and err.value.code
                assert state == before
        seat, move = choose(game, state, rnd, autoplay_rate, greedy_rate, leave_rate)
        before = copy.deepcopy(state)
        new, events = game.apply(state, seat, move)
        assert state == before, "apply mutated its input"
        log.append((seat, move))
        check_state(game, new, events)
        state = new
    return state, log


OPTIONS = {
    "rami": st.sampled_from(["1", "50", "100"]).map(lambda v: {"point_limit": v}),
    "rami40": st.sampled_from(["1", "50", "100"]).map(lambda v: {"point_limit": v}),
    "kalooki": st.sampled_from(["1", "50", "100"]).map(lambda v: {"point_limit": v}),
    "rami-traditionnel": st.sampled_from(["1", "100", "250", "500"]).map(lambda v: {"target": v}),
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    slug=st.sampled_from(SLUGS),
    seats=st.integers(2, 4),
    seed=st.binary(min_size=16, max_size=16).map(bytes.hex),
    policy=st.integers(0, 2**32),
    mix=st.sampled_from([(0.0, 0.0), (0.3, 0.3), (0.1, 0.7), (0.6, 0.2)]),
    leave_rate=st.sampled_from([0.0, 0.01]),
)
def test_random_play_keeps_every_invariant_and_replays(data, slug, seats, seed, policy, mix, leave_rate):
    game = games.get(slug)
    options = data.draw(OPTIONS[slug])
    autoplay_rate, greedy_rate = mix
    state, log = play(game, seats, options, seed, random.Random(policy), 150, autoplay_rate, greedy_rate,
                      leave_rate)
    replayed = game.new_match(seats, options, seed)
    for seat, move in log:
        replayed, _ = game.apply(replayed, seat, move)
    assert replayed == state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    slug=st.sampled_from(SLUGS),
    seats=st.integers(2, 4),
    seed=st.binary(min_size=16, max_size=16).map(bytes.hex),
    policy=st.integers(0, 2**32),
)
def test_every_listed_move_is_accepted(slug, seats, seed, policy):
    """Each move of legal_moves applies (and autoplay's move too), all along a greedy game."""
    game = games.get(slug)
    rnd = random.Random(policy)
    state = game.new_match(seats, {}, seed)
    for _ in range(120):
        if state["phase"] == "MATCH_OVER":
            break
        to_act = game.to_act(state)
        if not to_act:
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        assert legal, "the acting seat always has a move"
        assert game.view(state, seat)["legal"] == legal
        for move in legal:
            game.apply(state, seat, move)
        game.apply(state, seat, game.autoplay(state, seat))
        state, _ = game.apply(state, seat, greedy_move(game, state, seat, rnd))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    slug=st.sampled_from(SLUGS),
    seats=st.integers(2, 4),
    seed=st.binary(min_size=16, max_size=16).map(bytes.hex),
    policy=st.integers(0, 2**32),
)
def test_random_rounds_end_with_a_greedy_mix(slug, seats, seed, policy):
    """Random legal moves mixed with a greedy player end every round in bounded steps (pure random play
    rarely lays down, and the rules' autoplay never does: it could go round forever)."""
    game = games.get(slug)
    rnd = random.Random(policy)
    state = game.new_match(seats, {}, seed)
    for _ in range(2):
        for _ in range(4000):
            if state["phase"] in OVER:
                break
            seat, move = choose(game, state, rnd, 0.0, 0.5)
            state, _ = game.apply(state, seat, move)
        else:
            pytest.fail("a round did not end")
        if state["phase"] == "MATCH_OVER":
            break
        state, _ = game.apply(state, state["active"][0], {"action": "next_round"})


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_matches_end_under_a_greedy_policy(slug, seats):
    game = games.get(slug)
    rnd = random.Random(seats)
    state = game.new_match(seats, {}, f"{seats}{slug}" * 4)
    steps = 0
    while state["phase"] != "MATCH_OVER" and steps < 30000:
        seat, move = choose(game, state, rnd, 0.1, 0.8)
        state, _ = game.apply(state, seat, move)
        steps += 1
    assert state["phase"] == "MATCH_OVER", steps
    check_state(game, state)
    result = game.result(state)
    assert result["winners"] and set(result["ranking"]) == set(range(seats))
    assert result["ranking"][: len(result["winners"])] == result["winners"]


# ---------------------------------------------------------------- engine.melds.table against brute force

RULES = {slug: games.get(slug).rules for slug in SLUGS}
VALUES = {slug: games.get(slug).values() for slug in SLUGS}


def brute_plans(hand, rules):
    """Every partition of some of the hand into valid melds: (melded cards, best meld points)."""
    hand = list(hand)
    n = len(hand)
    melds = []
    for k in range(3, n + 1):
        for idx in itertools.combinations(range(n), k):
            group = [hand[i] for i in idx]
            readings = tm.read_meld(group, rules)
            assert bool(readings) == is_valid_meld(group, rules), group
            if readings:
                melds.append((sum(1 << i for i in idx), max(r.points() for r in readings)))

    @lru_cache(None)
    def partitions(mask):
        """(used mask, points) of every way to fill part of `mask` with melds of its lowest card on."""
        if not mask:
            return {(0, 0)}
        low = mask & -mask
        out = set(partitions(mask ^ low))
        for m, pts in melds:
            if m & low and m & mask == m:
                out |= {(u | m, p + pts) for u, p in partitions(mask ^ m)}
        return frozenset(out)

    return [({hand[i] for i in range(n) if used >> i & 1}, pts) for used, pts in partitions((1 << n) - 1)]


def _biased_hand(rnd, deck, size):
    suits = rnd.sample("SHDC", 2)
    ranks = rnd.sample(range(1, 14), 7)
    pool = [c for c in deck if cards.is_joker(c) or (cards.suit_of(c) in suits
                                                      and cards.RANK_INDEX[cards.rank_of(c)] in ranks)]
    return rnd.sample(pool, min(size, len(pool)))


@settings(max_examples=150, deadline=None)
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 2**32), size=st.integers(4, 9),
       weight=st.sampled_from(["points", "penalty"]), leave=st.sampled_from(["any", "discard", "discard_or_empty"]),
       use_must=st.booleans(), use_taken=st.booleans())
def test_best_plan_is_exact(slug, seed, size, weight, leave, use_must, use_taken):
    rnd = random.Random(seed)
    game = games.get(slug)
    rules, values = RULES[slug], VALUES[slug]
    hand = _biased_hand(rnd, game.deck, size)
    must = rnd.choice(hand) if use_must else None
    taken = (must or rnd.choice(hand)) if use_taken else None
    plan = tm.best_plan(hand, rules, None if weight == "points" else values, must=must, taken=taken, leave=leave)

    def score(used, pts):
        return pts if weight == "points" else sum(values[c] for c in used)

    def ok(used):
        left = [c for c in hand if c not in used]
        if must is not None and must not in used:
            return False
        if leave == "any":
            return True
        if leave == "discard_or_empty" and not left:
            return True
        return any(c != taken for c in left)

    candidates = [score(u, p) for u, p in brute_plans(hand, rules) if ok(u)]
    if plan is None:
        assert not candidates
        return
    assert plan.value == max(candidates)
    used = [c for m in plan.melds for c in m.cards]
    assert sorted(used + list(plan.left)) == sorted(hand)
    assert ok(set(used))
    for m in plan.melds:
        (again,) = tm.read_meld(list(m.cards), rules, m.wild_map)
        assert again == m
    total = sum(m.points() for m in plan.melds) if weight == "points" else sum(values[c] for c in used)
    assert total == plan.value


@settings(max_examples=200, deadline=None)
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 2**32), size=st.integers(3, 6))
def test_readings_agree_with_the_solver_and_read_back(slug, seed, size):
    rnd = random.Random(seed)
    game = games.get(slug)
    rules = RULES[slug]
    group = _biased_hand(rnd, game.deck, size)
    readings = tm.read_meld(group, rules)
    assert bool(readings) == is_valid_meld(group, rules)
    assert len({r.key for r in readings}) == len(readings)
    for r in readings:
        assert sorted(r.cards) == sorted(group)
        assert set(r.wild_map) == {c for c in group if cards.is_joker(c)}
        assert tm.read_meld(group, rules, r.wild_map) == [r]
        assert game.reading({"cards": list(r.cards), "wilds": r.wild_map, "kind": r.kind}) == r
        # a meld laid off card by card, low end or high end, gives a valid meld whose ends agree
        ends = tm.open_ends(r, rules)
        for c in game.deck:
            if c in group:
                continue
            for end in ("low", "high"):
                after = tm.extend(r, [c], end, rules)
                if after is not None:
                    assert is_valid_meld(list(after.cards), rules)
                    assert ends[end] or r.kind == "set"


# ---------------------------------------------------------------- the engine contract (engine/README.md)

REQUIRED_VIEW_KEYS = {"game", "seat", "seats", "phase", "round", "dealer", "current", "to_act", "hand", "players",
                      "stock_count", "discard_top", "discard_pile", "legal", "arrangement", "history", "last_round",
                      "table", "opened", "threshold", "taken_card", "staged", "suggestions", "rules"}


@pytest.mark.parametrize("slug", SLUGS)
def test_contract(slug):
    from engine.base import Game

    game = games.get(slug)
    assert slug in games.available() and game.slug == slug
    for name in ("new_match", "to_act", "legal_moves", "apply", "view", "public_view", "result", "autoplay",
                 "leave"):
        assert getattr(type(game), name) is not getattr(Game, name), name
    state = game.new_match(3, {}, SEED)
    assert {"game", "seats", "phase", "round", "active", "scores", "history"} <= set(state)
    assert game.result(state) is None and game.to_act(state) == [state["current"]]
    for seat in range(3):
        assert set(game.view(state, seat)) >= REQUIRED_VIEW_KEYS
    assert set(game.public_view(state)) >= REQUIRED_VIEW_KEYS
    with pytest.raises(ValueError):
        game.new_match(5, {}, SEED)
    with pytest.raises(IllegalMove) as err:
        game.autoplay(state, (state["current"] + 1) % 3)
    assert err.value.code == "no_decision"
