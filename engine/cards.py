"""Card ids, ranks, suits and French names shared by every card game.

Ids follow ../shared/rules/README.md: rank + suit + copy ("QH1", "10S2"), printed
jokers "JK1".."JK6".
"""

import re
from functools import cache

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
RANK_INDEX = {r: i + 1 for i, r in enumerate(RANKS)}  # A=1 … K=13
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

CARD_RE = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC])([12])$")
JOKER_RE = re.compile(r"^JK[1-6]$")

RANK_NAMES_FR = {
    "A": "As", "J": "Valet", "Q": "Dame", "K": "Roi",
    **{str(n): str(n) for n in range(2, 11)},
}
SUIT_NAMES_FR = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def is_card_id(card) -> bool:
    return isinstance(card, str) and bool(CARD_RE.match(card) or JOKER_RE.match(card))


@cache
def rank_of(card: str) -> str | None:
    """Rank of a card id ("10" for "10S2"); None for a printed joker."""
    if is_joker(card):
        return None
    return card[:-2]


@cache
def suit_of(card: str) -> str | None:
    if is_joker(card):
        return None
    return card[-2]


def face(card: str) -> str:
    """Rank + suit without the copy ("QH1" -> "QH"); jokers unchanged."""
    return card if is_joker(card) else card[:-1]


def deck(copies: int = 1, jokers: int = 0) -> list[str]:
    """A fresh, ordered deck: `copies` × 52 cards then `jokers` printed jokers."""
    cards = [f"{r}{s}{c}" for c in range(1, copies + 1) for s in SUITS for r in RANKS]
    return cards + [f"JK{n}" for n in range(1, jokers + 1)]


@cache
def sort_key(card: str) -> tuple:
    """Order S,H,D,C then rank A…K then copy 1,2; jokers last (the rules' tie-break order)."""
    if is_joker(card):
        return (9, 0, int(card[2:]))
    return (SUIT_INDEX[card[-2]], RANK_INDEX[card[:-2]], int(card[-1]))


def name_fr(card: str) -> str:
    """Accessible French name: « Dame de cœur », « 7 de trèfle », « Joker »."""
    if is_joker(card):
        return "Joker"
    return f"{RANK_NAMES_FR[rank_of(card)]} de {SUIT_NAMES_FR[suit_of(card)]}"


RANK_LETTERS_FR = {"J": "V", "Q": "D", "K": "R"}  # valet, dame, roi: the letters printed on French decks


def rank_label(card: str) -> str:
    """The rank as printed on a French card: "D" for a queen, "10", "A"; "" for a joker."""
    rank = rank_of(card)
    return "" if rank is None else RANK_LETTERS_FR.get(rank, rank)


def label(card: str) -> str:
    """Short label with symbol: "D♥", "10♠", "JOKER"."""
    if is_joker(card):
        return "JOKER"
    return f"{rank_label(card)}{SUIT_SYMBOLS[suit_of(card)]}"


def deadwood_value(card: str) -> int:
    """Usual penalty value of a card left in hand: A=1, 2–10 face value, figures 10, joker 25."""
    if is_joker(card):
        return 25
    return min(RANK_INDEX[rank_of(card)], 10)
