"""Rebuild the concrete best arrangement (melds, deadwood, what each wild stands for)."""

from dataclasses import dataclass, field
from itertools import product

from engine.cards import RANKS, SUITS, sort_key
from engine.melds import plain
from engine.melds.compiled import compiled
from engine.melds.rules import DEAD, DEAD_SHIFT, NATURAL, WILD, MeldRules
from engine.melds.solver import pack, structure_of, unpack
from engine.melds.structure import INF, Structure, min_plus


@dataclass(frozen=True)
class Arrangement:
    """A split of a hand into melds and deadwood."""

    points: int  # deadwood points
    melds: list[list[str]] = field(default_factory=list)  # display order: runs in rank order
    deadwood: list[str] = field(default_factory=list)  # sorted by engine.cards.sort_key
    wilds: dict[str, str] = field(default_factory=dict)  # wild card id -> face it stands for ("6S")


@dataclass
class _Plan:
    """One meld before card ids are chosen: naturals and wild slots as (suit, place), where a
    place is the rank in a set and the position in a run (1..14, 14 = high ace)."""

    kind: str  # "run" or "set"
    naturals: list[tuple[int, int]]
    slots: list[tuple[int, int]]  # what the wilds stand for
    cards: list[str] = field(default_factory=list)  # all-wild melds: their cards before seating
    seats: dict[str, int] = field(default_factory=dict)  # wild card -> index in slots
    all_wild: bool = False


def best_arrangement(hand: list[str], rules: MeldRules) -> Arrangement:
    """The least-deadwood arrangement; ties prefer more naturals in sets, then a fixed search order."""
    comp = compiled(rules)
    packed = pack(hand, comp)
    if comp.plain_cap and not packed & plain.REJECT:
        points, melds, dead_cards = plain.arrangement(hand, comp.codes, packed & plain.NATURALS, comp.plain_cap,
                                                      not packed >> DEAD_SHIFT)
        if packed >> DEAD_SHIFT:
            dead_cards += sorted((c for c in hand if comp.info[c][0] == DEAD), key=sort_key)
            points += packed >> DEAD_SHIFT
        return Arrangement(points=points, melds=melds, deadwood=dead_cards, wilds={})
    st = structure_of(comp)
    s0, s1, s2, s3, w, _ = unpack(packed)
    wilds = sorted((c for c in hand if c in comp.wild_values), key=lambda c: (comp.wild_values[c], sort_key(c)))
    tail = st.tail([comp.wild_values[c] for c in wilds])
    plans, dead_naturals, u = _plan_natural_melds(st, (s0, s1, s2, s3), w, tail)

    # The u most valuable wilds go into natural melds; all-wild melds take what they can of the rest.
    leftover, in_melds = wilds[: w - u], wilds[w - u :]
    n_all_wild = st.all_wild_take[len(leftover)] if len(leftover) < len(st.all_wild_take) else 0
    wild_dead = leftover[: len(leftover) - n_all_wild]
    plans.extend(_all_wild_plans(st, leftover[len(leftover) - n_all_wild :], comp))
    wild_faces = _assign_wilds(plans, in_melds, comp)

    naturals_left = _natural_ids(hand, comp)
    melds = [_display(plan, naturals_left) for plan in plans]
    melds.sort(key=lambda m: (all(c in wild_faces for c in m), _face_key(m[0], wild_faces)))
    dead_cards = [naturals_left[(s, r)].pop(0) for s, r in dead_naturals]
    dead_cards += wild_dead + [c for c in hand if comp.info[c][0] not in (NATURAL, WILD)]
    dead_cards.sort(key=sort_key)
    points = sum(comp.info[c][3] for c in dead_cards)
    return Arrangement(points=points, melds=melds, deadwood=dead_cards, wilds=wild_faces)


def _plan_natural_melds(st: Structure, suits: tuple, w: int, tail: list[int]):
    """Melds holding naturals (wild slots still unassigned), naturals left out, wilds used."""
    s0, s1, s2, s3, _, ranks = st.prepare(*suits, w)
    kept = (s0, s1, s2, s3)
    dead_naturals = [(s, r) for s in range(4) if suits[s] != kept[s] for r in _ranks_of(suits[s] - kept[s])]
    combo, u = _best_combo(st, kept, ranks, w, tail)
    patterns = list(kept)
    set_need = set_cap = 0
    for opt in combo:
        for s in range(4):
            patterns[s] -= opt[s]
        set_need += opt[4]
        set_cap += opt[5]
    shares = _split_wilds(_prefixes(st, patterns, set_need, set_cap, w), u) if u else [0] * 5
    plans: list[_Plan] = []
    _set_plans(st, combo, shares[0], plans)
    for suit in range(4):
        _suit_plans(st, suit, patterns[suit], shares[suit + 1], w, plans, dead_naturals)
    return plans, dead_naturals, u


# ----- choosing the optimum ---------------------------------------------------------------------------


