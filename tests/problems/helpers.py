"""Problems for the page tests: a decision from robot self-play, and what its seat may not see."""

import json
import random

from engine import games
from engine.problems import Candidate, Choice
from engine.problems.generate import Found, decisions
from problems import services
from tests.security.replayed import id_pattern


def decision(slug: str, seed: int = 1, skip: int = 6, choices: int = 3) -> tuple[dict, int, list[dict]]:
    """A decision some way into a self-played match (its deal is random) with at least `choices` legal moves, or
    failing that at least two (a Rummikub turn may only ever offer to play or to draw)."""
    game = games.get(slug)
    seen, fallback = 0, None
    for state, seat in decisions(game, random.Random(seed)):
        legal = game.legal_moves(state, seat)
        if len(legal) >= 2:
            seen += 1
            if seen > skip:
                if len(legal) >= choices:
                    return state, seat, legal
                fallback = fallback or (state, seat, legal)
    if fallback is None:
        raise AssertionError(f"no decision in a {slug} match")
    return fallback


def made_up(slug: str, seed: int = 1, figures=(0.0, -4.0, -9.0)) -> Found:
    """A problem on a real position whose figures are made up (the pages and the ratings under test, not a
    finder): the first legal moves, the first one best."""
    state, seat, legal = decision(slug, seed, choices=len(figures))
    pairs = zip(legal, figures, strict=False)
    choices = tuple(Choice((move,), f"Coup n° {i + 1}", value) for i, (move, value) in enumerate(pairs))
    return Found(slug, state, seat, Candidate("essai", choices, "points", 2.0, True, why="Le premier coup garde tout."))


def stored(slug: str, seed: int = 1):
    return services.store(made_up(slug, seed))


def hidden_ids(state: dict, seat: int) -> set[str]:
    """Every card or tile id of the others' hands and of the stock that the seat's own view does not hold."""
    game = games.get(state["game"])
    hidden = set()
    for other in range(state["seats"]):
        if other != seat:
            for piece in game.view(state, other).get("hand") or []:
                hidden.add(piece if isinstance(piece, str) else piece.get("id", ""))
    for key in ("stock", "pool"):
        hidden.update(c for c in state.get(key) or [] if isinstance(c, str))
    mine = json.dumps(game.view(state, seat))
    return {c for c in hidden if c and f'"{c}"' not in mine}


def leaked(html: str, state: dict, seat: int) -> str | None:
    pattern = id_pattern(hidden_ids(state, seat))
    found = pattern.search(html) if pattern is not None else None
    return found.group() if found else None
