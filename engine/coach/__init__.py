"""The coach: what the Expert robot would play now, and why, in one French sentence.

Pure (no Django). `advise(game, view, legal, rng)` asks the Expert bot (`engine.bots.choose`, level 3) for its
move from the seat's own view and legal moves (so the advice knows nothing the player does not), then
`reason(game, view, move)` tells it as players say it: « Défausse le Roi de trèfle : il ne sert à aucune
combinaison et vaut 10 points. » The words follow each family's moves (`game.family`); a move without words
of its own gets its button's label. Each family's words are its module of this package (engine/coach/<family>.py,
`reason(game, view, move, legal)`), found by name.

`dispositions(game, view)` is the round's end « Meilleure disposition »: for a game whose round end counts the
cards left in hand as they are (`game.disposition`), each hand's best arrangement by the meld solver and the
points it would have left.
"""

import pkgutil
import random
from functools import cache
from importlib import import_module

from engine import bots

EXPERT = 3


def advise(game, view: dict, legal: list[dict], rng: random.Random, budget=None) -> tuple[dict, str]:
    """(the Expert bot's move among `legal`, a one-line French reason)."""
    move = bots.choose(game, view, legal, EXPERT, rng, budget)
    try:
        text = reason(game, view, move, legal)
    except Exception:  # a sentence must never cost the advice: say the move plainly
        text = ""
    return move, text or _fallback(game, view, move)


def reason(game, view: dict, move: dict, legal: list[dict] | None = None) -> str:
    legal = legal if legal is not None else (view.get("legal") or [])
    explain = _reasons().get(getattr(game, "family", ""), _generic)
    return explain(game, view, move, legal) or _generic(game, view, move, legal)


WORDS_MODULE = "words"  # this package's module that is not a family's


@cache
def _reasons() -> dict:
    """Each family's `reason` (engine/coach/<family>.py), found by name: adding a family is adding its module."""
    found = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name != WORDS_MODULE:
            found[module.name] = import_module(f"{__name__}.{module.name}").reason
    return found


def forget() -> None:
    """Look for the families' modules again (a test that adds a family of its own)."""
    _reasons.cache_clear()


def _fallback(game, view: dict, move: dict) -> str:
    label = game.action_label(move.get("action", ""), view) if hasattr(game, "action_label") else ""
    label = (label or move.get("action") or "Joue").rstrip(" \u00a0!")
    return f"« {label} » : c'est le coup que jouerait le Robot Expert."


def _generic(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    if len(legal) == 1:
        return f"{_label(game, view, action)} : c'est le seul coup possible."
    return _fallback(game, view, move)


def _label(game, view: dict, action: str) -> str:
    return (game.action_label(action, view) or action).rstrip(" \u00a0!")


# ---------------------------------------------------------------- the round's end: « Meilleure disposition »

def dispositions(game, view: dict) -> list[dict] | None:
    """Each hand of the round that just ended, arranged at best by the solver: `[{seat, melds, deadwood,
    points, counted}]` (`counted`: the points the hand was charged). None for a game whose round end already
    shows every hand arranged (`game.disposition` None), or outside a round's end."""
    dispose = getattr(game, "disposition", None)
    last = view.get("last_round")
    if dispose is None or not last:
        return None
    out = []
    for player in last.get("players") or []:
        hand = list(player.get("hand") or player.get("deadwood") or [])
        if not hand:
            continue
        best = dispose(hand)
        if best is None:
            continue
        out.append({"seat": player["seat"], "melds": [list(m) for m in best["melds"]],
                    "deadwood": list(best["deadwood"]), "points": best["points"],
                    "counted": player.get("deadwood_points")})
    return out or None
