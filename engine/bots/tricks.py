"""What the trick-taking bots share (Thunee first; Belote could reuse it): reading a view, dealing the
hidden cards consistently with it, and a small perfect-information model of the play for the search.

- `Seen`: the seat's view in the bots' shape: its hand, the cards seen played, the current trick, the
  hand counts, the cards known in another hand (shown Jodhis), and the suits each seat is known to lack
  (`voids`: it did not follow suit; or it under-trumped its partner, which the rules allow only to a hand
  of nothing but trumps).
- `determinize(seen, rng)`: the other hands dealt at random among the unseen cards, each seat getting its
  count, its known cards, and no card of a suit it lacks (most constrained cards first, a few retries,
  then without the voids rather than fail).
- `Table`: the play of one deal with every hand known (a determinization), fast: ids as strings, strength
  tables per (trump, led) cached per rank order. The game gives its legal-play rule and its scoring;
  `heuristic_card` is the fast playout policy (win cheaply, feed points to a partner who holds the
  trick, trump only what is worth it, discard the cheapest card).

Seats turn counter-clockwise (next = seat − 1) as in Thunee; teams are seat % 2 (0: A, 1: B).
"""

from dataclasses import dataclass, field

from engine.games import _tricks as tr

SUITS = tr.SUITS


def suit(card: str) -> str:
    return card[-2]


def nxt(seat: int) -> int:
    return (seat - 1) % 4


def team_index(seat: int) -> int:
    return seat % 2


class Strengths:
    """Cached strength and point tables of one rank order over one deck."""

    def __init__(self, order: tr.RankOrder, deck: tuple):
        self.order = order
        self.deck = deck
        self._strength: dict = {}
        self._points: dict = {}

    def strength(self, trump: str | None, led: str | None) -> dict:
        key = (trump, led)
        table = self._strength.get(key)
        if table is None:
            table = {c: self.order.strength(c, trump, led) for c in self.deck}
            self._strength[key] = table
        return table

    def points(self, trump: str | None) -> dict:
        table = self._points.get(trump)
        if table is None:
            table = {c: self.order.points(c, trump) for c in self.deck}
            self._points[trump] = table
        return table

    def rank_value(self, trump: str | None) -> dict:
        """A card's worth to keep: trumps above every plain card, then its suit's rank order."""
        key = ("keep", trump)
        table = self._strength.get(key)
        if table is None:
            table = {c: self.order.strength(c, trump, suit(c)) for c in self.deck}
            self._strength[key] = table
        return table


# ---------------------------------------------------------------- the view


@dataclass
class Seen:
    seat: int
    hand: list[str]
    trump: str | None
    played: set[str]
    trick: list[tuple[int, str]]
    leader: int | None
    counts: dict[int, int]
    known: dict[int, list[str]] = field(default_factory=dict)
    voids: dict[int, set[str]] = field(default_factory=dict)
    winners: list[int] = field(default_factory=list)  # seat that took each finished trick
    team_points: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def tricks_left(self) -> int:
        return len(self.hand)

    def unseen(self, deck) -> list[str]:
        """Cards in another hand as far as this seat knows (not mine, not played, not known elsewhere)."""
        mine = set(self.hand)
        known = {c for cs in self.known.values() for c in cs}
        return [c for c in deck if c not in mine and c not in self.played and c not in known]


def infer_voids(tricks: list[list[tuple[int, str]]], trump_of, strengths: Strengths) -> dict[int, set[str]]:
    """Suits each seat lacks, from tricks played in order (`trump_of(i)`: the trump during trick i)."""
    voids: dict[int, set[str]] = {s: set() for s in range(4)}
    for i, plays in enumerate(tricks):
        if not plays:
            continue
        trump = trump_of(i, plays)
        led = suit(plays[0][1])
        table = strengths.strength(trump, led)
        best_seat, best = plays[0]
        for seat, card in plays[1:]:
            if suit(card) != led:
                voids[seat].add(led)
                partner_trumps = (trump is not None and team_index(best_seat) == team_index(seat)
                                  and suit(best) == trump)
                if partner_trumps and suit(card) == trump and table[card] < table[best]:
                    voids[seat].update(s for s in SUITS if s != trump)  # under-trumped: only trumps left
            if table[card] > table[best]:
                best_seat, best = seat, card
    return voids


