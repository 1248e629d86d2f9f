"""The pieces of the two partnership Canastas: 108 cards (canasta.md §1) or 106 tiles (canasta-tuiles.md §1).

Every piece has a *rank key*: the rank it melds as (cards "A", "4" … "K", "3"; tiles "1", "4" … "13", "3";
the wild ranks "2" and "JK" for cards, "2" and "J" for tiles). Tables are precomputed per deck.
"""

from dataclasses import dataclass, field

from engine import cards
from engine.games import _tiles

CARD_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK")  # hand order
TILE_RANKS = ("3", "1", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "2", "J")

CARD_RANK_FR = {"A": "As", "J": "Valets", "Q": "Dames", "K": "Rois", "2": "2", "JK": "Jokers", "3": "3 noirs"}


@dataclass(frozen=True)
class Pieces:
    kind: str  # "cards" | "tiles"
    deck: tuple
    rank: dict = field(repr=False)  # piece -> rank key
    value: dict = field(repr=False)  # piece -> points (laid or left in hand)
    wild_ranks: frozenset
    joker_rank: str  # the printed joker's rank key ("JK" / "J")
    bonus_threes: frozenset  # red 3s (cards), red and yellow 3s (tiles)
    block_threes: frozenset  # black 3s / blue and black 3s
    order: dict = field(repr=False)  # piece -> hand sort key (rank order, wilds last)

    def is_wild(self, p: str) -> bool:
        return self.rank[p] in self.wild_ranks

    def name(self, p: str) -> str:
        """« Dame de cœur » / « Tuile 7 rouge » / « Joker »."""
        return cards.name_fr(p) if self.kind == "cards" else _tiles.tile_name(p)

    def rank_name(self, rank: str) -> str:
        """The French name of a meld's rank: « Rois », « 7 », « 2 »."""
        if self.kind == "cards":
            return CARD_RANK_FR.get(rank, rank)
        return "Jokers" if rank == "J" else rank

    def sort(self, pieces) -> list[str]:
        return sorted(pieces, key=self.order.__getitem__)


def _card_value(c: str) -> int:
    if cards.is_joker(c):
        return 50
    rank = cards.rank_of(c)
    if rank in ("2", "A"):
        return 20
    if rank in ("K", "Q", "J", "10", "9", "8"):
        return 10
    if rank == "3" and cards.suit_of(c) in "HD":
        return 0  # a red 3 is a bonus card, never in a meld or a hand
    return 5


def _tile_value(t: str) -> int:
    if _tiles.is_joker(t):
        return 50
    n = _tiles.number_of(t)
    return {1: 25, 2: 20, 3: 0}.get(n, 5 if n <= 9 else 10)


def card_pieces() -> Pieces:
    deck = tuple(cards.deck(copies=2, jokers=4))
    rank = {c: ("JK" if cards.is_joker(c) else cards.rank_of(c)) for c in deck}
    order = {c: (CARD_RANKS.index(rank[c]), cards.sort_key(c)) for c in deck}
    return Pieces(
        kind="cards", deck=deck, rank=rank, value={c: _card_value(c) for c in deck},
        wild_ranks=frozenset({"2", "JK"}), joker_rank="JK",
        bonus_threes=frozenset(c for c in deck if rank[c] == "3" and cards.suit_of(c) in "HD"),
        block_threes=frozenset(c for c in deck if rank[c] == "3" and cards.suit_of(c) in "SC"),
        order=order,
    )


def tile_pieces() -> Pieces:
    deck = _tiles.TILES
    rank = {t: ("J" if _tiles.is_joker(t) else str(_tiles.number_of(t))) for t in deck}
    order = {t: (TILE_RANKS.index(rank[t]), _tiles.sort_key(t)) for t in deck}
    return Pieces(
        kind="tiles", deck=deck, rank=rank, value={t: _tile_value(t) for t in deck},
        wild_ranks=frozenset({"2", "J"}), joker_rank="J",
        bonus_threes=frozenset(t for t in deck if rank[t] == "3" and t[0] in "RY"),
        block_threes=frozenset(t for t in deck if rank[t] == "3" and t[0] in "BK"),
        order=order,
    )
