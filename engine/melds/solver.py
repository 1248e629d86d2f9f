"""Exact least-deadwood search over a whole hand.

Every meld is one of:
- a set with two or more naturals: the only meld spanning suits; chosen rank by rank
  (`Structure.set_choices`) and taken out of the suit patterns;
- a run, or a meld with a single natural: inside one suit, solved by the memoised suit vectors;
- an all-wild meld, made of wilds left over.

Wilds are interchangeable inside melds, so the wilds left out are always the cheapest ones:
`tail[L]` is the cost of leaving L of them out after all-wild melds took what they can. The answer
for one choice of sets is min over u of (suit vectors and set interval convolved)[u] + tail[w - u].
"""

from itertools import product

from engine.melds import plain
from engine.melds.compiled import LAST, CompiledRules, compiled
from engine.melds.plain import LANE, LONE, REJECT
from engine.melds.rules import DEAD, DEAD_SHIFT, NATURAL, SUIT_MASK, WILD, WILD_SHIFT, MeldRules
from engine.melds.structure import EVEN_BITS, INF, MEMO_LIMIT, Structure, min_plus

_structures: dict[tuple, Structure] = {}


def structure_of(comp: CompiledRules) -> Structure:
    st = comp.structure
    if st is None:
        r = comp.rules
        key = (r.set_min, r.set_max, r.set_distinct_suits, r.run_min, r.run_max, r.ace_low, r.ace_high,
               r.min_naturals, r.all_wild_ok)
        st = _structures.get(key)
        if st is None:
            st = _structures[key] = Structure(r)
        comp.structure = st
    return st


def clear_memo() -> None:
    """Forget every memoised suit solution (for cold benchmarks and tests)."""
    for st in _structures.values():
        st.clear()


def pack(hand: list[str], comp: CompiledRules) -> int:
    """The hand as one int (see engine.melds.rules); raises ValueError on a bad or repeated id."""
    try:
        packed = sum(map(comp.codes.__getitem__, hand))
    except (KeyError, TypeError):
        raise ValueError(f"not a card id in hand: {hand!r}") from None
    if len(set(hand)) != len(hand):
        raise ValueError(f"a card appears twice in hand: {hand!r}")
    return packed


def unpack(packed: int) -> tuple[int, int, int, int, int, int]:
    """(s0, s1, s2, s3, wild count, dead points)."""
    return (packed & SUIT_MASK, (packed >> 32) & SUIT_MASK, (packed >> 64) & SUIT_MASK,
            (packed >> 96) & SUIT_MASK, (packed >> WILD_SHIFT) & 0xFFF, packed >> DEAD_SHIFT)


def wild_values(hand: list[str], comp: CompiledRules) -> list[int]:
    values = comp.wild_values
    return sorted(values[c] for c in hand if c in values)


def solve(st: Structure, s0: int, s1: int, s2: int, s3: int, w: int, tail: list[int]) -> int:
    """Least points of naturals and wilds left out (dead cards not included)."""
    return search(st, s0, s1, s2, s3, w, tail)[0]


def search(st: Structure, s0: int, s1: int, s2: int, s3: int, w: int, tail: list[int]) -> tuple[int, tuple]:
    """`solve`, plus how the best was reached: (suit patterns left after its sets, need, cap, points
    of the naturals that fit in no meld)."""
    if st.memo_size > MEMO_LIMIT:
        st.clear()
    s0, s1, s2, s3, lone, ranks = st.prepare(s0, s1, s2, s3, w)
    cache = st.memo.get(w)
    if cache is None:
        cache = st.memo[w] = {0: (0,) + (INF,) * w}
    if not ranks:
        return lone + _evaluate(st, cache, s0, s1, s2, s3, 0, 0, w, tail), (s0, s1, s2, s3, 0, 0, lone)
    best, how = INF, None
    for combo in product(*st.set_choices(s0, s1, s2, s3, ranks, w)):
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
        if need <= w:
            value = _evaluate(st, cache, p0, p1, p2, p3, need, cap, w, tail)
            if value < best:
                best, how = value, (p0, p1, p2, p3, need, cap, lone)
                if best == 0:
                    break
    return lone + best, how


