"""« Problèmes »: positions from real play where one move is clearly best, with the cost of each alternative.

Pure (no Django). A game plugs in through `GameInfo.problems`, the module of its finder (`engine.problems.<module>`
exports `FINDER`). A finder looks at one decision **from the seat's own view and legal moves only** (never the true
state: the others' hidden cards and the stock order stay unknown to it, as they were to the player) and either
declines or proposes a `Candidate`: a theme, two or more `Choice`s (the move or the sequence of moves of a turn,
its French label and the evaluator's figure), the figure's unit, the smallest gap that makes an answer clear, and,
for a sampled figure, the standard error of that gap.

`verdict(candidate)` is the one rule that accepts a candidate, for every game:
- the best figure is unique and beats the second by at least `margin` (in the candidate's unit);
- a sampled figure (`exact` False) beats it by at least `Z` standard errors too, and the generator asks the finder
  a second time, on independent samples, and keeps the problem only if the same choice is best again.
Everything else is rejected with its reason (`REJECTIONS`), and the generator counts the reasons.
"""

from dataclasses import dataclass, field
from importlib import import_module

from engine import games

Z = 3.0  # a sampled gap must stand this many standard errors out of the noise

REJECTIONS = {
    "declined": "pas une décision à problème (un seul coup sensé, ou pas de ce thème)",
    "tie": "plusieurs coups valent le meilleur",
    "small_gap": "le meilleur coup ne gagne pas assez sur le suivant",
    "noise": "l'écart ne sort pas du bruit des tirages",
    "unstable": "un second tirage désigne un autre coup",
}


@dataclass(frozen=True)
class Choice:
    """One answer offered: `moves` (one move, or a turn's moves in order, the first legal in the position), its
    French label (« Jeter le 9 de trèfle »), and the evaluator's figure (higher is better, in the candidate's unit).
    No move: an answer no play reaches (« Poser 9 tuiles » when 7 is the most), shown as impossible."""

    moves: tuple[dict, ...]
    label: str
    value: float


@dataclass(frozen=True)
class Candidate:
    theme: str  # a slug of the finder's THEMES
    choices: tuple[Choice, ...]  # every legal alternative of the theme, or every plan the evaluator weighed
    unit: str  # "points" (of the round), "percent" (chances to win the match), "tuiles", "balles"…
    margin: float  # the smallest gap best − second for a clear answer, in `unit`
    exact: bool  # the figures are exact (a solver, an exact expectation): no noise, no second draw
    se: float = 0.0  # sampled figures: the standard error of the gap between the best two
    why: str = ""  # French: why the best is best (the points it saves, the meld it keeps, what it gives away)
    facts: dict = field(default_factory=dict)  # what the explanation rests on, for the page and the tests

    def ranked(self) -> list[Choice]:
        return sorted(self.choices, key=lambda c: -c.value)

    @property
    def best(self) -> Choice:
        return self.ranked()[0]

    @property
    def gap(self) -> float:
        ranked = self.ranked()
        return ranked[0].value - ranked[1].value if len(ranked) > 1 else 0.0

    def cost(self, choice: Choice) -> float:
        """What `choice` costs against the best, in `unit` (0 for the best)."""
        return self.best.value - choice.value


def verdict(candidate: Candidate | None) -> str | None:
    """None when the candidate has one clear answer; else the reason (a key of REJECTIONS)."""
    if candidate is None or len(candidate.choices) < 2:
        return "declined"
    gap = candidate.gap
    if gap <= 1e-9:
        return "tie"
    if gap < candidate.margin:
        return "small_gap"
    if not candidate.exact and gap < Z * candidate.se:
        return "noise"
    return None


def same_answer(a: Candidate, b: Candidate) -> bool:
    return key_of(a.best.moves) == key_of(b.best.moves)


def key_of(moves: tuple[dict, ...]) -> tuple:
    """What makes two answers the same (a knock's arrangement or a plan's detail order aside)."""
    return tuple(tuple(sorted((k, repr(v)) for k, v in m.items() if k != "arrangement")) for m in moves)


def finder_for(slug: str):
    """The finder of a game (`GameInfo.problems`); None when the game has none."""
    module = games.get(slug).info.problems if slug in games.available() else ""
    return import_module(f"engine.problems.{module}").FINDER if module else None


ASK = "C'est à toi de jouer : que fais-tu ?"


def question(slug: str, theme: str) -> str:
    """The question a problem of this theme asks (a finder's QUESTIONS, else « que fais-tu ? »)."""
    finder = finder_for(slug)
    return dict(getattr(finder, "QUESTIONS", {}) or {}).get(theme, ASK)


def themes(slug: str) -> dict[str, str]:
    """The game's problem themes: slug → French name (« Meilleure défausse »)."""
    finder = finder_for(slug)
    return dict(finder.THEMES) if finder is not None else {}


__all__ = ["REJECTIONS", "Z", "Candidate", "Choice", "finder_for", "key_of", "question", "same_answer", "themes",
           "verdict"]
