"""Level 3 « Expert » of the table-meld rummies: determinized rollouts of the rest of the round.

For a decision worth searching (take the discard or not; lay down now or hold back while not opened;
which card to throw), the expert lists a few candidates, the level-2 choice first. Then, many times:

1. deal the hidden cards (a *determinization*) consistently with what this seat saw: the unseen cards
   (deck minus its hand, the table and the discard pile) make the other hands (their sizes are public)
   and the stock. An opened player lays what he can at once, so his hand holds no card that fits a
   table meld (such cards are dealt again); a player not yet opened would have opened with a hand
   worth the threshold (such hands are dealt again);
2. play each candidate out in that same deal to the end of the round with fast greedy policies for
   every seat (`Rollout`: a light table model, the exact solver only when a drawn card connects), and
   score it as the game does: penalties, « main lisse » ×2, Going Rami +25, chasse +25, eliminations at
   the point limit, or simply winning the round in a one-round match.

The candidate with the best mean utility on the same deals wins if it beats the level-2 choice by a
clear margin (paired mean gain over `Z` standard errors). Holding back is therefore weighed against
the risk of being caught with a full hand, a discard that feeds the next player loses in the rollouts
where he takes it, and dumping high cards wins when an opponent is about to go out.

The budget counts determinizations (an int: deterministic given the rng) or is a `Budget` with a time
cap (the production default, 64 deals or 0.2 s), counted in CPU time of the deciding thread as in
`engine.bots.search`. The expert keeps no state between decisions: the same view, rng and int budget
always give the same move.
"""

import random
import time
from dataclasses import dataclass

from engine import cards
from engine.bots import search
from engine.bots.base import Moves
from engine.bots.search import Budget
from engine.bots.table_meld.basic import (
    Seen,
    TableMeldAdapter,
    by_order,
    fits_table,
    public,
    seen_of,
    single_round,
    unseen_cards,
    value_weight,
)
from engine.melds import table as tm

DEFAULT_BUDGET = Budget(iterations=64, time_limit=0.2)
Z = 1.0  # standard errors a candidate must win by to replace the level-2 choice
MIN_GAIN = 0.5  # and at least this utility (points) per deal
ROUND_STAKE = 50.0  # one-round matches: utility of winning the round (the points only break ties)
LIMIT_STAKE = 100.0  # utility of pushing an opponent over the point limit (or going over)
TARGET_STAKE = 100.0  # Rami traditionnel: utility of reaching the target first
MAX_TURNS = 60  # turns played at most in one rollout (then scored from the hands)
HOLD_DISCARDS = 2  # discards tried when holding back a lay-down
PAST_TURNS_CAP = 8  # past turns replayed when dealing another hand
USE_COST = 12.0  # a discard the next player takes to use
DEAL_TRIES = 3  # deals of a hand before accepting one that contradicts what the seat saw
PARTNER_WEIGHT = 4  # rollout policy: a loose card's partial melds count this much against its value
HOLD_UNTIL_CARDS = 4  # Rami traditionnel: hold the hand back until an opponent holds this many cards or fewer
HOLD_FOR_CHASSE = frozenset({"rami-traditionnel"})  # games where only the round's winner scores
HOLD_IN_ONE_ROUND = frozenset({"rami", "kalooki"})  # one-round matches: lay the whole hand in one turn


def as_budget(budget) -> Budget:
    """None: the production default; an int: that many determinizations, no time limit."""
    return search.as_budget(budget, DEFAULT_BUDGET)


@dataclass
class Stats:
    """What the last search did (tests and benches)."""

    iterations: int = 0
    candidates: int = 0
    means: tuple = ()
    chosen: int = 0


last_stats = Stats()


# ---------------------------------------------------------------- a light table model for rollouts


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


# ---------------------------------------------------------------- a fast, greedy lay-down for rollouts


class QuickPlan:
    """A greedy lay-down (rollouts only; the real turns use the exact solver): runs and sets of naturals,
    then jokers completing the best partial melds, then leftover jokers laid on melds with room."""

    __slots__ = ("melds", "left", "value", "points")

    def __init__(self, melds, left, value, points):
        self.melds, self.left, self.value, self.points = melds, left, value, points


def _run_points(low: int, high: int) -> int:
    return sum(tm.position_points(p) for p in range(low, high + 1))


