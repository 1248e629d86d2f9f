"""Rummikub (../shared/rules/rummikub.md): 106 tiles, racks of 14, free rearrangement of the table.

A turn (phase `TURN`) is one of:

- `draw_stock` (pool not empty) or `pass` (pool empty; its event says `reason: "pool_empty"`, so the table
  tells a turn passed, not Gin's upcard left), with nothing staged;
- `rearrange {table, jokers?}`: a private proposal of the whole table (any number of times, checked only
  for ownership: intermediate proposals may be invalid), `undo` / `undo {all: true}`;
- `end_turn {table?, jokers?, placed?}`: the commit. Without `table` it commits the last proposal; with
  it, it commits that table at once (the live UI stages client-side and sends one commit).

Commit checks (§4): every table tile is still on the table (jokers included: a joker never returns to a
rack), every new tile comes from the rack and there is at least one, every set is valid (§5), and a seat
that has not opened leaves the table sets as they were and adds new sets worth at least 30. A refusal is
an `IllegalMove` whose French message names the bad set (« La suite 4-5-7 bleue n'est pas valide : les
numéros ne se suivent pas. », `err.set_index` = its position in the proposal). The staged proposals stay.

`jokers` states what a joker stands for (`{"J1": "R5"}`) where a set has several readings; without it a
set keeps the reading it had on the table when it is unchanged, else takes its highest-value reading
(`_tiles.readings`).

State keys (besides the contract's `game, seats, phase, round, active, scores, history`): `seed`,
`options`, `rounds` (rounds in the match, extra rounds added on a tie), `start` (first seat of the round),
`current`, `racks`, `pool` (last = next tile drawn; never in a view), `table` (`[{tiles, kind, jokers}]`),
`opened`, `opened_at` (turn number of each seat's first meld this round), `turn` (turns played this
round), `passes` (consecutive passes), `staged` (the acting seat's proposals `[{table, jokers}]`),
`removed` (racks of leavers), `first_draw` (the draw for the first player), `last_round`, `out`, `result`.
"""

from functools import lru_cache

from engine import moves
from engine.base import Game, GameInfo, Option, copy_data, event, to_seat
from engine.errors import IllegalMove
from engine.games import _tiles
from engine.games import rummikub_plays as plays
from engine.games import rummikub_solver as solver
from engine.games._draw_discard import check_seat, next_active
from engine.rng import shuffled

TURN = "TURN"
ROUND_OVER = "ROUND_OVER"
MATCH_OVER = "MATCH_OVER"
RACK_SIZE = 14
FIRST_MELD = 30
ROUND_CHOICES = (("1", "1 manche"), ("3", "3 manches"), ("5", "5 manches"))

MESSAGES = {
    "bad_move": "Coup invalide.",
    "unknown_action": "Action inconnue.",
    "bad_seat": "Place inconnue.",
    "not_active": "Tu n'es plus dans la partie.",
    "match_over": "La partie est terminée.",
    "round_over": "La manche est terminée.",
    "round_not_over": "La manche n'est pas terminée.",
    "not_your_turn": "Ce n'est pas ton tour.",
    "no_decision": "Tu n'as rien à jouer maintenant.",
    "pool_empty": "La pioche est vide : passe ton tour.",
    "pool_not_empty": "Tu ne peux passer que lorsque la pioche est vide : pioche une tuile.",
    "staged_pending": "Annule d'abord ta proposition (« Annuler le tour ») ou valide-la.",
    "nothing_to_undo": "Il n'y a rien à annuler.",
    "nothing_staged": "Propose d'abord une table.",
    "bad_table": "Table proposée invalide : une liste de combinaisons, chacune une liste de tuiles.",
    "bad_jokers": "Annonce de joker invalide : un joker de la table et la tuile qu'il remplace (par ex. R5).",
    "bad_placed": "Les tuiles annoncées comme posées ne sont pas celles que la table proposée ajoute.",
    "nothing_placed": "Pose au moins une tuile de ton chevalet, ou pioche.",
    "table_touched": "Pour ta première pose, tu ne peux pas toucher aux combinaisons de la table : "
                     "ajoute seulement de nouvelles combinaisons faites de tes tuiles.",
}


