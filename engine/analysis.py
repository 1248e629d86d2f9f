"""Replays that explain: what the Expert robot would have played at a decision, and what the move played cost.

Pure (no Django). `analyse(game, view, legal, played, seed)` works from the seat's own `view` and legal moves only
(never the true state: the hidden cards of the others and the stock order are sampled, as the Expert samples them),
so a comment tells nothing the player could not know then. The Expert's move is `engine.bots.choose` at level 3;
the cost of the move played is the Expert's own figure for the two moves, on a fixed budget (no time limit) and a
seed derived one-way by the caller: the same decision always gets the same comment.

Where the figure comes from, by robot:
- the draw-and-discard search (`engine.bots.search`: Gin Rami): both moves played out on the very same sampled
  deals (`search.sample`, the Expert's own determinizations and playouts); the cost is the mean paired
  difference, told only when it is clear (above `search.MIN_GAIN` and `search.Z` standard errors), else 0.
  Its unit is the Expert's utility: points of the round, or heads-up the chance of winning the match (or the
  pot's share, one round) out of 100 (`unit` "percent").
- Thanasis's Expert, which weighs its discards exactly (`draw_cost`: the deadwood expected after the next draw):
  the difference of the two discards' figures, in points.
- Every other robot (the table-meld rummies, the Canastas, Rummikub, Thunee) has no figure per move of its own:
  where the decision is of a theme of the game's « Problèmes » finder (engine.problems: the best discard, lay or
  hold, take the pile, the late Thunee card, the most Rummikub tiles) and both moves are among its choices, the
  figure is the finder's (its unit: points, expected balls, tiles), told when it stands out of the finder's noise;
  else the analysis gives the Expert's move and `cost` None.

`comment(game, analysis)` is the French sentence the replay shows: « Le robot Expert aurait jeté le 9 de trèfle :
ce choix coûte environ 4 points. »
"""

import hashlib
import random
from dataclasses import dataclass

from engine import bots
from engine.bots import search
from engine.coach.words import points
from engine.narration.words import card_words

EXPERT = 3
BUDGET = search.Budget(iterations=48, time_limit=None)  # fixed: the figure never depends on the machine's load
SEARCHED = ("draw_stock", "take_discard", "pass", "discard", "knock", "close")


@dataclass(frozen=True)
class Analysis:
    best: dict  # the Expert's move
    played: dict
    cost: float | None  # value(best) - value(played) when clear, else 0.0; None: this robot gives no figure
    raw: float | None = None  # the difference measured, noise included
    unit: str = "points"  # or "percent": heads-up Gin, the chance of winning the match out of 100
    same: bool = False  # the move played is the Expert's


