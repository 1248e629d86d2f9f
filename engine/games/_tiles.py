"""The tile family (../shared/rules/README.md "Object ids", rummikub.md §1 and §5).

106 tiles: numbers 1–13 in four colours, two copies each (`R7a`, `R7b`, `K13a`), and two jokers (`J1`,
`J2`). A *face* is colour + number without the copy (`R7`): what a joker stands for is a face.

A set (« combinaison ») is a list of tile ids. `readings(tiles)` gives every way it is valid:

- group: 3 or 4 tiles of one number, all colours different (a joker takes a missing colour);
- run: 3 to 13 tiles of one colour with consecutive numbers, 1 low only, 13 high only (no 13-1-2).

A reading fixes the kind, the display order and the face of every joker in it. `check_set` explains in
French why a set has no reading (« La suite 4-5-7 bleue n'est pas valide : les numéros ne se suivent
pas. »).
"""

from dataclasses import dataclass, field

COLOURS = "RYBK"
NUMBERS = tuple(range(1, 14))
COPIES = "ab"
JOKERS = ("J1", "J2")
JOKER_PENALTY = 30  # a joker left on a rack at the end of a round
MIN_SET, MAX_GROUP, MAX_RUN = 3, 4, 13

COLOUR_NAME = {"R": "rouge", "Y": "jaune", "B": "bleu", "K": "noir"}  # « Tuile 7 rouge »
COLOUR_NAME_F = {"R": "rouge", "Y": "jaune", "B": "bleue", "K": "noire"}  # « la suite … bleue »

TILES = tuple(f"{c}{n}{k}" for c in COLOURS for n in NUMBERS for k in COPIES) + JOKERS
TILE_SET = frozenset(TILES)
FACES = frozenset(f"{c}{n}" for c in COLOURS for n in NUMBERS)
_INDEX = {t: i for i, t in enumerate(TILES)}


def is_joker(tile: str) -> bool:
    return tile in JOKERS


def colour_of(tile: str) -> str:
    return tile[0]


def number_of(tile: str) -> int:
    """The number of a numbered tile, or of a face (`R7a` or `R7` -> 7)."""
    return int(tile[1:].rstrip(COPIES))


def face_of(tile: str) -> str:
    return tile[:-1]


def sort_key(tile: str) -> int:
    """Colour R, Y, B, K, then number, then copy; jokers last."""
    return _INDEX[tile]


def sort_by_number_key(tile: str) -> tuple:
    """« Trier par suite »'s sibling: number first, then colour; jokers last."""
    if is_joker(tile):
        return (99, tile)
    return (number_of(tile), COLOURS.index(tile[0]), tile[-1])


def sorted_tiles(tiles) -> list[str]:
    return sorted(tiles, key=sort_key)


def tile_name(tile: str) -> str:
    """French name: « Tuile 7 rouge », « Joker »."""
    if is_joker(tile):
        return "Joker"
    return f"Tuile {number_of(tile)} {COLOUR_NAME[tile[0]]}"


def tile_words(tile: str) -> str:
    """A tile named in a sentence, with its article: « la tuile 7 rouge », « la tuile 9 bleue », « le joker »
    (the colour agrees with « tuile », as engine.narration tells the moves)."""
    if is_joker(tile):
        return "le joker"
    return f"la tuile {number_of(tile)} {COLOUR_NAME_F[tile[0]]}"


def face_name(face: str) -> str:
    """« 7 rouge » for the face `R7`."""
    return f"{number_of(face)} {COLOUR_NAME[face[0]]}"


def rack_value(tiles) -> int:
    """Penalty value of tiles left on a rack: the number, a joker 30 (§6)."""
    return sum(JOKER_PENALTY if is_joker(t) else number_of(t) for t in tiles)


# ---------------------------------------------------------------- readings

@dataclass(frozen=True)
class Reading:
    kind: str  # "run" | "group"
    tiles: tuple  # display order: runs low -> high, groups by colour R, Y, B, K
    jokers: dict = field(default_factory=dict, hash=False, compare=False)  # joker id -> face
    faces: tuple = ()  # the face of each tile of `tiles`

    @property
    def value(self) -> int:
        """First-meld value: the numbers of its tiles, a joker counting the number it stands for."""
        return sum(number_of(f) for f in self.faces)

    def as_dict(self) -> dict:
        return {"tiles": list(self.tiles), "kind": self.kind, "jokers": dict(self.jokers)}


def _split(tiles):
    naturals = [t for t in tiles if not is_joker(t)]
    jokers = sorted(t for t in tiles if is_joker(t))
    return naturals, jokers


def _run_readings(naturals, jokers) -> list[Reading]:
    n = len(naturals) + len(jokers)
    if not naturals or n < MIN_SET or n > MAX_RUN:
        return []
    colours = {t[0] for t in naturals}
    if len(colours) != 1:
        return []
    colour = naturals[0][0]
    by_number = {}
    for t in naturals:
        if number_of(t) in by_number:
            return []
        by_number[number_of(t)] = t
    lo, hi = min(by_number), max(by_number)
    out = []
    orders = [list(jokers)] + ([list(reversed(jokers))] if len(jokers) == 2 else [])
    # Higher starts first: when extra jokers can sit at either end the higher reading comes first.
    for start in range(min(lo, 14 - n), 0, -1):
        end = start + n - 1
        if end < hi:
            break
        for order in orders:  # J1 in the lower free position first
            free = iter(order)
            tiles, faces, meaning = [], [], {}
            for num in range(start, end + 1):
                face = f"{colour}{num}"
                if num in by_number:
                    tiles.append(by_number[num])
                else:
                    joker = next(free)
                    tiles.append(joker)
                    meaning[joker] = face
                faces.append(face)
            out.append(Reading("run", tuple(tiles), meaning, tuple(faces)))
    return out


