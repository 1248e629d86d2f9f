"""The coach (engine.coach): the Expert bot's move from the seat's own view, told in one French sentence; the
round end's « Meilleure disposition »."""

import random

import pytest

from engine import bots, coach, games
from engine.narration import card_words

BUDGET = 4  # determinizations: enough to exercise the Expert's search, fast in tests


def decisions(slug: str, limit: int = 160, seed: str = "coach"):
    """(state, seat, view, legal) at the decisions of a match played by beginner bots."""
    game = games.get(slug)
    state = game.new_match(game.info.default_players, {}, f"{seed}-{slug}")
    rng = random.Random(7)
    for _ in range(limit):
        if game.result(state) is not None:
            return
        to_act = game.to_act(state)
        if not to_act:
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        yield state, seat, view, legal
        state, _ = game.apply(state, seat, bots.choose(game, view, legal, 1, rng))


@pytest.mark.parametrize("slug", games.available())
def test_every_game_gets_a_legal_move_and_a_french_reason(slug):
    game = games.get(slug)
    told = 0
    for i, (state, seat, view, legal) in enumerate(decisions(slug)):
        if i % 4:
            continue
        move, reason = coach.advise(game, view, legal, random.Random(i), budget=BUDGET)
        game.apply(state, seat, move)  # legal: the engine takes it (raises IllegalMove otherwise)
        assert isinstance(reason, str) and 10 < len(reason) < 200
        assert reason[0].isupper() and "\n" not in reason
        assert "{" not in reason and "None" not in reason
        told += 1
    assert told >= 5


def test_the_advice_is_the_expert_bots_move_and_is_reproducible():
    game = games.get("thanasis")
    for _state, _seat, view, legal in decisions("thanasis", 60):
        if view["phase"] != "DISCARD":
            continue
        move, reason = coach.advise(game, view, legal, random.Random(3), budget=BUDGET)
        assert move == bots.choose(game, view, legal, 3, random.Random(3), BUDGET)
        assert coach.advise(game, view, legal, random.Random(3), budget=BUDGET) == (move, reason)
        return
    pytest.fail("no discard decision")


def test_a_discard_names_the_card_and_why_in_french():
    game = games.get("thanasis")
    seen = 0
    for _state, _seat, view, legal in decisions("thanasis", 200):
        if view["phase"] != "DISCARD":
            continue
        move, reason = coach.advise(game, view, legal, random.Random(1), budget=BUDGET)
        card = move["card"]
        if move["action"] == "discard":
            assert reason.startswith(f"Défausse {card_words(card)} : ")
            if card in view["arrangement"]["deadwood"]:
                assert "ne sert à aucune combinaison et vaut" in reason
                assert "point" in reason
        else:
            assert move["action"] == "close"
            assert "en jetant " + card_words(card) in reason
        seen += 1
    assert seen >= 5


def test_the_example_of_the_issue():
    """« Défausse le Roi de trèfle : il ne sert à aucune combinaison et vaut 10 points »."""
    game = games.get("gin")
    view = {"game": "gin", "phase": "DISCARD", "hand": ["KC1", "2H1", "3H1", "4H1", "5S1", "5D1", "5C1", "7S1",
                                                     "8S1", "9S1", "QD1"],
            "arrangement": {"melds": [["2H1", "3H1", "4H1"], ["5S1", "5D1", "5C1"], ["7S1", "8S1", "9S1"]],
                            "deadwood": ["QD1", "KC1"], "points": 20}}
    reason = coach.reason(game, view, {"action": "discard", "card": "KC1"}, [])
    assert reason == "Défausse le Roi de trèfle : il ne sert à aucune combinaison et vaut 10 points."
    reason = coach.reason(game, view, {"action": "discard", "card": "QD1"}, [])
    assert reason == "Défausse la Dame de carreau : elle ne sert à aucune combinaison et vaut 10 points."


def test_a_move_without_words_of_its_own_gets_its_buttons_label():
    game = games.get("thunee")
    text = coach.reason(game, {"game": "thunee"}, {"action": "call_khanuck"}, [{"action": "call_khanuck"}, {}])
    assert text == "« Khanuck » : c'est le coup que jouerait le Robot Expert."


def _round_over(slug: str):
    game = games.get(slug)
    state = game.new_match(game.info.default_players, {}, f"best-{slug}")
    rng = random.Random(5)
    for _ in range(3000):
        if state["phase"] == "ROUND_OVER" or game.result(state) is not None:
            return game, state
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        state, _ = game.apply(state, seat, bots.choose(game, view, game.legal_moves(state, seat), 1, rng))
    pytest.fail("no round end")


@pytest.mark.parametrize("slug", ["rami", "rami40", "kalooki", "rami-traditionnel"])
def test_meilleure_disposition_arranges_every_hand_left_at_the_round_end(slug):
    game, state = _round_over(slug)
    view = game.view(state, 0)
    best = coach.dispositions(game, view)
    players = {p["seat"]: p for p in view["last_round"]["players"]}
    assert best, "someone keeps cards when another goes out"
    for entry in best:
        hand = players[entry["seat"]]["hand"]
        placed = [c for m in entry["melds"] for c in m] + entry["deadwood"]
        assert sorted(placed) == sorted(hand)
        assert entry["points"] == game.hand_points(entry["deadwood"])
        assert entry["points"] <= entry["counted"] == players[entry["seat"]]["deadwood_points"]
        assert entry["points"] == game.arrangement(hand)["points"]  # the solver's least penalty
    assert coach.dispositions(game, game.view(state, 1)) == best  # the same sheet for every seat


@pytest.mark.parametrize("slug", ["thanasis", "gin", "thunee"])
def test_no_disposition_where_the_round_end_already_arranges_hands_or_has_none(slug):
    game, state = _round_over(slug)
    assert coach.dispositions(game, game.view(state, 0)) is None


def test_no_disposition_during_a_round():
    game = games.get("rami")
    state = game.new_match(3, {}, "during")
    assert coach.dispositions(game, game.view(state, 0)) is None
