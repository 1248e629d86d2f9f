"""The Expert's fast, greedy lay-down (`engine.bots.table_meld.expert`), for its rollouts and deals only.

The real turns use the exact solver (`engine.bots.table_meld.basic`); a rollout plays hundreds of turns,
so `QuickMelds.plan` finds a good lay-down greedily on the game's `Geometry`: runs and sets of naturals,
then jokers completing the best partial melds, then leftover jokers laid on melds with room; weighed by
the penalty it sheds or by its opening points, optionally keeping a card to discard.
"""

from engine.bots.table_meld.geometry import Geometry
from engine.melds import table as tm


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

