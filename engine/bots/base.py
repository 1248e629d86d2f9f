"""What a bot knows and how it looks at a hand: shared by every draw-and-discard game.

A bot sees one seat's `view` and the legal moves, nothing else. `Knowledge` gathers what the view
says (own hand, discard pile, counts, scores); an `Adapter` adds the game's rules: card values,
the exact meld solver, which cards are still unseen, and a fast simulator for the expert's
Monte Carlo search. The level logic in `engine.bots.levels` only talks to the adapter, so a later
rummy-family game plugs in with a new adapter.
"""

from collections import Counter
from dataclasses import dataclass, field
from functools import cache, lru_cache

from engine import cards, melds

RANKS_N = 13


# ---------------------------------------------------------------- legal moves, grouped


class Moves:
    """The legal moves of one decision, grouped by action (order kept)."""

    def __init__(self, legal: list[dict]):
        self.legal = list(legal)
        self.by_action: dict[str, list[dict]] = {}
        for move in self.legal:
            self.by_action.setdefault(move.get("action"), []).append(move)

    def has(self, action: str) -> bool:
        return action in self.by_action

    def first(self, action: str) -> dict | None:
        found = self.by_action.get(action)
        return found[0] if found else None

    def by_card(self, action: str) -> dict[str, dict]:
        return {m["card"]: m for m in self.by_action.get(action, []) if "card" in m}

    def actions(self) -> set[str]:
        return set(self.by_action)


# ---------------------------------------------------------------- what the seat knows


@dataclass
class Knowledge:
    """Everything the view tells one seat, in the shape the bots use."""

    seat: int
    seats: int
    phase: str
    hand: list[str]
    discard_pile: list[str]
    stock_count: int
    active: list[int]
    scores: list[int]
    hand_counts: dict[int, int]
    known: dict[int, list[str]] = field(default_factory=dict)  # cards known to be in another hand
    out_of_play: list[str] = field(default_factory=list)  # seen cards that are in no hand and no pile
    extra: dict = field(default_factory=dict)

    @property
    def top(self) -> str | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def opponents(self) -> list[int]:
        """Other active seats in turn order, starting with the next one clockwise."""
        return [s for s in self.turn_order() if s != self.seat]

    def turn_order(self) -> list[int]:
        """Active seats clockwise from the one after this seat; this seat comes last."""
        n = self.seats
        order = [(self.seat + i) % n for i in range(1, n + 1)]
        return [s for s in order if s in self.active]


def knowledge_of(view: dict) -> Knowledge:
    seat = view["seat"]
    players = view.get("players") or []
    counts = {p["seat"]: p.get("hand_count", 0) for p in players}
    return Knowledge(
        seat=seat,
        seats=int(view.get("seats") or len(players) or seat + 1),
        phase=view.get("phase"),
        hand=list(view.get("hand") or []),
        discard_pile=list(view.get("discard_pile") or []),
        stock_count=int(view.get("stock_count") or 0),
        active=list(view.get("active") or []),
        scores=list(view.get("scores") or []),
        hand_counts=counts,
    )


# ---------------------------------------------------------------- card geometry


@cache
def suit_rank(card: str) -> tuple[int, int]:
    """(suit index 0..3, rank 1..13); (-1, 0) for a printed joker."""
    if cards.is_joker(card):
        return -1, 0
    return cards.SUIT_INDEX[card[-2]], cards.RANK_INDEX[card[:-2]]


def face_id(suit: int, rank: int, copy: int = 1) -> str:
    return f"{cards.RANKS[rank - 1]}{cards.SUITS[suit]}{copy}"


# ---------------------------------------------------------------- adapter