class QuickMelds:
    """Greedy meld finding on the Geometry of a game."""

    def __init__(self, geo: Geometry):
        self.g = geo
        rules = geo.spec.rules
        self.need = max(1, rules.min_naturals)
        self.values = geo.spec.values

    def plan(self, hand, weight: str = "penalty", taken=None, keep: bool = False) -> QuickPlan:
        best = None
        for sets_first in ((False, True) if self._conflict(hand) else (False,)):
            plan = self._plan(hand, weight, sets_first)
            if keep:
                plan = self._keep_one(plan, taken)
            key = plan.value if weight == "penalty" else plan.points
            if best is None or key > best[0]:
                best = (key, plan)
        return best[1]

    def _conflict(self, hand) -> bool:
        """Whether a rank has three suits or more (a set may then compete with runs)."""
        info = self.g.info
        suits_of: dict[int, set] = {}
        for c in hand:
            s, r, _v, _p = info[c]
            if s >= 0:
                suits_of.setdefault(r, set()).add(s)
        return any(len(v) >= 3 for v in suits_of.values())

    def _plan(self, hand, weight, sets_first) -> QuickPlan:
        g = self.g
        info = g.info
        jokers = [c for c in hand if info[c][0] < 0]
        naturals = [c for c in hand if info[c][0] >= 0]
        used = set()
        melds = []  # [cards, kind, suit, low, high, suits]
        for step in ((self._sets, self._runs) if sets_first else (self._runs, self._sets)):
            step(naturals, used, melds)
        free = [c for c in naturals if c not in used]
        if jokers and g.jokers_wild:
            self._with_jokers(free, jokers, used, melds)
        left = [c for c in hand if c not in used]
        value = sum(self.values[c] for m in melds for c in m[0])
        points = sum(_run_points(m[3], m[4]) if m[1] == "run" else len(m[0]) * tm.set_points(m[3]) for m in melds)
        return QuickPlan(melds, left, value, points)

    def _runs(self, naturals, used, melds) -> None:
        g = self.g
        by_suit: dict[int, dict[int, str]] = {}
        for c in naturals:
            if c in used:
                continue
            s, _r, _v, pos = g.info[c]
            for p in pos:
                by_suit.setdefault(s, {}).setdefault(p, c)
        for s, at in by_suit.items():
            if len(at) < 3:
                continue
            start = None
            seq: list[str] = []
            for p in sorted(at):
                c = at[p]
                if seq and p == start + len(seq) and c not in seq and c not in used and len(seq) < g.run_max:
                    seq.append(c)
                    continue
                if len(seq) >= 3:
                    melds.append([seq, "run", s, start, start + len(seq) - 1, {s}])
                    used.update(seq)
                start, seq = p, ([c] if c not in used else [])
                if not seq:
                    start = None
            if len(seq) >= 3:
                melds.append([seq, "run", s, start, start + len(seq) - 1, {s}])
                used.update(seq)

    def _sets(self, naturals, used, melds) -> None:
        g = self.g
        by_rank: dict[int, dict[int, str]] = {}
        for c in naturals:
            if c in used:
                continue
            s, r, _v, _pos = g.info[c]
            by_rank.setdefault(r, {}).setdefault(s, c)
        for r, suits in by_rank.items():
            if len(suits) >= 3:
                group = list(suits.values())[:4]
                melds.append([group, "set", None, r, r, set(suits)])
                used.update(group)

    def _with_jokers(self, free, jokers, used, melds) -> None:
        """Jokers complete the most valuable partial melds left, then go on melds with room."""
        g = self.g
        info = g.info
        jokers = list(jokers)
        partials = []
        for i, a in enumerate(free):
            sa, ra, va, pa = info[a]
            for b in free[i + 1:]:
                sb, rb, vb, pb = info[b]
                if ra == rb and sa != sb:
                    partials.append((va + vb, a, b, "set", None, ra, ra))
                elif sa == sb and ra != rb:
                    for x in pa:
                        for y in pb:
                            lo, hi = min(x, y), max(x, y)
                            if hi - lo == 1:
                                low = lo if hi + 1 <= g.max_pos else lo - 1
                                if low >= g.min_pos:
                                    partials.append((va + vb, a, b, "run", sa, low, low + 2))
                            elif hi - lo == 2:
                                partials.append((va + vb, a, b, "run", sa, lo, hi))
        partials.sort(key=lambda t: -t[0])
        for _v, a, b, kind, suit, low, high in partials:
            if not jokers:
                break
            if a in used or b in used:
                continue
            j = jokers.pop()
            used.update((a, b, j))
            suits = {info[a][0], info[b][0]}
            melds.append([[a, b, j], kind, suit, low, high, suits])
        if self.need <= 1 and len(jokers) >= 2:
            for c in sorted((c for c in free if c not in used), key=lambda c: -info[c][2]):
                if len(jokers) < 2:
                    break
                j1, j2 = jokers.pop(), jokers.pop()
                used.update((c, j1, j2))
                s, r, _v, pos = info[c]
                melds.append([[c, j1, j2], "set", None, r, r, {s}])
        for j in list(jokers):  # a lone joker goes where there is room
            for m in melds:
                if (m[1] == "set" and len(m[0]) < 4) or (m[1] == "run" and len(m[0]) < g.run_max and
                                                           (m[4] + 1 <= g.max_pos or m[3] - 1 >= g.min_pos)):
                    m[0].append(j)
                    if m[1] == "run":
                        if m[4] + 1 <= g.max_pos:
                            m[4] += 1
                        else:
                            m[3] -= 1
                    used.add(j)
                    jokers.remove(j)
                    break

    def _keep_one(self, plan: QuickPlan, taken) -> QuickPlan:
        """Keep a card to discard (not the taken one): take one off a long meld, or drop the cheapest meld."""
        if any(c != taken for c in plan.left):
            return plan
        g = self.g
        for m in sorted(plan.melds, key=lambda m: -len(m[0])):
            if len(m[0]) >= 4:
                for c in (m[0][-1], m[0][0]) if m[1] == "run" else tuple(m[0]):
                    if c == taken:
                        continue
                    if m[1] == "run" and g.info[c][0] >= 0:
                        if c == m[0][-1]:
                            m[4] -= 1
                        else:
                            m[3] += 1
                    m[0].remove(c)
                    return self._rescored(plan.melds, [*plan.left, c])
        if not plan.melds:
            return plan
        drop = min(plan.melds, key=lambda m: sum(self.values[c] for c in m[0]))
        melds = [m for m in plan.melds if m is not drop]
        return self._rescored(melds, [*plan.left, *drop[0]])

    def _rescored(self, melds, left) -> QuickPlan:
        value = sum(self.values[c] for m in melds for c in m[0])
        points = sum(_run_points(m[3], m[4]) if m[1] == "run" else len(m[0]) * tm.set_points(m[3]) for m in melds)
        return QuickPlan(melds, left, value, points)


