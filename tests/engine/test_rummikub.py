"""Rummikub engine (engine/games/rummikub.py, ../shared/rules/rummikub.md): the worked examples of §11, the
commit checks and their French refusals, rounds and the match, and properties under random play."""

import copy
import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalMove, games
from engine.base import visible_to
from engine.games import _tiles
from engine.games.rummikub import GAME, first_player

SEED = "5eed" * 16


# ---------------------------------------------------------------- helpers

def position(racks, table=(), pool=None, opened=None, current=0, seats=None, rounds="3"):
    """A match state with the given racks and table (sets as lists; jokers read as their best reading).
    The pool gets every other tile unless given."""
    seats = seats or len(racks)
    state = GAME.new_match(seats, {"rounds": rounds}, SEED)
    state = copy.deepcopy(state)
    state["racks"] = [list(r) for r in racks]
    state["table"] = [_tiles.best_reading(s).as_dict() for s in table]
    used = {t for r in racks for t in r} | {t for s in table for t in s}
    state["pool"] = [t for t in _tiles.TILES if t not in used] if pool is None else list(pool)
    state["opened"] = list(opened) if opened is not None else [False] * seats
    state["current"] = current
    state["start"] = current
    return state


def refusal(state, seat, move):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move)
    assert state == before
    return err.value


def tiles_in_play(state):
    return ([t for r in state["racks"] for t in r] + state["pool"] + state["removed"]
            + [t for s in state["table"] for t in s["tiles"]])


# ---------------------------------------------------------------- material (§1), deal (§3)

def test_106_tiles_with_the_ids_of_the_rules():
    assert len(_tiles.TILES) == len(set(_tiles.TILES)) == 106
    pattern = re.compile(r"^[RYBK]([1-9]|1[0-3])[ab]$|^J[12]$")
    assert all(pattern.match(t) for t in _tiles.TILES)
    assert _tiles.tile_name("R7a") == "Tuile 7 rouge" and _tiles.tile_name("K13b") == "Tuile 13 noir"
    assert _tiles.tile_name("J2") == "Joker"
    assert _tiles.rack_value(["R5a", "J2"]) == 35


@pytest.mark.parametrize("seats,pool", [(2, 78), (3, 64), (4, 50)])
def test_deal_14_each(seats, pool):
    state = GAME.new_match(seats, {}, SEED)
    assert [len(r) for r in state["racks"]] == [14] * seats
    assert len(state["pool"]) == pool
    assert Counter(tiles_in_play(state)) == Counter(_tiles.TILES)
    assert state["phase"] == "TURN" and state["current"] == state["start"] == state["first_draw"]["seat"]
    assert state["rounds"] == 3 and state["options"] == {"rounds": "3"}


def test_first_player_draw_highest_starts_jokers_redrawn_ties_redraw():
    for k in range(60):
        seed = f"{k:064x}"
        seat, rounds = first_player(seed, 4)
        contenders = set(range(4))
        for draws in rounds:
            assert {d["seat"] for d in draws} == contenders
            last = {}
            for d in draws:
                last[d["seat"]] = d["face"]
            assert "joker" not in last.values()  # a joker is always redrawn
            top = max(_tiles.number_of(t) for t in last.values())
            contenders = {s for s, t in last.items() if _tiles.number_of(t) == top}
        assert contenders == {seat}


def test_the_start_moves_clockwise_each_round():
    state = GAME.new_match(3, {"rounds": "5"}, SEED)
    first = state["start"]
    state = position([["R1a"], ["K9a"], ["B9a"]], current=first, opened=[True] * 3)
    state["start"] = first
    state["racks"][first] = ["R1a"]
    state["table"] = [_tiles.best_reading(["R2a", "R3a", "R4a"]).as_dict()]
    state, _ = GAME.apply(state, first, {"action": "end_turn", "table": [["R1a", "R2a", "R3a", "R4a"]]})
    assert state["phase"] == "ROUND_OVER"
    state, events = GAME.apply(state, 0, {"action": "next_round"})
    assert state["start"] == state["current"] == (first + 1) % 3 and state["round"] == 2


