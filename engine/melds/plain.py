"""Hands without wilds and with one copy of each face: the whole hand in one int, solved with bit tricks.

This is every Gin hand. The packed hand (engine.melds.rules) has suit s, rank r at bit 32*s + 2r; with
one copy per face the naturals are a plain bit set whose four 32-bit lanes never touch (bits 0 and
28-31 of a lane are empty). Rules this fast path serves (`serves`): sets of 3 (up to 3 or 4 cards),
runs of 3 or more up to at least 5 cards, ace low only.

- Runs alone: a suit's cards split into maximal blocks of consecutive ranks; a block of 3 or more is
  entirely melded (3, 4 or 5 cards, or several of them), any shorter one is deadwood. So the cards
  left out are `h & ~cover(h)`, cover marking every card inside three in a row: a few shifts for all
  four suits at once.
- Sets: a rank held three or four times. The search tries, rank by rank, no set, the four cards
  (if sets of 4 are allowed) or three of them, and solves the runs of what is left. Most hands have
  no such rank (one int AND tells it); ten cards have at most three.
- Points: a bit set's deadwood is four popcounts, one per bit of the card values (planes).

The arrangement follows the same choice as the generic solver (engine.melds.arrange), tie-breaks
included: least deadwood, then more cards in sets, then the first set choice in the generic order
(ranks ascending; per rank: none, the four, then three without spades, hearts, diamonds, clubs), and
a block of consecutive cards split from its low end into runs of 3, the last run taking 4 or 5.
`tests/engine/test_melds.py` checks both against each other and against brute force.
"""

from engine.melds.rules import RANK_VALUE, WILD_SHIFT, MeldRules

LANE = (1 << 32) - 1
ONE_PER_LANE = 1 | 1 << 32 | 1 << 64 | 1 << 96
NATURALS = (1 << 128) - 1  # the suit lanes of a packed hand
_ODD = sum(1 << (2 * r + 1) for r in range(1, 14)) * ONE_PER_LANE  # a second copy of a face
REJECT = (0xFFF << WILD_SHIFT) | _ODD  # packed bits that send a hand to the generic solver

# PLANE[k]: the cards whose deadwood value has bit k.
P0, P1, P2, P3 = (sum(1 << (2 * r) for r in range(1, 14) if RANK_VALUE[r] >> k & 1) * ONE_PER_LANE
                  for k in range(4))


def serves(rules: MeldRules) -> bool:
    """Whether this module solves hands without wilds exactly for these rules."""
    cap = min(rules.set_max, 4)
    return (rules.set_min == 3 and cap >= 3 and rules.run_min == 3 and rules.run_max >= 5
            and rules.ace_low and not rules.ace_high and rules.min_naturals <= 3)


def points(bits: int) -> int:
    """Deadwood points of a bit set of naturals."""
    return ((bits & P0).bit_count() + ((bits & P1).bit_count() << 1) + ((bits & P2).bit_count() << 2)
            + ((bits & P3).bit_count() << 3))


def left_out(h: int) -> int:
    """The naturals of `h` that no run can hold."""
    starts = h & (h >> 2) & (h >> 4)
    return h & ~(starts | (starts << 2) | (starts << 4))


def _spread(p: int) -> int:
    """13 bits (bit i = rank i + 1) as a lane pattern (bit 2r = rank r)."""
    out = 0
    while p:
        low = p & -p
        out |= 1 << (2 * low.bit_length())
        p ^= low
    return out


# LONE[lane pattern]: points of the cards of one suit that no run can hold, for all 8192 patterns.
LONE = {lane: points(left_out(lane)) for lane in map(_spread, range(1 << 13))}


def trips_and_lone(packed: int) -> tuple[int, int]:
    """(the ranks held three or four times, the points of the cards no run can hold) of a packed hand.

    engine.melds.solver.deadwood inlines these lines (the bots' innermost call): keep them alike."""
    a = packed & LANE
    b = packed >> 32 & LANE
    c = packed >> 64 & LANE
    d = packed >> 96 & LANE
    return (a & b & (c | d)) | (c & d & (a | b)), LONE[a] + LONE[b] + LONE[c] + LONE[d]


def value(packed: int, cap: int) -> int:
    """Least deadwood of the naturals of a packed hand (one copy per face, no wilds)."""
    trips, best = trips_and_lone(packed)
    return with_sets(packed, trips, cap, best) if trips and best else best


def with_sets(packed: int, trips: int, cap: int, best: int) -> int:
    """`value` of a hand with ranks held three or four times (`trips`); `best` without sets."""
    if not trips & (trips - 1):
        full = packed & (trips * ONE_PER_LANE)
        if full.bit_count() == 3:  # the most common case: one set of three, or not
            r = packed ^ full
            x = LONE[r & LANE] + LONE[r >> 32 & LANE] + LONE[r >> 64 & LANE] + LONE[r >> 96 & LANE]
            return x if x < best else best
    return search(packed, trips, cap, best)[0]


