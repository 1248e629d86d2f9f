"""The meld shapes a rule set allows, and the per-suit solutions memoised across hands.

Suit pattern: an int with two bits per rank (bits 2r and 2r+1 count the copies of rank r held,
A=1..K=13), so copies of a face are interchangeable and the search never sees card ids.

Suit vector: `vec[u]` = least deadwood of a suit's naturals when its melds absorb exactly `u`
wilds. A meld with k naturals absorbs any count of wilds in an interval [need, cap] (a run can be
lengthened with wilds up to its maximum length), so adding intervals and min-plus convolving the
vectors of independent parts is exact.

None of this depends on which cards are wild, so one `Structure` (and its memo) serves every
wild rank of a game.
"""

from itertools import product

from engine.melds.rules import RANK_VALUE, MeldRules

INF = 1 << 30  # "impossible"; sums of INF and real points stay >= INF
EVEN_BITS = sum(1 << (2 * r) for r in range(1, 14))  # bit 2r for every rank r
ODD_BITS = EVEN_BITS << 1
MEMO_LIMIT = 200_000  # suit vectors kept before the memo is reset (~40 MB; 100k random hands need ~15k)


class Structure:
    def __init__(self, rules: MeldRules):
        self.set_min = rules.set_min
        self.set_cap = min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max
        self.distinct = rules.set_distinct_suits
        self.run_min = rules.run_min
        self.ace_low = rules.ace_low
        self.ace_high = rules.ace_high
        self.run_len_max = min(rules.run_max, 13 if (rules.ace_low or rules.ace_high) else 12)
        self.min_naturals = rules.min_naturals
        self.single_ace = self._single_intervals(ace=True)
        self.single_other = self._single_intervals(ace=False)
        # From this many wilds any natural can meld on its own, so no card is ever isolated.
        self.single_need = min((i[0] for i in self.single_ace + self.single_other), default=INF)
        self.set_shapes = self._set_shapes()
        self.set_table = {counts: self._set_options(counts) for counts in product(range(3), repeat=4)}
        self.all_wild_take = self._all_wild_take(rules)
        self.memo: dict[int, dict[int, tuple[int, ...]]] = {}  # wilds -> pattern -> vector
        self.memo_size = 0
        self._rank_options: dict[tuple, tuple] = {}

    def clear(self) -> None:
        """Forget every memoised solution (the rule tables stay)."""
        self.memo.clear()
        self.memo_size = 0
        self._rank_options.clear()

    # ----- rule tables ---------------------------------------------------------------------------

    def _single_intervals(self, ace: bool) -> tuple[tuple[int, int, str], ...]:
        """Wilds a meld with one natural can absorb: (need, cap, kind), dominated kinds dropped."""
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
        return tuple(
            shape for shape in product(range(top + 1), repeat=4)
            if 2 <= sum(shape) <= self.set_cap and sum(shape) >= self.min_naturals
        )

    def _set_options(self, counts: tuple[int, int, int, int]) -> list:
        """Every way to build sets from the naturals of one rank (copies per suit in `counts`).

        Entries (naturals used per suit, need, cap, naturals used, set shapes), most naturals first
        so that a good option comes early (the search stops at zero deadwood).
        """
        seen = {}
        shapes = self.set_shapes

        def rec(left, start, need, cap, chosen):
            if chosen:
                used = tuple(c - x for c, x in zip(counts, left, strict=True))
                seen.setdefault((used, need, cap), (used, need, cap, sum(used), tuple(chosen)))
            for i in range(start, len(shapes)):
                shape = shapes[i]
                if all(x <= y for x, y in zip(shape, left, strict=True)):
                    n = sum(shape)
                    rest = tuple(y - x for x, y in zip(shape, left, strict=True))
                    rec(rest, i, need + max(0, self.set_min - n), cap + self.set_cap - n, [*chosen, shape])

        rec(counts, 0, 0, 0, [])
        return sorted(seen.values(), key=lambda o: -o[3])

    def _all_wild_take(self, rules: MeldRules) -> tuple[int, ...]:
        """take[L] = most of L leftover wilds that all-wild melds can hold (0 if not allowed)."""
        sizes = set()
        if rules.all_wild_ok and rules.min_naturals == 0:
            sizes.update(range(self.set_min, self.set_cap + 1))
            sizes.update(range(self.run_min, self.run_len_max + 1))
        reachable = [True]
        for total in range(1, 65):
            reachable.append(any(s <= total and reachable[total - s] for s in sizes))
        take, best = [], 0
        for total, ok in enumerate(reachable):
            best = total if ok else best
            take.append(best)
        return tuple(take)

    def tail(self, wild_values: list[int]) -> list[int]:
        """tail[L]: points of the L cheapest wilds (values ascending) once all-wild melds took some."""
        prefix = [0]
        for v in wild_values:
            prefix.append(prefix[-1] + v)
        take = self.all_wild_take
        return [prefix[n - take[n]] if n < len(take) else prefix[n] for n in range(len(prefix))]

    # ----- one suit ------------------------------------------------------------------------------

    def vector(self, pattern: int, w: int) -> tuple[int, ...]:
        cache = self.memo.get(w)
        if cache is None:
            cache = self.memo[w] = {0: (0,) + (INF,) * w}
        v = cache.get(pattern)
        return v if v is not None else self.solve_suit(pattern, w, cache)

    def solve_suit(self, pattern: int, w: int, cache: dict) -> tuple[int, ...]:
        """Branch on the lowest card: deadwood, or the lowest natural of one of its melds."""
        v = cache.get(pattern)
        if v is not None:
            return v
        rank = ((pattern & -pattern).bit_length() - 1) >> 1
        rest = self.solve_suit(pattern - (1 << (2 * rank)), w, cache)
        value = RANK_VALUE[rank]
        if w == 0:
            best = rest[0] + value
            for removed, _, _ in self.melds_with_lowest(pattern, rank, 0):
                x = self.solve_suit(pattern - removed, 0, cache)[0]
                if x < best:
                    best = x
            v = (best,)
        else:
            best = [x + value for x in rest]
            for removed, need, cap in self.melds_with_lowest(pattern, rank, w):
                sub = self.solve_suit(pattern - removed, w, cache)
                # best[u] = min(best[u], sub[u - j]) for need <= j <= cap: the meld takes j wilds
                for u in range(need, w + 1):
                    m = best[u]
                    for j in range(need, (cap if cap < u else u) + 1):
                        x = sub[u - j]
                        if x < m:
                            m = x
                    best[u] = m
            v = tuple(best)
        cache[pattern] = v
        self.memo_size += 1
        return v

    def melds_with_lowest(self, pattern: int, rank: int, w: int) -> list[tuple[int, int, int]]:
        """Melds inside one suit whose lowest natural is `rank` (the pattern's lowest card).

        Each as (naturals taken from the pattern, need, cap). `meld_shape` tells what it looks like.
        """
        one = 1 << (2 * rank)
        singles = self.single_ace if rank == 1 else self.single_other
        out = [(one, need, cap) for need, cap, _ in singles if need <= w]
        held = (pattern | (pattern >> 1)) & EVEN_BITS
        if rank > 1 or self.ace_low:
            top = min(13, rank + self.run_len_max - 1)
            present = _ranks_in(held & ((1 << (2 * top + 1)) - 1) & -(1 << (2 * rank + 2)))
            if present:
                self._runs(present, rank, 1, one, w, out)
        if rank == 1 and self.ace_high:
            present = _ranks_in(held & -(1 << (2 * (14 - self.run_len_max) + 2)))[::-1]
            if present:
                self._runs(present, 14, -1, one, w, out)
        return out

    def _runs(self, present: list[int], start: int, step: int, one: int, w: int, out: list) -> None:
        """Runs from position `start` through subsets of `present` (ordered away from it), gaps <= w.

        Skipping a held rank is allowed: its other copy, or itself, may serve better elsewhere.
        """
        run_min, run_len_max, min_naturals = self.run_min, self.run_len_max, self.min_naturals
        stack = [(start, 1, one, 0, 0)]  # last position, naturals, taken, gaps so far, next index
        while stack:
            last, k, taken, gaps, i = stack.pop()
            for j in range(i, len(present)):
                q = present[j]
                g = gaps + (q - last) * step - 1
                if g > w:
                    break
                k2 = k + 1
                taken2 = taken + (1 << (2 * q))
                length = max((q - start) * step + 1, run_min)
                if length - k2 <= w and k2 >= min_naturals:
                    out.append((taken2, length - k2, run_len_max - k2))
                stack.append((q, k2, taken2, g, j + 1))

    def meld_shape(self, taken: int, wilds: int) -> tuple[str, tuple[int, ...]]:
        """What the naturals `taken` (one suit) plus `wilds` wilds look like, for a pair the search
        allowed: ("run", positions, a high ace at 14) or ("set", (rank,))."""
        ranks = [r for r in range(1, 14) if (taken >> (2 * r)) & 3]
        k = len(ranks)
        high = sorted(14 if r == 1 else r for r in ranks)
        for positions, ok in ((ranks, self.ace_low or ranks[0] != 1), (high, self.ace_high)):
            span = positions[-1] - positions[0] + 1
            if ok and k >= self.min_naturals and max(span, self.run_min) - k <= wilds <= self.run_len_max - k:
                return "run", tuple(positions)
        return "set", (ranks[0],)

    # ----- cards that cannot meld, and where sets are possible --------------------------------

    def prepare(self, s0: int, s1: int, s2: int, s3: int, w: int) -> tuple[int, int, int, int, int, list[int]]:
        """Drop the naturals that fit in no meld; returns the patterns left, the dropped points and
        the ranks where a set with two or more naturals is possible.

        Only cheap necessary conditions: a run needs another natural of the suit within w+1 ranks
        (three in a row without wilds), a set enough suits at the rank. Small patterns are mostly
        empty or already memoised.
        """
        h0 = (s0 | (s0 >> 1)) & EVEN_BITS
        h1 = (s1 | (s1 >> 1)) & EVEN_BITS
        h2 = (s2 | (s2 >> 1)) & EVEN_BITS
        h3 = (s3 | (s3 >> 1)) & EVEN_BITS
        short = max(self.set_min - w, self.min_naturals, 2)  # naturals a set needs at least
        if not self.distinct:
            set_mask = self._set_mask_by_count(s0, s1, s2, s3, short)
        elif short == 2:
            set_mask = (h0 & (h1 | h2 | h3)) | (h1 & (h2 | h3)) | (h2 & h3)
        elif short == 3:
            set_mask = (h0 & h1 & (h2 | h3)) | (h2 & h3 & (h0 | h1))
        elif short == 4:
            set_mask = h0 & h1 & h2 & h3
        else:
            set_mask = 0
        ranks = []
        rest = set_mask
        while rest:
            low = rest & -rest
            ranks.append(low.bit_length() >> 1)
            rest ^= low
        if w >= self.single_need:
            return s0, s1, s2, s3, 0, ranks
        points = 0
        kept = []
        for p, h in ((s0, h0), (s1, h1), (s2, h2), (s3, h3)):
            if p:
                keep = (self._run_cover(h, w) | set_mask) & h
                keep |= keep << 1
                lone = p & ~keep
                while lone:
                    low = lone & -lone
                    points += RANK_VALUE[(low.bit_length() - 1) >> 1] * (2 if low & ODD_BITS else 1)
                    lone ^= low
                p &= keep
            kept.append(p)
        return kept[0], kept[1], kept[2], kept[3], points, ranks

    def _run_cover(self, h: int, w: int) -> int:
        """Held ranks (bit 2r) with run partners near enough; a high ace is worked at bit 28."""
        ace = h & 4
        if not self.ace_low:
            h &= ~4
        if ace and self.ace_high:
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

    @staticmethod
    def _set_mask_by_count(s0: int, s1: int, s2: int, s3: int, short: int) -> int:
        mask = 0
        for r in range(1, 14):
            sh = 2 * r
            if ((s0 >> sh) & 3) + ((s1 >> sh) & 3) + ((s2 >> sh) & 3) + ((s3 >> sh) & 3) >= short:
                mask |= 1 << sh
        return mask

    def rank_options(self, rank: int, counts: tuple[int, int, int, int], w: int) -> tuple:
        """Ways to put naturals of one rank into sets of two or more naturals needing <= w wilds.

        Each: (taken from s0, s1, s2, s3, need, cap, naturals used, set shapes).
        """
        key = (rank, counts, w)
        opts = self._rank_options.get(key)
        if opts is None:
            shift = 2 * rank
            opts = self._rank_options[key] = tuple(
                (used[0] << shift, used[1] << shift, used[2] << shift, used[3] << shift, need, cap, n, shapes)
                for used, need, cap, n, shapes in self.set_table[counts]
                if need <= w
            )
        return opts

    def set_choices(self, s0: int, s1: int, s2: int, s3: int, ranks: list[int], w: int) -> list[tuple]:
        """Per candidate rank: (None, option, option, ...) to take the product of."""
        lists = []
        for r in ranks:
            sh = 2 * r
            counts = ((s0 >> sh) & 3, (s1 >> sh) & 3, (s2 >> sh) & 3, (s3 >> sh) & 3)
            opts = self.rank_options(r, counts, w)
            if opts:
                lists.append((None, *opts))
        return lists


def _ranks_in(bits: int) -> list[int]:
    """Ranks whose bit 2r is set, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() >> 1)
        bits ^= low
    return out


def min_plus(acc: list[int], b: list[int], size: int) -> list[int]:
    """The min-plus convolution of two deadwood vectors indexed by wilds used (0..size-1)."""
    out = [INF] * size
    for i in range(size):
        a = acc[i]
        if a < INF:
            for j in range(size - i):
                x = a + b[j]
                if x < out[i + j]:
                    out[i + j] = x
    return out