# ---------------------------------------------------------------- validity (§5) and messages

@pytest.mark.parametrize("tiles,valid", [
    (["R7a", "B7a", "K7a"], True),
    (["R7a", "B7a", "K7a", "Y7b"], True),
    (["R7a", "R7b", "K7a"], False),  # two reds
    (["R7a", "B7a", "K7a", "Y7b", "J1"], False),  # five
    (["B4a", "B5a", "B6b"], True),
    (["B4a", "B5a", "B7a"], False),
    (["B4a", "J1", "B6a"], True),
    (["R12a", "R13a", "R1a"], False),  # 13-1-2: no wrap
    (["R13a", "R1a", "R2a"], False),
    (["R12a", "R13a", "J1"], True),  # J1 = R11
    (["R5a", "J1", "J2"], True),
    (["R5a", "J1"], False),
    ([f"Y{n}a" for n in range(1, 14)], True),
    (["R4a", "B5a", "K6a"], False),
])
def test_sets(tiles, valid):
    assert _tiles.is_valid_set(tiles) is valid


def test_refusal_names_the_bad_set_in_french():
    assert _tiles.check_set(["B4a", "B5a", "B7a"]) == (
        "La suite 4-5-7 bleue n'est pas valide : les numéros ne se suivent pas.")
    assert _tiles.check_set(["R7a", "R7b", "K7a"]).startswith("Le groupe de 7 rouge, rouge, noir n'est pas valide")
    assert _tiles.check_set(["R4a", "B5a"]) == (
        "La combinaison 4 rouge, 5 bleu n'est pas valide : il faut au moins 3 tuiles.")
    assert "ne passe pas de 13 à 1" in _tiles.check_set(["R12a", "R13a", "R1a"])
    assert _tiles.check_set(["B4a", "J1", "B6a"], {"J1": "B7"}).startswith("La suite 4-6-joker bleue n'est pas valide")


def test_refusals_name_tiles_and_jokers_in_correct_french():
    state = position([["K6b", "Y1a"], ["B1a", "R1b", "J1"]], table=E2_TABLE, opened=[True, True])
    assert refusal(state, 0, {"action": "rearrange", "table": E2_TABLE + [["Y1a", "J1"]]}).message == (
        "Tu n'as pas le joker (J1).")
    assert refusal(state, 0, {"action": "end_turn", "table": E2_TABLE + [["K6b", "R1b"]]}).message == (
        "Tu n'as pas la tuile 1 rouge (R1b).")
    assert refusal(state, 0, {"action": "end_turn", "table": E2_TABLE + [["B9a", "K6b"]]}).message == (
        "La tuile 9 bleue (B9a) est deux fois sur la table.")
    assert refusal(state, 0, {"action": "end_turn", "table": E2_TABLE[:2] + [["R9a", "B9a"]]}).message == (
        "La tuile 9 noire (K9a) était sur la table : elle doit y rester.")
    assert _tiles.check_set(["B4a", "J1", "B6a"], {"J1": "B7"}) == (
        "La suite 4-6-joker bleue n'est pas valide : le joker ne peut pas y tenir la place annoncée "
        "(le joker J1 pour le 7 bleu).")
    assert _tiles.tile_words("Y12b") == "la tuile 12 jaune" and _tiles.tile_words("J2") == "le joker"


def test_joker_readings_and_statements():
    reading = _tiles.best_reading(["R5a", "R6a", "J1"])
    assert reading.jokers == {"J1": "R7"} and reading.value == 18  # the highest reading by default
    reading = _tiles.best_reading(["R5a", "R6a", "J1"], {"J1": "R4"})
    assert reading.tiles == ("J1", "R5a", "R6a") and reading.value == 15
    reading = _tiles.best_reading(["B5a", "Y5b", "J1"], {"J1": "R5"})
    assert reading.kind == "group" and reading.tiles == ("J1", "Y5b", "B5a")
    assert _tiles.best_reading(["B5a", "Y5b", "J1"], {"J1": "B5"}) is None


