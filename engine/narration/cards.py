"""The hand-of-cards games' own events in words (Thanasis: « fermé », Gin: « frappé », « fait Gin », undercut)."""

from engine.narration.words import card_words, plural

KEPT = {
    "close": ("seat", "card", "thanasis", "first_turn"),
    "knock": ("seat", "card", "deadwood_points"),
    "gin": ("seat",),
    "undercut": ("seat", "knocker"),
}


def _close(evt, names):
    how = "fait Thanasis" if evt.get("thanasis") else "fermé"
    if evt.get("first_turn"):
        how += " d'entrée"
    return evt.get("seat"), "avoir", f"{how} en jetant {card_words(evt.get('card'))}"


def _knock(evt, names):
    points = evt.get("deadwood_points")
    rest = f" ({points} point{plural(points)} hors combinaisons)" if points else ""
    return evt.get("seat"), "avoir", f"frappé en jetant {card_words(evt.get('card'))}{rest}"


PHRASES = {
    "close": _close,
    "knock": _knock,
    "gin": lambda evt, names: (evt.get("seat"), "avoir", "fait Gin"),
    "undercut": lambda evt, names: (evt.get("seat"), "avoir",
                                    f"contré {names.get(evt.get('knocker'), 'celui qui a frappé')} (undercut)"),
}