def illegal(code: str, message: str | None = None, **data) -> IllegalMove:
    err = IllegalMove(code, message or MESSAGES[code])
    for key, value in data.items():
        setattr(err, key, value)
    return err


def _named(tile: str, first: bool = False) -> str:
    """« la tuile 9 bleue (B9a) », « le joker (J1) »: a tile in a refusal, with its id (`first`: « La … »)."""
    words = f"{_tiles.tile_words(tile)} ({tile})"
    return words[0].upper() + words[1:] if first else words


# ---------------------------------------------------------------- proposals

def _parse_table(raw) -> list[list[str]]:
    if not isinstance(raw, list) or not all(isinstance(s, list) for s in raw):
        raise illegal("bad_table")
    table = []
    for s in raw:
        if not all(isinstance(t, str) for t in s):
            raise illegal("bad_table")
        unknown = [t for t in s if t not in _tiles.TILE_SET]
        if unknown:
            raise illegal("unknown_tile", f"Tuile inconnue : {unknown[0]}.")
        if s:
            table.append(list(s))
    seen = set()
    for s in table:
        for t in s:
            if t in seen:
                raise illegal("duplicate_tile", f"{_named(t, first=True)} est deux fois sur la table.")
            seen.add(t)
    return table


def _parse_jokers(raw, table: list[list[str]]) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise illegal("bad_jokers")
    on_table = {t for s in table for t in s}
    for joker, face in raw.items():
        if joker not in _tiles.JOKERS or joker not in on_table or face not in _tiles.FACES:
            raise illegal("bad_jokers")
    return dict(raw)


def _check_owner(table, old_tiles: set, rack: list) -> None:
    """Every proposed tile is on the table or on the player's rack (staging and commit)."""
    rack_set = set(rack)
    for s in table:
        for t in s:
            if t not in old_tiles and t not in rack_set:
                raise illegal("not_your_tile", f"Tu n'as pas {_named(t)}.")


def commit_check(state: dict, seat: int, table, jokers=None, placed=None) -> tuple[list[dict], list[str], int | None]:
    """The §4 commit checks of `table` for `seat`: (normalised table, tiles placed, first-meld value or None).
    Raises IllegalMove (French) naming what is wrong; pure."""
    table = _parse_table(table)
    jokers = _parse_jokers(jokers, table)
    old = state["table"]
    old_tiles = {t for s in old for t in s["tiles"]}
    rack = state["racks"][seat]
    _check_owner(table, old_tiles, rack)
    new_tiles = {t for s in table for t in s}
    lost = _tiles.sorted_tiles(old_tiles - new_tiles)
    if lost:
        t = lost[0]
        if _tiles.is_joker(t):
            msg = f"Le joker {t} était sur la table : il doit y rester (un joker ne revient jamais sur un chevalet)."
        else:
            msg = f"{_named(t, first=True)} était sur la table : elle doit y rester."
        raise illegal("table_tile_missing", msg, tile=t)
    added = _tiles.sorted_tiles(new_tiles - old_tiles)
    added_ids = sorted(added)
    if not added:
        raise illegal("nothing_placed")
    if placed is not None and (not isinstance(placed, list) or sorted(map(str, placed)) != added_ids):
        raise illegal("bad_placed")
    previous = {frozenset(s["tiles"]): s for s in old}
    result = []
    for i, s in enumerate(table):
        mine = {j: f for j, f in jokers.items() if j in s}
        before = previous.get(frozenset(s))
        keep = before is not None and not mine  # an unchanged set keeps its reading unless restated
        reason = _tiles.check_set(s, before["jokers"] if keep else mine)
        if reason is not None:
            raise illegal("invalid_set", reason, set_index=i)
        reading = _tiles.reading_from(s, before["jokers"], before["kind"]) if keep else _tiles.best_reading(s, mine)
        result.append(reading.as_dict())
    points = None
    if not state["opened"][seat]:
        remaining = [frozenset(s["tiles"]) for s in old]
        fresh = []
        for s in result:
            key = frozenset(s["tiles"])
            if key in remaining:
                remaining.remove(key)
            else:
                fresh.append(s)
        if remaining or any(t in old_tiles for s in fresh for t in s["tiles"]):
            raise illegal("table_touched")
        points = sum(_tiles.reading_from(s["tiles"], s["jokers"], s["kind"]).value for s in fresh)
        if points < FIRST_MELD:
            raise illegal("below_threshold",
                          f"Ta première pose vaut {points} points : il en faut au moins {FIRST_MELD}, "
                          "avec tes seules tuiles.", points=points)
    return result, added, points