def determinize(seen: Seen, deck, rng, tries: int = 12) -> list[list[str]]:
    """The four hands of one deal consistent with what `seen` knows (mine as it is)."""
    others = [s for s in range(4) if s != seen.seat]
    pool = seen.unseen(deck)
    need = {s: seen.counts.get(s, 0) - len(seen.known.get(s, [])) for s in others}
    for attempt in range(tries + 1):
        use_voids = attempt < tries
        hands = _deal(pool, need, seen.voids if use_voids else {}, rng)
        if hands is not None:
            break
    out = [[] for _ in range(4)]
    out[seen.seat] = list(seen.hand)
    for s in others:
        out[s] = list(seen.known.get(s, [])) + hands[s]
    return out


def _deal(pool: list[str], need: dict[int, int], voids: dict, rng) -> dict | None:
    cards = list(pool)
    rng.shuffle(cards)
    room = dict(need)
    eligible = {c: [s for s in room if suit(c) not in voids.get(s, ())] for c in cards}
    cards.sort(key=lambda c: len(eligible[c]))
    hands = {s: [] for s in room}
    for c in cards:
        seats = [s for s in eligible[c] if room[s] > 0]
        if not seats:
            if sum(room.values()) == 0:
                break  # more unseen cards than hand slots (cards not dealt yet): leave it out
            return None
        weights = [room[s] for s in seats]
        pick = rng.choices(seats, weights)[0]
        hands[pick].append(c)
        room[pick] -= 1
    if any(room.values()):
        return None
    return hands


# ---------------------------------------------------------------- the play, every hand known


class Table:
    """One deal's play from a position, every hand known. The game's `rules` object gives `legal(table,
    seat)`, the early end (`stop(table)`, e.g. a Thunee caught), what follows a trick (`after_trick`) and
    `copy()`; the result is read from `winners` / `points`.

    A bot that must not see the other hands builds a *possibility* table instead: each other seat's
    "hand" is every unseen card of the suits it may still hold. The policy's questions (can anyone still
    beat this card? are trumps out?) then get the cautious answer; such a table is never played on."""

    __slots__ = ("hands", "trick", "leader", "current", "trump", "played", "winners", "points",
                 "strengths", "caller", "rules", "trick_points")

    def __init__(self, hands, trick, leader, current, trump, played, winners, points, strengths, rules,
                 caller=None):
        self.hands = hands
        self.trick = trick
        self.leader = leader
        self.current = current
        self.trump = trump
        self.played = played
        self.winners = winners
        self.points = points
        self.trick_points = []
        self.strengths = strengths
        self.rules = rules
        self.caller = caller

    def copy(self) -> "Table":
        t = Table([list(h) for h in self.hands], list(self.trick), self.leader, self.current, self.trump,
                  set(self.played), list(self.winners), list(self.points), self.strengths, self.rules.copy(),
                  self.caller)
        t.trick_points = list(self.trick_points)
        return t

    @property
    def over(self) -> bool:
        return self.current is None

    def winning(self) -> tuple[int, str]:
        led = suit(self.trick[0][1])
        table = self.strengths.strength(self.trump, led)
        best_seat, best = self.trick[0]
        for seat, card in self.trick[1:]:
            if table[card] > table[best]:
                best_seat, best = seat, card
        return best_seat, best

    def play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        if not self.trick and self.trump is None:
            self.trump = suit(card)  # a Thunee caller's first lead names trumps
        self.trick.append((seat, card))
        self.played.add(card)
        if len(self.trick) < 4:
            self.current = nxt(seat)
            return
        winner, _ = self.winning()
        pts = self.strengths.points(self.trump)
        got = sum(pts[c] for _, c in self.trick)
        self.points[team_index(winner)] += got
        self.trick_points.append(got)
        self.winners.append(winner)
        self.trick = []
        self.leader = winner
        self.current = None if (not self.hands[winner] or self.rules.stop(self)) else winner
        self.rules.after_trick(self)

    def run(self, policy) -> "Table":
        while self.current is not None:
            seat = self.current
            legal = self.rules.legal(self, seat)
            self.play(seat, legal[0] if len(legal) == 1 else policy(self, seat, legal))
        return self


