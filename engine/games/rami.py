"""Rami (13 cartes) (../shared/rules/rami.md): 110 cards with 6 jokers, first lay-down of 30 points.

Melds of at least two natural cards; lay-offs and joker swaps on any table meld once opened; going out
by laying down or discarding the last card; « main lisse » (all laid in one turn) doubles the others'
penalties; a total over the point limit (1, 50 or 100) eliminates.
"""

from engine import cards
from engine.base import GameInfo, Option
from engine.games._table_meld import TableMeldGame
from engine.melds.rules import MeldRules

DECK = tuple(cards.deck(copies=2, jokers=6))
RULES = MeldRules(jokers_wild=True, ace_low=True, ace_high=True, all_wild_ok=False, min_naturals=2,
                  joker_value=30)
LIMITS = (("1", "1 point (jeu court)"), ("50", "50 points"), ("100", "100 points"))


class Rami(TableMeldGame):
    info = GameInfo(
        slug="rami", name="Rami (13 cartes)", min_players=2, max_players=4, default_players=4,
        options=(Option("point_limit", "Limite de points", LIMITS, "100"),),
        order=2,
        tagline="Six jokers, première pose à 30 points, élimination à 1, 50 ou 100.",
        bots="engine.bots.table_meld", problems="table_meld",
    )
    deck = DECK
    deck_set = frozenset(DECK)
    rule_sections = {**TableMeldGame.rule_sections, "cannot_lay_off": "ajouter",
                     **dict.fromkeys(("bad_joker", "cannot_swap", "joker_locked"), "echanger-un-joker")}
    turn_actions = frozenset({"draw_stock", "take_discard", "meld", "lay_off", "swap_joker", "undo", "discard",
                              "go_out"})
    stats_labels = {"rounds_won": "Manches gagnées", "main_lisse": "Mains lisses"}
    hand_size = 13
    threshold = 30
    rules = RULES
    ace_penalty = 15
    joker_penalty = 30
    go_out = True
    swap = "one"

    def _ending(self, state: dict, winner: int, was_opened: bool, used_existing: bool) -> str:
        """§6: « main lisse » when the winner had not opened before this turn."""
        return "out" if was_opened else "main_lisse"

    def _round_points(self, state: dict, winner: int, ending: str, hand_points: dict) -> list:
        factor = 2 if ending == "main_lisse" else 1
        return [None if s not in hand_points else 0 if s == winner else factor * hand_points[s]
                for s in range(state["seats"])]


GAME = Rami()

__all__ = ["DECK", "GAME", "RULES", "Rami"]
