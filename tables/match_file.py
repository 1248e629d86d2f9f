"""The match file: a finished match written out as a versioned document, as readable text or as JSON, and read back
and replayed by the engine (docs/export-format.md describes the format; tables.exports builds it from a table and
stores an imported one). Pure: the engine, the standard library and the site's name (rummy_site.brand), no Django.

The document never holds the table's seed. Each step is a move of the log; the importer replays it with the engine
from a fixed public seed (`PLACEHOLDER_SEED`), and where the real seed made a difference (a deal, a reshuffle) the
step carries a patch: the parts of the state the engine could not rebuild without it. Each step ends with a digest
of the state reached, so an import detects a file changed by hand or an engine that no longer plays the same.

What is hidden stays hidden: the states written are the log's states with every piece nobody will ever see again
in that round (the stock's cards never drawn, a buried discard pile's cards) put in sorted order within its pile.
Every view (every seat's and the spectators') of every step is the same as the log's; the order of those pieces is
not in the file. The staged actions a player took back before his commit are left out too: a run of private moves
(engine.base.private_move) is cut down to the fewest that still lead to the same committed turn.
"""

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass

from engine import cards, games, narration
from engine.base import copy_data, private_move
from engine.bots import LEVELS
from engine.errors import IllegalMove
from engine.games import _tiles
from rummy_site.brand import SITE_NAME, SITE_SLUG

FORMAT = f"{SITE_SLUG}/match"
VERSION = 1
# The seed the importer's engine deals with: public, the same for everyone; the steps' patches give the real deals.
PLACEHOLDER_SEED = f"{FORMAT}/v1"
MAX_BYTES = 1_000_000  # the longest matches measured write about 150 kB
MAX_STEPS = 20_000
MAX_DEPTH = 32  # nesting of the JSON values (a state nests 6 deep or so)
MAX_NAME = 150  # a pseudo's length on the site
DIGEST_LENGTH = 16  # hex digits of the SHA-256 kept per step
MAX_STAGING_WINDOW = 4  # the longest run of staged actions tried out at once when cutting a run down

TEXT_MAGIC = f"# {FORMAT} v{VERSION}"
TOO_BIG = "Ce fichier dépasse 1 Mo : une partie exportée est bien plus petite."
NOT_A_MATCH_FILE = (f"Ce fichier n'est pas une partie exportée de {SITE_NAME} (format « {FORMAT} ») : "
                    "une partie se télécharge depuis sa page « Revoir », une fois terminée.")


class FileRefused(Exception):
    """A match file the site does not take; `message`: why, in French, for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Step:
    """A step of a replayed file: the state after the move `n` and the events it returned (the public ones only
    where the file gives them)."""

    n: int
    seat: int | None
    move: dict
    state: dict
    events: list
    private: bool


# ---------------------------------------------------------------- states: pieces, hiding, digests, patches

def is_piece(value) -> bool:
    """A card or tile id (engine.cards, engine.games._tiles)."""
    return isinstance(value, str) and (value in _tiles.TILE_SET or cards.is_card_id(value))


def pieces_in(value, found: set | None = None) -> set:
    """Every piece id in a JSON value (a state, a view)."""
    found = set() if found is None else found
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif is_piece(item):
            found.add(item)
    return found


def piece_id(piece) -> str:
    """A view's piece: an id, or a dict with one (a tile of a rack)."""
    return piece if isinstance(piece, str) else str((piece or {}).get("id", ""))


def shown(engine, state: dict) -> set:
    """The pieces some seat or a spectator sees in `state`."""
    found = pieces_in(engine.public_view(state))
    for seat in range(int(state.get("seats") or 0)):
        pieces_in(engine.view(state, seat), found)
    return found


def without_seed(state: dict) -> dict:
    return {key: value for key, value in state.items() if key != "seed"}


def hidden_sorted(value, hidden: set):
    """`value` with, in each list, the pieces of `hidden` put in sorted order in the places they hold."""
    if isinstance(value, dict):
        return {key: hidden_sorted(item, hidden) for key, item in value.items()}
    if isinstance(value, list):
        items = [hidden_sorted(item, hidden) for item in value]
        places = [i for i, item in enumerate(items) if isinstance(item, str) and item in hidden]
        for place, piece in zip(places, sorted(items[i] for i in places), strict=True):
            items[place] = piece
        return items
    return value