# ---------------------------------------------------------------- E1: first meld

def test_e1_first_meld_of_33_is_accepted_alone():
    state = position([["R10a", "R11a", "R12b", "K2a"], ["B1a"]])
    new, events = GAME.apply(state, 0, {"action": "end_turn", "table": [["R10a", "R11a", "R12b"]]})
    assert new["opened"][0] and new["racks"][0] == ["K2a"] and new["current"] == 1
    assert new["table"] == [{"tiles": ["R10a", "R11a", "R12b"], "kind": "run", "jokers": {}}]
    assert {"kind": "opened", "audience": "all", "seat": 0, "points": 33} in events


def test_e1_first_meld_of_21_is_refused():
    state = position([["B5a", "Y5b", "J1", "K1a", "K2a", "K3b", "R9a"], ["B1a"]])
    err = refusal(state, 0, {"action": "end_turn", "table": [["B5a", "Y5b", "J1"], ["K1a", "K2a", "K3b"]],
                             "jokers": {"J1": "R5"}})
    assert err.code == "below_threshold" and err.points == 21
    assert err.message.startswith("Ta première pose vaut 21 points : il en faut au moins 30")


def test_first_meld_may_not_touch_the_table():
    state = position([["R10a", "R11a", "R12b", "R13a", "K1a", "K2a", "K3a"], ["B1a"]], table=[["K7a", "B7a", "Y7a"]])
    err = refusal(state, 0, {"action": "end_turn", "table": [["K7a", "B7a", "Y7a", "R10a"]]})
    assert err.code == "invalid_set"  # invalid anyway
    err = refusal(state, 0, {"action": "end_turn", "table": [["K7a", "B7a", "Y7a"], ["K1a", "K2a", "K3a"]]})
    assert err.code == "below_threshold" and err.points == 6  # the table's 21 points do not count
    state["racks"][0] += ["R7a"]
    err = refusal(state, 0, {"action": "end_turn", "table": [["K7a", "B7a", "Y7a", "R7a"],
                                                             ["R10a", "R11a", "R12b", "R13a"]]})
    assert err.code == "table_touched"
    ok, _ = GAME.apply(state, 0, {"action": "end_turn", "table": [["K7a", "B7a", "Y7a"],
                                                                  ["R10a", "R11a", "R12b", "R13a"]]})
    assert ok["opened"][0] and len(ok["table"]) == 2


# ---------------------------------------------------------------- E2: the seed's rearrangement

E2_TABLE = [["R7a", "B7a", "K7a"], ["R8a", "B8a", "K8a"], ["R9a", "B9a", "K9a"]]


def test_e2_rearrangement_is_accepted():
    state = position([["K6b", "Y1a"], ["B1a"]], table=E2_TABLE, opened=[True, True])
    proposal = [["R7a", "R8a", "R9a"], ["B7a", "B8a", "B9a"], ["K6b", "K7a", "K8a", "K9a"]]
    new, events = GAME.apply(state, 0, {"action": "end_turn", "table": proposal, "placed": ["K6b"]})
    assert [s["tiles"] for s in new["table"]] == proposal
    assert all(s["kind"] == "run" for s in new["table"]) and new["racks"][0] == ["Y1a"]
    table_event = next(e for e in events if e["kind"] == "table")
    assert table_event["placed"] == ["K6b"] and table_event["audience"] == "all"


