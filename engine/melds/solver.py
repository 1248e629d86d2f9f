"""Exact minimum-deadwood search.

A hand is reduced to four suit patterns plus a count of wilds. A suit pattern is an int with two
bits per rank (bits 2r and 2r+1 hold how many copies of rank r, A=1..K=13, the hand holds), so
copies of a face are interchangeable and the search never sees card ids.

Every meld is one of:
- a set with at least two naturals: the only meld that spans suits, chosen rank by rank
  (`rank_options`), then removed from the suit patterns;
- a run, or a meld with a single natural: inside one suit, solved per suit pattern;
- an all-wild meld, made of wilds left over.

The per-suit solution is a vector `vec[u]`: the least deadwood of that suit's naturals when its
melds absorb exactly `u` wilds. A meld with k naturals absorbs any count in an interval
[need, cap] (runs can always be lengthened with wilds, up to 13 cards), so adding intervals and
min-plus convolving vectors is exact. Wilds are interchangeable inside melds, so the wilds left
over are always the cheapest ones: `tail[L]` is the cost of L leftover wilds, after putting as many
as possible into all-wild melds.

Suit vectors and rank options depend only on the structural rules (not on the wild rank), so they
are memoised across hands in `Structure`.
"""

from itertools import product

from engine.melds.rules import DEAD, NATURAL, RANK_VALUE, CompiledRules, MeldRules, compiled

INF = 1 << 30
EVEN_BITS = sum(1 << (2 * r) for r in range(1, 14))  # bit 2r set for every rank r
ODD_BITS = EVEN_BITS << 1
CACHE_LIMIT = 400_000  # suit vectors kept per structure before the memo is reset


