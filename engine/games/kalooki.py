"""Kalooki (Rami 51) (../shared/rules/kalooki.md): 108 cards with 4 jokers, first lay-down of 51 points.

Ace low or high (1 or 11 meld points); lay-offs on anyone's melds and joker releases once opened (a set
of three for two naturals); every turn ends with a discard; « Going Rami » (the whole hand laid in one
turn in new melds of one's own) adds 25 to every loser.
"""

from engine import cards
from engine.base import GameInfo, Option
from engine.games._table_meld import TableMeldGame
from engine.melds.rules import MeldRules

DECK = tuple(cards.deck(copies=2, jokers=4))
RULES = MeldRules(jokers_wild=True, ace_low=True, ace_high=True, all_wild_ok=False, min_naturals=1,
                  joker_value=25)
LIMITS = (("1", "1 point (une manche)"), ("50", "50 points"), ("100", "100 points"))
GOING_RAMI_BONUS = 25


class Kalooki(TableMeldGame):
    info = GameInfo(
        slug="kalooki", name="Kalooki (Rami 51)", min_players=2, max_players=4, default_players=4,
        options=(Option("point_limit", "Limite de points", LIMITS, "100"),),
        order=4,
        tagline="Le rami exigeant : 51 points pour ta première pose.",
        bots="engine.bots.table_meld", problems="table_meld",
    )
    deck = DECK
    deck_set = frozenset(DECK)
    rule_sections = {**TableMeldGame.rule_sections,
                     **dict.fromkeys(("bad_joker", "cannot_swap", "joker_locked"), "recuperer-un-joker")}
    turn_actions = frozenset({"draw_stock", "take_discard", "meld", "lay_off", "swap_joker", "undo", "discard"})
    stats_labels = {"rounds_won": "Manches gagnées", "going_rami": "Going Rami"}
    hand_size = 13
    threshold = 51
    rules = RULES
    ace_penalty = 11
    joker_penalty = 25
    swap = "two"

    def _ending(self, state: dict, winner: int, was_opened: bool, used_existing: bool) -> str:
        """§6: « Going Rami » only with new melds of his own: a lay-off or a joker release on a meld
        already on the table before this turn makes it a Sortie Rami."""
        return "going_rami" if not was_opened and not used_existing else "sortie_rami"

    def _round_points(self, state: dict, winner: int, ending: str, hand_points: dict) -> list:
        bonus = GOING_RAMI_BONUS if ending == "going_rami" else 0
        return [None if s not in hand_points else 0 if s == winner else hand_points[s] + bonus
                for s in range(state["seats"])]


GAME = Kalooki()

__all__ = ["DECK", "GAME", "RULES", "Kalooki"]
