"""Exact Rummikub solver: the most rack tiles that can go onto the table with a full rearrangement.

`solve(rack, table)` -> `Solution(count, value, placed, sets)`:

- every table tile stays on the table (jokers included), any rack tiles may be added;
- the objective is lexicographic: the most rack tiles placed (`count`), then the highest penalty value
  shed (`value`: the numbers, a joker 30, what the tiles would cost if left on the rack), so among
  equally long plays the solver gets rid of the heavy tiles and of jokers first;
- `sets` is one arrangement reaching it (valid `_tiles.Reading`s, display order), `placed` the rack
  tiles it uses. `None` when the table tiles themselves cannot be arranged (never for a real table).

`solve(rack, [], opening=True)` is the first-meld question (rack tiles only, the table untouched):
the highest first-meld value (a joker counts the number it stands for), then the most tiles.

Method: dynamic programming over the numbers 1..13, the state-over-values programme described by van
Rijn, Takes and Vis ("The complexity of Rummikub problems", 2015; den Hertog and Hulshof, "Solving
Rummikub problems by integer linear programming", The Computer Journal, 2006, gave the ILP model it is
usually compared with). Numbers are scanned in increasing order. The state after number v holds, for
each colour, the two run "slots" (two copies of each tile: two runs of one colour may cover a number)
with the length of the run in progress capped at 3 (0 none, 1 and 2 must continue, 3 may end or
continue), and the number of jokers used so far. At number v each colour decides how many of its (c, v)
tiles it uses (table tiles are forced, rack tiles optional) and how they split between extending or
starting runs and the groups of number v; those groups are feasible iff, with `G` the tiles given to
groups plus `jg` jokers and `M` the most copies of one colour among them, some group count k >= M has
3k <= G + jg <= 4k (copies dealt round-robin, jokers taking missing colours). Jokers are
interchangeable counts: each may stand in a run slot or a group; the first ones used are the table's
(they must all be used), the rest score as rack tiles. A run cannot wrap (13-1): the scan stops at 13
and every slot must then be at 0 or 3. With jokers a third run of one colour could in principle cover
a number; such tables can be re-cut into two runs by moving jokers to run ends, which the brute-force
tests (tests/engine/test_rummikub_solver.py, one colour with both jokers among them) keep checking.

Speed, all exact: states are integers (colour slot pairs in base 10, then jokers and group tallies);
a layer is built colour by colour, the colours with the fewest tiles first, merging equal partial
states, and the last colour is merged with the group step; a state is dropped when another one with
at least its score has slots that can do all its slots can (one colour differing: 3 can end or go on,
2 and 1 must go on; `_slot_ge`).

Why this method: it is exact by construction (every valid table is one path through the states and
every path a valid table) and linear in the numbers, with a state space bounded whatever the table
(10 slot pairs per colour, 3 joker counts), so its worst case stays predictable; most positions touch
a few hundred states. Search over set partitions with pruning explodes on tables with many equivalent
tiles; a MILP (highspy, OR-Tools) would add a compiled dependency to a pure engine and pay its model
build on every call. Measured (bench/solver.py --game rummikub, 14-tile rack against 40 table tiles,
loaded 2-core machine): p50 about 7 ms, p99 about 43 ms; both jokers in play cost the most. Tables of
60-80 tiles keep more states alive (forced tiles) and take 60-250 ms at the median.
"""

from dataclasses import dataclass
from functools import cache

from engine.games import _tiles
from engine.games._tiles import COLOURS

W = 1000  # score = primary * W + secondary; both stay below W (≤ 106 tiles, ≤ 788 points)
_END_OK = frozenset({(0, 0), (0, 3), (3, 3)})
_ACTIONS = {
    0: (("", 0), ("n", 1), ("j", 1)),
    1: (("n", 2), ("j", 2)),
    2: (("n", 3), ("j", 3)),
    3: (("n", 3), ("j", 3), ("e", 0)),
}