class Structure:
    """Rules that shape melds (not which cards are wild), with the memo shared by all hands."""

    def __init__(self, rules: MeldRules):
        self.set_min = rules.set_min
        self.set_cap = min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max
        self.distinct = rules.set_distinct_suits
        self.run_min = rules.run_min
        self.ace_low = rules.ace_low
        self.ace_high = rules.ace_high
        window = 13 if (rules.ace_low or rules.ace_high) else 12
        self.run_len_max = min(rules.run_max, window)
        self.min_naturals = rules.min_naturals
        self.single_ace = self._single_intervals(ace=True)
        self.single_other = self._single_intervals(ace=False)
        # wilds from which any natural can meld on its own (then no card is ever isolated)
        self.single_need = min((i[0] for i in self.single_ace + self.single_other), default=INF)
        self.set_shapes = self._set_shapes()
        self.all_wild_take = self._all_wild_take(rules)
        self._vectors: dict[int, dict[int, tuple[int, ...]]] = {}
        self._vector_count = 0
        self._rank_options: dict[tuple, tuple] = {}

    # ----- rule tables -------------------------------------------------------------------------

    def _single_intervals(self, ace: bool) -> tuple[tuple[int, int, str], ...]:
        """Wilds a meld with one natural can absorb: (need, cap, kind) per kind, undominated."""
        if self.min_naturals > 1:
            return ()
        out = []
        run_ok = self.run_min <= self.run_len_max and (not ace or self.ace_low or self.ace_high)
        if run_ok:
            out.append((self.run_min - 1, self.run_len_max - 1, "run"))
        if self.set_min <= self.set_cap:
            need, cap = self.set_min - 1, self.set_cap - 1
            if not (run_ok and out[0][0] <= need and out[0][1] >= cap):
                out.append((need, cap, "set"))
        return tuple(out)

    def _set_shapes(self) -> tuple[tuple[int, int, int, int], ...]:
        """Per-suit natural counts of one set with at least two naturals."""
        top = 1 if self.distinct else 2
        shapes = []
        for shape in product(range(top + 1), repeat=4):
            n = sum(shape)
            if 2 <= n <= self.set_cap and n >= self.min_naturals:
                shapes.append(shape)
        return tuple(shapes)

    def _all_wild_take(self, rules: MeldRules) -> tuple[int, ...]:
        """take[L] = most of L leftover wilds that can form all-wild melds (0 if not allowed)."""
        sizes = set()
        if rules.all_wild_ok and rules.min_naturals == 0:
            sizes.update(range(self.set_min, self.set_cap + 1))
            sizes.update(range(self.run_min, self.run_len_max + 1))
        limit = 64
        reachable = [True] + [False] * limit
        for total in range(1, limit + 1):
            reachable[total] = any(s <= total and reachable[total - s] for s in sizes)
        take, best = [], 0
        for total in range(limit + 1):
            if reachable[total]:
                best = total
            take.append(best)
        return tuple(take)

    def tail(self, wild_values: list[int]) -> list[int]:
        """tail[L]: cost of leaving the L cheapest wilds out of natural melds (values ascending)."""
        prefix = [0]
        for v in wild_values:
            prefix.append(prefix[-1] + v)
        take = self.all_wild_take
        return [prefix[n - take[n]] if n < len(take) else prefix[n] for n in range(len(wild_values) + 1)]

    # ----- per-suit vectors ----------------------------------------------------------------------

    def vector(self, pattern: int, w: int) -> tuple[int, ...]:
        cache = self._vectors.get(w)
        if cache is None:
            cache = self._vectors[w] = {0: (0,) + (INF,) * w}
        v = cache.get(pattern)
        if v is None:
            if self._vector_count > CACHE_LIMIT:
                self.clear()
                cache = self._vectors[w] = {0: (0,) + (INF,) * w}
            v = self._solve_suit(pattern, w, cache)
        return v

    def clear(self) -> None:
        self._vectors.clear()
        self._vector_count = 0
        self._rank_options.clear()

    def _solve_suit(self, pattern: int, w: int, cache: dict) -> tuple[int, ...]:
        v = cache.get(pattern)
        if v is not None:
            return v
        rank = ((pattern & -pattern).bit_length() - 1) >> 1
        value = RANK_VALUE[rank]
        best = [x + value for x in self._solve_suit(pattern - (1 << (2 * rank)), w, cache)]
        for removed, need, cap, _ in self.melds_with_lowest(pattern, rank, w):
            _relax(best, self._solve_suit(pattern - removed, w, cache), need, cap, w)
        v = cache[pattern] = tuple(best)
        self._vector_count += 1
        return v

    def melds_with_lowest(self, pattern: int, rank: int, w: int) -> list[tuple[int, int, int, tuple]]:
        """Melds inside one suit whose lowest natural is `rank` (the pattern's lowest).

        Returns (removed pattern, need, cap, description); description is ("run", positions) with
        positions of the naturals (the ace at 14 in a high run) or ("set", (rank,)).
        """
        out = []
        one = 1 << (2 * rank)
        # a lone ace in a run sits high when it cannot sit low
        position = 14 if rank == 1 and not self.ace_low else rank
        for need, cap, kind in self.single_ace if rank == 1 else self.single_other:
            if need <= w:
                out.append((one, need, cap, (kind, (position if kind == "run" else rank,))))
        present = [q for q in range(rank + 1, 14) if (pattern >> (2 * q)) & 3]
        if not present:
            return out
        if rank > 1 or self.ace_low:
            self._runs_up(present, rank, w, out)
        if rank == 1 and self.ace_high:
            self._runs_down_from_ace(present, w, out)
        return out

    def _run_option(self, positions: tuple[int, ...], removed: int, w: int, out: list) -> None:
        k = len(positions)
        span = positions[-1] - positions[0] + 1
        length = max(span, self.run_min)
        if k < self.min_naturals or length > self.run_len_max or length - k > w:
            return
        out.append((removed, length - k, self.run_len_max - k, ("run", positions)))

    def _runs_up(self, present: list[int], low: int, w: int, out: list) -> None:
        top = low + self.run_len_max - 1

        def extend(positions, removed, gaps, start):
            for i in range(start, len(present)):
                q = present[i]
                g = gaps + q - positions[-1] - 1
                if g > w or q > top:
                    break
                nxt = positions + (q,)
                rem = removed + (1 << (2 * q))
                self._run_option(nxt, rem, w, out)
                extend(nxt, rem, g, i + 1)

        extend((low,), 1 << (2 * low), 0, 0)

    def _runs_down_from_ace(self, present: list[int], w: int, out: list) -> None:
        bottom = 14 - self.run_len_max + 1
        desc = present[::-1]

        def extend(positions, removed, gaps, start):
            for i in range(start, len(desc)):
                q = desc[i]
                g = gaps + positions[0] - q - 1
                if g > w or q < bottom:
                    break
                nxt = (q,) + positions
                rem = removed + (1 << (2 * q))
                self._run_option(nxt, rem, w, out)
                extend(nxt, rem, g, i + 1)

        extend((14,), 1 << 2, 0, 0)

    # ----- cards that cannot meld ----------------------------------------------------------------

    def isolate(self, s0: int, s1: int, s2: int, s3: int, w: int) -> tuple[int, int, int, int, int]:
        """Drop the naturals that fit in no meld at all; returns the patterns left and their points.

        Cheap necessary conditions only: a run needs another natural of the suit within w+1 ranks
        (three in a row without wilds), a set needs enough other suits at the rank. Shrinking the
        patterns this way makes most suits of a random hand empty or already memoised.
        """
        if w >= self.single_need:
            return s0, s1, s2, s3, 0
        set_mask = self.set_candidates(s0, s1, s2, s3, w)[1]
        points = 0
        out = []
        for p in (s0, s1, s2, s3):
            if p:
                keep = (self._run_cover(p, w) | set_mask) & ((p | (p >> 1)) & EVEN_BITS)
                lone = p & ~(keep | (keep << 1))
                while lone:
                    low = lone & -lone
                    points += RANK_VALUE[(low.bit_length() - 1) >> 1] * (2 if low & ODD_BITS else 1)
                    lone ^= low
                p &= keep | (keep << 1)
            out.append(p)
        return out[0], out[1], out[2], out[3], points

    def _run_cover(self, p: int, w: int) -> int:
        """Ranks (bit 2r) of the suit that have run partners near enough (ace high at bit 28)."""
        h = (p | (p >> 1)) & EVEN_BITS
        if not self.ace_low:
            h &= ~4
        if self.ace_high and p & 12:
            h |= 1 << 28
        if w == 0:
            starts = h & (h >> 2) & (h >> 4)
            cover = starts | (starts << 2) | (starts << 4)
        else:
            near = 0
            for t in range(1, w + 2):
                near |= (h >> (2 * t)) | (h << (2 * t))
            cover = h & near
        if cover >> 28 & 1:
            cover |= 4
        return cover & EVEN_BITS

    # ----- sets across suits -----------------------------------------------------------------------

    def set_candidates(self, s0: int, s1: int, s2: int, s3: int, w: int) -> tuple[list[int], int]:
        """Ranks where a set with at least two naturals is possible with w wilds (list and bit 2r mask)."""
        h0 = (s0 | (s0 >> 1)) & EVEN_BITS
        h1 = (s1 | (s1 >> 1)) & EVEN_BITS
        h2 = (s2 | (s2 >> 1)) & EVEN_BITS
        h3 = (s3 | (s3 >> 1)) & EVEN_BITS
        short = max(self.set_min - w, self.min_naturals)  # naturals a set needs at least
        if self.distinct:
            if short <= 2:
                mask = (h0 & (h1 | h2 | h3)) | (h1 & (h2 | h3)) | (h2 & h3)
            elif short == 3:
                mask = (h0 & h1 & (h2 | h3)) | (h2 & h3 & (h0 | h1))
            elif short == 4:
                mask = h0 & h1 & h2 & h3
            else:
                mask = 0
        else:
            mask = 0
            for r in range(1, 14):
                sh = 2 * r
                if ((s0 >> sh) & 3) + ((s1 >> sh) & 3) + ((s2 >> sh) & 3) + ((s3 >> sh) & 3) >= max(2, short):
                    mask |= 1 << sh
        ranks = []
        rest = mask
        while rest:
            low = rest & -rest
            ranks.append(low.bit_length() >> 1)
            rest ^= low
        return ranks, mask

    def rank_options(self, rank: int, counts: tuple[int, int, int, int], w: int) -> tuple:
        """Ways to put naturals of one rank into sets (each with >= 2 naturals).

        Each option: (removed s0, s1, s2, s3, need, cap, naturals used, set shapes).
        """
        key = (rank, counts, w)
        opts = self._rank_options.get(key)
        if opts is None:
            opts = self._rank_options[key] = self._build_rank_options(rank, counts, w)
        return opts

    def _build_rank_options(self, rank: int, counts: tuple, w: int) -> tuple:
        shift = 2 * rank
        seen = {}
        shapes = self.set_shapes

        def rec(left, start, need, cap, chosen):
            if chosen:
                used = tuple(c - x for c, x in zip(counts, left, strict=True))
                key = (used, need, cap)
                if key not in seen:
                    removed = tuple(u << shift for u in used)
                    seen[key] = (*removed, need, cap, sum(used), tuple(chosen))
            for i in range(start, len(shapes)):
                shape = shapes[i]
                if any(x > y for x, y in zip(shape, left, strict=True)):
                    continue
                n = sum(shape)
                extra = max(0, self.set_min - n)
                if need + extra > w:
                    continue
                rest = tuple(y - x for x, y in zip(shape, left, strict=True))
                rec(rest, i, need + extra, cap + self.set_cap - n, chosen + [shape])

        rec(counts, 0, 0, 0, [])
        # Most naturals first: a good option early makes the zero-deadwood exit likelier.
        return tuple(sorted(seen.values(), key=lambda o: -o[6]))

    # ----- whole hand --------------------------------------------------------------------------------

    def combos(self, s0: int, s1: int, s2: int, s3: int, w: int):
        """Every choice of cross-suit sets: yields (rank options chosen, one per candidate rank)."""
        lists = []
        for r in self.set_candidates(s0, s1, s2, s3, w)[0]:
            sh = 2 * r
            counts = ((s0 >> sh) & 3, (s1 >> sh) & 3, (s2 >> sh) & 3, (s3 >> sh) & 3)
            opts = self.rank_options(r, counts, w)
            if opts:
                lists.append((None, *opts))
        return product(*lists)

    def evaluate(self, s0: int, s1: int, s2: int, s3: int, need: int, cap: int, w: int, tail: list[int]) -> int:
        """Least deadwood with the given suit patterns and sets absorbing [need, cap] wilds."""
        if w == 0:
            total = 0
            cache = self._vectors.get(0)
            for p in (s0, s1, s2, s3):
                if p:
                    v = cache.get(p) if cache is not None else None
                    total += (v if v is not None else self.vector(p, 0))[0]
                    cache = self._vectors.get(0)
            return total
        acc = self.combined(s0, s1, s2, s3, need, cap, w)
        return min(acc[u] + tail[w - u] for u in range(w + 1))

    def combined(self, s0: int, s1: int, s2: int, s3: int, need: int, cap: int, w: int) -> list[int]:
        acc = [0 if need <= u <= cap else INF for u in range(w + 1)]
        for p in (s0, s1, s2, s3):
            if p:
                acc = _convolve(acc, self.vector(p, w), w)
        return acc

    def min_deadwood(self, s0: int, s1: int, s2: int, s3: int, w: int, tail: list[int]) -> int:
        best = INF
        for combo in self.combos(s0, s1, s2, s3, w):
            need = cap = 0
            p0, p1, p2, p3 = s0, s1, s2, s3
            for opt in combo:
                if opt is not None:
                    p0 -= opt[0]
                    p1 -= opt[1]
                    p2 -= opt[2]
                    p3 -= opt[3]
                    need += opt[4]
                    cap += opt[5]
            if need > w:
                continue
            value = self.evaluate(p0, p1, p2, p3, need, cap, w, tail)
            if value < best:
                best = value
                if best == 0:
                    break
        return best