def test_e2_staged_then_committed_with_undo():
    state = position([["K6b", "Y1a"], ["B1a"]], table=E2_TABLE, opened=[True, True])
    bad = [["R7a", "R8a", "R9a"], ["B7a", "B8a", "B9a"], ["K6b", "K7a", "K9a"], ["K8a"]]
    good = [["R7a", "R8a", "R9a"], ["B7a", "B8a", "B9a"], ["K6b", "K7a", "K8a", "K9a"]]
    s1, ev = GAME.apply(state, 0, {"action": "rearrange", "table": bad})
    assert ev == [{"kind": "staged", "audience": {"seat": 0}, "seat": 0, "count": 1}]
    assert s1["racks"] == state["racks"] and s1["table"] == state["table"]  # nothing moves before the commit
    view = GAME.view(s1, 0)
    assert view["staged"]["commit_ok"] is False
    assert view["staged"]["sets"][2]["reason"] == (
        "La suite 6-7-9 noire n'est pas valide : les numéros ne se suivent pas.")
    assert GAME.view(s1, 1)["staged"] is None and GAME.public_view(s1)["staged"] is None
    err = refusal(s1, 0, {"action": "end_turn"})
    assert err.code == "invalid_set" and err.set_index == 2
    assert refusal(s1, 0, {"action": "draw_stock"}).code == "staged_pending"
    s2, _ = GAME.apply(s1, 0, {"action": "rearrange", "table": good})
    s3, _ = GAME.apply(s2, 0, {"action": "undo"})
    assert s3["staged"] == s1["staged"]
    s4, _ = GAME.apply(s2, 0, {"action": "end_turn"})
    assert [s["tiles"] for s in s4["table"]] == good and s4["staged"] == [] and s4["current"] == 1
    s5, _ = GAME.apply(s2, 0, {"action": "undo", "all": True})
    assert s5["staged"] == [] and refusal(s5, 0, {"action": "undo"}).code == "nothing_to_undo"
    assert refusal(s5, 0, {"action": "end_turn"}).code == "nothing_staged"


# ---------------------------------------------------------------- E3: joker on the table

def test_e3_joker_retrieved_and_reused_on_the_table():
    state = position([["Y5a", "B9a", "B10b", "K1a"], ["B1a"]], table=[["Y4a", "J1", "Y6b"]], opened=[True, True])
    assert state["table"][0]["jokers"] == {"J1": "Y5"}
    new, _ = GAME.apply(state, 0, {"action": "end_turn", "table": [["Y4a", "Y5a", "Y6b"], ["B9a", "B10b", "J1"]]})
    assert new["racks"][0] == ["K1a"]
    assert new["table"][1]["tiles"][-1] == "J1" or "J1" in new["table"][1]["tiles"]
    err = refusal(state, 0, {"action": "end_turn", "table": [["Y4a", "Y5a", "Y6b"]]})
    assert err.code == "table_tile_missing" and err.tile == "J1"
    assert "un joker ne revient jamais sur un chevalet" in err.message


def test_unchanged_set_keeps_its_joker_reading_and_a_statement_changes_it():
    state = position([["K1a", "K2a", "K3a"], ["B1a"]], table=[["R5a", "R6a", "J1"]], opened=[True, True])
    state["table"][0] = _tiles.best_reading(["R5a", "R6a", "J1"], {"J1": "R4"}).as_dict()
    new, _ = GAME.apply(state, 0, {"action": "end_turn", "table": [["R5a", "R6a", "J1"], ["K1a", "K2a", "K3a"]]})
    assert new["table"][0]["jokers"] == {"J1": "R4"}
    new, _ = GAME.apply(state, 0, {"action": "end_turn", "table": [["R5a", "R6a", "J1"], ["K1a", "K2a", "K3a"]],
                                   "jokers": {"J1": "R7"}})
    assert new["table"][0]["jokers"] == {"J1": "R7"} and new["table"][0]["tiles"] == ["R5a", "R6a", "J1"]


# ---------------------------------------------------------------- conservation refusals