# ---------------------------------------------------------------- one rollout


class Rollout:
    """The rest of a round in one determinized deal, every seat playing the fast greedy policy."""

    def __init__(self, expert: "Expert", seen: Seen, hands: dict, stock: list, rng):
        self.x = expert
        self.g = expert.geo
        self.spec = expert.spec
        self.seen = seen
        self.rng = rng
        self.hands = {s: list(h) for s, h in hands.items()}
        self.hands[seen.seat] = list(seen.hand)
        self.table = [SimMeld.of(m.reading) for m in seen.table]
        threshold = self.spec.threshold
        self.opened = {s: threshold is None or seen.opened[s] for s in self.hands}
        if seen.staged and seen.can_act:
            self.opened[seen.seat] = True
        self.pile = list(seen.pile)
        self.stock = list(stock)
        self.rebuilt = bool(seen.view.get("stock_rebuilds"))  # §9: one rebuild a round, then the round stops
        self.order = [*seen.opponents(), seen.seat]  # turn order after this seat's turn
        self.held: dict[int, set] = {}
        self.version = 0  # table changes, for `layoffs`
        self.looked: dict[int, int] = {}
        self.quick = expert.quick
        self.keep = not self.spec.go_out
        self.weight = value_weight(seen)  # a one-round match is a race: the points left matter little

    # -- the policy

    def draw(self) -> str | None:
        if not self.stock:
            if self.rebuilt or len(self.pile) < 2:
                return None
            self.rebuilt = True
            rest = self.pile[:-1]
            self.rng.shuffle(rest)
            self.stock = rest
            self.pile = self.pile[-1:]
        return self.stock.pop()

    def wants(self, p: int, top: str) -> bool:
        g = self.g
        hand = self.hands[p]
        if self.opened[p]:
            if any(g.fits(m, top) for m in self.table):
                return True
            if not g.makes_meld(top, hand):
                return False
            plan = self.quick.plan([*hand, top], "penalty", top, self.keep)
            return any(top in m[0] for m in plan.melds)
        if not g.makes_meld(top, hand):
            return False
        plan = self.quick.plan([*hand, top], "points", top, self.keep)
        return plan.points >= self.spec.threshold and any(top in m[0] for m in plan.melds)

    def turn(self, p: int, source: str | None = None) -> int | None:
        """Seat `p` plays a whole turn; the winner's seat if he went out, -1 if the round stalls."""
        hand = self.hands[p]
        top = self.pile[-1] if self.pile else None
        if source is None:
            source = "take" if top is not None and self.wants(p, top) else "stock"
        taken = None
        if source == "take" and top is not None:
            card = self.pile.pop()
            taken = card
        else:
            card = self.draw()
            if card is None:
                return -1
        was_opened = self.opened[p]
        hand.append(card)
        used_existing = self.act(p, card, taken)
        return self.end_turn(p, taken, was_opened, used_existing)

    def end_turn(self, p: int, taken, was_opened: bool, used_existing: bool) -> int | None:
        hand = self.hands[p]
        if not hand:
            return self.out(p, was_opened, used_existing)
        throw = self.pick_discard(p, taken)
        hand.remove(throw)
        self.pile.append(throw)
        if not hand:
            return self.out(p, was_opened, used_existing)
        return None

    def held_melds(self, p: int) -> set:
        """Cards of the melds a seat not yet opened keeps in hand (found once, then kept up to date)."""
        held = self.held.get(p)
        if held is None:
            plan = self.quick.plan(self.hands[p], "penalty")
            held = self.held[p] = {c for m in plan.melds for c in m[0]}
        return held

    def act(self, p: int, card: str, taken) -> bool:
        """Table actions after drawing `card`; True if a meld already on the table was used."""
        spec = self.spec
        g = self.g
        hand = self.hands[p]
        if not self.opened[p]:
            held = self.held_melds(p)
            if not g.makes_meld(card, hand):
                return False
            plan = self.quick.plan(hand, "penalty", taken, self.keep)
            if plan.points < spec.threshold:
                points = self.quick.plan(hand, "points", taken, self.keep)
                if points.points < spec.threshold:
                    held.clear()
                    held.update(c for m in plan.melds for c in m[0])
                    return False
                plan = points
            self.lay_melds(p, plan)
            self.opened[p] = True
            self.held.pop(p, None)
            return self.layoffs(p, taken)
        if g.makes_meld(card, hand):
            plan = self.quick.plan(hand, "penalty", taken, self.keep)
            if plan.melds:
                self.lay_melds(p, plan)
                return self.layoffs(p, taken)
        return self.layoffs(p, taken, card)

    def lay_melds(self, p: int, plan: QuickPlan) -> None:
        hand = self.hands[p]
        for group, kind, suit, low, high, suits in plan.melds:
            for c in group:
                hand.remove(c)
            self.table.append(SimMeld(kind, suit, low, high, len(group), set(suits)))
            self.version += 1

    def layoffs(self, p: int, taken, card=None) -> bool:
        """Lay off what fits (jokers last), keeping a card to discard; when the table has not changed since
        this seat's last look, only the new `card` can fit."""
        hand = self.hands[p]
        g = self.g
        keep = not self.spec.go_out
        used = False
        if card is not None and self.looked.get(p) == self.version:
            candidates = [card] if card in hand else []
        else:
            candidates = sorted(hand, key=lambda c: g.info[c][0] < 0)
        while candidates and hand:
            laid = None
            for c in candidates:
                rest = [x for x in hand if x != c and x != taken]
                if not rest and (keep or len(hand) > 1):
                    continue  # keep a card to discard (the taken card may not be thrown)
                for meld in self.table:
                    where = g.fits(meld, c)
                    if where:
                        g.lay(meld, c, where)
                        hand.remove(c)
                        laid = c
                        break
                if laid:
                    break
            if laid is None:
                break
            used = True
            self.version += 1
            candidates = sorted(hand, key=lambda c: g.info[c][0] < 0)
        self.looked[p] = self.version
        return used

    def pick_discard(self, p: int, taken) -> str:
        hand = self.hands[p]
        g = self.g
        pool = [c for c in hand if c != taken] or list(hand)
        if not self.opened[p] and len(pool) > 1:
            held = self.held_melds(p)
            loose = [c for c in pool if c not in held]
            if loose:
                pool = loose
        naturals = [c for c in pool if g.info[c][0] >= 0] or pool
        weight = self.weight
        return max(naturals, key=lambda c: (weight * g.info[c][2] - PARTNER_WEIGHT * g.partners(c, hand),
                                            cards.sort_key(c)))

    # -- the end of the round

    def out(self, p: int, was_opened: bool, used_existing: bool) -> int:
        self.winner = p
        slug = self.spec.slug
        if slug == "kalooki":
            self.bonus = not was_opened and not used_existing
        else:
            self.bonus = not was_opened
        return p

    def play(self, start: int = 0) -> float:
        """Play on from `order[start]` to the end of the round; the utility for this seat."""
        result = None
        turns = 0
        i = start
        n = len(self.order)
        while result is None and turns < MAX_TURNS:
            result = self.turn(self.order[i % n])
            i += 1
            turns += 1
        return self.x.utility(self, result)


