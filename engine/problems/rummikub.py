"""« Problèmes » of Rummikub: place the most tiles, rearranging the table.

Theme `pose` (« Poser le plus de tuiles »): the seat has opened and it is its turn. The choices are whole turns,
each one move (`end_turn` with the whole table after the turn, or the draw):

- the exact solver's best play (engine.games.rummikub_solver, the whole table rearranged: the most rack tiles);
- what the simpler players would lay: the Confirmé's play (engine.bots.rummikub `confirmed_play`: new sets and
  additions, the table never cut), the Débutant's (`beginner_play`), and only new sets from the rack (the solver
  on the rack alone, the table untouched);
- drawing (or passing, the pool empty);
- one or two counts above the best, that no play reaches (a choice without a move: « impossible »).

The question is the count (« Combien de tuiles peux-tu poser au plus ce tour-ci ? »), each choice « Poser N tuiles »:
a label that named the plays would give the answer away (the one placing the most is the answer). The play is
told after the answer, in the explanation.

A figure is the number of rack tiles the play places (unit « tuiles », exact: a draw places none). A clear answer
(`engine.problems.verdict`): the best places at least `MARGIN` tiles more than every other choice (so a play that
matches it is a tie, and the problem is rejected). The instructive problems are those where the best play cuts
or merges table sets: a decision whose best play leaves every table set whole (only grown) is declined, and so is
a seat that has not opened (its first meld may not touch the table). Identical plays are offered once.

The best play is placed again against the fewest table sets that still give its count (`touched_sets`), so that
the label and the explanation name the sets really cut. Measured: `generate("rummikub", 1000, seed=1)` took
120 s of CPU (167 matches, 7,572 decisions examined, 1,699 weighed: 410 ties, 289 gaps of one tile).
"""

from __future__ import annotations

from engine.bots import rummikub as bot
from engine.games import _tiles
from engine.games import rummikub_plays as plays
from engine.games import rummikub_solver as solver
from engine.narration.words import plural
from engine.problems import Candidate, Choice

THEMES = {"pose": "Poser le plus de tuiles"}
QUESTIONS = {"pose": "Combien de tuiles peux-tu poser au plus ce tour-ci ?"}
# Two tiles: one tile more is often a detail of the arrangement; two more is what a rearrangement is for, and
# what the simpler plays visibly leave on the rack.
MARGIN = 2.0
CAPS = (6, 12, 20, 30)  # table tiles tried in turn for the fewest sets to rearrange (`touched_sets`)
NAMED_TILES = 6  # tiles named in a label at most (« … et 3 autres »)


class RummikubFinder:
    THEMES = THEMES
    QUESTIONS = QUESTIONS

    def find(self, game, view: dict, legal: list[dict], rng) -> Candidate | None:
        draw = next((m for m in legal if m.get("action") in ("draw_stock", "pass")), None)
        if draw is None or any(m.get("action") == "undo" for m in legal):
            return None
        seen = bot.Seen(view)
        if not seen.opened or not seen.rack:
            return None
        full = solver.solve(list(seen.rack), [t for s in seen.table for t in s])
        if full is None or full.count == 0:
            return None
        others = [("confirmed", bot.confirmed_play(seen)), ("beginner", bot.beginner_play(seen)),
                  ("new_sets", new_sets_play(seen))]
        second = max((len(p["placed"]) for _, p in others if p is not None), default=0)
        if full.count - second < MARGIN:
            # A simpler play places (nearly) as many: no lesson. Declined here, not left to the verdict: the
            # choices keep one per count, so a simpler play placing the most would not show as a tie there.
            return None
        best = best_play(seen, full.count)
        if not broken_sets(seen.table, best["table"]):
            return None  # the best play only adds to the table: not the theme's lesson
        choices, kinds = choices_of(seen, [("best", best), *others])
        choices.append(Choice(moves=(draw,), label="Aucune : piocher" if draw["action"] == "draw_stock"
                              else "Aucune : passer", value=0.0))
        choices += beyond(best["count"], len(seen.rack))
        facts = {"kinds": kinds, "best": best["count"], "broken": broken_sets(seen.table, best["table"])}
        return Candidate(theme="pose", choices=tuple(choices), unit="tuiles", margin=MARGIN, exact=True,
                         why=why(seen, best, second), facts=facts)


def choices_of(seen, plays: list[tuple[str, dict | None]]) -> tuple[list[Choice], list[str]]:
    """One choice per count of tiles a play places, in the order given (the best first), and the kind of each.
    The question is the count (QUESTIONS): a label naming the play would give the answer away, since the play
    that places the most is the answer; the play itself is told after the answer (`why`)."""
    choices, kinds, counts = [], [], set()
    for kind, play in plays:
        if play is None or not play["placed"]:
            continue
        n = len(play["placed"])
        if n in counts:
            continue
        counts.add(n)
        choices.append(Choice(moves=(end_turn(play),), label=f"Poser {count_words(n)}", value=float(n)))
        kinds.append(kind)
    return choices, kinds


def beyond(best: int, rack: int) -> list[Choice]:
    """Counts above the most the rack can place (up to two, within the rack): no play reaches them (no move), and
    they rank below every real play (`value` under the draw's 0)."""
    return [Choice(moves=(), label=f"Poser {count_words(n)}", value=-float(n - best))
            for n in range(best + 1, min(best + 2, rack) + 1)]


