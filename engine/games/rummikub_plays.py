"""Rummikub plays built from one rack and one table, cheap enough for the hot path and the bots.

A *play* is `{table, jokers, placed, count, value}`: the whole table after the turn (lists of tile ids),
the joker readings to state, the rack tiles it places, how many, and their penalty value (joker 30);
for a first meld `value` is its first-meld points. Every play here passes `rummikub.commit_check`.

- `simple_play(rack, sets, opened)`: no rearrangement. A first meld is the exact opening solver's
  (rack tiles only, ≥ 30, under 2 ms); afterwards, new sets from the rack (the exact solver on the rack
  alone) and rack tiles added to existing sets where the set stays valid with them (a run end, the
  4th tile of a group), tried in both orders (sets first, additions first), the better kept. Every
  table set stays as it was, or grows; none is split or merged.
- `guarded_play(rack, sets, opened, max_table)`: the exact solver (full rearrangement) on a *reduced*
  problem: the rack against only the table sets that touch it (a tile of the rack's colour within two
  numbers, or of its number), the most connected first, at most `max_table` table tiles; the other
  sets stay as they are. Exact when the whole table fits; the solver's cost grows with the table (60-80
  table tiles cost 60-250 ms), which the cap bounds. The better of it and `simple_play` is returned.

`sets` are table sets as in a view or the state: dicts with `tiles` (and `kind`, `jokers`), or lists.
"""

from functools import lru_cache

from engine.games import _tiles
from engine.games import rummikub_solver as solver

FIRST_MELD = 30


def _tiles_of(s) -> tuple:
    return tuple(s["tiles"]) if isinstance(s, dict) else tuple(s)


def _key(play: dict | None) -> tuple:
    return (-1, -1) if play is None else (play["count"], play["value"])


def _play(table: list[list[str]], jokers: dict, placed: list[str], opening_value: int | None) -> dict:
    placed = _tiles.sorted_tiles(placed)
    value = opening_value if opening_value is not None else _tiles.rack_value(placed)
    return {"table": table, "jokers": jokers, "placed": placed, "count": len(placed), "value": value}


# ---------------------------------------------------------------- no rearrangement

def fits(tiles, tile: str) -> bool:
    """Whether `tile` can join the set `tiles` (which stays one valid set: run end, group's 4th, ...)."""
    if not _tiles.is_joker(tile):
        naturals = [t for t in tiles if not _tiles.is_joker(t)]
        if naturals:
            c, n = tile[0], _tiles.number_of(tile)
            same_colour = all(t[0] == c for t in naturals)
            same_number = all(_tiles.number_of(t) == n for t in naturals)
            if not same_colour and not same_number:
                return False
            if len(naturals) == len(tiles) and len(tiles) >= 2:  # no joker: decide without readings
                numbers = [_tiles.number_of(t) for t in naturals]
                if same_number:
                    colours = {t[0] for t in naturals}
                    return len(tiles) < 4 and len(colours) == len(naturals) and c not in colours
                if len(set(numbers)) == len(numbers) and max(numbers) - min(numbers) + 1 == len(numbers):
                    return n in (min(numbers) - 1, max(numbers) + 1)  # a run (of 2 to 12): its ends
    return bool(_tiles.readings(list(tiles) + [tile]))


def _extend(table: list[list[str]], tiles: list[str]) -> list[str]:
    """Add `tiles` one by one to sets of `table` (mutated) where each fits, until nothing more fits;
    the heaviest tiles first, naturals before jokers. Returns the tiles placed."""
    placed = []
    left = sorted(tiles, key=lambda t: (_tiles.is_joker(t), -_tiles.rack_value([t]), _tiles.sort_key(t)))
    changed = True
    while changed and left:
        changed = False
        for tile in list(left):
            for s in table:
                if len(s) < 13 and fits(s, tile):
                    s.append(tile)
                    placed.append(tile)
                    left.remove(tile)
                    changed = True
                    break
    return placed


def _ordered(s: list[str]) -> list[str]:
    reading = _tiles.best_reading(s)
    return list(reading.tiles) if reading is not None else s


