"""The coach's words for the trick games (Thunee): bids, trump, the card to play, Jodhis."""

from engine import cards
from engine.narration.words import card_words, cards_list, plural


def reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    hand = list(view.get("hand") or [])
    if action == "bid":
        return f"Enchéris {move.get('value')} : ta main est assez forte pour choisir l'atout."
    if action == "pass":
        return "Passe : ce n'est pas le moment d'annoncer."
    if action == "choose_trump" and move.get("suit"):
        suit = move["suit"]
        count = sum(1 for c in hand if not cards.is_joker(c) and cards.suit_of(c) == suit)
        name = cards.SUIT_NAMES_FR.get(suit, suit)
        return f"Choisis l'atout {name} : tu as {count} carte{plural(count)} de cette couleur."
    if action == "play_card" and move.get("card"):
        return f"Joue {card_words(move['card'])} : c'est la carte qui rapporte le plus à ton équipe ici."
    if action == "declare_jodhi":
        return f"Annonce ton Jodhi ({cards_list(move.get('cards') or [])}) : il rapporte des points."
    if action == "jodhi_done":
        return "Termine : tu n'as plus de Jodhi à annoncer."
    return ""