def _relax(best: list[int], rest: tuple[int, ...], need: int, cap: int, w: int) -> None:
    """best[u] = min(best[u], rest[u - j]) for need <= j <= cap: a meld absorbing j wilds."""
    hi = min(cap, w)
    for u in range(need, w + 1):
        m = best[u]
        for j in range(need, min(hi, u) + 1):
            x = rest[u - j]
            if x < m:
                m = x
        best[u] = m


def _convolve(a: list[int], b: tuple[int, ...], w: int) -> list[int]:
    out = [INF] * (w + 1)
    for i in range(w + 1):
        ai = a[i]
        if ai >= INF:
            continue
        for j in range(w + 1 - i):
            x = ai + b[j]
            if x < out[i + j]:
                out[i + j] = x
    return out


# ----- hands ---------------------------------------------------------------------------------------

_structures: dict[tuple, Structure] = {}


def structure_of(comp: CompiledRules) -> Structure:
    s = getattr(comp, "structure", None)
    if s is None:
        r = comp.rules
        key = (r.set_min, r.set_max, r.set_distinct_suits, r.run_min, r.run_max, r.ace_low, r.ace_high,
               r.min_naturals, r.all_wild_ok)
        s = _structures.get(key)
        if s is None:
            s = _structures[key] = Structure(r)
        comp.structure = s
    return s


