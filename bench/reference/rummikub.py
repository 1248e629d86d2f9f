"""Rummikub's reference: the greedy placer of the players' guides, with no rearranging of the table.

- Not yet opened: the highest-value set of melds its rack alone can make (the exact opening search of the
  engine's solver on the rack, table untouched); it plays them when they reach the 30 points, else draws.
- Opened: as many rack tiles as it can, new groups and runs from its rack alone (the solver on the rack
  with an empty table: most tiles, then most points) and rack tiles laid on the end of a run or as the
  4th tile of a group of three (a joker of the group standing for its colour then stands for the colour
  left: the joker does not move), on the table's sets and its new ones, repeated while something fits.
  It tries both orders (new sets first, then lay-offs; lay-offs first, then new sets) and keeps the one
  that places more tiles (then more points). A table set is only ever extended, never split or merged.
  Nothing fits: it draws (or passes on an empty pool).

It reads its rack and the table from the view (each set's `kind` and `faces`) and plays `end_turn` with
the whole table; it never stages proposals (left ones are dropped with `undo all`).
"""

import random

from bench.reference.common import first
from engine.games import _tiles
from engine.games import rummikub_solver as solver

FIRST_MELD = 30


class _Set:
    """A table set being extended: its tiles, its reading (kind, faces) and whether it grew."""

    def __init__(self, tiles, kind: str, faces, jokers: dict, grown: bool = False):
        self.tiles = list(tiles)
        self.kind = kind
        self.faces = list(faces)
        self.jokers = dict(jokers)
        self.grown = grown

    def takes(self, tile: str) -> str | None:
        """Where `tile` can go ("low", "high", "group") so the set stays valid without rearranging."""
        if self.kind == "run":
            if len(self.tiles) >= _tiles.MAX_RUN:
                return None
            lo, hi = _tiles.number_of(self.faces[0]), _tiles.number_of(self.faces[-1])
            colour = self.faces[0][0]
            if _tiles.is_joker(tile):
                return "high" if hi < 13 else ("low" if lo > 1 else None)
            if tile[0] != colour:
                return None
            n = _tiles.number_of(tile)
            return "low" if n == lo - 1 else ("high" if n == hi + 1 else None)
        if len(self.tiles) != 3:
            return None
        number = _tiles.number_of(self.faces[0])
        if _tiles.is_joker(tile):
            return "group"
        naturals = [t for t in self.tiles if not _tiles.is_joker(t)]
        if _tiles.number_of(tile) != number or any(t[0] == tile[0] for t in naturals):
            return None
        return "group"  # a joker standing for this colour in the group takes the colour left

    def add(self, tile: str, where: str) -> None:
        number = _tiles.number_of(self.faces[0])
        if where == "group":
            missing = [f"{c}{number}" for c in _tiles.COLOURS if all(f[0] != c for f in self.faces)]
            if _tiles.is_joker(tile):
                face = missing[0]
            else:
                face = tile[:-1]
                for i, t in enumerate(self.tiles):
                    if _tiles.is_joker(t) and self.faces[i] == face:
                        self.faces[i] = self.jokers[t] = missing[0]
            self.tiles.append(tile)
            self.faces.append(face)
        else:
            colour = self.faces[0][0]
            n = _tiles.number_of(self.faces[0]) - 1 if where == "low" else _tiles.number_of(self.faces[-1]) + 1
            face = f"{colour}{n}"
            if where == "low":
                self.tiles.insert(0, tile)
                self.faces.insert(0, face)
            else:
                self.tiles.append(tile)
                self.faces.append(face)
        if _tiles.is_joker(tile):
            self.jokers[tile] = face
        self.grown = True


def _lay_off(sets: list[_Set], tiles: list[str]) -> list[str]:
    """Lay `tiles` on `sets` (mutated) wherever one fits, until nothing more does: naturals first, the
    heaviest first, jokers last. Returns the tiles laid."""
    left = sorted(tiles, key=lambda t: (_tiles.is_joker(t), -_tiles.rack_value([t]), _tiles.sort_key(t)))
    laid = []
    progress = True
    while progress and left:
        progress = False
        for tile in list(left):
            for s in sets:
                where = s.takes(tile)
                if where is not None:
                    s.add(tile, where)
                    laid.append(tile)
                    left.remove(tile)
                    progress = True
                    break
    return laid


def _rack_sets(rack: list[str]) -> tuple[list[_Set], list[str]]:
    """The most tiles (then points) the rack alone can form into new sets."""
    if len(rack) < 3:
        return [], []
    sol = solver.solve(rack, [])
    if sol is None or sol.count == 0:
        return [], []
    return [_Set(r.tiles, r.kind, r.faces, r.jokers) for r in sol.sets], list(sol.placed)


def _table_sets(view: dict) -> list[_Set]:
    return [_Set(s["tiles"], s["kind"], s["faces"], s.get("jokers") or {}) for s in view.get("table") or []]


def _sets_then_lay_off(rack, view) -> tuple[list[_Set], list[_Set], list[str]]:
    table = _table_sets(view)
    new, placed = _rack_sets(rack)
    laid = _lay_off(table + new, [t for t in rack if t not in set(placed)])
    return table, new, placed + laid


def _lay_off_then_sets(rack, view) -> tuple[list[_Set], list[_Set], list[str]]:
    table = _table_sets(view)
    laid = _lay_off(table, [t for t in rack if not _tiles.is_joker(t)])
    rest = [t for t in rack if t not in set(laid)]
    new, placed = _rack_sets(rest)
    more = _lay_off(table + new, [t for t in rest if t not in set(placed)])
    return table, new, laid + placed + more


def _commit(table: list[_Set], new: list[_Set]) -> dict:
    """The `end_turn` of the whole table: a grown set is checked and stated with its jokers' faces."""
    sets, jokers = [], {}
    for s in table + new:
        if s.grown or s in new:
            assert _tiles.is_valid_set(s.tiles, s.jokers), s.tiles
            jokers.update(s.jokers)
        sets.append(list(s.tiles))
    return {"action": "end_turn", "table": sets, "jokers": jokers}


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    if first(legal, "undo") is not None:
        return {"action": "undo", "all": True}
    fallback = first(legal, "draw_stock") or first(legal, "pass") or legal[0]
    rack = list(view.get("rack") or view.get("hand") or [])
    seat = view["seat"]
    if len(rack) < 1 or view.get("phase") != "TURN":
        return fallback
    if not view["opened"][seat]:
        sol = solver.solve(rack, [], opening=True) if len(rack) >= 3 else None
        if sol is None or sol.count == 0 or sol.value < FIRST_MELD:
            return fallback
        new = [_Set(r.tiles, r.kind, r.faces, r.jokers) for r in sol.sets]
        return _commit(_table_sets(view), new)
    best = None
    for build in (_sets_then_lay_off, _lay_off_then_sets):
        table, new, placed = build(rack, view)
        key = (len(placed), _tiles.rack_value(placed))
        if placed and (best is None or key > best[0]):
            best = (key, table, new)
    if best is None:
        return fallback
    return _commit(best[1], best[2])
