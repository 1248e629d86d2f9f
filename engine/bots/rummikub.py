"""Bots of Rummikub (engine/games/rummikub.py): one decision a turn, a commit or a draw.

A bot sees only its seat's view (its rack, the table, the rack counts, the pool count) and the legal
moves; it never stages proposals: it plays `end_turn` with a whole table at once, `draw_stock` or `pass`
(with staged proposals left by an autoplayed seat it first plays `undo all`). Every play it builds is a
`rummikub_plays` play, so the engine's commit checks accept it.

- Level 1 « Débutant »: lays the first sets it sees on its rack (runs of one colour scanned from the
  low numbers, then groups, naturals only), opening once they reach 30; once opened, also adds natural
  tiles to the ends of table runs or to groups of three. Draws otherwise. Jokers stay on its rack
  unless it can go out.
- Level 2 « Confirmé »: never rearranges the table: new sets from its rack (the exact solver on the
  rack alone) and rack tiles added to existing sets (run ends, 4th of a group), the best of both
  orders (`rummikub_plays.simple_play`); the first meld is the exact best of its rack (≥ 30). Keeps its
  jokers when the play without them places as many other tiles.
- Level 3 « Expert »: the exact solver with full rearrangement (`rummikub_plays.guarded_play`, on the
  table sets its rack touches, at most `table_cap(rack)` table tiles so that a decision stays well
  under 300 ms of CPU). It goes out whenever it can. Otherwise, while every opponent holds more than
  `THREAT` tiles and the pool is not nearly empty, it holds back: it keeps its jokers and up to
  `SPARES` tiles that it could lay later on its own (a run end, a group's 4th) out of the play, as
  long as it still places a tile; when an opponent is close to going out it plays everything.

`budget` (the `choose` argument): None, a `Budget` (its time is not used: the size guard bounds the
solver), or an int: the most table tiles the expert lets the solver rearrange (tests, benches).
"""

from engine.bots.base import Moves
from engine.games import _tiles
from engine.games import rummikub_plays as plays

THREAT = 6  # an opponent with this many tiles or fewer may go out soon: the expert holds nothing back
LOW_POOL = 6  # and it holds nothing back when the pool is this low
SPARES = 2  # natural tiles the expert keeps back as later moves (besides its jokers)


def table_cap(rack_size: int) -> int:
    """Table tiles the expert gives the solver with a rack of this size (the solver's cost grows with both)."""
    if rack_size <= 14:
        return 45
    if rack_size <= 20:
        return 36
    if rack_size <= 30:
        return 27
    return 12


# ---------------------------------------------------------------- what the view says


class Seen:
    """The seat's view, in the shape the levels use."""

    def __init__(self, view: dict):
        self.seat = view["seat"]
        self.rack = list(view.get("rack") or view.get("hand") or [])
        self.table = [list(s["tiles"]) for s in view.get("table") or []]
        self.opened = bool((view.get("opened") or [False] * (self.seat + 1))[self.seat])
        self.pool = int(view.get("pool_count") or 0)
        active = view.get("active") or []
        self.opponents = [p.get("rack_count", 0) for p in view.get("players") or []
                          if p["seat"] != self.seat and p["seat"] in active]

    @property
    def threatened(self) -> bool:
        return self.pool <= LOW_POOL or any(n <= THREAT for n in self.opponents)


def end_turn(play: dict) -> dict:
    return {"action": "end_turn", "table": play["table"], "jokers": play["jokers"]}


# ---------------------------------------------------------------- level 1


def _first_sets(rack: list[str]) -> list[list[str]]:
    """The sets a beginner sees: runs of each colour from the low numbers (one copy of each number,
    the longest stretch), then groups of the tiles left (naturals only)."""
    left = [t for t in _tiles.sorted_tiles(rack) if not _tiles.is_joker(t)]
    sets = []
    for c in _tiles.COLOURS:
        by_number = {}
        for t in left:
            if t[0] == c:
                by_number.setdefault(_tiles.number_of(t), t)
        run = []
        for n in range(1, 15):
            if n in by_number:
                run.append(by_number[n])
                continue
            if len(run) >= 3:
                sets.append(run)
            run = []
    used = {t for s in sets for t in s}
    left = [t for t in left if t not in used]
    for n in range(1, 14):
        group = {}
        for t in left:
            if _tiles.number_of(t) == n:
                group.setdefault(t[0], t)
        if len(group) >= 3:
            sets.append([group[c] for c in _tiles.COLOURS if c in group])
    return sets