def set_view(s: dict) -> dict:
    reading = _tiles.reading_from(s["tiles"], s["jokers"], s["kind"])
    return {"tiles": list(s["tiles"]), "kind": s["kind"], "jokers": dict(s["jokers"]),
            "faces": list(reading.faces), "value": reading.value}


# ---------------------------------------------------------------- suggestions: cheap on the hot path, exact on demand

QUICK_TABLE = 12  # table tiles the view's suggestion lets the exact solver rearrange (a few ms at most)
QUICK_RACK = 20  # with a bigger rack, the suggestion does not rearrange at all


def quick_play(state: dict, seat: int) -> dict | None:
    """The play `legal_moves` and the acting seat's view suggest: `{table, jokers, placed, count, value}`
    (an `end_turn` that passes the checks), or None when none is found. Cheap (a few ms whatever the
    table): the exact first meld; once opened, the better of the additions and new sets that leave
    the table as it is and the exact solver's rearrangement of the (at most `QUICK_TABLE`) table tiles
    the rack touches most, half as many with a joker on the rack, none with a rack of more than
    `QUICK_RACK` tiles (`rummikub_plays.guarded_play`).
    The whole table's best play is `best_play` (`Rummikub.hint`)."""
    rack = state["racks"][seat]
    if not rack:
        return None
    if len(rack) > QUICK_RACK:
        cap = 0  # a big rack makes even a small rearrangement costly: additions and new sets only
    elif any(_tiles.is_joker(t) for t in rack):
        cap = QUICK_TABLE // 2  # jokers cost the solver most
    else:
        cap = QUICK_TABLE
    return plays.guarded_play(rack, state["table"], bool(state["opened"][seat]), cap)


@lru_cache(maxsize=2048)
def _best_play(rack: tuple, table_tiles: tuple, opened: bool):
    if opened:
        return solver.solve(rack, table_tiles)
    return solver.solve(rack, [], opening=True)


def best_play(state: dict, seat: int) -> dict | None:
    """The exact solver's best commit for `seat` now, rearranging the whole table: `{table, jokers,
    placed, count, value}` (an `end_turn` that passes the checks), or None when nothing can be placed
    (first meld: below 30). On demand only (`Rummikub.hint`): 60-250 ms on a table of 60-80 tiles."""
    rack = tuple(_tiles.sorted_tiles(state["racks"][seat]))
    if not rack:
        return None
    opened = bool(state["opened"][seat])
    tiles = tuple(sorted((t for s in state["table"] for t in s["tiles"]), key=_tiles.sort_key))
    sol = _best_play(rack, tiles if opened else (), opened)
    if sol is None or sol.count == 0:
        return None
    if opened:
        sets = sol.sets
        table = [list(r.tiles) for r in sets]
    else:
        if sol.value < FIRST_MELD:
            return None
        sets = sol.sets
        table = [list(s["tiles"]) for s in state["table"]] + [list(r.tiles) for r in sets]
    jokers = {j: f for r in sets for j, f in r.jokers.items()}
    return {"table": table, "jokers": jokers, "placed": list(sol.placed), "count": sol.count, "value": sol.value}


