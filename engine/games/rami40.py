"""Rami 40 (../shared/rules/rami40.md): 106 cards with 2 jokers, first lay-down of 40 points.

The ace is high only; a card taken from the discard pile must be laid down in the same turn (the take
can be undone in view of everyone); a set of three gives its joker back for two naturals; every turn
ends with a discard; « Going Rami » (all laid in one turn) adds 25 to every loser.
"""

from engine import cards
from engine.base import GameInfo, Option
from engine.games._table_meld import TableMeldGame
from engine.melds.rules import MeldRules

DECK = tuple(cards.deck(copies=2, jokers=2))
RULES = MeldRules(jokers_wild=True, ace_low=False, ace_high=True, all_wild_ok=False, min_naturals=1,
                  joker_value=15)
LIMITS = (("1", "1 point (une manche)"), ("50", "50 points"), ("100", "100 points"))
GOING_RAMI_BONUS = 25


class Rami40(TableMeldGame):
    info = GameInfo(
        slug="rami40", name="Rami 40", min_players=2, max_players=4, default_players=4,
        options=(Option("point_limit", "Limite de points", LIMITS, "100"),),
        order=3,
        tagline="Ouvre avec 40 points et vide ta main avant les autres.",
        bots="engine.bots.table_meld", problems="table_meld",
    )
    deck = DECK
    deck_set = frozenset(DECK)
    rule_sections = {**TableMeldGame.rule_sections,
                     **dict.fromkeys(("bad_joker", "cannot_swap", "joker_locked"), "recuperer-un-joker"),
                     **dict.fromkeys(("taken_card_unused", "take_forbidden", "taken_card_not_in_meld"),
                                     "prendre-la-defausse")}
    turn_actions = frozenset({"draw_stock", "take_discard", "meld", "lay_off", "swap_joker", "undo", "discard"})
    stats_labels = {"rounds_won": "Manches gagnées", "going_rami": "Going Rami"}
    hand_size = 13
    threshold = 40
    rules = RULES
    ace_penalty = 11
    joker_penalty = 15
    swap = "two"
    take_must_be_used = True
    undo_take = True

    def _ending(self, state: dict, winner: int, was_opened: bool, used_existing: bool) -> str:
        """§6: « Going Rami » when the winner had not opened at the start of his last turn."""
        return "sortie_rami" if was_opened else "going_rami"

    def _round_points(self, state: dict, winner: int, ending: str, hand_points: dict) -> list:
        bonus = GOING_RAMI_BONUS if ending == "going_rami" else 0
        return [None if s not in hand_points else 0 if s == winner else hand_points[s] + bonus
                for s in range(state["seats"])]


GAME = Rami40()

__all__ = ["DECK", "GAME", "RULES", "Rami40"]