def parse(hand: list[str], comp: CompiledRules) -> tuple[list[int], list[tuple[int, str]], int]:
    """Suit patterns, wilds as (value, card) sorted cheapest first, points of dead cards."""
    info = comp.info
    suits = [0, 0, 0, 0]
    wilds = []
    dead = 0
    try:
        for card in hand:
            kind, suit, rank, value = info[card]
            if kind == NATURAL:
                suits[suit] += 1 << (2 * rank)
            elif kind == DEAD:
                dead += value
            else:
                wilds.append((value, card))
    except (KeyError, TypeError):
        raise ValueError(f"not a card id in hand: {hand!r}") from None
    if len(set(hand)) != len(hand):
        raise ValueError(f"a card appears twice in hand: {hand!r}")
    wilds.sort()
    return suits, wilds, dead


def deadwood(hand: list[str], rules: MeldRules) -> int:
    """Least deadwood points of the hand (exact)."""
    comp = compiled(rules)
    st = structure_of(comp)
    (s0, s1, s2, s3), wilds, dead = parse(hand, comp)
    w = len(wilds)
    s0, s1, s2, s3, lone = st.isolate(s0, s1, s2, s3, w)
    tail = st.tail([v for v, _ in wilds])
    return dead + lone + st.min_deadwood(s0, s1, s2, s3, w, tail)


def best_discards(hand: list[str], rules: MeldRules) -> dict[str, int]:
    """For each card: the least deadwood of the hand without it.

    The hand is parsed once; cards of the same face (or wilds of the same value) share one solve, and
    the suit memo makes the other three suits free for each removal.
    """
    comp = compiled(rules)
    st = structure_of(comp)
    suits, wilds, dead = parse(hand, comp)
    info = comp.info
    w = len(wilds)
    by_key: dict[tuple, int] = {}
    out = {}
    for card in hand:
        kind, suit, rank, value = info[card]
        key = (kind, suit, rank, value)
        if key not in by_key:
            by_key[key] = _without(st, suits, wilds, dead, kind, suit, rank, value, w)
        out[card] = by_key[key]
    return out


def _without(st, suits, wilds, dead, kind, suit, rank, value, w) -> int:
    values = [v for v, _ in wilds]
    p = list(suits)
    if kind == NATURAL:
        p[suit] -= 1 << (2 * rank)
    elif kind == DEAD:
        dead -= value
    else:
        values.remove(value)
        w -= 1
    s0, s1, s2, s3, lone = st.isolate(p[0], p[1], p[2], p[3], w)
    return dead + lone + st.min_deadwood(s0, s1, s2, s3, w, st.tail(values))