def _evaluate(st, cache, s0, s1, s2, s3, need, cap, w, tail) -> int:
    """Least points given the suit patterns and sets that absorb [need, cap] wilds."""
    if w == 0:
        total = 0
        for p in (s0, s1, s2, s3):
            if p:
                v = cache.get(p)
                total += (v if v is not None else st.solve_suit(p, 0, cache))[0]
        return total
    if w == 1:  # the one wild goes to the part where it gains most (or stays out)
        base = 0
        gain = (0 if need <= 1 <= cap else INF) - (0 if need == 0 else INF)  # the sets' own
        for p in (s0, s1, s2, s3):
            if p:
                b = cache.get(p)
                if b is None:
                    b = st.solve_suit(p, 1, cache)
                base += b[0]
                if b[1] - b[0] < gain:
                    gain = b[1] - b[0]
        if need:  # the sets need the wild
            return base + tail[0]
        return base + (gain + tail[0] if gain + tail[0] < tail[1] else tail[1])
    if w == 2 and not need:  # two wilds: to the part gaining most from two, or to the two best parts
        base = 0
        m1 = 0 if cap else INF  # the two least costs of one wild in a part (sets cost nothing)
        m2 = INF
        two = 0 if cap >= 2 else INF  # the least cost of two wilds in one part
        for p in (s0, s1, s2, s3):
            if p:
                b = cache.get(p)
                if b is None:
                    b = st.solve_suit(p, 2, cache)
                v = b[0]
                base += v
                d = b[1] - v
                if d < m2:
                    if d < m1:
                        m1, m2 = d, m1
                    else:
                        m2 = d
                if b[2] - v < two:
                    two = b[2] - v
        if m1 + m2 < two:
            two = m1 + m2
        return base + min(tail[2], m1 + tail[1], two + tail[0])
    size = w + 1
    vectors = []
    for p in (s0, s1, s2, s3):
        if p:
            b = cache.get(p)
            vectors.append(b if b is not None else st.solve_suit(p, w, cache))
    if cap:
        acc = [0 if need <= u <= cap else INF for u in range(size)]
    elif vectors:
        acc = vectors.pop()  # no wilds in sets: start from a suit instead of the identity
    else:
        return tail[w]
    for b in vectors:
        acc = min_plus(acc, b, size)
    return min([acc[u] + tail[w - u] for u in range(size)])


def deadwood(hand: list[str], rules: MeldRules) -> int:
    """Least deadwood points of the hand (exact)."""
    last_rules, comp = LAST[0]
    if last_rules is not rules:
        comp = compiled(rules)
    if comp.plain_cap:
        try:
            packed = sum(map(comp.codes.__getitem__, hand))
        except (KeyError, TypeError):
            raise ValueError(f"not a card id in hand: {hand!r}") from None
        if not packed & REJECT:  # no wild, no face twice (so no id twice but a dead joker's)
            # plain.value inlined (this is the bots' innermost call)
            a = packed & LANE
            b = packed >> 32 & LANE
            c = packed >> 64 & LANE
            d = packed >> 96 & LANE
            trips = (a & b & (c | d)) | (c & d & (a | b))
            best = LONE[a] + LONE[b] + LONE[c] + LONE[d]
            if trips and best:
                best = plain.with_sets(packed, trips, comp.plain_cap, best)
            if packed >> DEAD_SHIFT:
                if len(set(hand)) != len(hand):
                    raise ValueError(f"a card appears twice in hand: {hand!r}")
                best += packed >> DEAD_SHIFT
            return best
    st = comp.structure or structure_of(comp)
    s0, s1, s2, s3, w, dead = unpack(pack(hand, comp))
    tail = st.tail(wild_values(hand, comp)) if w else [0]
    return dead + solve(st, s0, s1, s2, s3, w, tail)