def public_states(engine, states: list[dict]) -> list[dict]:
    """The states a match file holds for a log's states: no seed, and in each, the pieces that nobody sees in that
    state or later in its round (the same `round`) put in sorted order within their pile."""
    out: list[dict] = [{}] * len(states)
    later: set = set()
    for k in range(len(states) - 1, -1, -1):
        if k + 1 < len(states) and states[k + 1].get("round") != states[k].get("round"):
            later = set()
        later = later | shown(engine, states[k])
        state = without_seed(states[k])
        out[k] = hidden_sorted(state, pieces_in(state) - later)
    return out


def canonical_json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(state: dict) -> str:
    """The first `DIGEST_LENGTH` hex digits of the SHA-256 of the state's canonical JSON."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()[:DIGEST_LENGTH]


def _pointer(parts: list[str]) -> str:
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


def _parts(pointer: str) -> list[str]:
    if not isinstance(pointer, str) or not pointer.startswith("/") or len(pointer) > 200:
        raise ValueError(pointer)
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


def diff(before: dict, after: dict) -> dict:
    """What turns `before` into `after`: {"set": {pointer: value}, "unset": [pointer]} (JSON Pointers into the
    dicts; a list or a value that differs is replaced whole). Empty parts are left out."""
    out: dict = {"set": {}, "unset": []}

    def walk(a, b, parts):
        if isinstance(a, dict) and isinstance(b, dict):
            for key in b:
                if key not in a:
                    out["set"][_pointer([*parts, key])] = b[key]
                else:
                    walk(a[key], b[key], [*parts, key])
            out["unset"].extend(_pointer([*parts, key]) for key in a if key not in b)
        elif type(a) is not type(b) or a != b:
            out["set"][_pointer(parts)] = b

    walk(before, after, [])
    return {key: value for key, value in out.items() if value}


def patched(state: dict, patch: dict) -> dict:
    """`state` with a step's patch applied (a copy; `state` is untouched). ValueError: a pointer leads nowhere."""
    if not patch.get("set") and not patch.get("unset"):
        return state
    new = copy_data(state)
    for pointer, value in (patch.get("set") or {}).items():
        parent, key = _parent(new, pointer)
        parent[key] = copy_data(value)
    for pointer in patch.get("unset") or ():
        parent, key = _parent(new, pointer)
        if key not in parent:
            raise ValueError(pointer)
        del parent[key]
    return new


def _parent(root: dict, pointer: str) -> tuple[dict, str]:
    parts = _parts(pointer)
    node = root
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            raise ValueError(pointer)
    if not parts[-1]:
        raise ValueError(pointer)
    return node, parts[-1]


# ---------------------------------------------------------------- names and words

def player_names(players: list[dict]) -> dict[int, str]:
    """Each place's name, as the site names it (tables.presenters.frame.seat_names): a player's pseudo, « Robot
    Confirmé », and « Robot Confirmé 2 », « Robot Confirmé 3 » where several robots of one level sit."""
    names = {seat: p["name"] if "name" in p else f"Robot {LEVELS[p['robot']]}" for seat, p in enumerate(players)}
    robots = [names[seat] for seat, p in enumerate(players) if "robot" in p]
    for seat, p in enumerate(players):
        if "robot" in p and robots.count(names[seat]) > 1:
            names[seat] = f"{names[seat]} {seat + 1}"
    return names


def piece_label(piece: str) -> str:
    """A piece in a few characters: « D♥ », « 10♠ », « JOKER »; a tile: « 7 rouge », « joker »."""
    if piece in _tiles.TILE_SET:
        return "joker" if _tiles.is_joker(piece) else f"{_tiles.number_of(piece)} {_tiles.COLOUR_NAME[piece[0]]}"
    return cards.label(piece) if cards.is_card_id(piece) else piece


def step_words(step: dict, events: list, names: dict[int, str], private: bool) -> str:
    """The step told in French, as the table's « Derniers coups » tell it."""
    if private:
        return "(préparé ; la table le voit quand le tour est validé)"
    told = narration.turns([{"seat": step["seat"], "events": narration.public_events(events)}], names)
    return " ".join(t["text"] for t in told)


