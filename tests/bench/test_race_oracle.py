"""Thanasis's all-seeing player (bench.race_oracle), the ceiling the ladder publishes for this race: it reads the
cards it will draw from the true stock, and closes no later than the Confirmé's discards would on the same draws."""

import random

from bench import race_oracle
from engine import games
from engine.bots import levels
from engine.bots.base import Moves
from engine.bots.thanasis import ADAPTER


def first_discard_state(seed: str, seats: int = 2):
    game = games.get("thanasis")
    state = game.new_match(seats=seats, options={}, seed=seed)
    seat = game.to_act(state)[0]
    state, _ = game.apply(state, seat, {"action": "draw_stock"})
    return game, state, seat


def test_it_reads_its_own_draws_from_the_stock_in_turn_order():
    for seats in (2, 3, 4):
        _game, state, seat = first_discard_state(f"draws{seats}", seats)
        draws = race_oracle.own_draws(state, seat)
        # The other seats draw first, then this one: every `seats`-th card from the top (the end of the list).
        assert draws[:3] == [state["stock"][-seats], state["stock"][-2 * seats], state["stock"][-3 * seats]]


def turns_to_close(state, seat, policy) -> int:
    """Turns until `seat`, alone with its own future draws, may close: 0 if it may close now."""
    game = games.get("thanasis")
    key = state["wild_rank"]
    hand = list(state["hands"][seat])
    seats = len(state["active"])
    for turn, drawn in enumerate([None, *race_oracle.own_draws(state, seat)]):
        if drawn is not None:
            hand.append(drawn)
        if min(ADAPTER.discards(hand, key).values()) <= 10:
            return turn
        now = {**state, "stock": state["stock"][: len(state["stock"]) - turn * seats]}  # the round `turn` draws on
        view = {**game.view(state, seat), "hand": hand}
        legal = [{"action": "discard", "card": c} for c in hand]
        hand.remove(policy(now, view, legal)["card"])
    return 99


def test_it_closes_no_later_than_the_confirmes_discards_on_the_same_draws():
    earlier = 0
    for n in range(12):
        _game, state, seat = first_discard_state(f"race{n}")

        def oracle(now, view, legal):
            return race_oracle.choose(now, view, legal)

        def confirme(_now, view, legal):
            return levels.decide(ADAPTER, view, Moves(legal), 2, random.Random(0), None)

        planned, greedy = turns_to_close(state, seat, oracle), turns_to_close(state, seat, confirme)
        assert planned <= greedy
        earlier += planned < greedy
    assert earlier > 0  # and strictly earlier on some deals: the plan is worth something
