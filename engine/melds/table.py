"""Melds laid on the table (Rami, Rami 40, Kalooki, Rami traditionnel): explicit wild meanings,
meld points, lay-offs, joker releases, and the best lay-down of a hand.

The least-deadwood solver (`engine.melds.best_arrangement`) answers "how good is this hand"; games
that lay melds on the table during the round also need:

- one fixed *reading* of each table meld: what every wild stands for (`{"JK1": "7C"}`), hence where
  a run starts and ends and which end can still take a card;
- *meld points* for first lay-down thresholds: a wild counts as the card it stands for, an ace 1 at
  the bottom of a run (A-2-3) and 11 at the top (Q-K-A) or in a set;
- lay-offs at one end of a run or onto a set, and the replacement of a wild by a natural;
- the best lay-down of a hand under a weight (most meld points, or most penalty points shed) with the
  constraints of a turn (a card that must be used, a card that must stay to be discarded).

Run positions: 1 = ace low, 2..13 = 2..K, 14 = ace high. Only printed jokers are wild here; the rules
come as a `MeldRules` (sizes, `ace_low`/`ace_high`, `min_naturals`, `jokers_wild`). Cards are ids
(`QH1`, `JK3`), faces are rank + suit without the copy (`QH`).
"""

import re
from dataclasses import dataclass
from itertools import combinations

from engine.cards import RANK_INDEX, RANKS, SUIT_INDEX, SUITS, is_joker, sort_key
from engine.melds.rules import MeldRules

FACE_RE = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC])$")
EVEN_BITS = sum(1 << (2 * i) for i in range(52))


# ---------------------------------------------------------------- faces and positions

def parse_face(face) -> tuple[int, int] | None:
    """(suit index, rank index) of a face string like "7C"; None if it is not one."""
    if not isinstance(face, str):
        return None
    m = FACE_RE.match(face)
    return (SUIT_INDEX[m.group(2)], RANK_INDEX[m.group(1)]) if m else None


def natural_of(card: str) -> tuple[int, int]:
    """(suit index, rank index) of a natural card id."""
    return SUIT_INDEX[card[-2]], RANK_INDEX[card[:-2]]


def face_at(suit: int, position: int) -> str:
    """The face at a run position of a suit (1 and 14 are both the ace)."""
    return RANKS[(1 if position == 14 else position) - 1] + SUITS[suit]


def position_points(position: int) -> int:
    """Meld points of the card at a run position: ace low 1, ace high 11, figures 10."""
    if position == 1:
        return 1
    if position == 14:
        return 11
    return min(position, 10)


def set_points(rank: int) -> int:
    """Meld points of one card of a set: an ace counts 11, figures 10."""
    return 11 if rank == 1 else min(rank, 10)


def _min_pos(rules: MeldRules) -> int:
    return 1 if rules.ace_low else 2


def _max_pos(rules: MeldRules) -> int:
    return 14 if rules.ace_high else 13


def _run_max(rules: MeldRules) -> int:
    return min(rules.run_max, 13, _max_pos(rules) - _min_pos(rules) + 1)


def _set_max(rules: MeldRules) -> int:
    return min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max


def _ace_positions(rules: MeldRules) -> list[int]:
    return [p for p, ok in ((1, rules.ace_low), (14, rules.ace_high)) if ok]


# ---------------------------------------------------------------- one reading of a meld

