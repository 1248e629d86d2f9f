"""The trick-taking family's pieces (engine/games/_tricks.py is its game): pure helpers, no state of their own.

- `RankOrder`: the rank order of a trump suit and of the other suits, highest first, and the card points
  of each rank in and out of trumps. `strength(card, trump, led)` orders the cards of one trick.
- `follow_suit(hand, led)`: the cards a follower may play under the plain « fournir » rule.
- `trick_winner(plays, trump, order)`: the seat that takes a trick (highest trump, else highest of the led
  suit); `trick_points(plays, trump, order)`: its card points; `tricks_won(tricks)`: finished tricks per team.
- `sorted_hand(hand, trump, order)`: a hand by suit (S, H, D, C), each suit in its rank order, highest first.
- `lowest_card(legal, trump, order)`: the lowest-ranked card, every non-trump below every trump (autoplay).
- `deal_in_turn(stock, receivers, order, count)`: cards from the top of a stock, one at a time in turn.
- `Seats`: seat arithmetic in the table's direction (`step` = -1 for counter-clockwise).
- `TEAMS` (A = seats 0 and 2, B = 1 and 3: `engine.base.TEAM_SEATS`), `partner(seat)`, `other(team)`.
- `IntChoice`: a move parameter that is one of a few integers (engine.moves has text and flags only).

A trick in a state is `{"leader": seat, "cards": [{"seat": s, "card": id}, ...]}`; a finished trick adds
`number` (1…), `winner`, `team` and `points`.

Card ids are those of engine.cards ("10S1", "QH1"): rank = id[:-2], suit = id[-2].
"""

from dataclasses import dataclass

from engine import cards
from engine.base import TEAM_SEATS, partner_of

SUITS = cards.SUITS  # S, H, D, C: the tie-break order of the rules files
SUIT_FR = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
TEAMS = TEAM_SEATS


def rank(card: str) -> str:
    return card[:-2]


def suit(card: str) -> str:
    return card[-2]


def other(team: str) -> str:
    """The other team."""
    return "B" if team == "A" else "A"


def partner(seat: int) -> int:
    """The seat facing `seat`: his partner."""
    return partner_of(seat)


@dataclass(frozen=True)
class RankOrder:
    """Ranks highest first in the trump suit and in the other suits, and card points of each rank."""

    trump: tuple
    plain: tuple
    trump_points: dict
    plain_points: dict

    def reversed(self) -> "RankOrder":
        return RankOrder(tuple(reversed(self.trump)), tuple(reversed(self.plain)),
                         self.trump_points, self.plain_points)

    def position(self, card: str, trump: str | None) -> int:
        """0 for the highest card of its suit (trump order when its suit is trumps)."""
        ranks = self.trump if suit(card) == trump else self.plain
        return ranks.index(rank(card))

    def points(self, card: str, trump: str | None) -> int:
        table = self.trump_points if suit(card) == trump else self.plain_points
        return table[rank(card)]

    def strength(self, card: str, trump: str | None, led: str | None) -> int:
        """Higher wins the trick: trumps above the led suit, the led suit above the rest (0)."""
        s = suit(card)
        if s == trump:
            return 200 - self.trump.index(rank(card))
        if s == led:
            return 100 - self.plain.index(rank(card))
        return 0


def follow_suit(hand, led: str | None) -> list[str]:
    """The cards a follower may play: those of the led suit if he has any, else any card."""
    if led is None:
        return list(hand)
    same = [c for c in hand if suit(c) == led]
    return same or list(hand)


def trick_winner(plays: list[dict], trump: str | None, order: RankOrder) -> int:
    """The seat whose card takes the trick (plays: [{"seat", "card"}], the leader's first)."""
    led = suit(plays[0]["card"])
    best = max(plays, key=lambda p: order.strength(p["card"], trump, led))
    return best["seat"]


def trick_points(plays: list[dict], trump: str | None, order: RankOrder) -> int:
    return sum(order.points(p["card"], trump) for p in plays)


def sorted_hand(hand, trump: str | None, order: RankOrder) -> list[str]:
    """By suit S, H, D, C, then by the suit's rank order, highest first."""
    return sorted(hand, key=lambda c: (cards.SUIT_INDEX[suit(c)], order.position(c, trump)))


def lowest_card(legal: list[str], trump: str | None, order: RankOrder) -> str:
    """The lowest-ranked card, every non-trump below every trump; ties S, H, D, C (an autoplay's card)."""
    return min(legal, key=lambda c: (suit(c) == trump, -order.position(c, trump), SUITS.index(suit(c))))


def tricks_won(tricks: list[dict]) -> dict:
    """Finished tricks per team, `{"A": n, "B": n}`."""
    return {t: sum(1 for x in tricks if x["team"] == t) for t in TEAMS}


def deal_in_turn(stock: list, receivers: list, order: list[int], count: int) -> None:
    """`count` cards to each seat of `order`, one at a time in turn, from the top of `stock` (its last card);
    `receivers[seat]` is the list a seat's cards go to (its hand, or cards it may not see yet)."""
    for _ in range(count):
        for s in order:
            receivers[s].append(stock.pop())


@dataclass(frozen=True)
class Seats:
    """Seat arithmetic around a table of `count` seats; `step` -1 goes counter-clockwise (seat - 1)."""

    count: int
    step: int

    @property
    def direction(self) -> str:
        """The view's `direction`: "ccw" or "cw"."""
        return "ccw" if self.step == -1 else "cw"

    def next(self, seat: int) -> int:
        return (seat + self.step) % self.count

    def order_from(self, seat: int) -> list[int]:
        """Every seat once, starting with `seat`, in the table's direction."""
        return [(seat + self.step * i) % self.count for i in range(self.count)]


@dataclass(frozen=True)
class IntChoice:
    """A move parameter: one of `choices` (an int, or its decimal text from an HTML form)."""

    choices: tuple

    def clean(self, value):
        if isinstance(value, str) and value.isdigit() and len(value) <= 4:
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value not in self.choices:
            raise ValueError
        return value