def hands_of(engine, state: dict) -> list[list[str]]:
    """Each seat's hand in `state` (its own view's, sorted as the site shows it)."""
    return [[piece_id(p) for p in engine.view(state, seat).get("hand") or [] if piece_id(p)]
            for seat in range(int(state.get("seats") or 0))]


# ---------------------------------------------------------------- writing

def build(engine, *, seats: int, options: dict, log: list, players: list[dict], table: int | None = None,
          started: str = "", finished: str = "") -> dict:
    """The document of a finished match. `log`: the log replayed, one (seat, move, state, events) per move, the
    start first (tables.services.replay_moves); `players`: per seat {"name": pseudo} or {"robot": level}."""
    states = [entry[2] for entry in log]
    written = public_states(engine, states)
    plan: list[tuple[int | None, dict, int | None]] = []  # (seat, move, index in the log; None: a kept staged move)
    k = 0
    while k < len(log):
        if k > 0 and private_move(engine, states[k - 1], log[k][0], log[k][1], log[k][3]):
            end = k
            while end < len(log) and private_move(engine, states[end - 1], log[end][0], log[end][1], log[end][3]):
                end += 1
            if end < len(log):  # staged at the very end and never committed: nothing to keep
                run = [(log[i][0], log[i][1]) for i in range(k, end)]
                plan += [(seat, move, None) for seat, move in
                         fewest_staged(engine, states[k - 1], run, (log[end][0], log[end][1]), states[end])]
            k = end
            continue
        plan.append((log[k][0], log[k][1], k))
        k += 1
    rounds: list[dict] = []
    state: dict = {}
    for n, (seat, move, index) in enumerate(plan, start=1):
        if n == 1:
            step = {"n": 1, "seat": None, "move": {"action": "start"}}
            reached, events = engine.new_match(seats, options, PLACEHOLDER_SEED), []
        else:
            step = {"n": n, "seat": seat, "move": dict(move)}
            reached, events = _apply(engine, state, seat, step["move"])
        reached = without_seed(reached)
        if index is None:
            state = reached
        else:
            state = written[index]
            step.update(diff(reached, state))
            public = narration.public_events(log[index][3])
            if narration.public_events(events) != public:
                step["events"] = public  # drawn with the real seed: told as they were
        step["digest"] = digest(state)
        if not rounds or rounds[-1]["number"] != state.get("round"):
            rounds.append({"number": state.get("round"), "hands": hands_of(engine, state), "steps": []})
        rounds[-1]["steps"].append(step)
    doc = {"format": FORMAT, "version": VERSION, "game": engine.info.slug, "options": dict(options), "seats": seats,
           "players": [dict(p) for p in players]}
    if table is not None:
        doc["table"] = table
    if started:
        doc["started"] = started
    if finished:
        doc["finished"] = finished
    doc["result"] = engine.result(state)
    doc["rounds"] = rounds
    return doc


def _apply(engine, state: dict, seat: int, move: dict) -> tuple[dict, list]:
    work = {**state, "seed": PLACEHOLDER_SEED}
    if move.get("action") == "leave":
        return engine.leave(work, seat)
    return engine.apply(work, seat, move)


def fewest_staged(engine, before: dict, run: list, commit: tuple, after: dict) -> list:
    """The staged moves of `run` (played from `before`) the `commit` needs to reach the same state `after`: a
    staged action taken back later, and its undo, are left out."""

    def same(candidate: list) -> bool:
        state = before
        try:
            for seat, move in [*candidate, commit]:
                state, _events = engine.apply(state, seat, move)
        except IllegalMove:
            return False
        return state == after

    run = list(run)
    cut = True
    while cut and run:
        cut = False
        for width in sorted({len(run), *range(1, min(MAX_STAGING_WINDOW, len(run)) + 1)}, reverse=True):
            for start in range(len(run) - width + 1):
                candidate = run[:start] + run[start + width:]
                if same(candidate):
                    run, cut = candidate, True
                    break
            if cut:
                break
    return run