@dataclass(frozen=True)
class Reading:
    """A meld read one way: kind, cards in display order, what each wild stands for.

    Runs: `suit`, positions `low`..`high`, cards in position order. Sets: `low == high == rank`,
    cards by the suit each holds or stands for (S, H, D, C).
    """

    kind: str  # "set" | "run"
    cards: tuple[str, ...]
    wilds: tuple[tuple[str, str], ...]  # (wild id, face), sorted by id
    suit: int | None
    low: int
    high: int

    @property
    def wild_map(self) -> dict[str, str]:
        return dict(self.wilds)

    @property
    def key(self) -> tuple:
        """Two readings with the same key mean the same meld (a set's wild suits do not matter)."""
        return ("set", self.low) if self.kind == "set" else ("run", self.suit, self.low, self.high)

    def faces(self) -> list[str]:
        """The face each card stands for, in display order."""
        wild = self.wild_map
        return [wild[c] if c in wild else c[:-1] for c in self.cards]

    def points(self) -> int:
        """Meld points (first lay-down count): each card counts as the card it is or stands for."""
        if self.kind == "set":
            return len(self.cards) * set_points(self.low)
        return sum(position_points(p) for p in range(self.low, self.high + 1))

    def natural_suits(self) -> set[int]:
        return {natural_of(c)[0] for c in self.cards if not is_joker(c)}

    def wild_ids(self) -> list[str]:
        return [c for c in self.cards if is_joker(c)]

    def as_dict(self) -> dict:
        return {"kind": self.kind, "cards": list(self.cards), "wilds": self.wild_map}


def read_meld(cards: list[str], rules: MeldRules, wilds: dict | None = None) -> list[Reading]:
    """Every reading of `cards` as one meld that agrees with the stated `wilds` (wild id -> face).

    Distinct keys only: a set is one reading whatever suits its wilds stand for (unstated ones take
    the missing suits in the order S, H, D, C); a run is one reading per placement of its wilds.
    An empty list means the cards are no meld (or the statement does not fit).
    """
    cards = list(cards)
    wilds = dict(wilds or {})
    n = len(cards)
    if n != len(set(cards)) or not all(isinstance(c, str) for c in cards):
        return []
    jokers = sorted((c for c in cards if is_joker(c)), key=sort_key)
    if jokers and not rules.jokers_wild:
        return []
    if any(w not in jokers for w in wilds):
        return []
    stated = {}
    for w, f in wilds.items():
        parsed = parse_face(f)
        if parsed is None:
            return []
        stated[w] = parsed
    naturals = [natural_of(c) for c in cards if not is_joker(c)]
    if len(naturals) < max(1, rules.min_naturals):
        return []
    out = []
    s = _read_set(cards, naturals, jokers, stated, {}, rules)
    if s is not None:
        out.append(s)
    out += _read_runs(cards, naturals, jokers, stated, rules)
    return out


def _read_set(cards, naturals, jokers, stated, preferred, rules) -> Reading | None:
    n = len(cards)
    ranks = {r for _, r in naturals}
    suits = [s for s, _ in naturals]
    if len(ranks) != 1 or not rules.set_min <= n <= _set_max(rules):
        return None
    if rules.set_distinct_suits and len(set(suits)) != len(suits):
        return None
    rank = ranks.pop()
    taken = set(suits)
    meaning = {}
    for w in jokers:
        if w in stated:
            s, r = stated[w]
            if r != rank or (rules.set_distinct_suits and s in taken):
                return None
            meaning[w] = s
            taken.add(s)
    for w in jokers:  # soft preferences (a table meld keeps its meanings when it can)
        if w not in meaning and w in preferred and preferred[w] not in taken:
            meaning[w] = preferred[w]
            taken.add(preferred[w])
    free = [s for s in range(4) if s not in taken]
    for w in jokers:
        if w not in meaning:
            if not free:
                free = list(range(4))  # sets with repeated suits (not in these games)
            meaning[w] = free.pop(0)
    order = sorted(cards, key=lambda c: (meaning[c] if is_joker(c) else natural_of(c)[0], is_joker(c), sort_key(c)))
    wild_faces = tuple((w, RANKS[rank - 1] + SUITS[meaning[w]]) for w in jokers)
    return Reading("set", tuple(order), wild_faces, None, rank, rank)


