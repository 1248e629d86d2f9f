"""Problems from play: robot self-play (to start the collection) and finished matches (`examine` on each of a
player's decisions), each decision put to the game's finder and kept only under `engine.problems.verdict`.

Pure (no Django). The true state is used to play the match on, never to judge a decision: the finder sees the
seat's `view` and `legal_moves` only.
"""

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from engine import bots, games
from engine.problems import Candidate, finder_for, same_answer, verdict
from engine.rng import new_seed

SELF_PLAY_LEVEL = 2  # « Confirmé »: sensible positions, fast enough to play thousands of matches
SELF_PLAY_BUDGET = bots.Budget(iterations=8, time_limit=None)
MAX_MOVES = 4000  # a self-played match that runs longer is dropped (never seen; a guard, not a rule)


@dataclass
class Found:
    """An accepted problem: the decision's true state (kept server-side), the seat to move and the candidate."""

    game: str
    state: dict
    seat: int
    candidate: Candidate
    source: str = "robots"


@dataclass
class Report:
    game: str
    accepted: list[Found] = field(default_factory=list)
    examined: int = 0
    rejected: Counter = field(default_factory=Counter)
    matches: int = 0
    seconds: float = 0.0

    @property
    def rejection_rate(self) -> float:
        judged = self.examined - self.rejected["declined"]
        return (judged - len(self.accepted)) / judged if judged else 0.0


def examine(game, state: dict, seat: int, rng: random.Random) -> tuple[Candidate | None, str | None]:
    """The game's finder on `seat`'s decision in `state`, from that seat's view and legal moves only: the accepted
    candidate and None, or None and the reason it was rejected."""
    finder = finder_for(game.slug)
    legal = game.legal_moves(state, seat)
    if finder is None or len(legal) < 2:
        return None, "declined"
    view = game.view(state, seat)
    candidate = finder.find(game, view, legal, random.Random(rng.getrandbits(64)))
    reason = verdict(candidate)
    if reason is not None:
        return None, reason
    if not candidate.exact:
        again = finder.find(game, view, legal, random.Random(rng.getrandbits(64)))
        if again is None or verdict(again) is not None or not same_answer(candidate, again):
            return None, "unstable"
    return candidate, None


def decisions(game, rng: random.Random, *, players: int | None = None, options: dict | None = None):
    """Self-play one match between robots; yields (state, seat) at each decision before it is played."""
    players = players or game.info.default_players
    state = game.new_match(players, game.info.clean_options(options), new_seed())
    for _ in range(MAX_MOVES):
        if game.result(state) is not None:
            return
        to_act = game.to_act(state)
        if not to_act:
            seat = next((s for s in range(players) if any(m.get("action") == "next_round"
                                                          for m in game.legal_moves(state, s))), None)
            if seat is None:
                return
            state, _ = game.apply(state, seat, {"action": "next_round"})
            continue
        seat = to_act[0]
        legal = game.legal_moves(state, seat)
        yield state, seat
        move = bots.choose(game, game.view(state, seat), legal, SELF_PLAY_LEVEL,
                           random.Random(rng.getrandbits(64)), SELF_PLAY_BUDGET)
        state, _ = game.apply(state, seat, move)


def generate(slug: str, count: int, *, seed: int = 0, per_round: int = 2, examine_rate: float = 1.0,
             time_limit: float | None = None, players: int | None = None, on_found=None) -> Report:
    """Self-play matches until `count` problems are accepted (or `time_limit` seconds pass). At most `per_round`
    problems per round of a match, so the collection is not one deal seen many times; `examine_rate` < 1 skips
    decisions at random (a finder that is slow per decision spreads over more matches)."""
    game = games.get(slug)
    rng = random.Random(seed)
    report = Report(slug)
    start = time.perf_counter()
    while len(report.accepted) < count:
        if time_limit is not None and time.perf_counter() - start > time_limit:
            break
        report.matches += 1
        taken: Counter = Counter()
        for state, seat in decisions(game, rng, players=players):
            if taken[state["round"]] >= per_round or rng.random() > examine_rate:
                continue
            report.examined += 1
            candidate, reason = examine(game, state, seat, rng)
            if reason is not None:
                report.rejected[reason] += 1
                continue
            found = Found(slug, state, seat, candidate)
            report.accepted.append(found)
            taken[state["round"]] += 1
            if on_found is not None:
                on_found(found)
            if len(report.accepted) >= count:
                break
    report.seconds = time.perf_counter() - start
    return report


__all__ = ["Found", "Report", "decisions", "examine", "generate"]
