"""Canasta classique (../shared/rules/canasta.md): 108 cards, four players in partnerships, to 5,000."""

from engine.base import GameInfo
from engine.games._canasta import CanastaGame
from engine.games._canasta_pieces import card_pieces
from engine.games._canasta_rules import CanastaRules

RULES = CanastaRules(
    pieces=card_pieces(), hand_size=11, first_extra=0, upcard=True, freezing=True, direction=1,
    thresholds=((3000, 120), (1500, 90), (0, 50)), below_zero=15,
    min_naturals=2, max_wilds=3, wilds_fewer=False, twos_meld=False, black_three_meld=True,
    bonus={"clean": 500, "dirty": 300, "twos_clean": 0, "twos_dirty": 0},
    red3_each=100, red3_all=800, black3_in_hand=0, going_out=100, concealed=200,
    go_out_question=True, go_out_action=True, pile_one_card_rule=True, take_with_wild=True, target=5000,
)


class Canasta(CanastaGame):
    rules = RULES
    info = GameInfo(slug="canasta", name="Canasta classique", min_players=4, max_players=4, default_players=4,
                    teams=True, turn_timers=(30, 45, 60), default_turn_timer=45, feminine=True,
                    order=8, bots="engine.bots.canasta", problems="canasta",
                    tagline="Deux équipes, des canastas de sept cartes et des trois rouges.")

    table_words = {
        "closed": {"clean": "Canasta naturelle", "dirty": "Canasta mixte"},
        "closed_noun": "canasta",
        "bonus_row": "Primes de canasta",
        "bonus_three": "3 rouge",
        "threes_row": "3 rouges",
        "blocking_threes_row": "",
        "celebrate": {"out": "Canasta !", "concealed": "Canasta ! Sortie cachée !"},
        "match_default": "Partie en 5 000 points",
    }

    def match_decided(self, state: dict) -> bool:
        """§7: a team at 5,000 or more and the totals differ (equal totals: another hand)."""
        a, b = state["team_scores"]["A"], state["team_scores"]["B"]
        return max(a, b) >= RULES.target and a != b


GAME = Canasta()