def _read_runs(cards, naturals, jokers, stated, rules) -> list[Reading]:
    n = len(cards)
    if len({s for s, _ in naturals}) != 1 or not rules.run_min <= n <= _run_max(rules):
        return []
    ranks = [r for _, r in naturals]
    if len(set(ranks)) != len(ranks):
        return []
    suit = naturals[0][0]
    if any(s != suit for s, _ in stated.values()):
        return []
    min_pos, max_pos = _min_pos(rules), _max_pos(rules)
    out = []
    ace_options = _ace_positions(rules) if 1 in ranks else [None]
    nat_cards = [c for c in cards if not is_joker(c)]
    for ace in ace_options:
        pos_of = {c: (ace if natural_of(c)[1] == 1 else natural_of(c)[1]) for c in nat_cards}
        positions = sorted(pos_of.values())
        for lo in range(max(min_pos, positions[-1] - n + 1), min(positions[0], max_pos - n + 1) + 1):
            window = range(lo, lo + n)
            holes = [p for p in window if p not in positions]
            reading = _place_jokers(suit, lo, lo + n - 1, pos_of, holes, jokers, stated)
            if reading is not None:
                out.append(reading)
    return out


def _place_jokers(suit, lo, hi, pos_of, holes, jokers, stated) -> Reading | None:
    """Jokers into the free positions of a run: stated ones where stated, the others in id order."""
    free = list(holes)
    at = {}
    for w in jokers:
        if w in stated:
            s, r = stated[w]
            p = next((q for q in free if q == r or (r == 1 and q in (1, 14))), None)
            if s != suit or p is None:
                return None
            free.remove(p)
            at[w] = p
    for w in jokers:
        if w not in at:
            at[w] = free.pop(0)
    by_pos = {**{p: c for c, p in pos_of.items()}, **{p: w for w, p in at.items()}}
    order = tuple(by_pos[p] for p in range(lo, hi + 1))
    wild_faces = tuple((w, face_at(suit, at[w])) for w in jokers)
    return Reading("run", order, wild_faces, suit, lo, hi)


def reading_of(cards: list[str], wilds: dict, kind: str, rules: MeldRules) -> Reading:
    """The reading of a table meld stored as (cards in display order, wilds, kind)."""
    jokers = sorted((c for c in cards if is_joker(c)), key=sort_key)
    if kind == "set":
        rank = next(natural_of(c)[1] for c in cards if not is_joker(c))
        stated = {w: parse_face(f) for w, f in wilds.items()}
        return _read_set(list(cards), [natural_of(c) for c in cards if not is_joker(c)], jokers, stated, {},
                         rules)
    first = cards[0]
    suit, rank = parse_face(wilds[first]) if is_joker(first) else natural_of(first)
    lo = rank  # a run never starts with a high ace
    return Reading("run", tuple(cards), tuple((w, wilds[w]) for w in jokers), suit, lo, lo + len(cards) - 1)


# ---------------------------------------------------------------- changing a table meld

def open_ends(reading: Reading, rules: MeldRules) -> dict[str, bool]:
    """Whether a card can still be added at each end (a set: both say whether it is full)."""
    n = len(reading.cards)
    if reading.kind == "set":
        room = n < _set_max(rules)
        return {"low": room, "high": room}
    room = n < _run_max(rules)
    return {"low": room and reading.low - 1 >= _min_pos(rules),
            "high": room and reading.high + 1 <= _max_pos(rules)}