def to_json(doc: dict) -> str:
    """The document as JSON: the header's keys one a line, each step on a line of its own."""
    head = {key: value for key, value in doc.items() if key != "rounds"}
    lines = ["{"]
    lines += [f"  {json.dumps(key)}: {_compact(value)}," for key, value in head.items()]
    lines.append('  "rounds": [')
    for r, rnd in enumerate(doc["rounds"]):
        lines.append(f'    {{"number": {_compact(rnd["number"])}, "hands": {_compact(rnd["hands"])}, "steps": [')
        steps = rnd["steps"]
        lines += [f"      {_compact(step)}{',' if i < len(steps) - 1 else ''}" for i, step in enumerate(steps)]
        lines.append(f"    ]}}{',' if r < len(doc['rounds']) - 1 else ''}")
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def to_text(doc: dict, steps: list[Step] | None = None) -> str:
    """The document as text, one line per move (docs/export-format.md). `steps`: the document already replayed
    (`replay`), for the French words of each move."""
    engine = games.get(doc["game"])
    names = player_names(doc["players"])
    steps = replay(doc) if steps is None else steps
    by_n = {step.n: step for step in steps}
    source = f" (table n° {doc['table']})" if "table" in doc else ""
    out = [TEXT_MAGIC,
           f"# {engine.info.name} : partie exportée de {SITE_NAME}{source}.",
           "# Format décrit dans docs/export-format.md. Les lignes qui commencent par « # » sont des commentaires,",
           "# que l'import ignore. Les places sont numérotées à partir de 1 (J1, J2…).",
           f"format: {doc['format']}", f"version: {doc['version']}", f"jeu: {doc['game']}",
           f"options: {_compact(doc['options'])}", f"places: {doc['seats']}"]
    for seat, player in enumerate(doc["players"], start=1):
        out.append(f"joueur {seat}: {player['name']}" if "name" in player
                   else f"robot {seat}: {LEVELS[player['robot']]}")
    out += [f"{label}: {doc[key]}" for key, label in TEXT_OPTIONAL if key in doc]
    out.append(f"résultat: {_compact(doc['result'])}")
    winners = [names[w] for w in (doc["result"] or {}).get("winners") or [] if w in names]
    if winners:
        out.append(f"# {'Vainqueurs' if len(winners) > 1 else 'Vainqueur'} : {', '.join(winners)}.")
    for rnd in doc["rounds"]:
        out += ["", f"== manche {rnd['number']} =="]
        dealer = engine.public_view(by_n[rnd["steps"][0]["n"]].state).get("dealer")
        dealt = f"{names[dealer]} distribue. " if isinstance(dealer, int) and dealer in names else ""
        out.append(f"# {dealt}Les mains à la donne :")
        for seat, hand in enumerate(rnd.get("hands") or []):
            out.append(f"#   {names.get(seat, seat + 1)} : {' '.join(piece_label(p) for p in hand) or '—'}")
        for step in rnd["steps"]:
            if step["n"] == 1:
                line, words = f"1. départ @{step['digest']}", "La donne."
            else:
                params = {key: value for key, value in step["move"].items() if key != "action"}
                line = f"{step['n']}. J{step['seat'] + 1} {step['move']['action']}"
                line += f" {_compact(params)} @{step['digest']}" if params else f" @{step['digest']}"
                replayed = by_n[step["n"]]
                words = step_words(step, replayed.events, names, replayed.private)
            out.append(f"{line}  # {words}" if words else line)
            out += [f"  = {_text_pointer(pointer)} {_compact(value)}"
                    for pointer, value in (step.get("set") or {}).items()]
            out += [f"  - {_text_pointer(pointer)}" for pointer in step.get("unset") or ()]
            if "events" in step:
                out.append(f"  » {_compact(step['events'])}")
    out.append("")
    return "\n".join(out)


TEXT_OPTIONAL = (("table", "table"), ("started", "début"), ("finished", "fin"))


def _text_pointer(pointer: str) -> str:
    """A pointer as the text writes it: bare, or as a JSON string if it holds a space or starts with a quote."""
    return _compact(pointer) if re.search(r"\s", pointer) or pointer.startswith('"') else pointer


# ---------------------------------------------------------------- reading

