"""Canasta en équipe, tuiles (../shared/rules/canasta-tuiles.md): 106 tiles, four players in partnerships."""

from engine.base import GameInfo, Option
from engine.games._canasta import CanastaGame
from engine.games._canasta_pieces import tile_pieces
from engine.games._canasta_rules import CanastaRules

RULES = CanastaRules(
    pieces=tile_pieces(), hand_size=14, first_extra=1, upcard=False, freezing=False, direction=-1,
    thresholds=((7000, 150), (3000, 120), (1500, 90), (0, 50)), below_zero=15,
    min_naturals=2, max_wilds=3, wilds_fewer=True, twos_meld=True, black_three_meld=False,
    bonus={"clean": 500, "dirty": 300, "twos_clean": 1000, "twos_dirty": 700},
    red3_each=100, red3_all=400, black3_in_hand=100, going_out=100, concealed=None,
    go_out_question=False, go_out_action=False, pile_one_card_rule=False, take_with_wild=False, target=None,
)

MATCH_LENGTH = Option(
    name="match_length", label="Durée de la partie",
    choices=(("1", "1 manche"), ("3", "3 manches"), ("10000", "10 000 points")), default="3",
)


class CanastaTuiles(CanastaGame):
    rules = RULES
    info = GameInfo(slug="canasta-tuiles", name="Canasta en équipe (tuiles)", min_players=4, max_players=4,
                    default_players=4, options=(MATCH_LENGTH,), teams=True,
                    account_points_per_round=1000, account_jokers=True, turn_timers=(30, 45, 60),
                    default_turn_timer=45, feminine=True,
                    arena_options={"match_length": "3"},  # §7: the Arena is three rounds plus tie-breaks
                    order=9, bots="engine.bots.canasta", problems="canasta",
                    tagline="La Canasta jouée avec des tuiles, en équipes.")

    rule_sections = {**CanastaGame.rule_sections,
                     **dict.fromkeys(("no_joker_left", "no_joker_balance"), "bouton-joker")}

    table_words = {
        "closed": {"clean": "Canasta propre", "dirty": "Canasta sale", "twos_clean": "Canasta de 2 propre",
                   "twos_dirty": "Canasta de 2 sale"},
        "closed_noun": "canasta",
        "bonus_row": "Primes de canasta",
        "bonus_three": "3 rouge ou jaune",
        "threes_row": "3 rouges et jaunes",
        "blocking_threes_row": "3 noirs et bleus en main",
        "celebrate": {"out": "Canasta !", "concealed": "Canasta ! Sortie cachée !"},
        "match_default": "",
    }

    def match_decided(self, state: dict) -> bool:
        """§7: after round 1 or 3, or the first round a team reaches 10,000; a tie adds a round."""
        a, b = state["team_scores"]["A"], state["team_scores"]["B"]
        if a == b:
            return False
        length = state["options"]["match_length"]
        if length == "10000":
            return max(a, b) >= 10000
        return state["round"] >= int(length)


GAME = CanastaTuiles()
