"""`Game.is_private`: a move an engine calls private changes nothing any other seat or a spectator may know, and
tells its events to its player alone (the table service then pushes it to him only: tables.services)."""

import random

import pytest

from engine import games
from engine.games.rummikub import GAME as RUMMIKUB


def _private_moves_seen(slug: str, seats: int, seed: int, steps: int = 400) -> int:
    game = games.get(slug)
    rng = random.Random(seed)
    state = game.new_match(seats, game.info.clean_options({}), f"{seed:064x}")
    seen = 0
    for _ in range(steps):
        to_act = game.to_act(state)
        if not to_act:
            if game.result(state) is not None:
                break
            state, _ = game.apply(state, state["active"][0], {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        staged = [m for m in legal if m["action"] in ("meld", "lay_off", "swap_joker", "undo")]
        move = rng.choice(staged if staged and rng.random() < 0.6 else legal)
        after, events = game.apply(state, seat, move)
        if game.is_private(state, seat, move):
            seen += 1
            assert all(e["audience"] == {"seat": seat} for e in events), (move, events)
            assert game.public_view(after) == game.public_view(state), move
            for other in range(seats):
                if other != seat:
                    assert game.view(after, other) == game.view(state, other), (move, other)
        state = after
    return seen


@pytest.mark.parametrize("slug, seats", [("canasta-tuiles", 4), ("canasta", 4), ("rami", 3), ("rami40", 3),
                                         ("kalooki", 3), ("rami-traditionnel", 3)])
def test_a_private_move_changes_no_other_view(slug, seats):
    if slug not in games.available():
        pytest.skip(slug)
    assert sum(_private_moves_seen(slug, seats, seed) for seed in range(3)) > 0


def test_a_rummikub_proposal_and_its_undo_are_private_and_valider_is_not():
    state = RUMMIKUB.new_match(2, RUMMIKUB.info.clean_options({}), "0" * 64)
    seat = RUMMIKUB.to_act(state)[0]
    proposal = {"action": "rearrange", "table": [state["racks"][seat][:2]]}
    after, _ = RUMMIKUB.apply(state, seat, proposal)
    assert RUMMIKUB.is_private(state, seat, proposal) and RUMMIKUB.is_private(after, seat, {"action": "undo"})
    assert RUMMIKUB.view(after, 1 - seat) == RUMMIKUB.view(state, 1 - seat)
    assert RUMMIKUB.public_view(after) == RUMMIKUB.public_view(state)
    assert not RUMMIKUB.is_private(after, seat, {"action": "end_turn"})
    assert not RUMMIKUB.is_private(state, seat, {"action": "draw_stock"})
