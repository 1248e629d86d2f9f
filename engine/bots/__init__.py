"""Bots: `choose(game, view, legal_moves, level, rng)` returns the move a bot plays.

A bot sees only its seat's `view` (`game.view(state, seat)`) and the legal moves, never the state.
Levels: 1 « Débutant », 2 « Confirmé », 3 « Expert » (see `engine.bots.levels`). Each game plugs in
through an adapter (`ADAPTER` of the module its `GameInfo.bots` names, one module per game or family) that
gives the generic levels its rules: card values, the exact meld solver, what is still unseen, and a fast
simulator for the expert's search.
"""

import random
from importlib import import_module

from engine import games
from engine.bots.base import Moves
from engine.bots.search import Budget

LEVELS = {1: "Débutant", 2: "Confirmé", 3: "Expert"}

_adapters: dict = {}


def adapter_for(slug: str):
    """The bot adapter of a game (the module its `GameInfo.bots` names); KeyError if no bot plays it yet."""
    if slug not in _adapters:
        module = games.get(slug).info.bots if slug in games.available() else ""
        if not module:
            raise KeyError(slug)
        _adapters[slug] = import_module(module).ADAPTER
    return _adapters[slug]


def supports(slug: str) -> bool:
    return slug in games.available() and bool(games.get(slug).info.bots)


def choose(game, view: dict, legal_moves: list[dict], level: int, rng: random.Random, budget=None) -> dict:
    """The move a bot of `level` plays, chosen among `legal_moves` from `view` alone.

    `game` is used only for its slug. `rng` (a seeded `random.Random`) makes every choice
    reproducible. `budget` bounds the expert's search: an int (determinizations, no time limit)
    or a `Budget`; None means the production default (a few dozen deals, capped near 0.2 s).
    """
    if level not in LEVELS:
        raise ValueError(f"level={level!r}")
    if not legal_moves:
        raise ValueError("no legal move: this seat has nothing to decide")
    moves = Moves(legal_moves)
    if len(legal_moves) == 1:
        return legal_moves[0]
    if moves.has("next_round"):
        return moves.first("next_round")
    slug = view.get("game") or getattr(game, "slug", None)
    from engine.bots.levels import decide

    return decide(adapter_for(slug), view, moves, level, rng, budget)


__all__ = ["LEVELS", "Budget", "adapter_for", "choose", "supports"]