# ---------------------------------------------------------------- the plays


def best_play(seen, target: int) -> dict:
    """The exact solver's play placing `target` tiles (its most over the whole table), rearranging as few table
    sets as it can: the solver's own arrangement of the whole table may recut sets for nothing, so the tiles are
    placed again against the fewest table sets that still reach that count (`touched_sets`), the others whole."""
    table = [tuple(s) for s in seen.table]
    chosen = touched_sets(seen.rack, table, target)
    return as_play(solve_on(seen.rack, table, chosen), [list(s) for i, s in enumerate(table) if i not in chosen])


def as_play(sol, keep: list[list[str]]) -> dict:
    """A solver's solution as a play: the table sets it left out (`keep`) and its arrangement."""
    return {"table": keep + sol.table(), "jokers": sol.jokers(), "placed": list(sol.placed), "count": sol.count}


def solve_on(rack, table: list[tuple], chosen: list[int]):
    return solver.solve(list(rack), [t for i in chosen for t in table[i]])


def placed_on(rack, table: list[tuple], chosen: list[int]) -> int:
    sol = solve_on(rack, table, chosen)
    return sol.count if sol is not None else -1


def touched_sets(rack, table: list[tuple], target: int) -> list[int]:
    """Indices of few table sets against which the rack still places `target` tiles: the sets the rack touches
    most (`rummikub_plays.relevant_sets`) under a growing cap, then each one left whole if it is not needed."""
    size = sum(len(s) for s in table)
    chosen = list(range(len(table)))
    for cap in (*CAPS, size):
        subset = plays.relevant_sets(tuple(rack), tuple(table), cap)
        if placed_on(rack, table, subset) >= target:
            chosen = subset
            break
    for i in sorted(chosen, key=lambda k: len(table[k])):
        rest = [k for k in chosen if k != i]
        if placed_on(rack, table, rest) >= target:
            chosen = rest
    return chosen


def new_sets_play(seen) -> dict | None:
    """Only new sets from the rack (the solver on the rack alone), the table as it is."""
    sol = solver.solve(list(seen.rack), [])
    if sol is None or sol.count == 0:
        return None
    return {"table": [list(s) for s in seen.table] + sol.table(), "jokers": sol.jokers(),
            "placed": list(sol.placed), "count": sol.count}


def end_turn(play: dict) -> dict:
    return {"action": "end_turn", "table": [list(s) for s in play["table"]], "jokers": dict(play["jokers"])}


def play_key(play: dict) -> tuple:
    return tuple(sorted(tuple(sorted(s)) for s in play["table"]))


def broken_sets(old: list[list[str]], new: list[list[str]]) -> list[list[str]]:
    """The table sets the play cuts or merges: those no set of the new table contains whole."""
    after = [set(s) for s in new]
    return [list(s) for s in old if not any(set(s) <= a for a in after)]


# ---------------------------------------------------------------- words


def tile_short(tile: str) -> str:
    """« le 7 rouge », « le joker »."""
    if _tiles.is_joker(tile):
        return "le joker"
    return f"le {_tiles.number_of(tile)} {_tiles.COLOUR_NAME[tile[0]]}"


def tiles_words(tiles: list[str]) -> str:
    words = [tile_short(t) for t in _tiles.sorted_tiles(tiles)]
    if len(words) > NAMED_TILES:
        more = len(words) - NAMED_TILES + 1
        words = words[:NAMED_TILES - 1] + [f"{more} autres"]
    return " et ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


def set_words(tiles) -> str:
    """« la suite 4-5-6 bleue », « le groupe de 7 rouge, bleu, noir »."""
    text = _tiles.describe_set(tiles)
    return text[:1].lower() + text[1:]


def count_words(n: int) -> str:
    return f"{n} tuile{plural(n)}"


def label(kind: str, seen, play: dict) -> str:
    n = len(play["placed"])
    if kind == "best":
        return f"Réarranger la table et poser {count_words(n)} : {tiles_words(play['placed'])}"
    old = [set(s) for s in seen.table]
    fresh = [s for s in play["table"] if not any(set(s) & o for o in old)]
    in_fresh = {t for s in fresh for t in s}
    added = [t for t in play["placed"] if t not in in_fresh]
    if not fresh:
        return f"Ajouter seulement {tiles_words(added)} aux combinaisons de la table ({count_words(n)})"
    head = "Poser " + ("seulement " if not added else "") + " et ".join(set_words(s) for s in fresh)
    if added:
        head += f" et ajouter {tiles_words(added)} à la table"
    return head if len(fresh) == 1 and not added else f"{head} ({count_words(n)})"


def why(seen, best: dict, second: int) -> str:
    broken = broken_sets(seen.table, best["table"])
    cut = " et ".join(set_words(s) for s in broken[:3])
    gain = best["count"] - second
    out = " et vide son chevalet" if best["count"] == len(seen.rack) else ""
    return (f"En défaisant {cut} pour recomposer la table, on pose {count_words(best['count'])}{out}, "
            f"{count_words(gain)} de plus que sans toucher aux combinaisons : "
            f"{tiles_words(best['placed'])}.")


FINDER = RummikubFinder()

__all__ = ["FINDER", "THEMES"]