@lru_cache(maxsize=4096)
def _simple(rack: tuple, table: tuple, opened: bool) -> dict | None:
    rack = list(rack)
    if not rack:
        return None
    old = [list(s) for s in table]
    if not opened:
        sol = solver.solve(rack, [], opening=True)
        if sol is None or sol.count == 0 or sol.value < FIRST_MELD:
            return None
        return _play(old + sol.table(), sol.jokers(), list(sol.placed), sol.value)
    best = None
    # sets from the rack first, then additions with what is left
    sol = solver.solve(rack, [])
    new = sol.table() if sol is not None else []
    used = list(sol.placed) if sol is not None else []
    grown = [list(s) for s in old] + [list(s) for s in new]
    more = _extend(grown, [t for t in rack if t not in set(used)])
    if used or more:
        best = (grown, used + more, sol)
    # additions first, then sets from what is left (and additions again): only when it differs,
    # i.e. some tile the rack's sets used could have joined a table set instead
    grown2 = [list(s) for s in old]
    first = _extend(grown2, [t for t in rack if not _tiles.is_joker(t)])
    if set(first) & set(used):
        rest = [t for t in rack if t not in set(first)]
        sol2 = solver.solve(rest, []) if len(rest) >= 3 else None
        used2 = list(sol2.placed) if sol2 is not None else []
        grown2 += sol2.table() if sol2 is not None else []
        again = _extend(grown2, [t for t in rest if t not in set(used2)])
        placed2 = first + used2 + again
        if best is None or (len(placed2), _tiles.rack_value(placed2)) > (len(best[1]), _tiles.rack_value(best[1])):
            best = (grown2, placed2, sol2)
    if best is None:
        return None
    grown, placed, sol = best
    # a set the solver built and nothing joined keeps its joker readings; a set that grew is re-read
    built = {frozenset(r.tiles): r.jokers for r in (sol.sets if sol is not None else ())}
    out, stated = [], {}
    for i, s in enumerate(grown):
        if i < len(old) and len(s) == len(old[i]):
            out.append(s)
        elif frozenset(s) in built:
            out.append(s)
            stated.update(built[frozenset(s)])
        else:
            out.append(_ordered(s))
    return _play(out, stated, placed, None)


def simple_play(rack, sets, opened: bool) -> dict | None:
    """The best play found without rearranging the table (see the module docstring), or None."""
    table = tuple(_tiles_of(s) for s in sets)
    play = _simple(tuple(_tiles.sorted_tiles(rack)), table, bool(opened))
    if play is None:
        return None
    return {"table": [list(s) for s in play["table"]], "jokers": dict(play["jokers"]),
            "placed": list(play["placed"]), "count": play["count"], "value": play["value"]}


# ---------------------------------------------------------------- full rearrangement, guarded

def _own(tiles) -> set:
    """Keys of the naturals of `tiles`: their face (colour, number) and their number."""
    out = set()
    for t in tiles:
        if not _tiles.is_joker(t):
            n = _tiles.number_of(t)
            out.add(_COLOUR[t[0]] * 16 + n)
            out.add(100 + n)
    return out


def _near(tiles) -> set:
    """Keys a tile must have to combine with a natural of `tiles`: its colour within two numbers, or its number."""
    out = set()
    for t in tiles:
        if not _tiles.is_joker(t):
            n, c = _tiles.number_of(t), _COLOUR[t[0]] * 16
            out.update(c + m for m in range(max(1, n - 2), min(13, n + 2) + 1))
            out.add(100 + n)
    return out


_COLOUR = {c: i for i, c in enumerate(_tiles.COLOURS)}
RACK_WEIGHT = 3  # a set the rack touches counts this much more than one touching a set already chosen


def relevant_sets(rack, table: tuple, max_table: int) -> list[int]:
    """Indices of the table sets given to the solver, at most `max_table` tiles in all: greedily the set
    most connected to the rack (a tile of its colour within two numbers, or of its number) and to the
    sets already chosen (so that chains of moves, a set freeing a tile for another, stay inside)."""
    mine = _own(rack)
    joker = any(_tiles.is_joker(t) for t in rack)
    own = [_own(s) for s in table]
    near = [_near(s) for s in table]
    score = {i: RACK_WEIGHT * len(mine & near[i]) + joker for i in range(len(table))}
    chosen, size = [], 0
    while score:
        i = max(score, key=lambda k: (score[k], -len(table[k]), -k))
        if score[i] <= 0:
            break
        del score[i]
        if size + len(table[i]) > max_table:
            continue
        chosen.append(i)
        size += len(table[i])
        for k in score:
            score[k] += len(own[i] & near[k])
    return sorted(chosen)


@lru_cache(maxsize=2048)
def _guarded(rack: tuple, table: tuple, max_table: int) -> dict | None:
    chosen = relevant_sets(rack, table, max_table)
    if not chosen:
        return None
    sub = [t for i in chosen for t in table[i]]
    sol = solver.solve(list(rack), sub)
    if sol is None or sol.count == 0:
        return None
    keep = [list(s) for i, s in enumerate(table) if i not in set(chosen)]
    return _play(keep + sol.table(), sol.jokers(), list(sol.placed), None)


def guarded_play(rack, sets, opened: bool, max_table: int) -> dict | None:
    """The better of the solver's play on the reduced problem (≤ `max_table` table tiles) and
    `simple_play`; a first meld is always `simple_play`'s (the exact opening). None: nothing to place."""
    simple = simple_play(rack, sets, opened)
    if not opened or not rack or max_table <= 0:
        return simple
    table = tuple(_tiles_of(s) for s in sets)
    full = _guarded(tuple(_tiles.sorted_tiles(rack)), table, int(max_table))
    best = full if _key(full) > _key(simple) else simple
    if best is None:
        return None
    return {"table": [list(s) for s in best["table"]], "jokers": dict(best["jokers"]),
            "placed": list(best["placed"]), "count": best["count"], "value": best["value"]}
