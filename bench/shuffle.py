"""Statistics of the deal: chi-square of where each card lands, over many shuffled 52-card decks.

The shuffles are the engine's own (`engine.rng.shuffled`: Fisher–Yates over a SHAKE-256 stream),
each deck from its own seed. For every position, the 52 counts of which card landed there are
compared with the uniform expectation (chi-square, 51 degrees of freedom); the whole 52 × 52 table
gives a global statistic (51² degrees of freedom: rows and columns both sum to the number of decks).

    python -m bench.shuffle --decks 1000000        # the long run (about 2 minutes per million)

Last line: `RESULT decks=… worst_position_p=… global_chi2=… global_p=… seconds=…`.
CI runs 10^5 decks in tests/security/test_shuffle.py with fixed seeds.
"""

import argparse
import hashlib
import math
import time

from engine.rng import shuffled

CARDS = 52


def deck_seeds(count: int, salt: str = "bench"):
    """Fixed seeds (deterministic runs); new_seed() has the same shape: 64 hex digits."""
    for i in range(count):
        yield hashlib.sha256(f"{salt}:{i}".encode()).hexdigest()


def position_counts(count: int, salt: str = "bench", shuffle=None) -> list[list[int]]:
    """counts[position][card] over `count` decks."""
    shuffle = shuffle or (lambda deck, seed: shuffled(deck, seed, "deal"))
    counts = [[0] * CARDS for _ in range(CARDS)]
    rows = counts  # local alias for speed
    deck = list(range(CARDS))
    for seed in deck_seeds(count, salt):
        for position, card in enumerate(shuffle(deck, seed)):
            rows[position][card] += 1
    return counts


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square(df): the regularized upper incomplete gamma Q(df/2, x/2)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    log_prefix = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1.0 - math.exp(log_prefix) * total)
    # continued fraction for Q (modified Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


def analyse(counts: list[list[int]]) -> dict:
    decks = sum(counts[0])
    expected = decks / CARDS
    per_position = []
    for row in counts:
        chi2 = sum((observed - expected) ** 2 for observed in row) / expected
        per_position.append((chi2, chi2_sf(chi2, CARDS - 1)))
    global_chi2 = sum(chi2 for chi2, _ in per_position)
    return {
        "decks": decks,
        "per_position": per_position,
        "worst_position_p": min(p for _, p in per_position),
        "global_chi2": global_chi2,
        "global_df": (CARDS - 1) ** 2,
        "global_p": chi2_sf(global_chi2, (CARDS - 1) ** 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1_000_000)
    parser.add_argument("--salt", default="bench")
    args = parser.parse_args()
    start = time.monotonic()
    result = analyse(position_counts(args.decks, args.salt))
    seconds = time.monotonic() - start
    worst = min(range(CARDS), key=lambda pos: result["per_position"][pos][1])
    print(f"decks: {result['decks']}, expected per cell: {result['decks'] / CARDS:.1f}")
    bonferroni = min(1, CARDS * result["worst_position_p"])
    print(f"worst position: {worst} (chi2={result['per_position'][worst][0]:.1f}, df=51, "
          f"p={result['worst_position_p']:.4g}; Bonferroni over 52 positions: {bonferroni:.4g})")
    print(f"global: chi2={result['global_chi2']:.1f}, df={result['global_df']}, p={result['global_p']:.4g}")
    print(f"RESULT decks={result['decks']} worst_position_p={result['worst_position_p']:.4g} "
          f"global_chi2={result['global_chi2']:.1f} global_p={result['global_p']:.4g} seconds={seconds:.1f}")


if __name__ == "__main__":
    main()