@dataclass(frozen=True)
class Solution:
    count: int  # rack tiles placed
    value: int  # their penalty value (joker 30); in opening mode: their first-meld value
    placed: tuple  # the rack tile ids placed, sorted
    sets: tuple  # the whole table afterwards: Readings

    def table(self) -> list[list[str]]:
        return [list(r.tiles) for r in self.sets]

    def jokers(self) -> dict:
        return {j: f for r in self.sets for j, f in r.jokers.items()}


@cache
def _colour_options(old: tuple, forced: int, avail: int) -> tuple:
    """Choices of one colour at one number: (new_state, jokers_in_runs, to_groups, naturals_used, actions).

    `old` is the sorted pair of slot lengths; `forced` table tiles of this face must be used, `avail`
    tiles of it exist in all (table + rack)."""
    seen = {}
    for a0, l0 in _ACTIONS[old[0]]:
        for a1, l1 in _ACTIONS[old[1]]:
            nat = (a0 == "n") + (a1 == "n")
            jok = (a0 == "j") + (a1 == "j")
            if nat > avail:
                continue
            new = (l0, l1) if l0 <= l1 else (l1, l0)
            for g in range(0, min(2, avail - nat) + 1):
                used = nat + g
                if used < forced:
                    continue
                key = (new, jok, g)
                if key not in seen:
                    seen[key] = (new, jok, g, used, (a0, a1))
    return tuple(seen.values())