def test_conservation_refusals():
    state = position([["K6b", "Y1a"], ["B1a", "R1b"]], table=E2_TABLE, opened=[True, True])
    assert refusal(state, 0, {"action": "end_turn", "table": E2_TABLE}).code == "nothing_placed"
    err = refusal(state, 0, {"action": "end_turn", "table": E2_TABLE[:2] + [["R9a", "B9a", "K9a", "R1b"]]})
    assert err.code == "not_your_tile" and "R1b" in err.message
    err = refusal(state, 0, {"action": "end_turn", "table": E2_TABLE[:2] + [["R9a", "B9a"]]})
    assert err.code == "table_tile_missing"
    assert err.message == "La tuile 9 noire (K9a) était sur la table : elle doit y rester."
    err = refusal(state, 0, {"action": "end_turn", "table": E2_TABLE + [["R9a", "K6b"]]})
    assert err.code == "duplicate_tile"
    assert refusal(state, 0, {"action": "end_turn", "table": E2_TABLE + [["Z9"]]}).code == "unknown_tile"
    assert refusal(state, 0, {"action": "end_turn", "table": "R7a"}).code == "bad_table"
    err = refusal(state, 0, {"action": "end_turn", "table": [["K6b", "K7a", "K8a", "K9a"], ["R7a", "R8a", "R9a"]]})
    assert err.code == "table_tile_missing" and err.tile == "B7a"
    proposal = [["R7a", "R8a", "R9a"], ["B7a", "B8a", "B9a"], ["K6b", "K7a", "K8a", "K9a"]]
    assert refusal(state, 0, {"action": "end_turn", "table": proposal, "placed": ["Y1a"]}).code == "bad_placed"
    assert refusal(state, 0, {"action": "end_turn", "table": proposal, "jokers": {"J1": "R5"}}).code == "bad_jokers"
    assert refusal(state, 0, {"action": "rearrange", "table": [["R1b"]]}).code == "not_your_tile"
    assert refusal(state, 1, {"action": "end_turn", "table": proposal}).code == "not_your_turn"


def test_draw_and_pass():
    state = position([["K6b"], ["B1a"]], pool=["R1a", "R2a"])
    assert refusal(state, 0, {"action": "pass"}).code == "pool_not_empty"
    new, events = GAME.apply(state, 0, {"action": "draw_stock"})
    assert new["racks"][0] == ["K6b", "R2a"] and new["pool"] == ["R1a"] and new["current"] == 1
    assert [e["kind"] for e in events] == ["draw", "drawn"]
    assert "R2a" not in json.dumps(events[0]) and events[1]["audience"] == {"seat": 0}
    empty = position([["K6b"], ["B1a"]], pool=[])
    assert refusal(empty, 0, {"action": "draw_stock"}).code == "pool_empty"
    assert GAME.legal_moves(empty, 0)[0] == {"action": "pass"}


# ---------------------------------------------------------------- E4, E5: scoring

def test_e4_scoring_after_going_out():
    state = position([["R1a", "R2a", "R3a"], ["R5a", "J2"], ["K13a", "K12b"]], opened=[True, False, False],
                     rounds="1")
    new, events = GAME.apply(state, 0, {"action": "end_turn", "table": [["R1a", "R2a", "R3a"]]})
    assert new["history"][-1]["points"] == [60, -35, -25] and sum(new["history"][-1]["points"]) == 0
    assert new["last_round"]["ending"] == "out" and new["last_round"]["winner"] == 0
    assert new["phase"] == "MATCH_OVER" and GAME.result(new)["winners"] == [0]
    assert GAME.result(new)["ranking"] == [0, 2, 1]
    players = new["last_round"]["players"]
    assert players[1] == {"seat": 1, "rack": ["R5a", "J2"], "value": 35, "points": -35}


def test_e5_blocked_round():
    state = position([["R12a"], ["Y7a"], ["K10a", "B10a"]], pool=[], rounds="1")
    for seat in (0, 1):
        state, _ = GAME.apply(state, seat, {"action": "pass"})
        assert state["phase"] == "TURN" and state["passes"] == seat + 1
    state, events = GAME.apply(state, 2, {"action": "pass"})
    assert state["last_round"]["ending"] == "blocked" and state["last_round"]["winner"] == 1
    assert state["history"][-1]["points"] == [-5, 18, -13]
    assert GAME.result(state)["winners"] == [1]