def read(data: bytes) -> dict:
    """The document of an uploaded file (text or JSON), its shape checked; FileRefused (French) otherwise. The
    moves are not replayed here: `replay` does."""
    if len(data) > MAX_BYTES:
        raise FileRefused(TOO_BIG)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused("Ce fichier n'est pas un texte UTF-8 : ce n'est pas une partie exportée du site.") from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise FileRefused("Ce fichier est vide.")
    try:
        doc = _from_json(text) if text.lstrip().startswith("{") else _from_text(text)
        return _checked(doc)
    except RecursionError:
        raise FileRefused("Ce fichier est trop imbriqué pour être une partie exportée.") from None


def _no_float(value):
    raise ValueError(value)


_DECODER = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_float)


def _from_json(text: str) -> dict:
    try:
        doc, end = _DECODER.raw_decode(text, len(text) - len(text.lstrip()))
    except json.JSONDecodeError as error:
        raise FileRefused(f"Ce fichier JSON est mal formé (ligne {error.lineno}, colonne {error.colno}) : "
                          "il est peut-être tronqué.") from None
    except ValueError:
        raise FileRefused("Ce fichier JSON contient des nombres à virgule, qu'une partie exportée n'a "
                          "jamais.") from None
    if text[end:].strip():
        raise FileRefused("Ce fichier JSON a du texte après sa fin.")
    return doc


STEP_LINE = re.compile(r"^(\d{1,6})\. (.*)$")
ROUND_LINE = re.compile(r"^== manche (\d{1,6}) ==$")
HEADER_LINE = re.compile(r"^([a-zéû]+(?: \d{1,2})?): ?(.*)$")
DIGEST_RE = re.compile(rf"^[0-9a-f]{{{DIGEST_LENGTH}}}$")


def _from_text(text: str) -> dict:
    """The text form read into the document's shape; FileRefused naming the line that is wrong."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != TEXT_MAGIC:
        first = lines[0].strip() if lines else ""
        if first.startswith(f"# {FORMAT} v"):
            raise FileRefused(f"Ce fichier est au format {FORMAT} version {_excerpt(first[len(FORMAT) + 4:])} ; "
                              f"le site lit la version {VERSION}.")
        raise FileRefused(NOT_A_MATCH_FILE)
    doc: dict = {"rounds": []}
    players: dict[int, dict] = {}
    step: dict | None = None
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            if line.startswith("  ") and not line.startswith("   "):
                if step is None:
                    raise ValueError
                _continuation(step, line[2:])
                continue
            if match := ROUND_LINE.match(line):
                doc["rounds"].append({"number": int(match.group(1)), "steps": []})
                step = None
                continue
            if match := STEP_LINE.match(line):
                if not doc["rounds"]:
                    raise ValueError
                step = _step_line(int(match.group(1)), match.group(2))
                doc["rounds"][-1]["steps"].append(step)
                continue
            if doc["rounds"] or not (match := HEADER_LINE.match(line)):
                raise ValueError
            _header(doc, players, match.group(1), match.group(2))
        except FileRefused:
            raise
        except (ValueError, KeyError, TypeError, IndexError):
            raise FileRefused(f"Ligne {number} : « {_excerpt(line)} » n'est pas une ligne de partie exportée "
                              "(le fichier a-t-il été modifié ?).") from None
    if players:
        if sorted(players) != list(range(len(players))):
            raise FileRefused("Les places des joueurs ne se suivent pas à partir de 1.")
        doc["players"] = [players[seat] for seat in range(len(players))]
    return doc


def _excerpt(line: str) -> str:
    line = line.strip()
    return line if len(line) <= 60 else line[:57] + "…"


def _header(doc: dict, players: dict, key: str, value: str) -> None:
    value = value.strip()
    if key.startswith(("joueur ", "robot ")):
        kind, place = key.split(" ")
        seat = int(place) - 1
        if seat < 0 or seat in players:
            raise ValueError
        if kind == "joueur":
            players[seat] = {"name": value}
        else:
            levels = {name: level for level, name in LEVELS.items()}
            players[seat] = {"robot": levels[value]}
        return
    fields = {"format": ("format", str), "version": ("version", int), "jeu": ("game", str),
              "options": ("options", _json_value), "places": ("seats", int), "table": ("table", int),
              "début": ("started", str), "fin": ("finished", str), "résultat": ("result", _json_value)}
    name, convert = fields[key]
    if name in doc:
        raise ValueError
    doc[name] = convert(value)


def _json_value(text: str):
    value, end = _DECODER.raw_decode(text)
    if text[end:].strip():
        raise ValueError
    return value


def _step_line(n: int, rest: str) -> dict:
    """« 12. J2 discard {"card":"7H1"} @0123456789abcdef  # words » (the words are a comment)."""
    if rest.startswith("départ "):
        move, seat, tail = {"action": "start"}, None, rest[len("départ "):]
    else:
        match = re.match(r"^J(\d{1,2}) ([A-Za-z0-9_-]{1,32})(?: |$)", rest)
        if match is None:
            raise ValueError
        seat, move, tail = int(match.group(1)) - 1, {"action": match.group(2)}, rest[match.end():]
        if tail.startswith("{"):
            params, end = _DECODER.raw_decode(tail)
            if not isinstance(params, dict) or "action" in params:
                raise ValueError
            move.update(params)
            tail = tail[end:].lstrip(" ")
    match = re.match(rf"^@([0-9a-f]{{{DIGEST_LENGTH}}})(?:\s+#.*)?$", tail)
    if match is None:
        raise ValueError
    return {"n": n, "seat": seat, "move": move, "digest": match.group(1)}


