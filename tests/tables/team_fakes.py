"""A stand-in team game for the site's tests: a real four-seat game whose engine info declares teams (0/2 and
1/3), account points, the account joker balance, a match-length option and an Arena format, so the site's team
tables, table types, points and jokers are tested on an engine that needs no presenter of its own."""

import copy
import dataclasses

from engine.base import Option, event
from engine.games import _registry, get

MATCH_LENGTH = Option("match_length", "Durée de la partie",
                      (("1", "1 manche"), ("3", "3 manches"), ("10000", "10 000 points")), "1")


class TeamGame:
    """Delegates to `real`; winners become a whole team; a player who leaves keeps his seat (played for him);
    {"action": "take_joker"} spends one of the seat's account jokers (the engine side of a « Joker » button)."""

    def __init__(self, real, *, points: int = 1000, jokers: bool = True):
        self._real = real
        self.info = dataclasses.replace(real.info, teams=True, account_points_per_round=points,
                                        account_jokers=jokers, options=(*real.info.options, MATCH_LENGTH),
                                        arena_options={MATCH_LENGTH.name: "3"})

    def __getattr__(self, name):
        return getattr(self._real, name)

    def new_match(self, seats, options, seed):
        options = {k: v for k, v in options.items() if k != MATCH_LENGTH.name}
        return self._real.new_match(seats, options, seed)

    def clean_move(self, move):
        if isinstance(move, dict) and move.get("action") == "take_joker":
            return {"action": "take_joker"}
        return self._real.clean_move(move)

    def apply(self, state, seat, move):
        if move.get("action") == "take_joker":
            new = copy.deepcopy(state)
            new["joker_balances"][str(seat)] -= 1
            return new, [event("joker_taken", seat=seat)]
        return self._real.apply(state, seat, move)

    def with_joker_balances(self, state, balances):
        return {**state, "joker_balances": {str(s): n for s, n in balances.items()}}

    def result(self, state):
        result = self._real.result(state)
        if result is None or not result["winners"]:
            return result
        team = result["winners"][0] % 2
        return {**result, "winners": [s for s in range(state["seats"]) if s % 2 == team]}

    def leave(self, state, seat):
        return copy.deepcopy(state), [event("left", seat=seat)]


def install(monkeypatch, slug: str = "thanasis", **kwargs) -> TeamGame:
    fake = TeamGame(get(slug), **kwargs)
    monkeypatch.setitem(_registry(), slug, fake)  # the registry of engine.games, for this test only
    return fake