def seed_for(table_seed: str, seq: int, seat: int) -> int:
    """The analysis' seed, derived one-way from the table's seed (as the robots' and the coach's): it tells
    nothing of the deal."""
    digest = hashlib.sha256(f"{table_seed}:analysis:{seq}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def key_of(move: dict) -> tuple:
    """What makes two moves the same decision (a knock's arrangement is the robot's detail)."""
    return tuple(sorted((k, repr(v)) for k, v in move.items() if k != "arrangement"))


def analyse(game, view: dict, legal: list[dict], played: dict, seed: int, budget=BUDGET) -> Analysis | None:
    """The Expert's move at this decision and what `played` cost; None when there was nothing to decide (one
    legal move, the next round) or the game has no robot."""
    if len(legal) < 2 or played.get("action") == "next_round" or not bots.supports(game.slug):
        return None
    rng = random.Random(seed)
    best = bots.choose(game, view, legal, EXPERT, random.Random(rng.getrandbits(64)), budget)
    if key_of(best) == key_of(played):
        return Analysis(best=best, played=played, cost=0.0, raw=0.0, same=True,
                        unit=_unit(game, view))
    adapter = bots.adapter_for(view.get("game") or game.slug)
    if getattr(adapter, "decide", None) is not None:  # a robot with no figure per move: the game's problem finder's
        return _by_finder(game, view, legal, best, played, random.Random(rng.getrandbits(64)))
    if getattr(adapter, "expert", None) is not None:
        return _weighed(adapter, view, best, played)
    return _played_out(adapter, game, view, legal, best, played, random.Random(rng.getrandbits(64)), budget)


def analyse_state(game, state: dict, seat: int, played: dict, seed: int, budget=BUDGET) -> Analysis | None:
    """`analyse` at the decision of `seat` in `state`: from that seat's view and legal moves, nothing more."""
    return analyse(game, game.view(state, seat), game.legal_moves(state, seat), played, seed, budget)


def _unit(game, view: dict) -> str:
    players = [s for s in (view.get("active") or []) if isinstance(s, int)]
    return "percent" if game.slug == "gin" and len(players) == 2 else "points"


def _played_out(adapter, game, view, legal, best, played, rng, budget) -> Analysis:
    """Both moves played out on the same sampled deals by the Expert's search (`search.sample`)."""
    if best.get("action") not in SEARCHED or played.get("action") not in SEARCHED:
        return Analysis(best=best, played=played, cost=None)
    key = adapter.rules_key(view)
    know = adapter.knowledge(view)
    know.extra["unseen"] = adapter.unseen(know)
    candidates = []
    for move in (best, played):
        if move.get("action") == adapter.end_action and "arrangement" not in move:
            move = adapter.end_move(move, know, key, EXPERT)
        candidates.append(move)
    try:
        samples = search.sample(adapter, view, know, candidates, key, rng, budget)
    except Exception:  # a playout that cannot play this move: no figure rather than a wrong one
        return Analysis(best=best, played=played, cost=None)
    diffs = [row[0] - row[1] for row in samples]
    return Analysis(best=best, played=played, cost=_clear(diffs), raw=sum(diffs) / len(diffs),
                    unit=_unit(game, view))


def _by_finder(game, view: dict, legal: list[dict], best: dict, played: dict, rng) -> Analysis:
    """The figure of the game's « Problèmes » finder (engine.problems), when this decision is of one of its themes
    and both the Expert's move and the move played are among its choices (the first move of a choice): their
    difference, told only when it stands out of the finder's own noise (exact, or Z standard errors). Else none."""
    from engine import problems  # the finders import the robots, as this module does: imported when first asked

    finder = problems.finder_for(game.slug)
    candidate = finder.find(game, view, legal, rng) if finder is not None else None
    if candidate is None:
        return Analysis(best=best, played=played, cost=None)
    values = {key_of(c.moves[0]): c.value for c in candidate.choices if c.moves}
    best_value, played_value = values.get(key_of(best)), values.get(key_of(played))
    if best_value is None or played_value is None:
        return Analysis(best=best, played=played, cost=None)
    raw = best_value - played_value
    clear = raw > 0 and (candidate.exact or raw > problems.Z * candidate.se)
    return Analysis(best=best, played=played, cost=raw if clear else 0.0, raw=raw, unit=candidate.unit)


def _clear(diffs: list[float]) -> float:
    """The mean difference when it stands out of the playouts' noise (the search's own test: above MIN_GAIN and
    Z standard errors), else 0."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return 0.0
    se = (sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) ** 0.5
    return mean if mean > search.MIN_GAIN and mean > search.Z * se else 0.0


def _weighed(adapter, view: dict, best: dict, played: dict) -> Analysis:
    """Thanasis: the Expert's exact figure for a discard (the deadwood expected after the next draw)."""
    if best.get("action") != "discard" or played.get("action") != "discard":
        return Analysis(best=best, played=played, cost=None)
    key = adapter.rules_key(view)
    know = adapter.knowledge(view)
    draws = adapter.draws(know, key)
    score = know.scores[know.seat] if know.seat < len(know.scores) else 0

    def figure(card: str) -> float:
        kept = list(know.hand)
        kept.remove(card)
        return adapter.draw_cost(kept, draws, key, score)

    raw = figure(played["card"]) - figure(best["card"])
    return Analysis(best=best, played=played, cost=raw if raw >= 0.5 else 0.0, raw=raw)


# ---------------------------------------------------------------- the French sentence

def move_words(game, view: dict, move: dict) -> str:
    """The Expert's move after « Le robot Expert aurait… »: « jeté le 9 de trèfle », « pioché »."""
    action = move.get("action", "")
    card = move.get("card")
    named = card_words(card) if isinstance(card, str) else ""
    top = view.get("discard_top")
    if action == "discard" and named:
        return f"jeté {named}"
    if action == "knock" and named:
        return f"frappé en jetant {named}"
    if action == "close" and named:
        return f"fermé en jetant {named}"
    if action == "draw_stock":
        return "pioché"
    if action == "take_discard":
        return f"pris {card_words(top)} dans la défausse" if isinstance(top, str) else "pris la défausse"
    if action == "pass":
        return "passé"
    if action == "play_card" and named:
        return f"joué {named}"
    if action == "bid" and move.get("value") is not None:
        return f"enchéri {move['value']}"
    label = game.action_label(action, view) if hasattr(game, "action_label") else ""
    label = (label or action or "joué").rstrip(" \u00a0!")
    return f"choisi « {label} »"


def cost_words(cost: float, unit: str) -> str:
    n = max(1, round(cost))
    if unit == "percent":
        return f"environ {n} % de chances de gagner la partie"
    if unit == "tuiles":
        return f"{n} tuile{'s' if n > 1 else ''} de moins posée{'s' if n > 1 else ''}"
    if unit == "balles":  # expected balls: a tenth is worth telling
        tenths = f"{max(0.1, round(cost, 1)):.1f}".replace(".", ",").removesuffix(",0")
        return f"en moyenne {tenths} balle{'s' if cost >= 1.95 else ''}"
    return f"environ {points(n)}"


def comment(game, view: dict, analysis: Analysis) -> str:
    """One French sentence for the replay."""
    if analysis.same:
        return "C'est le coup que le robot Expert aurait joué."
    head = f"Le robot Expert aurait {move_words(game, view, analysis.best)}"
    if analysis.cost is None:
        return f"{head}."
    if analysis.cost <= 0 or (round(analysis.cost) < 1 and analysis.unit != "balles"):
        return f"{head} ; le coup joué vaut à peu près autant."
    return f"{head} : ce choix coûte {cost_words(analysis.cost, analysis.unit)}."


__all__ = ["BUDGET", "Analysis", "analyse", "analyse_state", "comment", "move_words", "seed_for"]