def _group_readings(naturals, jokers) -> list[Reading]:
    n = len(naturals) + len(jokers)
    if not naturals or n < MIN_SET or n > MAX_GROUP:
        return []
    numbers = {number_of(t) for t in naturals}
    if len(numbers) != 1:
        return []
    number = numbers.pop()
    colours = [t[0] for t in naturals]
    if len(set(colours)) != len(colours):
        return []
    missing = [c for c in COLOURS if c not in colours]
    out = []

    def assign(i, left, chosen):
        if i == len(jokers):
            meaning = dict(chosen)
            where = {t[0]: t for t in naturals} | {f[0]: j for j, f in meaning.items()}
            order = [c for c in COLOURS if c in where]
            out.append(Reading("group", tuple(where[c] for c in order), meaning,
                               tuple(f"{c}{number}" for c in order)))
            return
        for c in left:
            assign(i + 1, [x for x in left if x != c], chosen + [(jokers[i], f"{c}{number}")])

    assign(0, missing, [])
    return out


def readings(tiles, stated: dict | None = None) -> list[Reading]:
    """Every valid reading of the set `tiles` (ids), best first: highest first-meld value, then runs
    before groups, then the order of generation (J1 before J2 in the lower position / first missing
    colour). `stated` (joker id -> face) keeps only the readings where those jokers stand for those faces."""
    tiles = list(tiles)
    if len(set(tiles)) != len(tiles):
        return []
    naturals, jokers = _split(tiles)
    found = _run_readings(naturals, jokers) + _group_readings(naturals, jokers)
    if stated:
        mine = {j: f for j, f in stated.items() if j in jokers}
        found = [r for r in found if all(r.jokers.get(j) == f for j, f in mine.items())]
    found.sort(key=lambda r: -r.value)  # stable: runs (generated first) before groups on equal value
    return found


def is_valid_set(tiles, stated: dict | None = None) -> bool:
    return bool(readings(tiles, stated))


def best_reading(tiles, stated: dict | None = None) -> Reading | None:
    found = readings(tiles, stated)
    return found[0] if found else None


def reading_from(tiles, jokers: dict, kind: str | None = None) -> Reading:
    """The reading of a stored table set (its tiles and joker faces); ValueError if there is none."""
    found = [r for r in readings(tiles, jokers) if kind is None or r.kind == kind]
    if not found:
        raise ValueError(tiles)
    return found[0]


# ---------------------------------------------------------------- French descriptions of a set

def _label(tile: str) -> str:
    return "joker" if is_joker(tile) else f"{number_of(tile)} {COLOUR_NAME[tile[0]]}"


def describe_set(tiles) -> str:
    """« La suite 4-5-7 bleue », « Le groupe de 7 rouge, bleu, bleu », « La combinaison 4 rouge, 7 bleu »."""
    naturals, jokers = _split(list(tiles))
    colours = {t[0] for t in naturals}
    numbers = sorted(number_of(t) for t in naturals)
    jokers_txt = ["joker"] * len(jokers)
    if len(naturals) >= 2 and len(colours) == 1 and len(set(numbers)) > 1:
        parts = [str(n) for n in numbers] + jokers_txt
        return f"La suite {'-'.join(parts)} {COLOUR_NAME_F[naturals[0][0]]}"
    if len(naturals) >= 2 and len(set(numbers)) == 1:
        ordered = sorted(naturals, key=sort_key)
        parts = [COLOUR_NAME[t[0]] for t in ordered] + jokers_txt
        return f"Le groupe de {numbers[0]} {', '.join(parts)}"
    ordered = sorted(tiles, key=sort_key)
    return f"La combinaison {', '.join(_label(t) for t in ordered)}" if ordered else "La combinaison vide"


def why_invalid(tiles, stated: dict | None = None) -> str | None:
    """None when `tiles` is a valid set (with the stated joker faces); else the French reason."""
    tiles = list(tiles)
    if readings(tiles, stated):
        return None
    if len(set(tiles)) != len(tiles):
        return "une tuile y est deux fois"
    if len(tiles) < MIN_SET:
        return "il faut au moins 3 tuiles"
    if readings(tiles):
        mine = {j: f for j, f in (stated or {}).items() if j in tiles}
        said = ", ".join(f"le joker {j} pour le {face_name(f)}" for j, f in sorted(mine.items()))
        return f"le joker ne peut pas y tenir la place annoncée ({said})"
    naturals, _ = _split(tiles)
    colours = {t[0] for t in naturals}
    numbers = [number_of(t) for t in naturals]
    if len(set(numbers)) == 1 and len(naturals) > 1:
        if len(tiles) > MAX_GROUP:
            return "un groupe a au plus 4 tuiles"
        return "deux tuiles y ont la même couleur"
    if len(colours) == 1:
        if len(set(numbers)) != len(numbers):
            return "un même numéro y est deux fois"
        if len(tiles) > MAX_RUN:
            return "une suite a au plus 13 tuiles"
        wrapped = sorted((n + 13) if n < 7 else n for n in numbers)  # 12-13-1 read around the top
        if 1 in numbers and 13 in numbers and wrapped[-1] - wrapped[0] + 1 <= len(tiles):
            return "une suite ne passe pas de 13 à 1 (le 1 est toujours en bas)"
        return "les numéros ne se suivent pas"
    return "ce n'est ni une suite (une seule couleur) ni un groupe (un seul numéro)"


def check_set(tiles, stated: dict | None = None) -> str | None:
    """None when valid; else the full French refusal: « La suite 4-5-7 bleue n'est pas valide : … »."""
    reason = why_invalid(tiles, stated)
    if reason is None:
        return None
    return f"{describe_set(tiles)} n'est pas valide : {reason}."