def test_blocked_tie_goes_to_the_earliest_first_meld():
    state = position([["R7a"], ["Y7a"], ["K10a", "B10a"]], pool=[], rounds="1", opened=[True, True, False])
    state["opened_at"] = [5, 2, None]
    for seat in (0, 1, 2):
        state, _ = GAME.apply(state, seat, {"action": "pass"})
    assert state["last_round"]["winner"] == 1
    assert state["history"][-1]["points"] == [0, 13, -13]


def test_a_draw_or_a_commit_breaks_the_run_of_passes():
    state = position([["R12a"], ["Y7a", "Y8a", "Y9a", "Y10a", "Y11a"], ["K10a"]], pool=[], opened=[True] * 3)
    state, _ = GAME.apply(state, 0, {"action": "pass"})
    state, _ = GAME.apply(state, 1, {"action": "end_turn", "table": [["Y7a", "Y8a", "Y9a", "Y10a"]]})
    assert state["passes"] == 0
    for seat in (2, 0):
        state, _ = GAME.apply(state, seat, {"action": "pass"})
    assert state["phase"] == "TURN"


# ---------------------------------------------------------------- match length (§7)

def test_rounds_option():
    assert GAME.new_match(2, {"rounds": "5"}, SEED)["rounds"] == 5
    with pytest.raises(ValueError):
        GAME.new_match(2, {"rounds": "2"}, SEED)
    assert [v for v, _ in GAME.info.options[0].choices] == ["1", "3", "5"] and GAME.info.options[0].default == "3"


def test_a_tie_for_the_lead_plays_one_more_round():
    state = position([["R1a", "R2a", "R3a"], ["R5a"]], opened=[True, True], rounds="1")
    state["scores"] = [-5, 5]
    state, events = GAME.apply(state, 0, {"action": "end_turn", "table": [["R1a", "R2a", "R3a"]]})
    assert state["scores"] == [0, 0] and state["phase"] == "ROUND_OVER" and state["rounds"] == 2
    assert any(e["kind"] == "tie_break" for e in events)
    state, _ = GAME.apply(state, 1, {"action": "next_round"})
    assert state["round"] == 2 and state["phase"] == "TURN"


# ---------------------------------------------------------------- leaving, autoplay (§9)

def test_leaving_keeps_the_table_and_the_last_player_wins():
    state = position([["K6b", "Y1a"], ["B1a"], ["B2a"]], table=E2_TABLE, opened=[True] * 3)
    new, events = GAME.leave(state, 0)
    assert new["racks"][0] == [] and sorted(new["removed"]) == ["K6b", "Y1a"] and new["current"] == 1
    assert [s["tiles"] for s in new["table"]] == [s["tiles"] for s in state["table"]]
    assert new["active"] == [1, 2] and Counter(tiles_in_play(new)) == Counter(tiles_in_play(state))
    new2, events = GAME.apply(new, 2, {"action": "leave"})
    assert new2["phase"] == "MATCH_OVER" and GAME.result(new2)["winners"] == [1]
    assert GAME.result(new2)["reason"] == "left"
    assert GAME.leave(new2, 2) == (new2, [])


def test_leaving_can_block_the_round():
    state = position([["R12a"], ["Y7a"], ["K10a"]], pool=[])
    state, _ = GAME.apply(state, 0, {"action": "pass"})
    state, _ = GAME.apply(state, 1, {"action": "pass"})
    state, _ = GAME.leave(state, 2)
    assert state["phase"] in ("ROUND_OVER", "MATCH_OVER") and state["last_round"]["ending"] == "blocked"


def test_autoplay_drops_the_proposal_then_draws_or_passes():
    state = position([["K6b"], ["B1a"]], table=E2_TABLE, opened=[True, True], pool=["R1a"])
    staged, _ = GAME.apply(state, 0, {"action": "rearrange", "table": [["K6b"]]})
    assert GAME.autoplay(staged, 0) == {"action": "undo", "all": True}
    back, _ = GAME.apply(staged, 0, GAME.autoplay(staged, 0))
    assert GAME.autoplay(back, 0) == {"action": "draw_stock"}
    back["pool"] = []
    assert GAME.autoplay(back, 0) == {"action": "pass"}
    with pytest.raises(IllegalMove):
        GAME.autoplay(back, 1)


