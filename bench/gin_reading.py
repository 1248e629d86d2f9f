"""Reading the other Gin hand from the round's public moves, with a particle filter (an analysis for issue #32).

What a player at the table has seen: his own dealt hand and draws, the first upcard, and every public move of the
other (the upcard he took or let go by, the card he threw, whether he drew from the stock). Each particle is one
story of the other's round: a dealt hand, then his moves replayed with the unknown stock draws filled in. A story is
weighed by how likely a greedy player (`GinAdapter.wants` and `GinAdapter.step`, the Expert's playout policy) would
have made the moves he made: `EPSILON` for a move the greedy player would not make. The stories are resampled when
their weights run thin, and the current hands of the survivors are the reading.

The bench records the public log itself (`PublicLog`), since the game's view does not carry the round's moves.
"""

import random
from dataclasses import dataclass, field

from engine.bots.gin import ADAPTER

PARTICLES = 200
EPSILON = 0.05  # the weight of a move the greedy player would not have made
RESAMPLE_BELOW = 0.5  # resample when the effective number of particles falls under this share


@dataclass
class PublicLog:
    """One round as each seat saw it: its dealt hand and its stock draws (private), the first upcard and the public
    moves of both seats, in order."""

    dealt: dict[int, list[str]] = field(default_factory=dict)
    upcard: str | None = None
    moves: list[tuple] = field(default_factory=list)  # (seat, action, card or None, top before the move)
    drawn: dict[int, list[str]] = field(default_factory=dict)  # each seat's stock draws, known to it alone

    def start(self, state: dict) -> None:
        self.dealt = {seat: list(hand) for seat, hand in enumerate(state["hands"]) if hand is not None}
        self.upcard = state["discard"][-1] if state["discard"] else None
        self.moves = []
        self.drawn = {seat: [] for seat in self.dealt}

    def record(self, before: dict, seat: int, move: dict, after: dict) -> None:
        action = move.get("action")
        top = before["discard"][-1] if before["discard"] else None
        if action == "draw_stock":
            new = [c for c in after["hands"][seat] if c not in before["hands"][seat]]
            self.drawn[seat].extend(new)
        self.moves.append((seat, action, move.get("card"), top))


LOG = PublicLog()


def read(seat: int, rng: random.Random, log: PublicLog = LOG) -> list[list[str]]:
    """Hands the other seat may hold now, weighted by resampling (PARTICLES of them, repeats allowed)."""
    other = next(s for s in log.dealt if s != seat)
    mine = set(log.dealt[seat]) | set(log.drawn.get(seat, ()))
    deck = list(ADAPTER.deck)
    hidden_at_deal = [c for c in deck if c not in set(log.dealt[seat]) and c != log.upcard]
    size = len(log.dealt[other])
    particles = []
    for _ in range(PARTICLES):
        rng.shuffle(hidden_at_deal)
        particles.append(list(hidden_at_deal[:size]))
    weights = [1.0] * PARTICLES
    public = set(log.dealt[seat]) | ({log.upcard} if log.upcard else set())
    drew_blind = False
    top_taken = None
    for who, action, card, top in log.moves:
        if who == seat:
            if card is not None:
                public.add(card)
            continue
        if action in ("take_discard", "pass", "draw_stock"):
            for i, hand in enumerate(particles):
                if weights[i] and top is not None:
                    wanted = ADAPTER.wants(hand, top, None)
                    took = action == "take_discard"
                    weights[i] *= 1.0 if wanted == took else EPSILON
                if action == "take_discard":
                    hand.append(top)
            drew_blind = action == "draw_stock"
            top_taken = top if action == "take_discard" else None
        elif action in ("discard", "knock"):
            for i, hand in enumerate(particles):
                if not weights[i]:
                    continue
                if drew_blind:
                    pool = [c for c in deck if c not in public and c not in mine and c not in hand]
                    if card in hand:
                        drawn = rng.choice([c for c in pool if c != card] or pool)
                        hand.append(drawn)
                    elif card in pool:
                        hand.append(card)
                        weights[i] /= max(1, len(pool))
                    else:
                        weights[i] = 0.0
                        continue
                    thrown, _dw = ADAPTER.step([c for c in hand if c != hand[-1]], hand[-1], None)
                    weights[i] *= 1.0 if thrown == card else EPSILON
                elif card not in hand or card == top_taken:
                    weights[i] = 0.0
                    continue
                else:
                    thrown, _dw = ADAPTER.step([c for c in hand if c != top_taken], top_taken, None, taken=top_taken)
                    weights[i] *= 1.0 if thrown == card else EPSILON
                hand.remove(card)
            public.add(card)
            drew_blind = False
            particles, weights = resample(particles, weights, rng)
    particles, weights = resample(particles, weights, rng, force=True)
    return particles


def resample(particles: list[list[str]], weights: list[float], rng: random.Random,
             force: bool = False) -> tuple[list[list[str]], list[float]]:
    total = sum(weights)
    if total <= 0:
        return particles, [1.0] * len(particles)
    effective = total * total / sum(w * w for w in weights)
    if not force and effective >= RESAMPLE_BELOW * len(particles):
        return particles, weights
    chosen = rng.choices(range(len(particles)), weights=weights, k=len(particles))
    return [list(particles[i]) for i in chosen], [1.0] * len(particles)