def extend(reading: Reading, cards: list[str], end: str | None, rules: MeldRules,
           wilds: dict | None = None) -> Reading | None:
    """The meld with `cards` laid off at `end` ("low"/"high"; ignored for a set), or None if invalid.

    On a run the new cards take the positions next to that end (naturals at their rank, wilds in the
    rest, as stated in `wilds` or in id order). On a set the wilds keep their meanings when they can.
    """
    cards = list(cards)
    wilds = dict(wilds or {})
    if not cards or len(set(cards)) != len(cards) or set(cards) & set(reading.cards):
        return None
    jokers = sorted((c for c in cards if is_joker(c)), key=sort_key)
    if (jokers and not rules.jokers_wild) or any(w not in jokers for w in wilds):
        return None
    stated = {}
    for w, f in wilds.items():
        stated[w] = parse_face(f)
        if stated[w] is None:
            return None
    if reading.kind == "set":
        allj = sorted([*reading.wild_ids(), *jokers], key=sort_key)
        all_cards = [*reading.cards, *cards]
        preferred = {w: parse_face(f)[0] for w, f in reading.wilds}
        return _read_set(all_cards, [natural_of(c) for c in all_cards if not is_joker(c)], allj, stated,
                         preferred, rules)
    n = len(reading.cards) + len(cards)
    if n > _run_max(rules):
        return None
    if end == "high":
        lo, hi, new = reading.low, reading.high + len(cards), range(reading.high + 1, reading.high + len(cards) + 1)
    elif end == "low":
        lo, hi, new = reading.low - len(cards), reading.high, range(reading.low - len(cards), reading.low)
    else:
        return None
    if lo < _min_pos(rules) or hi > _max_pos(rules):
        return None
    by_pos = {reading.low + i: c for i, c in enumerate(reading.cards)}
    for c in cards:
        if is_joker(c):
            continue
        s, r = natural_of(c)
        p = next((q for q in new if q == r or (r == 1 and q in (1, 14))), None)
        if s != reading.suit or p is None or p in by_pos:
            return None
        by_pos[p] = c
    free = [p for p in new if p not in by_pos]
    at = {}
    for w in jokers:
        if w in stated:
            s, r = stated[w]
            p = next((q for q in free if q == r or (r == 1 and q in (1, 14))), None)
            if s != reading.suit or p is None:
                return None
            free.remove(p)
            at[w] = p
    for w in jokers:
        if w not in at:
            at[w] = free.pop(0)
    for w, p in at.items():
        by_pos[p] = w
    order = tuple(by_pos[p] for p in range(lo, hi + 1))
    all_wilds = [*reading.wilds, *((w, face_at(reading.suit, p)) for w, p in at.items())]
    return Reading("run", order, tuple(sorted(all_wilds, key=lambda x: sort_key(x[0]))), reading.suit, lo, hi)


def replace_wild(reading: Reading, wild: str, cards: list[str], rules: MeldRules) -> Reading | None:
    """The meld once `wild` leaves it for `cards` (naturals from a hand), or None if not allowed.

    Run: one card, exactly the face the wild stands for. Set: naturals of the set's rank, of suits no
    natural of the set holds; the other wilds take the suits still missing. How many cards a game asks
    for (one in Rami, two for a set in Rami 40 / Kalooki) is the caller's rule.
    """
    if wild not in reading.cards or not is_joker(wild) or not cards or any(is_joker(c) for c in cards):
        return None
    if len(set(cards)) != len(cards) or set(cards) & set(reading.cards):
        return None
    if reading.kind == "run":
        if len(cards) != 1 or cards[0][:-1] != reading.wild_map[wild]:
            return None
        order = tuple(cards[0] if c == wild else c for c in reading.cards)
        return Reading("run", order, tuple(x for x in reading.wilds if x[0] != wild), reading.suit,
                       reading.low, reading.high)
    held = reading.natural_suits()
    suits = [natural_of(c)[0] for c in cards]
    if any(natural_of(c)[1] != reading.low for c in cards) or len(set(suits)) != len(suits) or set(suits) & held:
        return None
    rest = [c for c in reading.cards if c != wild] + list(cards)
    others = sorted((c for c in rest if is_joker(c)), key=sort_key)
    preferred = {w: parse_face(f)[0] for w, f in reading.wilds if w != wild}
    return _read_set(rest, [natural_of(c) for c in rest if not is_joker(c)], others, {}, preferred, rules)