def _continuation(step: dict, text: str) -> None:
    """« = /pointer JSON », « - /pointer » or « » [events] » under a step."""
    mark, rest = text[:2], text[2:]
    if mark == "» ":
        if "events" in step:
            raise ValueError
        step["events"] = _json_value(rest)
        return
    if rest.startswith('"'):
        pointer, end = _DECODER.raw_decode(rest)
        rest = rest[end:]
    else:
        pointer, _, rest = rest.partition(" ")
        rest = " " + rest if rest else ""
    if mark == "= ":
        if not rest.startswith(" "):
            raise ValueError
        step.setdefault("set", {})
        if pointer in step["set"]:
            raise ValueError
        step["set"][pointer] = _json_value(rest[1:])
    elif mark == "- " and not rest.strip():
        step.setdefault("unset", []).append(pointer)
    else:
        raise ValueError


# ---------------------------------------------------------------- the document's shape

def _refuse_shape(what: str):
    raise FileRefused(f"Ce fichier n'a pas la forme d'une partie exportée ({what}).")


def _checked(doc) -> dict:
    """The document reduced to the keys the format defines, each of the right type; FileRefused otherwise."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise FileRefused(NOT_A_MATCH_FILE)
    if not _depth_within(doc, MAX_DEPTH):
        raise FileRefused("Ce fichier est trop imbriqué pour être une partie exportée.")
    if not _storable(doc):
        raise FileRefused("Ce fichier contient des caractères invalides (caractère nul, moitié d'une paire UTF-16) : "
                          "ce n'est pas une partie exportée.")
    version = doc.get("version")
    if version != VERSION or isinstance(version, bool):
        raise FileRefused(f"Ce fichier est au format {FORMAT} version {_excerpt(str(version))} ; "
                          f"le site lit la version {VERSION}.")
    slug = doc.get("game")
    if not isinstance(slug, str) or slug not in games.available():
        raise FileRefused(f"Le jeu « {_excerpt(str(slug))} » de ce fichier n'existe pas sur le site.")
    info = games.get(slug).info
    seats = doc.get("seats")
    if not _is_int(seats) or not info.min_players <= seats <= info.max_players:
        players = (f"à {info.min_players}" if info.min_players == info.max_players
                   else f"de {info.min_players} à {info.max_players}")
        raise FileRefused(f"Une partie de {info.name} se joue {players} joueurs : le nombre de places de ce fichier "
                          "ne convient pas.")
    options = doc.get("options")
    try:
        ok = isinstance(options, dict) and info.clean_options(options) == options
    except (ValueError, TypeError):
        ok = False
    if not ok:
        raise FileRefused(f"Les options de ce fichier ne sont pas celles d'une partie de {info.name}.")
    players = doc.get("players")
    if not isinstance(players, list) or len(players) != seats:
        _refuse_shape("il faut un joueur par place")
    out = {"format": FORMAT, "version": VERSION, "game": slug, "options": options, "seats": seats,
           "players": [_player(p) for p in players]}
    if "table" in doc:
        if not _is_int(doc["table"]) or doc["table"] < 1:
            _refuse_shape("le numéro de table")
        out["table"] = doc["table"]
    for key in ("started", "finished"):
        if key in doc:
            if not isinstance(doc[key], str) or len(doc[key]) > 40 or not doc[key].isprintable():
                _refuse_shape("les dates")
            out[key] = doc[key]
    if not isinstance(doc.get("result"), dict):
        _refuse_shape("le résultat manque")
    out["result"] = doc["result"]
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise FileRefused("Ce fichier ne contient aucune manche : il est peut-être tronqué.")
    out["rounds"] = []
    count = 0
    for rnd in rounds:
        if not isinstance(rnd, dict) or not _is_int(rnd.get("number")) or not isinstance(rnd.get("steps"), list):
            _refuse_shape("une manche")
        if not rnd["steps"]:
            raise FileRefused(f"La manche {rnd['number']} de ce fichier n'a aucun coup : il est peut-être tronqué.")
        count += len(rnd["steps"])
        if count > MAX_STEPS:
            raise FileRefused(f"Ce fichier a plus de {MAX_STEPS:,} coups : ce n'est pas une partie du site."
                              .replace(",", "\u202f"))
        out["rounds"].append({"number": rnd["number"], "steps": [_step(s) for s in rnd["steps"]]})
    return out


def _player(player) -> dict:
    if isinstance(player, dict) and set(player) == {"name"}:
        name = player["name"]
        if isinstance(name, str) and 0 < len(name.strip()) <= MAX_NAME and name.isprintable():
            return {"name": name.strip()}
    if isinstance(player, dict) and set(player) <= {"robot", "name"} and player.get("robot") in LEVELS:
        return {"robot": player["robot"]}
    _refuse_shape("un joueur n'a ni pseudo valable ni niveau de robot")


def _step(step) -> dict:
    if not isinstance(step, dict) or not _is_int(step.get("n")):
        _refuse_shape("un coup n'a pas de numéro")
    n = step["n"]
    seat, move = step.get("seat"), step.get("move")
    if not (seat is None or _is_int(seat)) or not isinstance(move, dict) or not isinstance(move.get("action"), str):
        _refuse_shape(f"le coup n° {n}")
    if not isinstance(step.get("digest"), str) or not DIGEST_RE.match(step["digest"]):
        _refuse_shape(f"l'empreinte du coup n° {n}")
    out = {"n": n, "seat": seat, "move": move}
    if "set" in step:
        if not isinstance(step["set"], dict) or not all(isinstance(p, str) for p in step["set"]):
            _refuse_shape(f"l'état du coup n° {n}")
        out["set"] = step["set"]
    if "unset" in step:
        if not isinstance(step["unset"], list) or not all(isinstance(p, str) for p in step["unset"]):
            _refuse_shape(f"l'état du coup n° {n}")
        out["unset"] = step["unset"]
    if "events" in step:
        events = step["events"]
        if not isinstance(events, list) or len(events) > 64 or not all(
                isinstance(e, dict) and isinstance(e.get("kind"), str) and len(e) <= 16 for e in events):
            _refuse_shape(f"le récit du coup n° {n}")
        # Public events as the narration keeps them: of the kinds it tells, with only the fields it reads.
        if narration.public_events([{**e, "audience": "all"} for e in events]) != events:
            _refuse_shape(f"le récit du coup n° {n}")
        out["events"] = events
    out["digest"] = step["digest"]
    return out


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _depth_within(value, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def _storable(value) -> bool:
    """Text any database stores: no NUL, no lone surrogate (PostgreSQL refuses both), in keys and values."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if "\x00" in item:
                return False
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
    return True


