"""The contract's `match_stats`: per-seat round points, best round, family counters and places."""

import random

import pytest

from engine import bots, games


def _play(slug: str, seed: str):
    game = games.get(slug)
    state = game.new_match(game.info.default_players, game.info.clean_options({}), seed)
    rng = random.Random(seed)
    for _ in range(60000):
        if game.result(state) is not None:
            return game, state
        to_act = game.to_act(state)
        if not to_act:
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = to_act[0]
        move = bots.choose(game, game.view(state, seat), game.legal_moves(state, seat), 2, rng)
        state, _ = game.apply(state, seat, move)
    raise AssertionError("no result")


@pytest.mark.parametrize("slug", [s for s in games.available() if bots.supports(s)])
def test_every_game_reports_stats_for_every_seat(slug):
    game, state = _play(slug, "stats-1")
    result = game.result(state)
    stats = game.match_stats(state, result)
    assert sorted(stats) == list(range(state["seats"]))
    for seat, entry in stats.items():
        assert entry["rounds"] >= 1
        assert isinstance(entry["points"], int)
        assert entry["best_round"] is not None
        assert set(entry["counters"]) <= set(game.stats_labels), entry["counters"]
        assert (entry["place"] == 1) == (seat in result["winners"])
    if game.info.teams:
        for seat in range(4):
            assert stats[seat]["points"] == stats[(seat + 2) % 4]["points"]


def test_thanasis_counts_a_close_with_nothing_left():
    game = games.get("thanasis")
    history = [
        {"void": False, "closer": 0, "thanasis": True, "points": [0, 12, 30]},
        {"void": True, "closer": None, "thanasis": False, "points": [0, 0, 0]},
        {"void": False, "closer": 1, "thanasis": False, "points": [8, 0, 44]},
    ]
    state = {"seats": 3, "history": history}
    stats = game.match_stats(state, {"winners": [1], "ranking": [1, 0, 2]})
    assert stats[0] == {"rounds": 2, "points": 8, "best_round": 0, "counters": {"rounds_won": 1, "thanasis": 1},
                        "place": 2}
    assert stats[1]["counters"] == {"rounds_won": 1}
    assert stats[2]["best_round"] == 30 and stats[2]["place"] == 3
    assert stats[1]["place"] == 1


def test_shared_win_is_a_tie_for_the_first_place():
    game = games.get("thanasis")
    places = game.match_places({"seats": 3}, {"winners": [0, 2], "ranking": [0, 2, 1]})
    assert places == {0: 1, 2: 1, 1: 2}


def test_canasta_counts_the_team_canastas_in_its_history():
    game, state = _play("canasta", "stats-2")
    assert all("canastas" in row for row in state["history"])
    stats = game.match_stats(state, game.result(state))
    made = sum(row["canastas"]["A"] for row in state["history"])
    assert stats[0]["counters"].get("canastas", 0) == made == stats[2]["counters"].get("canastas", 0)


def test_higher_is_better_where_the_winner_scores():
    game = games.get("rami-traditionnel")
    state = {"seats": 2, "history": [{"winner": 0, "points": [50, 0]}, {"winner": 1, "points": [0, 70]}]}
    stats = game.match_stats(state, {"winners": [1], "ranking": [1, 0]})
    assert stats[0]["best_round"] == 50 and stats[1]["best_round"] == 70