# ---------------------------------------------------------------- candidate melds of a hand

@dataclass(frozen=True)
class _Candidate:
    """A meld shape a hand can make: faces (one copy each) plus a number of jokers."""

    mask: int  # one unit in each face's 2-bit field
    faces: tuple[int, ...]  # face indexes (13 * suit + rank - 1)
    jokers: int
    points: int  # meld points with the wilds placed for the most points
    kind: str
    suit: int | None
    low: int
    high: int
    wild_positions: tuple[int, ...]  # runs: positions of the wilds; sets: ()


def _face_index(suit: int, rank: int) -> int:
    return 13 * suit + rank - 1


def _candidates(faces: set[int], jokers: int, rules: MeldRules) -> list[_Candidate]:
    """Every meld the faces (each usable once per meld) and up to `jokers` wilds can make."""
    out = []
    need_nat = max(1, rules.min_naturals)
    set_max = _set_max(rules)
    for rank in range(1, 14):
        suits = [s for s in range(4) if _face_index(s, rank) in faces]
        for k in range(need_nat, min(len(suits), set_max) + 1):
            for chosen in combinations(suits, k):
                for j in range(max(0, rules.set_min - k), min(jokers, set_max - k) + 1):
                    idx = tuple(_face_index(s, rank) for s in chosen)
                    out.append(_Candidate(sum(1 << (2 * i) for i in idx), idx, j, (k + j) * set_points(rank),
                                          "set", None, rank, rank, ()))
    min_pos, max_pos, run_max = _min_pos(rules), _max_pos(rules), _run_max(rules)
    for suit in range(4):
        positions = []
        for rank in range(1, 14):
            if _face_index(suit, rank) in faces:
                positions += _ace_positions(rules) if rank == 1 else [rank]
        positions.sort()
        for i in range(len(positions)):
            stack = [(i, (positions[i],), 0)]
            while stack:
                last, chosen, gaps = stack.pop()
                _runs_of(chosen, gaps, suit, jokers, need_nat, rules, min_pos, max_pos, run_max, out)
                for k in range(last + 1, len(positions)):
                    g = gaps + positions[k] - chosen[-1] - 1
                    if g > jokers or positions[k] - chosen[0] + 1 > run_max:
                        break
                    if positions[k] in (1, 14) and (1 in chosen or 14 in chosen):
                        continue
                    stack.append((k, (*chosen, positions[k]), g))
    return out


def _runs_of(chosen, gaps, suit, jokers, need_nat, rules, min_pos, max_pos, run_max, out) -> None:
    if len(chosen) < need_nat:
        return
    lo, hi = chosen[0], chosen[-1]
    span = hi - lo + 1
    idx = tuple(_face_index(suit, 1 if p == 14 else p) for p in chosen)
    mask = sum(1 << (2 * i) for i in idx)
    for extra in range(max(0, rules.run_min - span), jokers - gaps + 1):
        length = span + extra
        if length > run_max:
            break
        up = min(extra, max_pos - hi)  # wilds at the top first: the most meld points
        down = extra - up
        if lo - down < min_pos:
            continue
        holes = tuple(p for p in range(lo, hi + 1) if p not in chosen)
        wild_pos = holes + tuple(range(hi + 1, hi + up + 1)) + tuple(range(lo - down, lo))
        low, high = lo - down, hi + up
        out.append(_Candidate(mask, idx, gaps + extra, sum(position_points(p) for p in range(low, high + 1)),
                              "run", suit, low, high, tuple(sorted(wild_pos))))


# ---------------------------------------------------------------- the best lay-down

@dataclass(frozen=True)
class Plan:
    """A lay-down: melds (readings with card ids), the cards left, and its total weight."""

    value: int
    melds: tuple[Reading, ...]
    left: tuple[str, ...]

    def points(self) -> int:
        return sum(m.points() for m in self.melds)


