"""Rami traditionnel (../shared/rules/rami-traditionnel.md): 104 cards, no jokers, 10 cards each.

No first lay-down count: anyone may meld and lay off on any turn. The first player to empty his hand
scores the cards left in the other hands (ace 11), plus 25 for a « chasse » (the whole hand laid in one
turn with nothing laid before); the match goes to a target score (or one round).
"""

from fractions import Fraction

from engine import cards
from engine.base import GameInfo, Option
from engine.games._draw_discard import ROUND_OVER
from engine.games._table_meld import TableMeldGame
from engine.melds.rules import MeldRules

DECK = tuple(cards.deck(copies=2, jokers=0))
RULES = MeldRules(jokers_wild=False, ace_low=True, ace_high=True, all_wild_ok=False)
TARGETS = (("1", "1 manche"), ("100", "100 points"), ("250", "250 points"), ("500", "500 points"))
CHASSE_BONUS = 25
PRIZE_GAP = 80


def prize_split(scores: list, winner: int, players: list[int]) -> list[str]:
    """§7: the winner gets 3/4 of the pot; the players whose total is more than the winner's minus 80
    share 1/4 in proportion to their totals; nobody qualifying (or all at 0): the winner takes all.
    One fraction string per seat ("3/4")."""
    shares = [Fraction(0)] * len(scores)
    floor = scores[winner] - PRIZE_GAP
    weights = {p: scores[p] for p in players if p != winner and scores[p] > floor}
    total = sum(weights.values())
    if not weights or total == 0:
        shares[winner] = Fraction(1)
    else:
        shares[winner] = Fraction(3, 4)
        for p, w in weights.items():
            shares[p] = Fraction(1, 4) * Fraction(w, total)
    return [str(s) for s in shares]


class RamiTraditionnel(TableMeldGame):
    info = GameInfo(
        slug="rami-traditionnel", name="Rami traditionnel", min_players=2, max_players=4, default_players=4,
        options=(Option("target", "Score à atteindre", TARGETS, "250"),),
        order=5,
        tagline="Le rami de toujours, sans joker.",
        bots="engine.bots.table_meld", problems="table_meld",
    )
    deck = DECK
    deck_set = frozenset(DECK)
    # No first-meld minimum here: the turn's section says so.
    rule_sections = {**TableMeldGame.rule_sections, "cannot_lay_off": "ajouter",
                     **dict.fromkeys(("below_threshold", "must_open_first", "taken_card_not_in_meld"), "tour-de-jeu")}
    turn_actions = frozenset({"draw_stock", "take_discard", "meld", "lay_off", "undo", "discard", "go_out"})
    stats_labels = {"rounds_won": "Manches gagnées", "chasse": "Chasses"}
    stats_low_is_better = False  # only the round's winner scores
    hand_size = 10
    threshold = None
    rules = RULES
    ace_penalty = 11
    go_out = True
    match_option = "target"

    def _ending(self, state: dict, winner: int, was_opened: bool, used_existing: bool) -> str:
        """§6: « chasse » when the winner had laid nothing before this turn."""
        return "sortie" if was_opened else "chasse"

    def _round_points(self, state: dict, winner: int, ending: str, hand_points: dict) -> list:
        gain = sum(p for s, p in hand_points.items() if s != winner)
        if ending == "chasse":
            gain += CHASSE_BONUS
        return [None if s not in hand_points else gain if s == winner else 0 for s in range(state["seats"])]

    def _blocked_points(self, state: dict, hand_points: dict) -> list:
        """§9: a blocked round has nobody out, and only the player who goes out scores: nobody scores."""
        return [0 if s in hand_points else None for s in range(state["seats"])]

    def _after_round(self, new: dict, winner: int | None, ending: str, points: list, players: list,
                     last_card) -> list:
        """§7: the match ends when a total reaches the target (or after one round won: a blocked round,
        won by nobody, is dealt again)."""
        self._record(new, winner, ending, points, players, last_card)
        target = new["options"]["target"]
        active = new["active"]
        if (target == "1" and winner is not None) or any(new["scores"][s] >= int(target) for s in active):
            top = max(new["scores"][s] for s in active)
            return self._finish(new, [s for s in active if new["scores"][s] == top],
                                "single_round" if target == "1" else "target")
        new["phase"] = ROUND_OVER
        return []

    def _void_extra(self) -> dict:
        return {}

    def _ranking(self, state: dict, winners: list[int]) -> list[int]:
        """Winners first, then the players still in by the higher total, then the leavers (later first)."""
        step = {o["seat"]: o["step"] for o in state["out"]}
        rest = [s for s in range(state["seats"]) if s not in winners]
        rest.sort(key=lambda s: (s in step, -step.get(s, 0), -state["scores"][s], s))
        return list(winners) + rest

    def _finish(self, new: dict, winners: list[int], reason: str, **extra) -> list[dict]:
        if len(winners) == 1:
            extra["prize_split"] = prize_split(new["scores"], winners[0], list(new["active"]))
        return super()._finish(new, winners, reason, target=new["options"]["target"], **extra)


GAME = RamiTraditionnel()

__all__ = ["DECK", "GAME", "RULES", "RamiTraditionnel", "prize_split"]