# ---------------------------------------------------------------- replaying

def replay(doc: dict) -> list[Step]:
    """The document's steps replayed by the engine from the placeholder seed and the patches, each state checked
    against its digest; FileRefused (French) at the first step that does not replay."""
    engine = games.get(doc["game"])
    seats = doc["seats"]
    state: dict = {}
    out: list[Step] = []
    expected = 1
    for rnd in doc["rounds"]:
        for step in rnd["steps"]:
            n, seat, move = step["n"], step["seat"], step["move"]
            if n != expected:
                raise FileRefused(f"Le coup n° {expected} manque (le fichier passe au n° {n}) : il est peut-être "
                                  "tronqué ou modifié.")
            expected += 1
            if (n == 1) != (move == {"action": "start"} and seat is None):
                raise FileRefused("Le premier coup d'une partie exportée est la donne, et seulement lui.")
            try:
                if n == 1:
                    reached, events = engine.new_match(seats, doc["options"], PLACEHOLDER_SEED), []
                else:
                    if not 0 <= seat < seats:
                        raise IllegalMove("bad_seat", "Place inconnue.")
                    if move.get("action") != "leave":
                        move = engine.clean_move(move)
                    reached, events = _apply(engine, state, seat, move)
            except IllegalMove as error:
                raise FileRefused(f"Coup n° {n} refusé par les règles : {error.message}") from None
            except Exception:  # a state patched into something the rules cannot read
                raise FileRefused(f"Le coup n° {n} ne se rejoue pas : le fichier a été modifié.") from None
            try:
                computed = without_seed(reached)
                reached = patched(computed, step)
            except ValueError:
                raise FileRefused(f"Coup n° {n} : l'état donné par le fichier ne s'applique pas.") from None
            if reached is not computed:
                _check_patch(engine, n, computed, reached)
            if digest(reached) != step["digest"]:
                raise FileRefused(f"Coup n° {n} : l'état rejoué ne correspond pas à l'empreinte du fichier (fichier "
                                  "modifié, ou règles du jeu changées depuis l'export).")
            if reached.get("round") != rnd["number"]:
                raise FileRefused(f"Coup n° {n} : il n'est pas de la manche {rnd['number']}.")
            if "events" in step:
                events = [{**e, "audience": "all"} for e in step["events"]]
            private = n > 1 and private_move(engine, state, seat, move, events)
            out.append(Step(n, seat, move, reached, events, private))
            state = reached
    try:
        result = engine.result(state)
    except Exception:
        result = None
    if result is None:
        raise FileRefused("La partie de ce fichier n'est pas terminée : il est peut-être tronqué.")
    if result != doc["result"]:
        raise FileRefused("Le résultat annoncé par ce fichier n'est pas celui de la partie rejouée.")
    return out