class _Search:
    """Most weight over disjoint melds of a hand: memoised on (face counts, wilds left).

    The state packs the hand's face counts two bits per face (13 * suit + rank - 1), so copies of a
    face are interchangeable; the lowest face is either left out (one copy) or the lowest face of a
    meld. Card ids are chosen only when the plan is built.
    """

    def __init__(self, hand: list[str], rules: MeldRules, values: dict[str, int] | None):
        self.rules = rules
        self.jokers = sorted((c for c in hand if is_joker(c)), key=sort_key)
        self.ids: dict[int, list[str]] = {}
        for c in sorted((c for c in hand if not is_joker(c)), key=sort_key):
            self.ids.setdefault(_face_index(*natural_of(c)), []).append(c)
        jokers = len(self.jokers) if rules.jokers_wild else 0
        self.wilds = jokers
        cands = _candidates(set(self.ids), jokers, rules)
        if values is None:
            weight = {c: c.points for c in cands}
        else:
            jv = values.get(self.jokers[0], 0) if self.jokers else 0
            face_value = {i: values[ids[0]] for i, ids in self.ids.items()}
            weight = {c: sum(face_value[i] for i in c.faces) + c.jokers * jv for c in cands}
        self.by_low: dict[int, list[tuple[_Candidate, int]]] = {}
        useful = 0
        for c in cands:
            self.by_low.setdefault(2 * min(c.faces), []).append((c, weight[c]))
            useful |= c.mask
        for lst in self.by_low.values():
            lst.sort(key=lambda cw: -cw[1])
        self.all_cands = [cw for lst in self.by_low.values() for cw in lst]
        self.state = sum(len(ids) << (2 * i) for i, ids in self.ids.items() if (1 << (2 * i)) & useful)
        self.lone = [c for i, ids in self.ids.items() if not (1 << (2 * i)) & useful for c in ids]
        self.memo: dict[tuple[int, int], int] = {}
        self.cover_memo: dict[tuple[int, int], int] = {}

    def best(self, state: int, j: int) -> int:
        key = (state, j)
        v = self.memo.get(key)
        if v is not None:
            return v
        if state == 0:
            return 0
        low = state & -state
        off = (low.bit_length() - 1) & ~1
        best = self.best(state - (1 << off), j)
        avail = (state | (state >> 1)) & EVEN_BITS
        for c, w in self.by_low.get(off, ()):
            if c.jokers <= j and not c.mask & ~avail:
                v = w + self.best(state - c.mask, j - c.jokers)
                if v > best:
                    best = v
        self.memo[key] = best
        return best

    def walk(self, state: int, j: int) -> tuple[list[_Candidate], int]:
        """The melds reaching `best(state, j)`, and the face state left."""
        chosen, left = [], 0
        while state:
            target = self.best(state, j)
            low = state & -state
            off = (low.bit_length() - 1) & ~1
            avail = (state | (state >> 1)) & EVEN_BITS
            pick = None
            for c, w in self.by_low.get(off, ()):
                if c.jokers <= j and not c.mask & ~avail and w + self.best(state - c.mask, j - c.jokers) == target:
                    pick = c
                    break
            if pick is None:
                state -= 1 << off
                left += 1 << off
            else:
                chosen.append(pick)
                state -= pick.mask
                j -= pick.jokers
        return chosen, left

    def cover(self, state: int, j: int) -> int:
        """Most weight when every face of `state` and exactly `j` wilds go into melds (−1: impossible)."""
        key = (state, j)
        v = self.cover_memo.get(key)
        if v is not None:
            return v
        if state == 0:
            return 0 if j == 0 else -1
        low = state & -state
        off = (low.bit_length() - 1) & ~1
        best = -1
        avail = (state | (state >> 1)) & EVEN_BITS
        for c, w in self.by_low.get(off, ()):
            if c.jokers <= j and not c.mask & ~avail:
                v = self.cover(state - c.mask, j - c.jokers)
                if v >= 0 and w + v > best:
                    best = w + v
        self.cover_memo[key] = best
        return best

    def plan_cover(self, taken: str | None) -> Plan | None:
        """The best lay-down of the whole hand, nothing left (None if the hand cannot all be melded)."""
        if self.lone or len(self.jokers) != self.wilds:
            return None
        state, j = self.state, self.wilds
        value = self.cover(state, j)
        if value < 0:
            return None
        chosen = []
        while state:
            target = self.cover(state, j)
            off = ((state & -state).bit_length() - 1) & ~1
            avail = (state | (state >> 1)) & EVEN_BITS
            for c, w in self.by_low.get(off, ()):
                if c.jokers <= j and not c.mask & ~avail:
                    rest = self.cover(state - c.mask, j - c.jokers)
                    if rest >= 0 and w + rest == target:
                        break
            chosen.append(c)
            state, j = state - c.mask, j - c.jokers
        return self._build(chosen, 0, value, None, taken)

    def best_using(self, state: int, j: int, must: str) -> tuple[int, _Candidate | None]:
        """Most weight among lay-downs that put the card `must` in a meld (−1: impossible)."""
        best, pick = -1, None
        if is_joker(must):
            if must not in self.jokers or not self.wilds:
                return best, pick
        else:
            i = _face_index(*natural_of(must))
            bit = 1 << (2 * i)
            if not (state | (state >> 1)) & bit:
                return best, pick
        avail = (state | (state >> 1)) & EVEN_BITS
        for c, w in self.all_cands:
            uses = c.jokers > 0 if is_joker(must) else bool(c.mask & bit)
            if uses and c.jokers <= j and not c.mask & ~avail:
                v = w + self.best(state - c.mask, j - c.jokers)
                if v > best:
                    best, pick = v, c
        return best, pick

    def plan(self, state: int, j: int, must: str | None, kept: str | None, taken: str | None) -> Plan | None:
        first = []
        if must is not None:
            value, pick = self.best_using(state, j, must)
            if pick is None:
                return None
            first = [pick]
            state, j = state - pick.mask, j - pick.jokers
        else:
            value = self.best(state, j)
        chosen, left_state = self.walk(state, j)
        chosen = first + chosen
        return self._build(chosen, left_state, value, kept, taken, must)

    def _build(self, chosen, left_state, value, kept, taken, must=None) -> Plan:
        ids = {i: list(v) for i, v in self.ids.items()}
        jokers = list(self.jokers)
        for card in (taken, must):  # these go into a meld whenever their face is melded
            for pool in [*ids.values(), jokers]:
                if card is not None and card in pool:
                    pool.remove(card)
                    pool.insert(0, card)
        if kept is not None:
            for pool in [*ids.values(), jokers]:
                if kept in pool:
                    pool.remove(kept)
        melds = []
        for c in chosen:
            nat = [ids[i].pop(0) for i in c.faces]
            wild = sorted(jokers[: c.jokers], key=sort_key)
            del jokers[: c.jokers]
            melds.append(_reading_from(c, nat, wild, self.rules))
        left = list(self.lone) + jokers[: len(jokers)]
        for i, pool in ids.items():
            n = (left_state >> (2 * i)) & 3
            left += pool[:n]
        if kept is not None:
            left.append(kept)
        melds.sort(key=lambda m: (sort_key(m.cards[0]) if not is_joker(m.cards[0]) else (9,), m.key))
        return Plan(value, tuple(melds), tuple(sorted(left, key=sort_key)))


