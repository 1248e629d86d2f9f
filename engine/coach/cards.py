"""The coach's words for the hand-of-cards games (and the draw and discard of the table-meld rummies): what to
throw, take, draw, and when to close or knock."""

from engine.coach.words import Hand, cap, points, pronoun
from engine.narration.words import card_words


def reason(game, view: dict, move: dict, legal: list[dict]) -> str:
    action = move.get("action")
    card = move.get("card")
    top = view.get("discard_top")
    hand = Hand(game, view)
    if action in ("discard", "close", "knock") and card:
        left = hand.deadwood([c for c in hand.hand if c != card])
        value = hand.value(card)
        if action == "close":
            what = "fais Thanasis" if left == 0 else "ferme"
            return (f"{cap(what)} en jetant {card_words(card)} : il ne te reste que {points(left)} hors "
                    f"combinaisons.")
        if action == "knock":
            if left == 0:
                return f"Frappe (Gin !) en jetant {card_words(card)} : toutes tes cartes sont en combinaisons."
            return f"Frappe en jetant {card_words(card)} : il ne te reste que {points(left)} hors combinaisons."
        if card in hand.loose():
            return (f"Défausse {card_words(card)} : {pronoun(card)} ne sert à aucune combinaison et vaut "
                    f"{points(value)}.")
        return (f"Défausse {card_words(card)} : c'est la carte dont tu te passes le mieux "
                f"({points(left)} hors combinaisons ensuite).")
    if action == "draw_stock":
        if top and any(m.get("action") == "take_discard" for m in legal):
            return f"Pioche : {card_words(top)} de la défausse ne t'aide pas assez pour la prendre."
        if len(legal) == 1:
            return "Pioche : c'est le seul coup possible."
        return "Pioche une carte."
    if action == "take_discard" and top:
        now = hand.deadwood(hand.hand)
        after = min(hand.deadwood([c for c in hand.hand + [top] if c != out]) for out in hand.hand)
        if after < now:
            return (f"Prends {card_words(top)} dans la défausse : {pronoun(top)} te fait passer de {now} à "
                    f"{points(after)} hors combinaisons.")
        return f"Prends {card_words(top)} dans la défausse : {pronoun(top)} s'accorde avec ta main."
    if action == "pass" and top:
        return f"Passe : {card_words(top)} ne t'aide pas."
    return ""
