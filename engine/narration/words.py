"""Cards and tiles in French words: what every family's sentences (engine.narration) and the coach's reasons
(engine.coach) name pieces with."""

from engine import cards
from engine.games import _tiles


def card_words(card: str) -> str:
    """« le Roi de trèfle », « la Dame de cœur », « l'As de pique », « le 7 de carreau », « un joker »;
    a tile: « la tuile 7 rouge »."""
    if card in _tiles.TILE_SET:
        if _tiles.is_joker(card):
            return "un joker"
        return f"la tuile {_tiles.number_of(card)} {_tiles.COLOUR_NAME_F[card[0]]}"
    if cards.is_joker(card):
        return "un joker"
    name = cards.name_fr(card)
    rank = cards.rank_of(card)
    if rank == "A":
        return "l'" + name
    if rank == "Q":
        return "la " + name
    return "le " + name


def face_name(face: str) -> str:
    return cards.name_fr(face + "1")


def cards_list(ids: list[str], wilds: dict | None = None) -> str:
    """« 7 de cœur, 8 de cœur, joker (9 de cœur) »."""
    wilds = wilds or {}
    return ", ".join(f"joker ({face_name(wilds[c])})" if c in wilds else cards.name_fr(c) for c in ids)


def cards_words(ids: list[str], wilds: dict | None = None) -> str:
    """« le 7 de cœur, le 8 de cœur et un joker (9 de cœur) »: cards named in a sentence, with their articles."""
    wilds = wilds or {}
    words = [f"un joker ({face_name(wilds[c])})" if c in wilds else card_words(c) for c in ids]
    return " et ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


def meld_noun(kind: str | None, count: int) -> str:
    if kind == "run":
        return "une suite"
    return "un carré" if count == 4 else "un brelan" if count == 3 else "une combinaison"


def plural(n) -> str:
    return "s" if isinstance(n, int) and abs(n) > 1 else ""


def piece_noun(piece: str | None) -> str:
    """« tuile » for a tile, « carte » for a card: the word a piece of this game is called by."""
    return "tuile" if piece in _tiles.TILE_SET else "carte"


def count_words(count, piece: str | None) -> str:
    """« 5 cartes » / « 1 tuile »."""
    return f"{count} {piece_noun(piece)}{plural(count)}"


def pieces_words(ids: list) -> str:
    """« 3 cartes » / « 3 tuiles »."""
    return count_words(len(ids), ids[0] if ids else None)