@cache
def _group_counts(g_total: int, g_max: int, jokers: int) -> int:
    """The smallest number of groups that holds these tiles, or -1 (0 when there are none)."""
    n = g_total + jokers
    if n == 0:
        return 0
    for k in range(max(1, g_max), n // 3 + 1):
        if 3 * k <= n <= 4 * k:
            return k
    return -1


def _group_table() -> dict:
    """Index 5 * (colours giving 1 tile) + (colours giving 2) -> ((group jokers, groups), ...) for the
    feasible joker counts 0, 1, 2 in increasing order."""
    out = []
    for n1 in range(6):
        for n2 in range(5):
            g_total, g_max = n1 + 2 * n2, 2 if n2 else (1 if n1 else 0)
            out.append(tuple((jg, k) for jg in range(3) if (k := _group_counts(g_total, g_max, jg)) >= 0))
    return tuple(out)


_GROUPS = _group_table()
_STATES = tuple((a, b) for a in range(4) for b in range(a, 4))  # a colour's sorted slot pair: 10 states
_INDEX = {st: n for n, st in enumerate(_STATES)}
_P = (1, 10, 100, 1000)  # state key: colour states in base 10, then jokers used, then group tallies
_J, _N1, _N2 = 10_000, 30_000, 150_000  # jokers used (0-2); colours giving 1 / 2 tiles to the groups
_START = 0  # every slot empty, no joker used, no group tile


@cache
def _step_options(i: int, forced: int, avail: int, jokers_left: int) -> tuple:
    """Per old state index of colour i: ((key delta, naturals used, to_groups, slot actions, jokers), ...)."""
    out = []
    for old in _STATES:
        row = []
        for new, jok, g, used, acts in _colour_options(old, forced, avail):
            if jok > jokers_left:
                continue
            delta = (_INDEX[new] - _INDEX[old]) * _P[i] + jok * _J + (g == 1) * _N1 + (g == 2) * _N2
            row.append((delta, used, g, acts, jok))
        out.append(tuple(row))
    return tuple(out)


@cache
def _scored_options(i: int, forced: int, avail: int, jokers_left: int, v: int, opening: bool) -> tuple:
    """`_step_options` with each option's score: (key delta, score delta, option, colour-state delta,
    offset of its group tiles in `_GROUPS`)."""
    nat_score = (v * W + 1) if opening else (W + v)
    jok_score = (v * W + 1) if opening else 0
    return tuple(tuple((opt[0], (opt[1] - forced) * nat_score + opt[4] * jok_score, opt, _state_delta(opt),
                        5 * (opt[2] == 1) + (opt[2] == 2))
                       for opt in row)
                 for row in _step_options(i, forced, avail, jokers_left))


def _state_delta(opt: tuple) -> int:
    """The colour-state part of an option's key delta (without its jokers and group tallies)."""
    delta, _used, g, _acts, jok = opt
    return delta - jok * _J - (g == 1) * _N1 - (g == 2) * _N2


def _slot_ge(a: int, b: int) -> bool:
    """A run slot of length a can do all that one of length b can (3 may end or go on; 2 and 1 must go on)."""
    return a == b or a == 3 or (a == 2 and b == 1)


def _pair_ge(p: tuple, q: tuple) -> bool:
    return (_slot_ge(p[0], q[0]) and _slot_ge(p[1], q[1])) or (_slot_ge(p[0], q[1]) and _slot_ge(p[1], q[0]))


# For each colour state index: the (index delta) of every other state it dominates.
_DOMINATED = tuple(tuple(_INDEX[q] - _INDEX[p] for q in _STATES if q != p and _pair_ge(p, q)) for p in _STATES)


# Per digit weight p and colour state index: the key deltas towards the states it dominates.
_DOM_DELTAS = {p: tuple(tuple(d * p for d in ds) for ds in _DOMINATED) for p in _P}


def _prune_dominated(layer: dict, digits: tuple = _P) -> None:
    """Drop states whose slots are dominated, one colour at a time, by a state scoring at least as much
    (exact: the dominating state can copy every continuation of the dropped one, see `_slot_ge`; slot
    dominance is a partial order, so each dropped state keeps a surviving dominator)."""
    get = layer.get
    for p in digits:
        deltas = _DOM_DELTAS[p]
        dead = []
        for key, score in layer.items():
            for d in deltas[(key // p) % 10]:
                s2 = get(key + d)
                if s2 is not None and s2 <= score:
                    dead.append(key + d)
        for key in dead:
            layer.pop(key, None)


def solve(rack, table, opening: bool = False) -> Solution | None:
    rack = list(rack)
    table = list(table)
    if opening and table:
        raise ValueError("opening: the table is not part of a first meld")
    forced = {}
    rack_by_face = {}
    table_by_face = {}
    j_table = [t for t in table if _tiles.is_joker(t)]
    j_rack = sorted(t for t in rack if _tiles.is_joker(t))
    for t in table:
        if not _tiles.is_joker(t):
            f = t[:-1]
            forced[f] = forced.get(f, 0) + 1
            table_by_face.setdefault(f, []).append(t)
    for t in rack:
        if not _tiles.is_joker(t):
            rack_by_face.setdefault(t[:-1], []).append(t)
    jt, jmax = len(j_table), len(j_table) + len(j_rack)

    layer = {_START: 0}
    backs = []  # per number: [back-pointers of the colour steps 0..3, of the group-joker step]
    for v in range(1, 14):
        jok_score = (v * W + 1) if opening else 0
        steps = [None] * 4
        cur = layer
        # Colours with the fewest tiles of this number first: the partial states stay fewer.
        order = sorted(range(4), key=lambda i: forced.get(f"{COLOURS[i]}{v}", 0)
                       + len(rack_by_face.get(f"{COLOURS[i]}{v}", ())))
        for i in order[:3]:
            face = f"{COLOURS[i]}{v}"
            f_t = forced.get(face, 0)
            f_a = f_t + len(rack_by_face.get(face, ()))
            per_j = [_scored_options(i, f_t, f_a, jmax - j, v, opening) for j in range(jmax + 1)]
            p = _P[i]
            nxt = {}
            back = {}
            get = nxt.get
            for key, score in cur.items():
                for d, sd, opt, _ds, _gi in per_j[(key // _J) % 3][(key // p) % 10]:
                    nk = key + d
                    sc = score + sd
                    if sc > get(nk, -1):
                        nxt[nk] = sc
                        back[nk] = (key, opt)
            steps[i] = back
            cur = nxt
            if not cur:
                return None
            if len(cur) > 32:
                _prune_dominated(cur, (p,))
        # The last colour and the groups of this number in one step: its choices go straight to the
        # next layer (group tallies dropped, group jokers counted).
        i = order[3]
        face = f"{COLOURS[i]}{v}"
        f_t = forced.get(face, 0)
        f_a = f_t + len(rack_by_face.get(face, ()))
        per_j = [_scored_options(i, f_t, f_a, jmax - j, v, opening) for j in range(jmax + 1)]
        p = _P[i]
        layer = {}
        back = {}
        get = layer.get
        for key, score in cur.items():
            j0 = (key // _J) % 3
            tally = ((key // _N1) % 5) * 5 + (key // _N2) % 5
            base = key % _J
            for _d, sd, opt, ds, gi in per_j[j0][(key // p) % 10]:
                j1 = j0 + opt[4]
                for jg, k in _GROUPS[tally + gi]:
                    if j1 + jg > jmax:
                        break
                    nk = base + ds + (j1 + jg) * _J
                    sc = score + sd + jg * jok_score
                    if sc > get(nk, -1):
                        layer[nk] = sc
                        back[nk] = (key, opt, jg, k)
        steps.append(back)
        steps.append(order)
        backs.append(steps)
        if not layer:
            return None
        if len(layer) > 32:
            _prune_dominated(layer)
    best_key, best = None, None
    for key, score in layer.items():
        j = (key // _J) % 3
        if any(_STATES[(key // p) % 10] not in _END_OK for p in _P):
            continue
        if j < jt:
            continue
        if not opening:
            score += (j - jt) * (W + _tiles.JOKER_PENALTY)
        if best is None or score > best:
            best_key, best = key, score
    if best_key is None:
        return None
    return _rebuild(backs, best_key, table_by_face, rack_by_face, j_table + j_rack, set(rack), opening)


def _rebuild(backs, key, table_by_face, rack_by_face, joker_ids, rack_ids, opening) -> Solution:
    """Walk the back-pointers to the start, then replay the decisions forward into sets."""
    plan = []  # per number: (per-colour (used, g, acts), jg, k)
    for v in range(13, 0, -1):
        steps = backs[v - 1]
        order = steps[5]
        key, opt, jg, k = steps[4][key]
        colours = [None] * 4
        colours[order[3]] = (opt[1], opt[2], opt[3])
        for i in reversed(order[:3]):
            prev, (_delta, used, g, acts, _jok) = steps[i][key]
            colours[i] = (used, g, acts)
            key = prev
        plan.append((colours, jg, k))
    plan.reverse()
    jokers = iter(joker_ids)  # table jokers first: they must be used
    slots = {c: [[], []] for c in COLOURS}
    sets: list[tuple[list, dict]] = []
    for v, (colours, jg, k) in enumerate(plan, start=1):
        group_items = []  # (tile, face)
        for i, c in enumerate(COLOURS):
            used, g, acts = colours[i]
            face = f"{c}{v}"
            pool = list(table_by_face.get(face, ())) + list(rack_by_face.get(face, ()))
            take = iter(pool[:used])
            runs = slots[c]
            for s, act in enumerate(acts):
                if act == "n":
                    runs[s].append((next(take), face))
                elif act == "j":
                    runs[s].append((next(jokers), face))
                elif act == "e":
                    sets.append(_as_set(runs[s]))
                    runs[s] = []
            runs.sort(key=lambda r: min(len(r), 3))
            group_items += [(t, face) for t in take]
        if k:
            groups = [[] for _ in range(k)]
            for n, item in enumerate(group_items):
                groups[n % k].append(item)
            for _ in range(jg):
                grp = min(groups, key=len)
                have = {f[0] for _, f in grp}
                colour = next(c for c in COLOURS if c not in have)
                grp.append((next(jokers), f"{colour}{v}"))
            sets += [_as_set(grp) for grp in groups]
    for c in COLOURS:
        for run in slots[c]:
            if run:
                sets.append(_as_set(run))
    readings = []
    for tiles, stated in sets:
        reading = _tiles.best_reading(tiles, stated)
        assert reading is not None, (tiles, stated)
        readings.append(reading)
    on_table = {t for r in readings for t in r.tiles}
    placed = sorted(on_table & rack_ids, key=_tiles.sort_key)
    value = sum(r.value for r in readings) if opening else _tiles.rack_value(placed)
    return Solution(len(placed), value, tuple(placed), tuple(readings))


def _as_set(items) -> tuple[list, dict]:
    return [t for t, _ in items], {t: f for t, f in items if _tiles.is_joker(t)}

