"""Rummikub bots (engine/bots/rummikub.py): legal moves from the view alone, no hidden information, matches
that end, Confirmé never rearranging, Expert going out and holding back."""

import copy
import random

import pytest

from engine import bots, games
from engine.bots import rummikub as rb
from engine.games import _tiles

GAME = games.get("rummikub")
SEED = "b0b5" * 16
E2_TABLE = [["R7a", "B7a", "K7a"], ["R8a", "B8a", "K8a"], ["R9a", "B9a", "K9a"]]


def position(racks, table=(), opened=None, current=0, pool=None):
    seats = len(racks)
    state = copy.deepcopy(GAME.new_match(seats, {"rounds": "1"}, SEED))
    state["racks"] = [list(r) for r in racks]
    state["table"] = [_tiles.best_reading(s).as_dict() for s in table]
    used = {t for r in racks for t in r} | {t for s in table for t in s}
    state["pool"] = [t for t in _tiles.TILES if t not in used] if pool is None else list(pool)
    state["opened"] = list(opened) if opened is not None else [False] * seats
    state["current"] = state["start"] = current
    return state


def decide(state, seat, level, budget=None, rng_seed=0):
    view = GAME.view(state, seat)
    legal = GAME.legal_moves(state, seat)
    return bots.choose(GAME, view, legal, level, random.Random(rng_seed), budget=budget)


def random_positions(count, seed):
    """(state, seat) with a decision, reached by bots of mixed levels (so tables grow as in real play)."""
    rng = random.Random(seed)
    found = []
    match = 0
    while len(found) < count:
        seats = rng.choice((2, 3, 4))
        levels = [rng.choice((1, 2, 3)) for _ in range(seats)]
        state = GAME.new_match(seats, {"rounds": "1"}, f"rk-bots-{seed}-{match}")
        match += 1
        for _ in range(rng.randrange(5, 90)):
            to_act = GAME.to_act(state)
            if not to_act:
                break
            seat = to_act[0]
            state, _ = GAME.apply(state, seat, decide(state, seat, levels[seat], budget=24, rng_seed=match))
        if GAME.to_act(state):
            found.append((state, GAME.to_act(state)[0]))
    return found


POSITIONS = random_positions(24, 1)


def kept_sets(before: list[list[str]], after: list[list[str]]) -> bool:
    """Every set of `before` sits whole in one set of `after`, with no tile of another old set."""
    old = {t for s in before for t in s}
    for s in before:
        home = [n for n in after if set(s) <= set(n)]
        if len(home) != 1 or (set(home[0]) & old) != set(s):
            return False
    return True


@pytest.mark.parametrize("level", (1, 2, 3))
def test_every_level_plays_a_move_the_engine_accepts(level):
    for state, seat in POSITIONS:
        move = decide(state, seat, level)
        assert move["action"] in ("draw_stock", "pass", "end_turn"), move
        GAME.apply(state, seat, move)  # raises IllegalMove if not legal


def hidden_variant(state, seat, rng):
    """The same position for `seat`, with the other racks and the pool dealt again from their tiles."""
    other = [s for s in range(state["seats"]) if s != seat]
    hidden = [t for s in other for t in state["racks"][s]] + list(state["pool"])
    rng.shuffle(hidden)
    new = copy.deepcopy(state)
    for s in other:
        n = len(state["racks"][s])
        new["racks"][s], hidden = hidden[:n], hidden[n:]
    new["pool"] = hidden
    return new


@pytest.mark.parametrize("level", (1, 2, 3))
def test_bots_decide_from_the_view_alone(level):
    rng = random.Random(level)
    for state, seat in POSITIONS[:12]:
        variant = hidden_variant(state, seat, rng)
        assert GAME.view(variant, seat) == GAME.view(state, seat)
        assert decide(variant, seat, level) == decide(state, seat, level)


def test_a_bot_match_always_ends():
    for seats, levels in ((2, (3, 2)), (3, (1, 2, 3)), (4, (1, 1, 2, 3))):
        state = GAME.new_match(seats, {"rounds": "1"}, f"rk-end-{seats}")
        for step in range(3000):
            if GAME.result(state) is not None:
                break
            to_act = GAME.to_act(state)
            if not to_act:
                state, _ = GAME.apply(state, state["active"][0], {"action": "next_round"})
                continue
            seat = to_act[0]
            state, _ = GAME.apply(state, seat, decide(state, seat, levels[seat], budget=24, rng_seed=step))
        assert GAME.result(state) is not None, (seats, levels)


@pytest.mark.parametrize("level", (1, 2))
def test_beginner_and_confirmed_never_rearrange_the_table(level):
    checked = 0
    for state, seat in POSITIONS:
        move = decide(state, seat, level)
        if move["action"] == "end_turn":
            before = [s["tiles"] for s in state["table"]]
            assert kept_sets(before, move["table"]), (before, move["table"])
            checked += 1
    assert checked


def test_confirmed_adds_to_runs_and_groups_and_lays_new_sets():
    state = position([["K10a", "Y7b", "R1a", "R2a", "R3a", "B13a"], ["B1a"]],
                     table=[["K7a", "K8a", "K9a"], ["R7a", "B7a", "K7b"]], opened=[True, True])
    move = decide(state, 0, 2)
    new, _ = GAME.apply(state, 0, move)
    assert new["racks"][0] == ["B13a"]
    assert kept_sets([s["tiles"] for s in state["table"]], move["table"])