def _best_combo(st: Structure, suits: tuple, ranks: list[int], w: int, tail: list[int]) -> tuple[tuple, int]:
    """The set choice and the number of wilds in natural melds of the best arrangement."""
    if not ranks:  # no set: the one choice
        total = _total(st, list(suits), 0, 0, w)
        return (), min(range(w + 1), key=lambda u: (total[u] + tail[w - u], -u))
    best_key, best = None, None
    for combo in product(*st.set_choices(*suits, ranks, w)):
        chosen = tuple(opt for opt in combo if opt is not None)
        p = list(suits)
        for opt in chosen:
            for s in range(4):
                p[s] -= opt[s]
        need = sum(opt[4] for opt in chosen)
        if need > w:
            continue
        total = _total(st, p, need, sum(opt[5] for opt in chosen), w)
        naturals_in_sets = sum(opt[6] for opt in chosen)
        for u in range(w + 1):
            if total[u] < INF:
                key = (total[u] + tail[w - u], -naturals_in_sets, -u)
                if best_key is None or key < best_key:
                    best_key, best = key, (chosen, u)
    return best


def _total(st: Structure, patterns: list[int], need: int, cap: int, w: int) -> list[int]:
    """total[u]: least points of the naturals when sets and suits absorb u wilds (the last of
    `_prefixes`, without the intermediate sums)."""
    if w == 0:  # (need is 0: the caller dropped the rest)
        return [sum(st.vector(p, 0)[0] for p in patterns if p)]
    size = w + 1
    acc = [0 if need <= j <= cap else INF for j in range(size)]
    for p in patterns:
        if p:
            acc = min_plus(acc, st.vector(p, w), size)
    return acc


def _prefixes(st: Structure, patterns: list[int], need: int, cap: int, w: int) -> tuple[list, list]:
    """Vectors of [sets, suit 0..3] and their running min-plus sums: (parts, prefix sums)."""
    parts = [[0 if need <= j <= cap else INF for j in range(w + 1)]]
    parts += [st.vector(p, w) if p else (0,) + (INF,) * w for p in patterns]
    prefix = [parts[0]]
    for vec in parts[1:]:
        acc = [INF] * (w + 1)
        for i, a in enumerate(prefix[-1]):
            for j in range(w + 1 - i):
                acc[i + j] = min(acc[i + j], a + vec[j])
        prefix.append(acc)
    return parts, prefix


def _split_wilds(parts_prefix: tuple[list, list], u: int) -> list[int]:
    """Wilds given to [sets, suit 0..3] so that each part reaches its optimum (backtracking the sums)."""
    parts, prefix = parts_prefix
    shares = [0] * 5
    left = u
    for i in range(4, 0, -1):
        target = prefix[i][left]
        j = next(j for j in range(left + 1) if prefix[i - 1][left - j] + parts[i][j] == target)
        shares[i] = j
        left -= j
    shares[0] = left
    return shares


# ----- plans -------------------------------------------------------------------------------------


def _set_plans(st: Structure, combo: tuple, wilds: int, plans: list[_Plan]) -> None:
    sets = []
    for opt in combo:
        rank = next(r for r in range(1, 14) if any((opt[s] >> (2 * r)) & 3 for s in range(4)))
        for shape in opt[7]:
            naturals = [(s, rank) for s in range(4) for _ in range(shape[s])]
            sets.append(naturals)
    extra = wilds - sum(max(0, st.set_min - len(n)) for n in sets)
    for naturals in sets:
        give = max(0, st.set_min - len(naturals))
        more = min(extra, st.set_cap - len(naturals) - give)
        extra -= more
        plans.append(_Plan("set", naturals, _set_slots(naturals, give + more)))


def _set_slots(naturals: list[tuple[int, int]], count: int) -> list[tuple[int, int]]:
    rank = naturals[0][1]
    held = {s for s, _ in naturals}
    order = [s for s in range(4) if s not in held] + list(range(4)) * 4
    return [(s, rank) for s in order[:count]]


def _suit_plans(st, suit, pattern, u, w, plans, dead_naturals) -> None:
    """Walk the memoised suit vectors to recover which melds reach vec[u]."""
    while pattern:
        target = st.vector(pattern, w)[u]
        rank = ((pattern & -pattern).bit_length() - 1) >> 1
        chosen = None
        for removed, need, cap in st.melds_with_lowest(pattern, rank, w):
            rest = st.vector(pattern - removed, w)
            j = next((j for j in range(need, min(cap, u) + 1) if rest[u - j] == target), None)
            if j is not None:
                chosen = (removed, j)
                break
        if chosen is None:
            dead_naturals.append((suit, rank))
            pattern -= 1 << (2 * rank)
            continue
        removed, j = chosen
        pattern -= removed
        u -= j
        kind, positions = st.meld_shape(removed, j)
        if kind == "set":
            naturals = [(suit, rank)]
            plans.append(_Plan("set", naturals, _set_slots(naturals, j)))
        else:
            naturals = [(suit, p) for p in positions]
            plans.append(_Plan("run", naturals, [(suit, p) for p in _run_slots(st, list(positions), j)]))


