"""The trick games' events in words (Thunee: bids, trump, calls, cards played, tricks, Jodhis)."""

from engine import cards
from engine.narration.words import card_words, cards_list, plural

KEPT = {
    "bid": ("seat", "value"),
    "bid_pass": ("seat",),
    "redeal": (),
    "trump": ("seat", "suit", "by"),
    "thunee": ("seat",),
    "blind_thunee": ("seat",),
    "play": ("seat", "card"),
    "trick": ("winner", "points"),
    "jodhi": ("seat", "cards", "points"),
    "double": ("seat",),
    "khanuck": ("seat",),
    "deal_over": ("reason",),
}
_CALLS = {"thunee": "Thunee", "blind_thunee": "Thunee aveugle", "double": "Double", "khanuck": "Khanuck"}


def _call(name: str):
    """« a annoncé Thunee ! »."""
    return lambda evt, names: (evt.get("seat"), "avoir", f"annoncé {name} !")


def _trump(evt, names):
    suit = cards.SUIT_NAMES_FR.get(evt.get("suit"), "?")
    if evt.get("by") == "lead":
        return None, "", f"L'atout est {suit}."
    return evt.get("seat"), "avoir", f"choisi l'atout {suit}"


def _trick(evt, names):
    points = evt.get("points")
    return evt.get("winner"), "avoir", f"pris le pli ({points} point{plural(points)})"


def _jodhi(evt, names):
    points = evt.get("points")
    return evt.get("seat"), "avoir", f"annoncé un Jodhi ({cards_list(evt.get('cards') or [])} : {points} points)"


PHRASES = {
    "bid": lambda evt, names: (evt.get("seat"), "avoir", f"annoncé {evt.get('value')}"),
    "bid_pass": lambda evt, names: (evt.get("seat"), "avoir", "passé"),
    "redeal": lambda evt, names: (None, "", "Tout le monde a passé : nouvelle donne par le même donneur."),
    "trump": _trump,
    **{kind: _call(name) for kind, name in _CALLS.items()},
    "play": lambda evt, names: (evt.get("seat"), "avoir", f"joué {card_words(evt.get('card'))}"),
    "trick": _trick,
    "jodhi": _jodhi,
    "deal_over": lambda evt, names: (None, "", evt.get("reason") or "Donne terminée."),
}
