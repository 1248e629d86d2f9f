"""The Expert's light table model (`engine.bots.table_meld.expert`): per-game card facts for its rollouts.

`SimMeld` is a table meld reduced to what lay-offs need (runs by suit and ends, sets by rank and suits);
`Geometry` holds each card's suit, rank, value and run positions for one game and answers the rollouts'
questions fast: where a card lays off (`fits`, `lay`), how many partial melds it makes with a hand
(`partners`), whether it could connect to one (`connects`) or makes a meld of three (`makes_meld`). The
greedy lay-down built on it is `engine.bots.table_meld.quick_melds`.
"""

from engine import cards
from engine.bots.table_meld.basic import TableMeldAdapter
from engine.melds import table as tm


class SimMeld:
    """A table meld reduced to what lay-offs need: runs by suit and ends, sets by rank and suits."""

    __slots__ = ("kind", "suit", "low", "high", "n", "suits")

    def __init__(self, kind, suit, low, high, n, suits):
        self.kind, self.suit, self.low, self.high, self.n, self.suits = kind, suit, low, high, n, suits

    @classmethod
    def of(cls, reading: tm.Reading) -> "SimMeld":
        return cls(reading.kind, reading.suit, reading.low, reading.high, len(reading.cards),
                   set(reading.natural_suits()))


class Geometry:
    """Per-game card facts for the rollouts: suit, rank, value, run positions."""

    def __init__(self, adapter: TableMeldAdapter):
        spec = adapter.spec
        self.spec = spec
        rules = spec.rules
        self.min_pos = 1 if rules.ace_low else 2
        self.max_pos = 14 if rules.ace_high else 13
        self.run_max = min(rules.run_max, 13, self.max_pos - self.min_pos + 1)
        self.jokers_wild = rules.jokers_wild
        self.two_jokers_meld = rules.jokers_wild and rules.min_naturals <= 1
        self.info = {}
        for c in spec.deck:
            if cards.is_joker(c):
                self.info[c] = (-1, 0, spec.values[c], ())
            else:
                s, r = tm.natural_of(c)
                pos = (r,) if r != 1 else tuple(p for p, ok in ((1, rules.ace_low), (14, rules.ace_high)) if ok)
                self.info[c] = (s, r, spec.values[c], pos)

    def fits(self, meld: SimMeld, card: str) -> str | None:
        """Where `card` can be laid off on `meld`: "low", "high", "set" or None."""
        s, r, _v, pos = self.info[card]
        if meld.kind == "set":
            if meld.n >= 4:
                return None
            if s < 0:
                return "set" if self.jokers_wild else None
            return "set" if r == meld.low and s not in meld.suits else None
        if meld.n >= self.run_max:
            return None
        if s < 0:
            if not self.jokers_wild:
                return None
            if meld.high + 1 <= self.max_pos:
                return "high"
            return "low" if meld.low - 1 >= self.min_pos else None
        if s != meld.suit:
            return None
        if meld.low - 1 >= self.min_pos and meld.low - 1 in pos:
            return "low"
        if meld.high + 1 <= self.max_pos and meld.high + 1 in pos:
            return "high"
        return None

    def lay(self, meld: SimMeld, card: str, where: str) -> None:
        s = self.info[card][0]
        meld.n += 1
        if where == "set":
            if s >= 0:
                meld.suits.add(s)
        elif where == "low":
            meld.low -= 1
        else:
            meld.high += 1

    def partners(self, card: str, hand) -> int:
        """Other natural cards of `hand` making a partial meld with `card` (pair or near-run)."""
        s, r, _v, pos = self.info[card]
        if s < 0:
            return 0
        n = 0
        for c in hand:
            if c == card:
                continue
            s2, r2, _v2, pos2 = self.info[c]
            if s2 < 0:
                continue
            if r2 == r:
                n += s2 != s
            elif s2 == s and any(abs(a - b) <= 2 for a in pos for b in pos2):
                n += 1
        return n

    def connects(self, card: str, hand) -> bool:
        """Whether `card` could make a meld with cards of `hand` (conservative)."""
        s, r, _v, pos = self.info[card]
        if s < 0:
            return self.jokers_wild
        jokers = 0
        for c in hand:
            s2, r2, _v2, pos2 = self.info[c]
            if s2 < 0:
                jokers += 1
                continue
            if r2 == r:
                if s2 != s:
                    return True
            elif s2 == s and any(abs(a - b) <= 2 for a in pos for b in pos2):
                return True
        return jokers >= 2 and self.two_jokers_meld

    def makes_meld(self, card: str, hand) -> bool:
        """Whether `card` and cards of `hand` make a set or a run of three (jokers filling the gaps):
        when it does not, the hand's melds are the same with it or without it."""
        s, r, _v, pos = self.info[card]
        if s < 0:
            return self.jokers_wild
        need = max(1, self.spec.rules.min_naturals)
        jokers = 0
        suits = set()
        runs = set()
        for c in hand:
            if c == card:
                continue
            s2, r2, _v2, pos2 = self.info[c]
            if s2 < 0:
                jokers += 1
            elif r2 == r:
                if s2 != s:
                    suits.add(s2)
            elif s2 == s:
                runs.update(pos2)
        if not self.jokers_wild:
            jokers = 0
        if len(suits) >= 2:
            return True
        if len(suits) + 1 >= need and len(suits) + jokers >= 2:
            return True
        for p in pos:
            for lo in (p - 2, p - 1, p):
                if lo < self.min_pos or lo + 2 > self.max_pos:
                    continue
                present = sum(1 for q in (lo, lo + 1, lo + 2) if q != p and q in runs)
                if 2 - present <= jokers and 1 + present >= need:
                    return True
        return False