class Adapter:
    """Per-game hand evaluation for the generic bot levels (a rummy-family game subclasses it).

    Subclasses set `slug`, `deck`, `end_action` (the move that ends a round: "close", "knock"),
    `end_limit`, `ace_high`, `copies` and implement `rules_key`, `rules`, `is_wild`; the expert level
    also needs `determinize`, `candidates` and `evaluate` (see `engine.bots.search`).
    """

    slug = ""
    deck: tuple[str, ...] = ()
    end_action = ""
    end_limit = 10
    ace_high = False
    take_action = "take_discard"  # the draw that takes the top discard, if the game has it
    take_to_lower_deadwood = True  # level 2 takes a discard that lowers its deadwood (False: only to meld it)
    potential_weight = 0.0  # level 2: deadwood points one live out is worth (0: a pure tie-break)
    potential_margin = 0  # level 2: potential is weighed for discards within best + margin

    # -- rules and the solver (cached: bots evaluate the same hands again and again)

    def rules_key(self, view: dict):
        """A small hashable key standing for this round's meld rules (e.g. the wild rank)."""
        raise NotImplementedError

    def rules(self, key):
        raise NotImplementedError

    def is_wild(self, card: str, key) -> bool:
        raise NotImplementedError

    def value(self, card: str, key) -> int:
        return _card_value(self, card, key)

    def deadwood(self, hand, key) -> int:
        return _deadwood(self, frozenset(hand), key)

    def discards(self, hand, key) -> dict[str, int]:
        """Best deadwood left after discarding each card of an (H+1)-card hand. Do not mutate."""
        return _discards(self, frozenset(hand), key)

    def arrangement(self, hand, key):
        return _arrangement(self, frozenset(hand), key)

    # -- the playout step: draw one card, throw one (exact, with a shortcut for loose cards)

    def connects(self, card: str, hand, key) -> bool:
        """Whether `card` could sit in a meld with cards of `hand` (if not, it is deadwood in
        every arrangement of hand + card). Conservative: True may be a false alarm."""
        if self.is_wild(card, key):
            return True
        wilds = 0
        naturals = []
        for c in hand:
            if self.is_wild(c, key):
                wilds += 1
            else:
                naturals.append(c)
        if wilds >= 2:
            return True
        reach = 2 if wilds else 1
        sc, rc = suit_rank(card)
        for c in naturals:
            s, r = suit_rank(c)
            if r == rc:
                if s != sc:
                    return True
            elif s == sc:
                gap = abs(r - rc)
                if self.ace_high and (r == 1 or rc == 1):
                    gap = min(gap, 14 - max(r, rc))
                if gap <= reach:
                    return True
        return False

    def profile(self, hand, key) -> tuple[int, int, str | None]:
        """(deadwood, most deadwood one discard saves, that discard) of a hand of H cards."""
        return _profile(self, frozenset(hand), key)

    def step(self, hand, card: str, key, taken: str | None = None) -> tuple[str, int]:
        """Greedy discard after `card` joins `hand`: (card thrown, deadwood left); the thrown card
        leaves the least deadwood (ties: highest value, then card order), never `taken`."""
        value = self.value
        if not self.connects(card, hand, key):
            dw, gain, best = self.profile(hand, key)
            options = [] if card == taken else [(dw, -value(card, key), cards.sort_key(card), card)]
            if best is not None:
                options.append((dw - gain + value(card, key), -value(best, key), cards.sort_key(best), best))
            if options:
                choice = min(options)
                return choice[3], choice[0]
        left = self.discards(list(hand) + [card], key)
        best = min((c for c in left if c != taken), key=lambda c: (left[c], -value(c, key), cards.sort_key(c)))
        return best, left[best]

    def discard_risks(self, know: "Knowledge", allowed: list[str], key) -> dict[str, float]:
        """Deadwood points a discard is counted as costing beyond what it leaves, for what it gives the next player
        (none by default)."""
        return {}

    def end_move(self, move: dict, know: "Knowledge", key, level: int) -> dict:
        """The close/knock move to play (a game may choose its parameters, e.g. the arrangement)."""
        return move

    def finalize(self, move: dict, know: "Knowledge", key) -> dict:
        """The expert's chosen candidate as a move to play."""
        return move

    # -- what is still unseen

    def knowledge(self, view: dict) -> Knowledge:
        return knowledge_of(view)

    def unseen(self, know: Knowledge) -> list[str]:
        """Cards this seat has not seen: in other hands or in the stock (or out of play, unseen)."""
        seen = set(know.hand) | set(know.discard_pile) | set(know.out_of_play)
        for held in know.known.values():
            seen |= set(held)
        return [c for c in self.deck if c not in seen]

    def face_counts(self, unseen: list[str], key) -> Counter:
        """How many unseen cards of each face; all wilds pooled under "*"."""
        counts: Counter = Counter()
        for c in unseen:
            counts["*" if self.is_wild(c, key) else cards.face(c)] += 1
        return counts

    # -- potential: partial melds with live outs

    def partial_outs(self, a: str, b: str) -> list[tuple[int, int]]:
        """Faces (suit, rank) that would make a meld with naturals `a` and `b`, [] if none."""
        sa, ra = suit_rank(a)
        sb, rb = suit_rank(b)
        if ra == rb:
            if sa == sb:
                return []  # two copies of one face never meld together
            return [(s, ra) for s in range(4) if s not in (sa, sb)]
        if sa != sb:
            return []
        lo, hi = sorted((ra, rb))
        if self.ace_high and lo == 1 and hi >= 12:
            lo, hi = hi, 14  # Q-A or K-A, the ace high
        gap = hi - lo
        if gap == 1:
            outs = []
            if lo - 1 >= 1:
                outs.append(lo - 1)
            if hi + 1 <= 13 or (self.ace_high and hi + 1 == 14):
                outs.append(hi + 1)
            return [(sa, 1 if r == 14 else r) for r in outs]
        if gap == 2:
            return [(sa, lo + 1)]
        return []

    def potential(self, hand, key, live: Counter) -> float:
        """Live outs of the partial melds among the hand's deadwood (pairs, near-runs).

        `live` counts unseen cards by face ("*" = wilds). A partial meld whose completing cards are
        all dead (seen in the discard pile or in this hand) is worth nothing.
        """
        arr = self.arrangement(hand, key)
        dead = [c for c in arr.deadwood if not self.is_wild(c, key)]
        wild_outs = live.get("*", 0)
        total = 0.0
        for i, a in enumerate(dead):
            for b in dead[i + 1:]:
                outs = self.partial_outs(a, b)
                if not outs:
                    continue
                n = sum(live.get(face_id(s, r)[:-1], 0) for s, r in outs) + wild_outs
                total += n
        return total


@lru_cache(maxsize=2048)
def _card_value(adapter: Adapter, card: str, key) -> int:
    return melds.card_value(card, adapter.rules(key))


@lru_cache(maxsize=1 << 16)
def _deadwood(adapter: Adapter, hand: frozenset, key) -> int:
    return melds.deadwood(sorted(hand), adapter.rules(key))


@lru_cache(maxsize=1 << 15)
def _discards(adapter: Adapter, hand: frozenset, key) -> dict[str, int]:
    return melds.best_discards(sorted(hand), adapter.rules(key))


@lru_cache(maxsize=1 << 15)
def _profile(adapter: Adapter, hand: frozenset, key) -> tuple[int, int, str | None]:
    if not hand:
        return 0, 0, None
    dw = adapter.deadwood(hand, key)
    left = adapter.discards(hand, key)
    best = min(left, key=lambda c: (left[c], -adapter.value(c, key), cards.sort_key(c)))
    return dw, dw - left[best], best


@lru_cache(maxsize=1 << 13)
def _arrangement(adapter: Adapter, hand: frozenset, key):
    return melds.best_arrangement(sorted(hand), adapter.rules(key))
