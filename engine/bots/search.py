"""Level 3 « Expert »: determinized Monte Carlo search over the hidden cards.

For each decision the adapter proposes a few candidate moves (pruned with the level-2 ordering).
Then, many times: deal the hidden cards at random consistently with what this seat has seen (the
other hands and the stock order: a determinization), and play each candidate out in that same deal
with fast greedy policies for every seat (common random numbers: the candidates are compared on the
very same deals). The candidate with the best mean utility (round points, plus a bonus or a penalty
when the round burns a player near the match limit) is played.

The budget counts determinizations, so the choice is deterministic given the `rng`. An optional
time limit (on by default in production, off in tests) stops the search early on a slow machine;
it counts this thread's CPU time (one core), so a loaded server does not starve the search.
"""

import time
from dataclasses import dataclass

from engine.bots.base import Adapter, Knowledge, Moves


@dataclass(frozen=True)
class Budget:
    """How much the expert may think: determinizations, and an optional CPU-time cap (seconds)."""

    iterations: int = 48
    time_limit: float | None = 0.17


DEFAULT_BUDGET = Budget()
Z = 1.0  # standard errors a candidate must win by to replace the level-2 choice
MIN_GAIN = 0.25  # and at least this utility (points) per deal


def as_budget(budget, default: Budget = DEFAULT_BUDGET) -> Budget:
    """A `Budget` from None (`default`), a `Budget`, or an int (determinizations, no time limit)."""
    if budget is None:
        return default
    if isinstance(budget, Budget):
        return budget
    if isinstance(budget, int) and not isinstance(budget, bool) and budget >= 1:
        return Budget(iterations=budget, time_limit=None)
    raise ValueError(f"budget={budget!r}")


@dataclass
class SearchStats:
    """What the last search did (for tests and benches)."""

    iterations: int = 0
    candidates: int = 0
    means: tuple = ()


last_stats = SearchStats()


def expert(adapter: Adapter, view: dict, know: Knowledge, moves: Moves, key, rng, budget) -> dict | None:
    """The expert's move, or None to let the level-2 logic decide (nothing worth searching)."""
    global last_stats
    budget = as_budget(budget)
    candidates = adapter.candidates(view, know, moves, key)
    last_stats = SearchStats(candidates=len(candidates))
    if not candidates:
        return None
    if len(candidates) == 1:
        return adapter.finalize(candidates[0], know, key)
    samples = sample(adapter, view, know, candidates, key, rng, budget)
    best, means = pick(samples)
    last_stats = SearchStats(iterations=len(samples), candidates=len(candidates), means=means)
    return adapter.finalize(candidates[best], know, key)


def sample(adapter: Adapter, view: dict, know: Knowledge, candidates: list[dict], key, rng,
           budget) -> list[list[float]]:
    """The playouts themselves: one row per determinization, one utility per candidate on that same deal (the
    expert's search, and the replays' analysis: engine.analysis)."""
    budget = as_budget(budget)
    start = time.thread_time()
    samples: list[list[float]] = []
    while len(samples) < budget.iterations:
        world = adapter.determinize(view, know, key, rng)
        samples.append(adapter.evaluate(world, candidates, know, key))
        if budget.time_limit is not None and time.thread_time() - start > budget.time_limit:
            break
    return samples


def pick(samples: list[list[float]], min_gain: float = MIN_GAIN, z: float = Z) -> tuple[int, tuple[float, ...]]:
    """The candidate to play: the first one (the level-2 choice) unless another beats it on the
    same deals by a clear margin (mean paired gain above Z standard errors), so that the noise of
    a few dozen playouts does not override a sound default."""
    n = len(samples)
    k = len(samples[0])
    means = tuple(sum(row[i] for row in samples) / n for i in range(k))
    best, best_score = 0, 0.0
    for i in range(1, k):
        diffs = [row[i] - row[0] for row in samples]
        mean = sum(diffs) / n
        if n > 1:
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            se = (var / n) ** 0.5
        else:
            se = float("inf")
        if mean > min_gain and mean > z * se and mean > best_score:
            best, best_score = i, mean
    return best, means
