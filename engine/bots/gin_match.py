"""What a Gin round is worth in the match: the chance of winning a heads-up match to 100 penalty points.

A player who goes over 100 is out, so the match equity of two totals is the chance that the other goes
over first. Rounds are modelled as independent: each one gives one player (either, evenly) a number of
points drawn from what Confirmé robots score a round (`ROUND_POINTS`, measured on 2,971 rounds of
`python -m bench.bots --game gin --pairs 2-2`, in 5-point buckets). The table is solved once, backwards
from the limit. Search compares its candidates by this chance (`equity`), so the same 20 points weigh
little at 0 – 0 and decide everything at 95 – 90, and a one-round match counts only the round's winner.
"""

from functools import lru_cache

LIMIT = 100
# (points a round gives its loser, how many of 2,971 rounds): bucket centres
ROUND_POINTS = ((2, 370), (7, 642), (12, 547), (17, 415), (22, 255), (27, 310), (32, 117), (37, 127), (42, 58),
                (47, 53), (52, 36), (57, 23), (62, 6), (67, 6), (72, 3), (82, 2), (92, 1))
_TOTAL = sum(n for _, n in ROUND_POINTS)
_DIST = tuple((p, n / _TOTAL) for p, n in ROUND_POINTS)


@lru_cache(maxsize=1)
def _table() -> list[list[float]]:
    """win[a][b]: the chance that the player on `a` points wins against one on `b` (both ≤ LIMIT)."""
    size = LIMIT + 1
    win = [[0.5] * size for _ in range(size)]
    for total in range(2 * LIMIT, -1, -1):  # a round only raises totals: solve from the highest down
        for a in range(max(0, total - LIMIT), min(LIMIT, total) + 1):
            b = total - a
            p = 0.0
            for points, chance in _DIST:
                p += 0.5 * chance * (win[a + points][b] if a + points <= LIMIT else 0.0)  # I lose the round
                p += 0.5 * chance * (win[a][b + points] if b + points <= LIMIT else 1.0)  # he loses it
            win[a][b] = p
    return win


def equity(mine: int, theirs: int) -> float:
    """The chance of winning the match from totals `mine` and `theirs` (penalty points)."""
    if mine > LIMIT:
        return 0.0 if theirs <= LIMIT or theirs < mine else 0.5
    if theirs > LIMIT:
        return 1.0
    return _table()[mine][theirs]