# ---------------------------------------------------------------- the fast playout policy


def unseen_by(table: Table, seat: int) -> list[str]:
    """Cards neither played nor in `seat`'s hand (what that seat cannot place)."""
    mine = table.hands[seat]
    return [c for h in table.hands for c in h if c not in mine]


def is_master(table: Table, seat: int, card: str, led: str) -> bool:
    """No card left outside `seat`'s hand beats `card` in this trick (trumps counted)."""
    trump = table.trump
    strength = table.strengths.strength(trump, led)
    mine = strength[card]
    for h_seat, h in enumerate(table.hands):
        if h_seat == seat:
            continue
        for c in h:
            if strength[c] > mine:
                return False
    return True


def cheapest(cards, table: Table, led: str | None) -> str:
    """The card that costs least to give: fewest points, then weakest, plain before trump."""
    pts = table.strengths.points(table.trump)
    strength = table.strengths.strength(table.trump, led)
    keep = table.strengths.rank_value(table.trump)
    return min(cards, key=lambda c: (suit(c) == table.trump, pts[c], keep[c], strength[c], c))


def heuristic_card(table: Table, seat: int, legal: list[str]) -> str:
    """Simple card play: lead a sure winner or a low card; follow by winning cheaply, feeding a partner who
    holds the trick, trumping only a trick worth it or late, else discarding the cheapest card."""
    trump = table.trump
    pts = table.strengths.points(trump)
    if not table.trick:
        return lead_card(table, seat, legal)
    led = suit(table.trick[0][1])
    strength = table.strengths.strength(trump, led)
    win_seat, win_card = table.winning()
    top = strength[win_card]
    last = len(table.trick) == 3
    partner = team_index(win_seat) == team_index(seat)
    if partner and (last or _holds(table, win_seat, win_card, led)):
        under = [c for c in legal if strength[c] <= top] or legal
        return max(under, key=lambda c: (pts[c] if suit(c) != trump else -1, -strength[c], c))
    beaters = [c for c in legal if strength[c] > top]
    if beaters and not partner:
        on_table = sum(pts[c] for _, c in table.trick)
        sure = [c for c in beaters if last or is_master(table, seat, c, led)]
        plain = [c for c in (sure or beaters) if suit(c) != trump]
        if plain:
            return min(plain, key=lambda c: strength[c])
        late = len(table.hands[seat]) <= 2
        if sure and (on_table >= 10 or late or not any(suit(c) != trump for c in legal)):
            return min(sure, key=lambda c: strength[c])
    return cheapest([c for c in legal if strength[c] <= top] or legal, table, led)


def _holds(table: Table, win_seat: int, card: str, led: str) -> bool:
    """The partner's card cannot be beaten by the seats still to play (perfect information here)."""
    strength = table.strengths.strength(table.trump, led)
    played_seats = {s for s, _ in table.trick}
    for s in range(4):
        if s in played_seats or team_index(s) == team_index(win_seat):
            continue
        hand = table.hands[s]
        follow = [c for c in hand if suit(c) == led] or hand
        if any(strength[c] > strength[card] for c in follow):
            return False
    return True


def lead_card(table: Table, seat: int, legal: list[str]) -> str:
    trump = table.trump
    strength = table.strengths.strength(trump, None)
    masters = []
    for c in legal:
        if is_master(table, seat, c, suit(c)):
            masters.append(c)
    if masters:
        trumps_out = any(suit(c) == trump for s, h in enumerate(table.hands) if s != seat for c in h)
        best_trump = [c for c in masters if suit(c) == trump]
        if best_trump and trumps_out:
            return max(best_trump, key=lambda c: strength[c])
        plain = [c for c in masters if suit(c) != trump]
        if plain:
            pts = table.strengths.points(trump)
            return max(plain, key=lambda c: (pts[c], c))
        return max(masters, key=lambda c: strength[c])
    plain = [c for c in legal if suit(c) != trump] or legal
    by_suit: dict[str, int] = {}
    for c in plain:
        by_suit[suit(c)] = by_suit.get(suit(c), 0) + 1
    return min(plain, key=lambda c: (by_suit[suit(c)], table.strengths.points(trump)[c],
                                     table.strengths.strength(None, suit(c))[c], c))