def search(packed: int, trips: int, cap: int, best: int) -> tuple[int, int]:
    """(least deadwood, the naturals its sets take) of a hand with ranks held three or four times
    (`trips`); `best` is its deadwood without sets.

    A rank none of whose cards can be in a run (`left_out` of the whole hand: fewer cards never make
    more runs) takes its set at once, whatever the other ranks do; the others are enumerated.
    """
    lone = left_out(packed & NATURALS)
    forced = 0
    rest = trips
    while rest:
        low = rest & -rest
        rest ^= low
        full = packed & (low * ONE_PER_LANE)
        if full & lone == full:
            trips ^= low
            forced |= full if cap >= 4 or full.bit_count() == 3 else full ^ (full & -full)
    if forced:
        r = packed ^ forced
        best = LONE[r & LANE] + LONE[r >> 32 & LANE] + LONE[r >> 64 & LANE] + LONE[r >> 96 & LANE]
        if not trips or not best:
            return best, forced
    chosen = 0
    if trips & (trips - 1):  # two or three ranks: every combination of their sets
        takes = [0]
        for opts in _set_options(packed & NATURALS, trips, cap):
            takes += [t | o for t in takes for o in opts]
        del takes[0]
    else:
        full = packed & (trips * ONE_PER_LANE)
        if full.bit_count() == 3:
            takes = (full,)
        else:
            takes = (full ^ trips, full ^ (trips << 32), full ^ (trips << 64), full ^ (trips << 96))
            if cap >= 4:
                takes = (full, *takes)
    for t in takes:
        r = packed ^ forced ^ t
        x = LONE[r & LANE] + LONE[r >> 32 & LANE] + LONE[r >> 64 & LANE] + LONE[r >> 96 & LANE]
        if x < best:
            best, chosen = x, t
            if not x:
                break
    return best, forced | chosen


def _triples(nat: int) -> int:
    """Bit 2r of lane 0 for every rank held three or four times."""
    a = nat & LANE
    b = (nat >> 32) & LANE
    c = (nat >> 64) & LANE
    d = nat >> 96
    return (a & b & (c | d)) | (c & d & (a | b))


def _set_options(nat: int, trips: int, cap: int) -> list[tuple[int, ...]]:
    """Per rank held three or more times, the sets it may form (bit sets), in the generic order."""
    lists = []
    while trips:
        low = trips & -trips
        trips ^= low
        full = nat & (low * ONE_PER_LANE)
        if full.bit_count() == 4:
            threes = tuple(full ^ (low << (32 * s)) for s in range(4))
            lists.append(((full,) + threes) if cap >= 4 else threes)
        else:
            lists.append((full,))
    return lists


def choose(nat: int, cap: int) -> tuple[int, int, list[int]]:
    """The generic solver's choice of sets: (least deadwood, cards in sets, the sets as bit sets)."""
    trips = _triples(nat)
    if not trips:
        return points(left_out(nat)), 0, []
    combos = [(0, [])]
    for opts in _set_options(nat, trips, cap):
        combos = [(t | o, sets + [o]) for t, sets in combos for o in (0, *opts)]
    best_key, best = None, None
    for taken, sets in combos:
        key = (points(left_out(nat ^ taken)), -taken.bit_count())
        if best_key is None or key < best_key:
            best_key, best = key, (taken, [s for s in sets if s])
    return best_key[0], best[0], best[1]


def arrangement(hand: list[str], codes: dict, nat: int, cap: int, all_natural: bool = True):
    """(points of the naturals left out, melds as card id lists in display order, deadwood naturals
    as ids, sorted); dead cards are the caller's (`all_natural`: there are none)."""
    a = nat & LANE
    b = nat >> 32 & LANE
    c = nat >> 64 & LANE
    d = nat >> 96
    if (a & b & (c | d)) | (c & d & (a | b)):
        pts, in_sets, sets = choose(nat, cap)
    else:
        pts, in_sets, sets = LONE[a] + LONE[b] + LONE[c] + LONE[d], 0, None
    rest = nat ^ in_sets
    starts = rest & (rest >> 2) & (rest >> 4)
    cover = starts | (starts << 2) | (starts << 4)
    melds, dead, block = [], [], []
    prev = 0
    naturals = hand if all_natural else [c for c in hand if codes[c] & nat]
    for card in sorted(naturals, key=codes.__getitem__):  # suit, then rank
        bit = codes[card]
        if bit & cover:
            if bit != prev << 2 and block:
                _split_block(block, melds)
                block = []
            block.append(card)
            prev = bit
        elif not bit & in_sets:
            dead.append(card)
    if block:
        _split_block(block, melds)
    if sets:
        for s in sets:
            melds.append([c for c in hand if codes[c] & s])
        key = codes.__getitem__
        for m in melds:
            m.sort(key=key)
        melds.sort(key=lambda m: key(m[0]))
    return pts, melds, dead


def _split_block(block: list[str], melds: list) -> None:
    """Consecutive cards of a suit into runs from the low end: threes, the last run taking 4 or 5."""
    n, i = len(block), 0
    while n - i == 3 or n - i >= 6:
        melds.append(block[i : i + 3])
        i += 3
    if i < n:
        melds.append(block[i:])