# ---------------------------------------------------------------- the expert


class Expert:
    """Level 3 of one table-meld game."""

    def __init__(self, adapter: TableMeldAdapter):
        self.adapter = adapter
        self.spec = adapter.spec
        self.geo = Geometry(adapter)
        self.quick = QuickMelds(self.geo)

    # -- candidates

    def draw_candidates(self, seen: Seen, moves: Moves) -> list[dict]:
        top = seen.top
        if not moves.has("take_discard") or not moves.has("draw_stock") or top is None:
            return []
        default = self.adapter.draw(seen, moves, 2, None)
        if default == {"action": "draw_stock"}:
            # nothing to search when the top card connects to nothing and fits nowhere
            if not self.geo.connects(top, seen.hand) and not fits_table(self.spec, seen.table, top):
                return []
            if self.spec.must_use_take and self.adapter.take_gain(seen) <= 0:
                return []  # Rami 40: a take that cannot be honoured this turn is not a move
        other = {"action": "take_discard"} if default["action"] == "draw_stock" else {"action": "draw_stock"}
        return [default, other]

    def turn_candidates(self, seen: Seen, moves: Moves, plan) -> list[tuple]:
        """Not opened yet, nothing staged and a lay-down possible: [("lay", its first action, the plan),
        ("hold", discard move, card) for the level-2 discards]; [] otherwise."""
        if not plan.actions or seen.staged or seen.opened_before:
            return []
        options = moves.by_card("discard")
        out = [("lay", public(plan.actions[0]), plan)]
        if not options:
            return out
        order = self.adapter.discard_order(seen, list(options), self.adapter.gifts(seen))
        faces = set()
        for c in order:
            face = "JK" if cards.is_joker(c) else c[:-1]
            if face not in faces:
                faces.add(face)
                out.append(("hold", options[c], c))
            if len(out) > HOLD_DISCARDS:
                break
        return out

    # -- the discard: level 2's order, plus what the next player does with the card

    def discard_danger(self, seen: Seen, allowed: list[str], rng, budget) -> dict[str, float]:
        """Expected cost of each discard through the next player's turn, over determinized deals: he
        takes it to use it (`USE_COST`), or he goes out (the round's loss for this seat, which a high card
        thrown now makes lighter). Level 2's gift cost (a card he lays off) is replaced by this."""
        budget = as_budget(budget)
        nxt = seen.opponents()[:1]
        if not nxt or not allowed:
            return {}
        s1 = nxt[0]
        me = seen.seat
        unseen = unseen_cards(self.spec, seen)
        totals = dict.fromkeys(allowed, 0.0)
        start = time.thread_time()
        n = 0
        while n < budget.iterations:
            hands, stock = self.determinize(seen, unseen, rng)
            seed = rng.getrandbits(32)
            for c in allowed:
                rollout = Rollout(self, seen, hands, stock, random.Random(seed))
                rollout.hands[me].remove(c)
                rollout.pile.append(c)
                if not rollout.hands[me]:
                    continue
                took = rollout.wants(s1, c)
                if rollout.turn(s1) == s1:
                    totals[c] -= self.utility(rollout, s1)
                elif took:
                    totals[c] += USE_COST
            n += 1
            if budget.time_limit is not None and time.thread_time() - start > budget.time_limit:
                break
        global last_stats
        last_stats = Stats(iterations=n, candidates=len(allowed))
        return {c: v / n for c, v in totals.items()}

    def discard(self, seen: Seen, moves: Moves, rng, budget) -> dict | None:
        options = moves.by_card("discard")
        if len(options) < 2:
            return None
        faces = {}
        for c in by_order(options):
            faces.setdefault("JK" if cards.is_joker(c) else c[:-1], c)
        allowed = [c for c in faces.values() if not cards.is_joker(c)]
        danger = self.discard_danger(seen, allowed, rng, budget)
        order = self.adapter.discard_order(seen, list(faces.values()), danger)
        return options[order[0]]

    # -- determinization

    def past_turns(self, seen: Seen) -> int:
        """Turns each player has played this round (from the cards gone from the stock), capped."""
        spec = self.spec
        players = max(1, len(seen.active))
        dealt = len(spec.deck) - players * spec.hand_size - 1
        if seen.view.get("stock_rebuilds"):
            return PAST_TURNS_CAP
        return min(PAST_TURNS_CAP, max(0, dealt - seen.stock_count) // players)

    def determinize(self, seen: Seen, unseen: list[str], rng) -> tuple[dict, list]:
        """Other hands and the stock, dealt from the unseen cards. A hand is not a random one: its owner
        kept the best of what he drew, so it is dealt, then improved over his past turns with random
        draws (a card with more partial melds replaces his loosest one); an opened player holds no card
        that fits the table nor a meld (he would have laid them); a player not yet opened holds less than
        the threshold (he would have opened)."""
        spec = self.spec
        g = self.geo
        pool = list(unseen)
        rng.shuffle(pool)
        hands = {}
        table = seen.table
        past = self.past_turns(seen)
        for s in seen.opponents():
            size = seen.hand_counts.get(s, 0)
            opened = spec.threshold is None or seen.opened[s]
            hand = [pool.pop() for _ in range(min(size, len(pool)))]
            if opened and table:
                for i, c in enumerate(hand):  # he would have laid it off
                    for _ in range(DEAL_TRIES):
                        if not fits_table(spec, table, c) or not pool:
                            break
                        j = rng.randrange(len(pool))
                        pool[j], c = c, pool[j]
                    hand[i] = c
            for _ in range(past if len(hand) >= 2 else 0):
                if not pool:
                    break
                j = rng.randrange(len(pool))
                drawn = pool[j]
                worst = max(hand, key=lambda c: (-g.partners(c, hand), g.info[c][2], cards.sort_key(c)))
                rest = [c for c in hand if c != worst]
                if g.partners(drawn, rest) <= g.partners(worst, rest):
                    continue
                if opened and (g.makes_meld(drawn, rest) or (table and fits_table(spec, table, drawn))):
                    continue
                pool[j] = worst
                hand = [*rest, drawn]
            if not opened and size >= 3:
                for _ in range(DEAL_TRIES - 1):  # he would have opened with this hand
                    if self.quick.plan(hand, "points").points < spec.threshold or len(pool) < size:
                        break
                    pool[:0] = hand
                    hand = [pool.pop() for _ in range(size)]
            hands[s] = hand
        rng.shuffle(pool)
        stock = pool[-seen.stock_count:] if seen.stock_count else []
        return hands, stock

    # -- playing a candidate out

    def evaluate(self, seen: Seen, hands: dict, stock: list, candidates: list, kind: str, seed: int) -> list[float]:
        values = []
        for cand in candidates:
            rollout = Rollout(self, seen, hands, stock, random.Random(seed))
            me = seen.seat
            if kind == "draw":
                source = "take" if cand["action"] == "take_discard" else "stock"
                result = rollout.turn(me, source)
                values.append(self.utility(rollout, result) if result is not None else rollout.play(0))
                continue
            what, _move, arg = cand
            was_opened = seen.opened_before
            taken = seen.taken if seen.taken in seen.hand else None
            if what == "lay":  # the level-2 plan (`arg`), then the rollout's discard
                used = self.apply_plan(rollout, arg)
                result = rollout.end_turn(me, taken, was_opened, used)
            else:  # hold back: throw `arg`
                hand = rollout.hands[me]
                hand.remove(arg)
                rollout.pile.append(arg)
                result = rollout.out(me, was_opened, False) if not hand else None
            values.append(self.utility(rollout, result) if result is not None else rollout.play(0))
        return values

    def apply_plan(self, rollout: Rollout, plan) -> bool:
        """This seat's planned table actions, on the rollout's table (ids by position)."""
        hand = rollout.hands[rollout.seen.seat]
        ids = [m.id for m in rollout.seen.table]
        used = False
        for action in plan.actions:
            kind = action["action"]
            if kind == "meld":
                reading = action["_reading"]
                for c in reading.cards:
                    hand.remove(c)
                rollout.table.append(SimMeld.of(reading))
                ids.append(f"M{len(ids) + 1}")
                continue
            index = ids.index(action["meld_id"])
            meld = rollout.table[index]
            used |= index < len(rollout.seen.table)
            if kind == "lay_off":
                c = action["cards"][0]
                where = self.geo.fits(meld, c) or ("set" if meld.kind == "set" else action.get("end", "high"))
                self.geo.lay(meld, c, where)
                hand.remove(c)
            else:  # a joker release: the naturals take its place (a Rami 40 / Kalooki set grows by one)
                for c in action["cards"]:
                    hand.remove(c)
                    if meld.kind == "set":
                        meld.suits.add(self.geo.info[c][0])
                meld.n += len(action["cards"]) - 1
                hand.append(action["joker"])
        rollout.opened[rollout.seen.seat] = True
        rollout.version += 1
        return used

    # -- utility

    def utility(self, rollout: Rollout, winner: int | None) -> float:
        """The round's outcome for this seat, as the match counts it."""
        seen = rollout.seen
        me = seen.seat
        spec = self.spec
        hands = rollout.hands
        pen = {s: spec.points(h) for s, h in hands.items()}
        if winner is None or winner < 0:  # no end within the rollout: a small edge to the lighter hand
            others = [pen[s] for s in hands if s != me]
            return 0.05 * (sum(others) / max(1, len(others)) - pen[me])
        slug = spec.slug
        bonus = getattr(rollout, "bonus", False)
        if slug == "rami-traditionnel":
            gain = sum(p for s, p in pen.items() if s != winner) + (25 if bonus else 0)
            if single_round(seen):
                return ROUND_STAKE if winner == me else -ROUND_STAKE
            u = gain if winner == me else -gain / max(1, len(hands) - 1)
            target = seen.target or 250
            scores = seen.scores
            if scores[winner] + gain >= target:
                u += TARGET_STAKE if winner == me else -TARGET_STAKE
            return u
        points = {}
        for s, p in pen.items():
            if s == winner:
                points[s] = 0
            elif slug == "rami":
                points[s] = 2 * p if bonus else p
            else:
                points[s] = p + (25 if bonus else 0)
        if single_round(seen):
            return (ROUND_STAKE if winner == me else -ROUND_STAKE) - 0.01 * points[me]
        opps = [s for s in points if s != me]
        u = sum(points[s] for s in opps) / max(1, len(opps)) - points[me]
        scores = seen.scores
        limit = seen.limit
        if scores[me] + points[me] > limit:
            u -= LIMIT_STAKE
        for s in opps:
            if scores[s] <= limit < scores[s] + points[s]:
                u += LIMIT_STAKE / len(opps)
        return u

    # -- the search

    def search(self, seen: Seen, candidates: list, kind: str, rng, budget) -> int:
        global last_stats
        budget = as_budget(budget)
        unseen = unseen_cards(self.spec, seen)
        start = time.thread_time()
        samples = []
        while len(samples) < budget.iterations:
            hands, stock = self.determinize(seen, unseen, rng)
            seed = rng.getrandbits(32)
            samples.append(self.evaluate(seen, hands, stock, candidates, kind, seed))
            if budget.time_limit is not None and time.thread_time() - start > budget.time_limit:
                break
        best, means = search.pick(samples, MIN_GAIN, Z)
        last_stats = Stats(iterations=len(samples), candidates=len(candidates), means=means, chosen=best)
        return best


_experts: dict[str, Expert] = {}


def expert_of(adapter: TableMeldAdapter) -> Expert:
    if adapter.slug not in _experts:
        _experts[adapter.slug] = Expert(adapter)
    return _experts[adapter.slug]


def expert_draw(adapter: TableMeldAdapter, seen: Seen, moves: Moves, rng, budget) -> dict | None:
    """Take the discard or draw from the stock; None: level 2's choice, nothing worth searching."""
    global last_stats
    last_stats = Stats()
    x = expert_of(adapter)
    candidates = x.draw_candidates(seen, moves)
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    return candidates[x.search(seen, candidates, "draw", rng, budget)]


def holds_back(adapter: TableMeldAdapter, seen: Seen, plan) -> bool:
    """Hold the whole hand back (throw a card, lay nothing). Rami traditionnel: while no opponent is close to
    going out. Only the round's winner scores there, so cards held cost nothing when another player goes
    out; laying the whole hand in one turn earns the chasse (+25), and a hand kept hidden offers the others
    nothing to lay off. The rollouts of the search cannot find it (their players lay down as soon as they
    can). Measured, matches to 250 against level 2: level 2 holding back until an opponent has 2, 4 or 6
    cards wins 75.5 %, 90.0 %, 84.5 %; this expert 88.3 % (60 matches, 95 % CI 77.8–94.2).

    One-round Rami and Kalooki (only going out first counts): hold back until the whole hand goes down in
    one turn (« main lisse », « going rami »): level 2 playing so beats level 2 in 63.2 % (Rami, 1,000
    matches) and 64.6 % (Kalooki, 400) of one-round matches; in Rami 40 it does not (48.0 %)."""
    slug = adapter.spec.slug
    if slug in HOLD_FOR_CHASSE:
        until = HOLD_UNTIL_CARDS
    elif slug in HOLD_IN_ONE_ROUND and single_round(seen):
        until = 0
    else:
        return False
    if seen.opened_before or seen.staged:
        return False
    taken = seen.taken if seen.taken in seen.hand else None
    if adapter.planner.goes_out(plan.left, taken) or (taken is not None and adapter.spec.must_use_take):
        return False  # the chasse is there: lay it all now
    return not any(seen.hand_counts.get(s, 0) <= until for s in seen.opponents())


def expert_turn(adapter: TableMeldAdapter, seen: Seen, moves: Moves, rng, budget) -> dict | None:
    """One step of the turn after the draw: lay down or hold back (not opened yet), the discard;
    None: level 2's next step (the rest of a lay-down already begun, going out)."""
    global last_stats
    last_stats = Stats()
    x = expert_of(adapter)
    plan = adapter.turn_plan(seen)
    if holds_back(adapter, seen, plan):
        return x.discard(seen, moves, rng, budget) or adapter.finish(seen, moves, 3, adapter.gifts(seen))
    candidates = x.turn_candidates(seen, moves, plan)
    if not candidates:
        if plan.actions or moves.has("go_out"):
            return None  # level 2 goes on laying down, or goes out
        return x.discard(seen, moves, rng, budget)
    if len(candidates) == 1:
        return candidates[0][1]
    return candidates[x.search(seen, candidates, "turn", rng, budget)][1]


def decide(adapter: TableMeldAdapter, view: dict, moves: Moves, level: int, rng, budget) -> dict:
    """Level 3: the Expert's move where it searches, else level 2's (the adapter's draw or turn)."""
    seen = seen_of(adapter.spec, view)
    if moves.has("draw_stock") or moves.has("take_discard"):
        move = expert_draw(adapter, seen, moves, rng, budget)
        if move is not None:
            return move
        return adapter.draw(seen, moves, level, rng)
    move = expert_turn(adapter, seen, moves, rng, budget)
    if move is not None:
        return move
    return adapter.confirmed_turn(seen, moves)


__all__ = ["DEFAULT_BUDGET", "Expert", "decide", "expert_draw", "expert_turn"]