def _reading_from(c: _Candidate, naturals: list[str], wilds: list[str], rules: MeldRules) -> Reading:
    if c.kind == "set":
        return _read_set(naturals + wilds, [natural_of(x) for x in naturals], wilds, {}, {}, rules)
    pos_of = {}
    for card in naturals:
        r = natural_of(card)[1]
        pos_of[card] = r if r != 1 else (1 if c.low == 1 else 14)
    return _place_jokers(c.suit, c.low, c.high, pos_of, list(c.wild_positions), wilds, {})


def best_plan(hand: list[str], rules: MeldRules, values: dict[str, int] | None = None, *,
              must: str | None = None, taken: str | None = None, leave: str = "any") -> Plan | None:
    """The lay-down of `hand` with the most weight, or None if no lay-down meets the constraints.

    weight: meld points (`values` None), or the sum of `values[card]` over the melded cards (the
    penalty points a player sheds). `must`: a card that must be in a meld. `taken`: a card that may not
    be the one left to discard. `leave`: "any"; "discard" (keep at least one card other than `taken`);
    "discard_or_empty" (the same, or nothing at all left).
    """
    search = _Search(hand, rules, values)
    state, j = search.state, search.wilds
    plan = search.plan(state, j, must, None, taken)
    if plan is not None and _leftover_ok(plan.left, taken, leave):
        return plan
    if leave == "any":
        return plan
    best = None
    for kept in _keep_choices(hand, search, taken):
        if is_joker(kept):
            s2, j2 = state, j - 1
            if j2 < 0:
                continue
        else:
            i = _face_index(*natural_of(kept))
            if not (state >> (2 * i)) & 3:
                if kept in search.lone and (must is None or must != kept):
                    s2, j2 = state, j
                else:
                    continue
            else:
                s2, j2 = state - (1 << (2 * i)), j
        if must is not None:
            value, pick = search.best_using(s2, j2, must) if must != kept else (-1, None)
            if pick is None:
                continue
        else:
            value = search.best(s2, j2)
        if best is None or value > best[0]:
            best = (value, kept, s2, j2)
    whole = search.plan_cover(taken) if leave == "discard_or_empty" else None
    if whole is not None and (best is None or whole.value > best[0]):
        return whole
    if best is None:
        return None
    _, kept, s2, j2 = best
    plan = _plan_keeping(search, s2, j2, must, kept, taken)
    return plan if plan is not None and _leftover_ok(plan.left, taken, leave) else None