def _run_slots(st: Structure, positions: list[int], count: int) -> list[int]:
    """Positions the wilds of a run stand for: gaps first, then upwards, then downwards."""
    lo, hi = positions[0], positions[-1]
    slots = [p for p in range(lo, hi + 1) if p not in positions]
    extra = count - len(slots)
    top = 14 if (st.ace_high and lo > 1) else 13
    bottom = 1 if (st.ace_low and hi < 14) else 2
    while extra > 0 and hi < min(top, 13):
        hi += 1
        slots.append(hi)
        extra -= 1
    while extra > 0 and lo > max(bottom, 2):
        lo -= 1
        slots.append(lo)
        extra -= 1
    if extra > 0 and hi < top and lo > 1:
        slots.append(14)
        extra -= 1
    if extra > 0 and lo > bottom and hi < 14:
        slots.append(1)
        extra -= 1
    return slots


def _all_wild_plans(st: Structure, cards: list[str], comp) -> list[_Plan]:
    """Leftover wilds grouped into all-wild melds (sets if small enough, otherwise runs)."""
    plans, start = [], 0
    for size in _split_sizes(st, len(cards)):
        chunk = cards[start : start + size]
        start += size
        own = [comp.info[c] for c in chunk if comp.info[c][1] >= 0]  # wild-rank cards, not jokers
        if st.set_min <= size <= st.set_cap:
            rank = own[0][2] if own else 13
            plan = _Plan("set", [], _set_slots([(-1, rank)], size), all_wild=True)
        else:
            suit = own[0][1] if own else 0
            first = 1 if st.ace_low else 2
            plan = _Plan("run", [], [(suit, p) for p in range(first, first + size)], all_wild=True)
        plan.cards = chunk
        plans.append(plan)
    return plans


def _split_sizes(st: Structure, total: int) -> list[int]:
    if total == 0:
        return []
    allowed = [s for s in range(1, total + 1)
               if st.set_min <= s <= st.set_cap or st.run_min <= s <= st.run_len_max]
    best = {0: []}
    for t in range(1, total + 1):
        for s in sorted(allowed, reverse=True):
            if s <= t and (t - s) in best:
                best[t] = [*best[t - s], s]
                break
    return best[total]


def _assign_wilds(plans: list[_Plan], in_melds: list[str], comp) -> dict[str, str]:
    """Give each wild slot a wild card; a wild-rank card takes its own face when a slot wants it."""
    slots = [(i, k) for i, plan in enumerate(plans) if not plan.all_wild for k in range(len(plan.slots))]
    _seat(plans, slots, in_melds, comp)
    for i, plan in enumerate(plans):
        if plan.all_wild:
            cards, plan.cards = plan.cards, []
            _seat(plans, [(i, k) for k in range(len(plan.slots))], cards, comp)
    return {card: _face(plans[i].slots[k]) for i, plan in enumerate(plans) for card, k in plan.seats.items()}


def _seat(plans: list[_Plan], slots: list[tuple[int, int]], cards: list[str], comp) -> None:
    free = list(slots)
    pool = []
    for card in cards:
        _, suit, rank, _ = comp.info[card]
        own = next((ik for ik in free if _is_face(plans[ik[0]].slots[ik[1]], suit, rank)), None)
        if own is None:
            pool.append(card)
        else:
            free.remove(own)
            plans[own[0]].seats[card] = own[1]
    for card, (i, k) in zip(pool, free, strict=True):
        plans[i].seats[card] = k


def _is_face(slot: tuple[int, int], suit: int, rank: int) -> bool:
    return slot[0] == suit and (1 if slot[1] == 14 else slot[1]) == rank


def _ranks_of(pattern: int) -> list[int]:
    """Ranks held in a suit pattern, one entry per copy."""
    return [r for r in range(1, 14) for _ in range((pattern >> (2 * r)) & 3)]


def _face(slot: tuple[int, int]) -> str:
    suit, position = slot
    return RANKS[(1 if position == 14 else position) - 1] + SUITS[suit]


def _natural_ids(hand: list[str], comp) -> dict[tuple[int, int], list[str]]:
    ids: dict[tuple[int, int], list[str]] = {}
    for card in sorted(hand, key=sort_key):
        kind, suit, rank, _ = comp.info[card]
        if kind == NATURAL:
            ids.setdefault((suit, rank), []).append(card)
    return ids


def _display(plan: _Plan, naturals_left: dict) -> list[str]:
    """Runs in position order; sets by the suit each card holds or stands for."""
    index = 1 if plan.kind == "run" else 0
    placed = [(nat[index], 0, naturals_left[(nat[0], 1 if nat[1] == 14 else nat[1])].pop(0))
              for nat in plan.naturals]
    placed += [(plan.slots[k][index], 1, card) for card, k in plan.seats.items()]
    placed.sort(key=lambda x: (x[0], x[1]))
    return [card for _, _, card in placed]


def _face_key(card: str, wild_faces: dict[str, str]) -> tuple:
    face = wild_faces.get(card)
    return sort_key(face + "1") if face else sort_key(card)