def beginner_play(seen: Seen) -> dict | None:
    sets = _first_sets(seen.rack)
    placed = [t for s in sets for t in s]
    if not seen.opened:
        points = sum(_tiles.rack_value(s) for s in sets)
        if points < plays.FIRST_MELD:
            return None
        return {"table": [list(s) for s in seen.table] + sets, "jokers": {}, "placed": placed}
    table = [list(s) for s in seen.table]
    grown = set()
    for t in [t for t in seen.rack if t not in set(placed) and not _tiles.is_joker(t)]:
        for i, s in enumerate(table):
            if len(s) < 13 and plays.fits(s, t):
                s.append(t)
                placed.append(t)
                grown.add(i)
                break
    if not placed:
        return None
    table = [_tiles.best_reading(s).tiles if i in grown else s for i, s in enumerate(table)]
    return {"table": [list(s) for s in table] + sets, "jokers": {}, "placed": placed}


# ---------------------------------------------------------------- level 2


def confirmed_play(seen: Seen) -> dict | None:
    play = plays.simple_play(seen.rack, seen.table, seen.opened)
    if play is None or play["count"] == len(seen.rack):
        return play
    jokers = [t for t in seen.rack if _tiles.is_joker(t)]
    if jokers and any(j in play["placed"] for j in jokers):
        rest = [t for t in seen.rack if not _tiles.is_joker(t)]
        plain = plays.simple_play(rest, seen.table, seen.opened) if rest else None
        used = sum(j in play["placed"] for j in jokers)
        if plain is not None and plain["count"] >= play["count"] - used:
            return plain
    return play


# ---------------------------------------------------------------- level 3


def _peel(play: dict, keep: int) -> dict:
    """The play with up to `keep` natural rack tiles and every rack joker taken back out of it, where
    the set they sit in stays valid without them (a run end, a group's 4th); at least one tile stays."""
    table = [list(s) for s in play["table"]]
    placed = list(play["placed"])
    jokers = dict(play["jokers"])
    mine = set(placed)
    order = sorted(mine, key=lambda t: (not _tiles.is_joker(t), _tiles.rack_value([t]), _tiles.sort_key(t)))
    kept = 0
    for tile in order:
        if len(placed) <= 1:
            break
        if not _tiles.is_joker(tile) and kept >= keep:
            continue
        for i, s in enumerate(table):
            if tile in s:
                rest = [t for t in s if t != tile]
                stated = {j: f for j, f in jokers.items() if j in rest}
                reading = _tiles.best_reading(rest, stated) if len(rest) >= 3 else None
                if reading is not None:
                    table[i] = list(reading.tiles)
                    for j in rest:
                        if _tiles.is_joker(j):
                            jokers[j] = reading.jokers.get(j, jokers.get(j))
                    jokers.pop(tile, None)
                    placed.remove(tile)
                    kept += not _tiles.is_joker(tile)
                break
    jokers = {j: f for j, f in jokers.items() if any(j in s for s in table) and f is not None}
    return {"table": table, "jokers": jokers, "placed": placed, "count": len(placed),
            "value": _tiles.rack_value(placed)}


def expert_play(seen: Seen, budget) -> dict | None:
    cap = budget if isinstance(budget, int) and not isinstance(budget, bool) else table_cap(len(seen.rack))
    play = plays.guarded_play(seen.rack, seen.table, seen.opened, cap)
    if play is None or play["count"] == len(seen.rack):
        return play  # nothing to lay, or going out
    if not seen.opened:
        if seen.threatened:
            return play
        jokers = [t for t in play["placed"] if _tiles.is_joker(t)]
        if jokers:  # open without the jokers when that still reaches 30
            rest = [t for t in seen.rack if not _tiles.is_joker(t)]
            plain = plays.simple_play(rest, seen.table, False)
            if plain is not None:
                return plain
        return play
    if seen.threatened:
        return play
    return _peel(play, SPARES)


# ---------------------------------------------------------------- the adapter


class RummikubBots:
    slug = "rummikub"

    def decide(self, view: dict, moves: Moves, level: int, rng, budget) -> dict:
        if moves.has("undo"):
            return {"action": "undo", "all": True}
        fallback = moves.first("draw_stock") or moves.first("pass") or moves.legal[0]
        seen = Seen(view)
        if not seen.rack:
            return fallback
        if level <= 1:
            play = beginner_play(seen)
            if play is None or len(play["placed"]) < len(seen.rack):
                full = plays.simple_play(seen.rack, seen.table, seen.opened)
                if full is not None and full["count"] == len(seen.rack):
                    play = full  # even a beginner sees that he can go out
        elif level == 2:
            play = confirmed_play(seen)
        else:
            play = expert_play(seen, budget)
        if play is None or not play["placed"]:
            return fallback
        return end_turn(play)


ADAPTER = RummikubBots()