def test_legal_moves_offer_the_solvers_play():
    state = position([["K6b", "Y1a"], ["B1a"]], table=E2_TABLE, opened=[True, True])
    legal = GAME.legal_moves(state, 0)
    assert legal[0] == {"action": "draw_stock"}
    play = legal[1]
    assert play["action"] == "end_turn"
    new, _ = GAME.apply(state, 0, play)
    assert new["racks"][0] == ["Y1a"]
    closed = position([["R10a", "R11a", "R12b", "K1a", "K2a"], ["B1a"]], table=E2_TABLE)
    play = GAME.legal_moves(closed, 0)[1]
    assert play["table"][:3] == [s["tiles"] for s in closed["table"]]  # the first meld leaves the table alone
    new, _ = GAME.apply(closed, 0, play)
    assert new["opened"][0] and new["racks"][0] == ["K1a", "K2a"]
    assert GAME.legal_moves(position([["R10a", "K2a"], ["B1a"]]), 0) == [{"action": "draw_stock"}]


# ---------------------------------------------------------------- the contract

def test_registered_with_bots():
    from engine import bots

    assert "rummikub" in games.available() and games.get("rummikub") is GAME
    assert bots.supports("rummikub")  # engine/bots/rummikub.py; the lobby also waits for the live table


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_states_views_events_are_json_and_moves_fit_the_shape(seats):
    state = GAME.new_match(seats, {}, SEED)
    rnd = random.Random(seats)
    for _ in range(80):
        assert json.loads(json.dumps(state)) == state
        for seat in range(seats):
            view = GAME.view(state, seat)
            assert view["legal"] == GAME.legal_moves(state, seat)
            json.dumps(view)
        public = GAME.public_view(state)
        assert public["hand"] == [] and public["legal"] == [] and public["suggestion"] is None
        to_act = GAME.to_act(state)
        seat = to_act[0] if to_act else state["active"][0]
        legal = GAME.legal_moves(state, seat)
        for move in legal + [GAME.autoplay(state, seat)]:
            assert GAME.clean_move(move) == move
        state, events = GAME.apply(state, seat, rnd.choice(legal))
        json.dumps(events)
        if state["phase"] == "MATCH_OVER":
            break


def test_move_shape_refuses_junk():
    with pytest.raises(IllegalMove) as err:
        GAME.clean_move({"action": "end_turn", "table": [["R1a"] * 14]})
    assert err.value.code == "bad_param"
    with pytest.raises(IllegalMove):
        GAME.clean_move({"action": "end_turn", "note": "x"})
    assert GAME.clean_move({"action": "undo", "all": "true"}) == {"action": "undo", "all": True}


# ---------------------------------------------------------------- properties under random play

OVER = ("ROUND_OVER", "MATCH_OVER")


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


def hidden_from(state, seat):
    hidden = set(state["removed"]) | set(state["pool"])
    for s, rack in enumerate(state["racks"]):
        if s != seat:
            hidden |= set(rack)
    if state["phase"] in OVER and state["last_round"]:
        hidden -= {t for p in state["last_round"]["players"] for t in p["rack"]}
    return hidden


def check(state, events=()):
    assert Counter(tiles_in_play(state)) == Counter(_tiles.TILES)
    for s in state["table"]:
        assert _tiles.is_valid_set(s["tiles"], s["jokers"])
    for seat in [*range(state["seats"]), None]:
        view = GAME.public_view(state) if seat is None else GAME.view(state, seat)
        words = set(strings(view))
        assert not words & hidden_from(state, seat)
        assert state["seed"] not in words and "pool" not in view
        if seat is not None:
            assert Counter(view["hand"]) == Counter(state["racks"][seat])
        for evt in events:
            if visible_to(evt, seat):
                assert not set(strings(evt)) & hidden_from(state, seat), evt