def _plan_keeping(search: _Search, state: int, j: int, must, kept, taken) -> Plan | None:
    if is_joker(kept):
        jokers = list(search.jokers)
        search.jokers = [x for x in jokers if x != kept]
        try:
            plan = search.plan(state, j, must, None, taken)
        finally:
            search.jokers = jokers
        if plan is None:
            return None
        return Plan(plan.value, plan.melds, tuple(sorted((*plan.left, kept), key=sort_key)))
    if kept in search.lone:
        lone = search.lone
        search.lone = [x for x in lone if x != kept]
        try:
            plan = search.plan(state, j, must, None, taken)
        finally:
            search.lone = lone
        if plan is None:
            return None
        return Plan(plan.value, plan.melds, tuple(sorted((*plan.left, kept), key=sort_key)))
    return search.plan(state, j, must, kept, taken)


def _keep_choices(hand: list[str], search: _Search, taken: str | None) -> list[str]:
    """One card per face (and one joker) that could stay in hand to be discarded."""
    out, seen = [], set()
    for c in sorted(hand, key=sort_key):
        if c == taken:
            continue
        key = "JK" if is_joker(c) else c[:-1]
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _leftover_ok(left, taken, leave: str) -> bool:
    if leave == "any":
        return True
    rest = [c for c in left if c != taken]
    if leave == "discard_or_empty" and not left:
        return True
    return bool(rest)


def layoff_ends(reading: Reading, card: str, rules: MeldRules) -> list[str | None]:
    """Where one card can be laid off on this meld: ["low"], ["high"], both, [None] for a set, or []."""
    if reading.kind == "set":
        return [None] if extend(reading, [card], None, rules) is not None else []
    return [end for end in ("low", "high") if extend(reading, [card], end, rules) is not None]