# ---------------------------------------------------------------- first player (§2)

def first_player(seed: str, seats: int) -> tuple[int, list[list[dict]]]:
    """Each player draws a tile, the highest number starts, a joker is redrawn, tied players redraw among
    themselves; the tiles go back after each draw. Returns (seat, draws per draw round: `{seat, face}`,
    face `R7` or `joker`)."""
    contenders = list(range(seats))
    rounds = []
    k = 0
    while True:
        k += 1
        deck = shuffled(_tiles.TILES, seed, f"first-player:{k}")
        draws = []
        best = {}
        for seat in contenders:
            while True:
                tile = deck.pop()
                # faces only: the tiles go back and are reshuffled, a copy letter would only clutter views
                draws.append({"seat": seat, "face": "joker" if _tiles.is_joker(tile) else _tiles.face_of(tile)})
                if not _tiles.is_joker(tile):
                    break
            best[seat] = _tiles.number_of(tile)
        rounds.append(draws)
        top = max(best.values())
        contenders = [s for s in contenders if best[s] == top]
        if len(contenders) == 1:
            return contenders[0], rounds


# ---------------------------------------------------------------- the game

class Rummikub(Game):
    info = GameInfo(
        slug="rummikub",
        name="Rummikub",
        min_players=2,
        max_players=4,
        default_players=4,
        options=(Option("rounds", "Nombre de manches", ROUND_CHOICES, "3"),),
        turn_timers=(30, 60, 90, 120),
        default_turn_timer=60,  # rearranging the table takes longer than a draw and a discard (rules §10)
        order=7,
        tagline="Des tuiles, des suites et des groupes à réarranger sur la table.",
        bots="engine.bots.rummikub", problems="rummikub",
    )
    move_shape = {
        **moves.BASE_SHAPE,
        "table": moves.ListOf(moves.ListOf(moves.Text(8), 13), 60),
        "jokers": moves.Maybe(moves.MapOf(moves.Text(8), moves.Text(8), 2)),
        "placed": moves.Maybe(moves.ListOf(moves.Text(8), 106)),
        "all": moves.Flag(),
    }
    actions = frozenset({"draw_stock", "pass", "rearrange", "undo", "end_turn", "next_round", "leave"})
    tiles = _tiles.TILES
    family = "tiles"
    rule_sections = {
        **dict.fromkeys(("not_your_turn", "pool_empty", "pool_not_empty", "nothing_placed", "staged_pending",
                         "nothing_staged"), "tour-de-jeu"),
        **dict.fromkeys(("below_threshold", "table_touched"), "premiere-pose"),
        **dict.fromkeys(("invalid_set", "bad_table", "table_tile_missing"), "combinaisons"),
        "bad_jokers": "joker",
    }
    stats_low_is_better = False  # the round's winner scores what the others keep
    action_labels = {
        "draw_stock": "Piocher",
        "pass": "Passer",
        "undo": "Annuler le tour",
        "end_turn": "Valider",
        "next_round": "Manche suivante",
    }
    phase_hints = {
        **Game.phase_hints,
        TURN: "Pose des tuiles de ton chevalet ou réarrange la table, puis valide ; sinon pioche.",
    }

    # -- match and rounds

    def new_match(self, seats: int, options: dict, seed: str) -> dict:
        info = self.info
        if isinstance(seats, bool) or not isinstance(seats, int) or not info.min_players <= seats <= info.max_players:
            raise ValueError(f"seats={seats!r}")
        if not isinstance(seed, str) or not seed:
            raise ValueError("seed")
        options = info.clean_options(options)
        first, draws = first_player(seed, seats)
        state = {
            "game": self.slug,
            "seats": seats,
            "options": options,
            "seed": seed,
            "phase": None,
            "round": 0,
            "rounds": int(options["rounds"]),
            "start": None,
            "current": None,
            "active": list(range(seats)),
            "scores": [0] * seats,
            "history": [],
            "racks": [[] for _ in range(seats)],
            "pool": [],
            "table": [],
            "opened": [False] * seats,
            "opened_at": [None] * seats,
            "turn": 0,
            "passes": 0,
            "staged": [],
            "removed": [],
            "first_draw": {"seat": first, "draws": draws},
            "last_round": None,
            "out": [],
            "result": None,
        }
        self._start_round(state, first)
        return state

    def _start_round(self, state: dict, start: int) -> list[dict]:
        """Deal a round into `state` (fresh or forked; mutated)."""
        state["round"] += 1
        state["phase"] = TURN
        state["start"] = start
        state["current"] = start
        state["last_round"] = None
        state["table"] = []
        state["opened"] = [False] * state["seats"]
        state["opened_at"] = [None] * state["seats"]
        state["turn"] = 0
        state["passes"] = 0
        state["staged"] = []
        state["removed"] = []
        deck = shuffled(_tiles.TILES, state["seed"], f"r{state['round']}:deal")
        racks = [[] for _ in range(state["seats"])]
        order = self._order_from(state, start)
        for _ in range(RACK_SIZE):
            for s in order:
                racks[s].append(deck.pop())
        state["racks"] = racks
        state["pool"] = deck
        return [event("deal", round=state["round"], start=start, rack_size=RACK_SIZE, seats=order,
                      pool_count=len(deck))]

    @staticmethod
    def _order_from(state: dict, seat: int) -> list[int]:
        n = state["seats"]
        return [s for s in ((seat + i) % n for i in range(n)) if s in state["active"]]

    # -- contract

    def to_act(self, state: dict) -> list[int]:
        if state["phase"] != TURN or state["current"] is None:
            return []
        return [state["current"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == MATCH_OVER or seat not in state["active"]:
            return []
        if phase == ROUND_OVER:
            return [{"action": "next_round"}]
        if seat != state["current"]:
            return []
        if state["staged"]:
            out = [{"action": "undo"}, {"action": "undo", "all": True}]
            try:
                commit_check(state, seat, state["staged"][-1]["table"], state["staged"][-1]["jokers"])
                out.append({"action": "end_turn"})
            except IllegalMove:
                pass
            return out
        out = [{"action": "draw_stock"} if state["pool"] else {"action": "pass"}]
        play = quick_play(state, seat)
        if play is not None:
            out.append({"action": "end_turn", "table": play["table"], "jokers": play["jokers"]})
        return out

    def apply(self, state: dict, seat: int, move: dict) -> tuple[dict, list[dict]]:
        if not isinstance(move, dict):
            raise illegal("bad_move")
        action = move.get("action")
        if not isinstance(action, str) or action not in self.actions:
            raise illegal("unknown_action")
        check_seat(state, seat)
        if action == "leave":
            return self.leave(state, seat)
        phase = state["phase"]
        if phase == MATCH_OVER:
            raise illegal("match_over")
        if seat not in state["active"]:
            raise illegal("not_active")
        if action == "next_round":
            if phase != ROUND_OVER:
                raise illegal("round_not_over")
            new = dict(state)
            start = next_active(state, state["start"])
            return new, self._start_round(new, start)
        if phase == ROUND_OVER:
            raise illegal("round_over")
        if seat != state["current"]:
            raise illegal("not_your_turn")
        return getattr(self, "_do_" + action)(state, seat, move)

    # -- turn actions

    def _do_draw_stock(self, state, seat, move):
        if state["staged"]:
            raise illegal("staged_pending")
        if not state["pool"]:
            raise illegal("pool_empty")
        new = dict(state)
        new["pool"] = list(state["pool"])
        tile = new["pool"].pop()
        racks = list(state["racks"])
        racks[seat] = racks[seat] + [tile]
        new["racks"] = racks
        new["passes"] = 0
        events = [event("draw", seat=seat, pool_count=len(new["pool"])),
                  event("drawn", to_seat(seat), seat=seat, tile=tile)]
        return new, events + self._next_turn(new)

    def _do_pass(self, state, seat, move):
        if state["staged"]:
            raise illegal("staged_pending")
        if state["pool"]:
            raise illegal("pool_not_empty")
        new = dict(state)
        new["passes"] = state["passes"] + 1
        events = [event("pass", seat=seat, reason="pool_empty")]
        if new["passes"] >= len(new["active"]):
            return new, events + self._end_round(new, None)
        return new, events + self._next_turn(new)

    def _do_rearrange(self, state, seat, move):
        table = _parse_table(move.get("table"))
        jokers = _parse_jokers(move.get("jokers"), table)
        _check_owner(table, {t for s in state["table"] for t in s["tiles"]}, state["racks"][seat])
        new = dict(state)
        new["staged"] = state["staged"] + [{"table": table, "jokers": jokers}]
        return new, [event("staged", to_seat(seat), seat=seat, count=len(new["staged"]))]

    def is_private(self, before: dict, seat: int, move: dict) -> bool:
        """A proposal of the table and its undo stay the acting seat's until « Valider » (`end_turn`)."""
        return isinstance(move, dict) and move.get("action") in ("rearrange", "undo")

    def _do_undo(self, state, seat, move):
        if not state["staged"]:
            raise illegal("nothing_to_undo")
        new = dict(state)
        new["staged"] = [] if move.get("all") else state["staged"][:-1]
        return new, [event("unstaged", to_seat(seat), seat=seat, count=len(new["staged"]))]

    def _do_end_turn(self, state, seat, move):
        if move.get("table") is not None:
            table, jokers = move["table"], move.get("jokers")
        elif state["staged"]:
            table, jokers = state["staged"][-1]["table"], state["staged"][-1]["jokers"]
        else:
            raise illegal("nothing_staged")
        result, placed, points = commit_check(state, seat, table, jokers, move.get("placed"))
        new = dict(state)
        new["table"] = result
        racks = list(state["racks"])
        gone = set(placed)
        racks[seat] = [t for t in state["racks"][seat] if t not in gone]
        new["racks"] = racks
        new["staged"] = []
        new["passes"] = 0
        events = [event("table", seat=seat, table=copy_data(result), placed=placed,
                        rack_count=len(racks[seat]))]
        if points is not None:
            opened = list(state["opened"])
            opened[seat] = True
            new["opened"] = opened
            at = list(state["opened_at"])
            at[seat] = state["turn"]
            new["opened_at"] = at
            events.append(event("opened", seat=seat, points=points))
        if not racks[seat]:
            return new, events + self._end_round(new, seat)
        return new, events + self._next_turn(new)

    def _next_turn(self, new: dict) -> list[dict]:
        new["turn"] = new["turn"] + 1
        new["current"] = next_active(new, new["current"])
        return []

    # -- end of round and match

    def _end_round(self, new: dict, winner: int | None) -> list[dict]:
        """§6 scoring into `new` (forked top level). `winner` emptied his rack; None: blocked round."""
        players = self._order_from(new, new["start"])
        values = {s: _tiles.rack_value(new["racks"][s]) for s in players}
        if winner is None:
            ending = "blocked"
            winner = min(players, key=lambda s: (values[s],
                                                 new["opened_at"][s] if new["opened_at"][s] is not None else 10**6,
                                                 players.index(s)))
            base = values[winner]
        else:
            ending = "out"
            base = 0
        points = [None] * new["seats"]
        for s in players:
            if s != winner:
                points[s] = -(values[s] - base)
        points[winner] = -sum(p for p in points if p is not None)
        scores = list(new["scores"])
        for s in players:
            scores[s] += points[s]
        new["scores"] = scores
        new["current"] = None
        last = {
            "round": new["round"],
            "start": new["start"],
            "ending": ending,
            "winner": winner,
            "players": [{"seat": s, "rack": _tiles.sorted_tiles(new["racks"][s]), "value": values[s],
                         "points": points[s]} for s in players],
            "points": points,
            "totals": list(scores),
            "table": copy_data(new["table"]),
        }
        new["last_round"] = last
        new["history"] = new["history"] + [{"round": new["round"], "start": new["start"], "ending": ending,
                                            "winner": winner, "points": points, "totals": list(scores)}]
        events = [event("round_over", round=new["round"], ending=ending, winner=winner, points=points,
                        totals=list(scores), players=copy_data(last["players"]))]
        if new["round"] >= new["rounds"]:
            top = max(scores[s] for s in new["active"])
            leaders = [s for s in new["active"] if scores[s] == top]
            if len(leaders) == 1:
                return events + self._finish(new, leaders, "rounds")
            new["rounds"] = new["round"] + 1  # §7: a tie for the lead plays one more round
            events.append(event("tie_break", seats=leaders, rounds=new["rounds"]))
        new["phase"] = ROUND_OVER
        return events

    def _finish(self, new: dict, winners: list[int], reason: str) -> list[dict]:
        new["phase"] = MATCH_OVER
        new["current"] = None
        new["staged"] = []
        step = {o["seat"]: o["step"] for o in new["out"]}
        rest = [s for s in range(new["seats"]) if s not in winners]
        rest.sort(key=lambda s: (s not in new["active"], -step.get(s, 0), -new["scores"][s], s))
        ranking = sorted(winners) + rest
        new["result"] = {"winners": sorted(winners), "ranking": ranking, "scores": list(new["scores"]),
                         "reason": reason, "rounds": new["round"]}
        return [event("match_over", winners=sorted(winners), ranking=ranking, reason=reason)]

    def result(self, state: dict) -> dict | None:
        if state["phase"] != MATCH_OVER or state["result"] is None:
            return None
        return copy_data(state["result"])

    def autoplay(self, state: dict, seat: int) -> dict:
        """§9: the staged proposals are dropped (`undo all`), then `draw_stock`, or `pass` on an empty pool."""
        check_seat(state, seat)
        if state["phase"] == ROUND_OVER and seat in state["active"]:
            return {"action": "next_round"}
        if state["phase"] != TURN or seat not in state["active"] or seat != state["current"]:
            raise illegal("no_decision")
        if state["staged"]:
            return {"action": "undo", "all": True}
        return {"action": "draw_stock"} if state["pool"] else {"action": "pass"}

    def leave(self, state: dict, seat: int) -> tuple[dict, list[dict]]:
        """§9: the leaver is out of the match; his rack leaves play, his tiles on the table stay."""
        check_seat(state, seat)
        if state["phase"] == MATCH_OVER or seat not in state["active"]:
            return dict(state), []
        new = dict(state)
        new["active"] = [s for s in state["active"] if s != seat]
        step = (state["out"][-1]["step"] + 1) if state["out"] else 1
        new["out"] = state["out"] + [{"seat": seat, "round": state["round"], "reason": "left", "step": step}]
        events = [event("left", seat=seat)]
        if state["phase"] == TURN:
            new["removed"] = state["removed"] + list(state["racks"][seat])
            racks = list(state["racks"])
            racks[seat] = []
            new["racks"] = racks
        if len(new["active"]) == 1:
            return new, events + self._finish(new, list(new["active"]), "left")
        if state["phase"] == TURN:
            if state["current"] == seat:
                new["staged"] = []
                new["current"] = next_active(new, seat)
            if not new["pool"] and new["passes"] >= len(new["active"]):
                events += self._end_round(new, None)
        return new, events

    # -- views

    def public_view(self, state: dict) -> dict:
        return self._view(state, None)

    def view(self, state: dict, seat: int) -> dict:
        check_seat(state, seat)
        return self._view(state, seat)

    def _view(self, state: dict, seat: int | None) -> dict:
        phase = state["phase"]
        out = {o["seat"]: o["reason"] for o in state["out"]}
        over = phase in (ROUND_OVER, MATCH_OVER)
        rack = _tiles.sorted_tiles(state["racks"][seat]) if seat is not None else []
        acting = seat is not None and phase == TURN and seat == state["current"]
        view = {
            "game": state["game"],
            "seat": seat,
            "seats": state["seats"],
            "options": dict(state["options"]),
            "phase": phase,
            "round": state["round"],
            "rounds": state["rounds"],
            "dealer": None,
            "start": state["start"],
            "current": state["current"],
            "to_act": self.to_act(state),
            "active": list(state["active"]),
            "scores": list(state["scores"]),
            "players": [
                {"seat": s, "rack_count": len(state["racks"][s]), "hand_count": len(state["racks"][s]),
                 "score": state["scores"][s], "active": s in state["active"], "out": out.get(s),
                 "opened": state["opened"][s]}
                for s in range(state["seats"])
            ],
            "pool_count": len(state["pool"]),
            "stock_count": len(state["pool"]),
            "discard_top": None,
            "discard_pile": [],
            "table": [set_view(s) for s in state["table"]],
            "opened": list(state["opened"]),
            "first_meld": FIRST_MELD,
            "passes": state["passes"],
            "first_draw": copy_data(state["first_draw"]),
            "hand": rack,
            "rack": list(rack),
            "rack_value": _tiles.rack_value(rack) if seat is not None else None,
            "legal": self.legal_moves(state, seat) if seat is not None else [],
            "arrangement": None,
            "staged": self._staged_view(state, seat) if acting and state["staged"] else None,
            "suggestion": quick_play(state, seat) if acting else None,
            "history": copy_data(state["history"]),
            "out": [dict(o) for o in state["out"]],
            "last_round": copy_data(state["last_round"]) if over else None,
            "result": self.result(state),
        }
        return view

    def hint(self, state: dict, seat: int) -> dict | None:
        """The exact solver's best play for the acting `seat` over the whole table (`best_play`), for an
        on-demand « Aide » path; None when it is not this seat's turn or nothing can be placed. Not in
        the view: it can cost 60-250 ms on a big table."""
        check_seat(state, seat)
        if state["phase"] != TURN or seat != state["current"] or seat not in state["active"] or state["staged"]:
            return None
        return best_play(state, seat)

    def _staged_view(self, state: dict, seat: int) -> dict:
        """The acting seat's latest proposal: each set with its validity, what would leave the rack, and
        whether `end_turn` would pass (with the refusal it would get)."""
        top = state["staged"][-1]
        old_tiles = {t for s in state["table"] for t in s["tiles"]}
        sets = []
        for tiles in top["table"]:
            mine = {j: f for j, f in top["jokers"].items() if j in tiles}
            reason = _tiles.check_set(tiles, mine)
            sets.append({"tiles": list(tiles), "valid": reason is None, "reason": reason})
        placed = _tiles.sorted_tiles({t for s in top["table"] for t in s} - old_tiles)
        try:
            commit_check(state, seat, top["table"], top["jokers"])
            error = None
        except IllegalMove as err:
            error = {"code": err.code, "message": err.message}
        rack = [t for t in state["racks"][seat] if t not in set(placed)]
        return {"count": len(state["staged"]), "table": [list(s) for s in top["table"]],
                "jokers": dict(top["jokers"]), "sets": sets, "placed": placed,
                "rack_after": _tiles.sorted_tiles(rack), "commit_ok": error is None, "commit_error": error}


GAME = Rummikub()