def illegal_candidates(state, rnd):
    yield 0, {"action": "fly"}
    yield 0, "end_turn"
    to_act = GAME.to_act(state)
    if not to_act:
        yield state["active"][0] if state["active"] else 0, {"action": "draw_stock"}
        return
    seat = to_act[0]
    others = [s for s in state["active"] if s != seat]
    if others:
        yield rnd.choice(others), {"action": "draw_stock"}
    yield seat, {"action": "next_round"}
    foreign = [t for t in _tiles.TILES if t not in state["racks"][seat]
               and t not in {x for s in state["table"] for x in s["tiles"]}]
    yield seat, {"action": "end_turn", "table": [s["tiles"] for s in state["table"]] + [[rnd.choice(foreign)]]}
    if state["table"]:
        yield seat, {"action": "end_turn", "table": [s["tiles"] for s in state["table"][1:]]}
    yield seat, {"action": "pass" if state["pool"] else "draw_stock"}


def play(seats, seed, rnd, steps=400, leave_rate=0.0, check_every=True):
    state = GAME.new_match(seats, {"rounds": rnd.choice(["1", "3"])}, seed)
    log = []
    check(state)
    for _ in range(steps):
        if state["phase"] == "MATCH_OVER":
            break
        to_act = GAME.to_act(state)
        if rnd.random() < leave_rate and len(state["active"]) > 1:
            seat, move = rnd.choice(state["active"]), {"action": "leave"}
        elif not to_act:
            seat, move = rnd.choice(state["active"]), {"action": "next_round"}
        else:
            seat = to_act[0]
            legal = GAME.legal_moves(state, seat)
            r = rnd.random()
            if r < 0.15 and state["racks"][seat]:
                tiles = rnd.sample(state["racks"][seat], min(3, len(state["racks"][seat])))
                move = {"action": "rearrange", "table": [s["tiles"] for s in state["table"]] + [tiles]}
            elif r < 0.3:
                move = GAME.autoplay(state, seat)
            else:
                move = legal[-1] if rnd.random() < 0.7 else rnd.choice(legal)
        if check_every:
            for bad_seat, bad in illegal_candidates(state, rnd):
                before = copy.deepcopy(state)
                with pytest.raises(IllegalMove):
                    GAME.apply(state, bad_seat, bad)
                assert state == before
        old, before = state, copy.deepcopy(state)
        state, events = GAME.apply(old, seat, move)
        assert old == before  # apply never mutates its input
        log.append((seat, move))
        if check_every:
            check(state, events)
    return state, log


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 10**6), st.floats(0, 0.02))
def test_random_play_conserves_hides_and_replays(seats, salt, leave_rate):
    rnd = random.Random(salt)
    seed = f"{salt:064x}"
    state, log = play(seats, seed, rnd, steps=150, leave_rate=leave_rate)
    replay = GAME.new_match(seats, {"rounds": state["options"]["rounds"]}, seed)
    for seat, move in log:
        replay, _ = GAME.apply(replay, seat, move)
    assert replay == state


@pytest.mark.parametrize("salt", range(4))
def test_random_play_always_ends(salt):
    rnd = random.Random(100 + salt)
    state, _ = play(rnd.choice([2, 3, 4]), f"{salt:064x}", rnd, steps=5000, check_every=False)
    assert state["phase"] == "MATCH_OVER" and GAME.result(state)["winners"]


def test_autoplay_alone_ends_every_round_blocked():
    state = GAME.new_match(2, {"rounds": "1"}, SEED)
    for _ in range(400):
        if state["phase"] == "MATCH_OVER":
            break
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, GAME.autoplay(state, seat))
    assert state["phase"] == "MATCH_OVER" and state["last_round"]["ending"] == "blocked"
    assert sum(state["history"][-1]["points"]) == 0