def best_discards(hand: list[str], rules: MeldRules) -> dict[str, int]:
    """For each card, the least deadwood of the hand without it.

    One parse and one full search, of least deadwood D. Removing a card c of value v leaves at least
    D - v (put c back as deadwood), so D - v is exact as soon as an arrangement of the rest reaches
    it: always for a card that fits in no meld (or a dead card), and when the best full-hand choice
    of sets still reaches it without c (one convolution instead of a search). Other removals are
    searched, cards of one face (or wilds of one value) sharing a search.
    """
    comp = compiled(rules)
    packed = pack(hand, comp)
    if comp.plain_cap and not packed & REJECT:
        return _plain_discards(hand, comp, packed)
    st = comp.structure or structure_of(comp)
    values = wild_values(hand, comp)
    s0, s1, s2, s3, w, dead = unpack(packed)
    tail = st.tail(values) if w else [0]
    best, (b0, b1, b2, b3, need, cap, lone_points) = search(st, s0, s1, s2, s3, w, tail)
    full = dead + best
    parts = [b0, b1, b2, b3]
    k0, k1, k2, k3, _, _ = st.prepare(s0, s1, s2, s3, w)
    lone = 0  # packed-code bits of the naturals that fit in no meld (either copy)
    for shift, (p, k) in enumerate(((s0, k0), (s1, k1), (s2, k2), (s3, k3))):
        lone |= (((p - k) | ((p - k) >> 1)) & EVEN_BITS) << (32 * shift)
    cache = st.memo[w]

    def without(card: str) -> int:
        kind, suit, rank, value = comp.info[card]
        if comp.codes[card] & lone or kind == DEAD:
            return full - value
        target = best - value - lone_points
        if kind == NATURAL and (parts[suit] >> (2 * rank)) & 3:
            p = list(parts)
            p[suit] -= 1 << (2 * rank)
            if _evaluate(st, cache, p[0], p[1], p[2], p[3], need, cap, w, tail) == target:
                return full - value
        elif kind == WILD and need < w:
            rest = list(values)
            rest.remove(value)
            if _fewer_wilds(st, parts, need, cap, w - 1, st.tail(rest)) == target:
                return full - value
        return _without(st, comp, packed, values, card)

    by_key: dict[tuple[int, int | None], int] = {}
    out = {}
    for card in hand:
        key = (comp.codes[card], comp.wild_values.get(card))
        if key not in by_key:
            by_key[key] = without(card)
        out[card] = by_key[key]
    return out


def _plain_discards(hand: list[str], comp: CompiledRules, packed: int) -> dict[str, int]:
    """best_discards for a hand engine.melds.plain serves.

    One search gives the least deadwood D and its sets; a card outside its melds leaves exactly
    D - its value (as in `best_discards`); each other card is one bit-trick solve.
    """
    dead = packed >> DEAD_SHIFT
    cap = comp.plain_cap
    trips, best = plain.trips_and_lone(packed)
    taken = 0
    if trips and best:
        best, taken = plain.search(packed, trips, cap, best)
    nat = packed & plain.NATURALS
    outside = plain.left_out(nat ^ taken) | ~plain.NATURALS  # dead cards too
    full = dead + best
    codes, info, value = comp.codes, comp.info, plain.value
    out = {}
    for card in hand:
        code = codes[card]
        if code & outside:
            out[card] = full - info[card][3]
        else:
            out[card] = dead + value(packed ^ code, cap)
    return out


def _fewer_wilds(st: Structure, parts: list[int], need: int, cap: int, w: int, tail: list[int]) -> int:
    """`_evaluate` with one wild less than the memoised vectors were built for: a vector for w
    wilds cut to w entries is the vector for w - 1 (melds needing more never fit either)."""
    acc = [0 if need <= u <= cap else INF for u in range(w + 1)]
    for p in parts:
        if p:
            b = st.vector(p, w + 1)
            acc = [min(acc[i] + b[u - i] for i in range(u + 1)) for u in range(w + 1)]
    return min(acc[u] + tail[w - u] for u in range(w + 1))


def _without(st: Structure, comp: CompiledRules, packed: int, values: list[int], card: str) -> int:
    s0, s1, s2, s3, w, dead = unpack(packed - comp.codes[card])
    if card in comp.wild_values:
        values = list(values)
        values.remove(comp.wild_values[card])
    return dead + solve(st, s0, s1, s2, s3, w, st.tail(values) if w else [0])