def test_confirmed_does_not_split_a_set_but_the_expert_does():
    state = position([["K6b", "R1b"], ["B1a"]], table=E2_TABLE, opened=[True, True])
    assert decide(state, 0, 2) == {"action": "draw_stock"}  # K6b fits only by splitting the groups
    move = decide(state, 0, 3)
    assert move["action"] == "end_turn"
    new, _ = GAME.apply(state, 0, move)
    assert new["racks"][0] == ["R1b"]


def test_confirmed_first_meld_from_the_rack_alone_reaches_30():
    state = position([["R10a", "R11a", "R12b", "K1a", "K2a", "B5a"], ["B1a"]], table=E2_TABLE)
    move = decide(state, 0, 2)
    new, events = GAME.apply(state, 0, move)
    assert new["opened"][0] and any(e["kind"] == "opened" and e["points"] >= 30 for e in events)
    assert move["table"][:3] == E2_TABLE
    assert decide(position([["R10a", "K2a", "K3a", "K4a"], ["B1a"]]), 0, 2) == {"action": "draw_stock"}


@pytest.mark.parametrize("level", (1, 2, 3))
def test_every_level_goes_out_when_it_simply_can(level):
    state = position([["R10a", "R11a", "R12a", "K13a"], ["B1a"]], table=[["K10a", "K11a", "K12a"]],
                     opened=[True, True])
    move = decide(state, 0, level)
    new, events = GAME.apply(state, 0, move)
    assert new["racks"][0] == [] and any(e["kind"] == "round_over" for e in events)


def test_expert_goes_out_with_a_rearrangement_rather_than_hold_back():
    rack = ["K6b", "R10a", "R11a", "R12a", "J1"]
    state = position([rack, [f"Y{n}a" for n in range(2, 12)]],
                     table=E2_TABLE, opened=[True, True])
    move = decide(state, 0, 3)
    new, events = GAME.apply(state, 0, move)
    assert new["racks"][0] == [] and any(e["kind"] == "round_over" for e in events)


def test_expert_keeps_its_joker_and_a_spare_unless_an_opponent_is_close():
    rack = ["R3a", "R4a", "R5a", "R6a", "J1", "K1a", "Y9b"]
    far = [f"Y{n}a" for n in range(1, 11)]
    state = position([rack, far], table=[["B9a", "B10a", "B11a"]], opened=[True, True])
    move = decide(state, 0, 3)
    new, _ = GAME.apply(state, 0, move)
    assert "J1" in new["racks"][0] and len(new["racks"][0]) < len(rack)
    close = position([rack, far[:3]], table=[["B9a", "B10a", "B11a"]], opened=[True, True])
    move = decide(close, 0, 3)
    new, _ = GAME.apply(close, 0, move)
    assert "J1" not in new["racks"][0]
    assert len(new["racks"][0]) <= 2


def test_expert_budget_is_a_table_cap_and_is_deterministic():
    for state, seat in POSITIONS[:8]:
        a = decide(state, seat, 3, budget=9, rng_seed=1)
        b = decide(state, seat, 3, budget=9, rng_seed=2)
        assert a == b
        GAME.apply(state, seat, a)


def test_bots_undo_staged_proposals_first():
    state = position([["K6b", "R1b"], ["B1a"]], table=E2_TABLE, opened=[True, True])
    staged, _ = GAME.apply(state, 0, {"action": "rearrange", "table": E2_TABLE + [["K6b"]]})
    for level in (1, 2, 3):
        assert decide(staged, 0, level) == {"action": "undo", "all": True}


def test_registered():
    assert bots.supports("rummikub") and bots.adapter_for("rummikub") is rb.ADAPTER


# ---------------------------------------------------------------- the engine's suggestions (hot path)


def test_views_and_legal_moves_never_run_the_solver_on_the_whole_big_table(monkeypatch):
    from engine.games import rummikub as rk
    from engine.games import rummikub_plays, rummikub_solver

    sizes = []
    real = rummikub_solver.solve

    def spy(rack, table, opening=False):
        sizes.append(len(table))
        return real(rack, table, opening=opening)

    monkeypatch.setattr(rummikub_plays.solver, "solve", spy)
    rummikub_plays._simple.cache_clear()
    rummikub_plays._guarded.cache_clear()
    big = max(POSITIONS, key=lambda p: sum(len(s["tiles"]) for s in p[0]["table"]))
    state, seat = big
    assert sum(len(s["tiles"]) for s in state["table"]) > rk.QUICK_TABLE
    view = GAME.view(state, seat)
    assert sizes and max(sizes) <= rk.QUICK_TABLE
    assert view["legal"] == GAME.legal_moves(state, seat)
    if view["suggestion"] is not None:
        assert view["legal"][-1] == {"action": "end_turn", "table": view["suggestion"]["table"],
                                     "jokers": view["suggestion"]["jokers"]}
        GAME.apply(state, seat, view["legal"][-1])


def test_hint_is_the_exact_solvers_play_for_the_acting_seat_only():
    state = position([["K6b", "R1b"], ["B1a"]], table=E2_TABLE, opened=[True, True])
    hint = GAME.hint(state, 0)
    assert hint["placed"] == ["K6b"] and hint["count"] == 1
    new, _ = GAME.apply(state, 0, {"action": "end_turn", "table": hint["table"], "jokers": hint["jokers"]})
    assert new["racks"][0] == ["R1b"]
    assert GAME.hint(state, 1) is None
    assert GAME.hint(position([["R1a", "K5b"], ["B1a"]], opened=[True, True]), 0) is None
