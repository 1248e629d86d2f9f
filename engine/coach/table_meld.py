"""The coach's words for the table-meld rummies: their draw and discard as the hand-of-cards games say them, and
melds, lay-offs, jokers taken back, going out."""

from engine import cards
from engine.coach import cards as hand_of_cards
from engine.narration.words import cards_list, meld_noun


def reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    return hand_of_cards.reason(game, view, move, legal) or _meld_reason(game, view, move, legal)


def _meld_reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    ids = list(move.get("cards") or [])
    if action == "meld" and ids:
        return (f"Pose {meld_noun(_meld_kind(ids, move.get('wilds')), len(ids))} : "
                f"{cards_list(ids, move.get('wilds'))}.")
    if action == "lay_off" and ids:
        return f"Ajoute {cards_list(ids, move.get('wilds'))} à une combinaison de la table."
    if action == "swap_joker" and ids:
        return f"Reprends le joker de la table contre {cards_list(ids)} : il te servira dans tes combinaisons."
    if action == "go_out":
        return "Sors : tu poses toute ta main."
    if action == "undo":
        return "Annule ce que tu as préparé : ce n'est pas le bon coup."
    return ""


def _meld_kind(ids: list[str], wilds: dict | None) -> str:
    ranks = {cards.rank_of(c) for c in ids if not cards.is_joker(c)}
    return "set" if len(ranks) <= 1 else "run"