def _check_patch(engine, n: int, computed: dict, reached: dict) -> None:
    """What the seed decides is where the pieces go, never which pieces there are nor how many each player holds:
    a patch that changes either is refused (and no hand grows past what the rules deal, for the solvers' sake)."""
    if piece_counts(computed) != piece_counts(reached):
        raise FileRefused(f"Coup n° {n} : l'état donné par le fichier ajoute ou retire des cartes (fichier modifié).")
    try:
        same = hand_counts(engine, computed) == hand_counts(engine, reached)
    except Exception:
        same = False
    if not same:
        raise FileRefused(f"Coup n° {n} : l'état donné par le fichier change le nombre de cartes en main (fichier "
                          "modifié).")


def piece_counts(value) -> Counter:
    """How many times each piece id occurs in a JSON value."""
    found: Counter = Counter()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif is_piece(item):
            found[item] += 1
    return found


def hand_counts(engine, state: dict) -> list:
    """Each seat's number of pieces in hand, as the public view tells it (the contract's `players`)."""
    return [player.get("hand_count") for player in engine.public_view(state).get("players") or []]


def check_shown(doc: dict, steps: list[Step]) -> None:
    """What the replay pages will draw of an imported file can be drawn: each step's public view and words, each
    hand at each round's end. FileRefused otherwise (a state patched into something the rules cannot show)."""
    engine = games.get(doc["game"])
    names = player_names(doc["players"])
    for index, step in enumerate(steps):
        try:
            engine.public_view(step.state)
            step_words({"seat": step.seat}, step.events, names, step.private)
            last = index == len(steps) - 1 or steps[index + 1].state.get("round") != step.state.get("round")
            if last:
                hands_of(engine, step.state)
        except Exception:
            raise FileRefused(f"Coup n° {step.n} : le site ne sait pas montrer l'état de ce coup (fichier "
                              "modifié).") from None
