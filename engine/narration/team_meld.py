"""The partnership Canastas' events in words (engine/games/_canasta.py), with each rule set's own words for its
canastas (canasta.md: naturelle / mixte; canasta-tuiles.md: propre / sale, de 2)."""

from engine.narration.words import card_words, count_words, pieces_words

KEPT = {
    "take_pile": ("seat", "card", "count"),
    "team_meld": ("seat", "pieces", "rank", "points"),
    "team_lay_off": ("seat", "pieces", "rank"),
    "canasta": ("seat", "canasta", "material"),
    "red_three": ("seat", "card"),
    "ask_go_out": ("seat",),
    "answer_go_out": ("seat", "answer"),
    "decline_pile": ("seat",),
}

_CANASTA_KIND = {
    "cards": {"clean": "naturelle", "dirty": "mixte"},
    "tiles": {"clean": "propre", "dirty": "sale", "twos_clean": "de 2 propre", "twos_dirty": "de 2 sale"},
}
_WORDS = {
    "take_pile": lambda e: f"pris la pile ({count_words(e.get('count'), e['card'])}, avec "
                           f"{card_words(e['card'])})" if e.get("card") else "pris la pile",
    "team_meld": lambda e: f"posé {pieces_words(e.get('pieces') or [])} ({e.get('points', 0)} points)",
    "team_lay_off": lambda e: f"ajouté {pieces_words(e.get('pieces') or [])} à une combinaison de {{son}} équipe",
    "canasta": lambda e: f"fermé une canasta "
                         f"{_CANASTA_KIND.get(e.get('material'), {}).get(e.get('canasta'), '')}".rstrip(),
    "red_three": lambda e: f"étalé {card_words(e['card'])}" if e.get("card") else "étalé un 3",
    "ask_go_out": lambda e: "demandé « Partenaire, puis-je sortir ? »",
    "answer_go_out": lambda e: "répondu « oui »" if e.get("answer") == "yes" else "répondu « non »",
    "decline_pile": lambda e: "laissé la pile : la pioche est vide, la manche s'arrête",
}


def _by_the_seat(words):
    """The phrase of an event whose acting seat is the subject: « a … »."""
    return lambda evt, names: (evt.get("seat"), "avoir", words(evt))


PHRASES = {kind: _by_the_seat(words) for kind, words in _WORDS.items()}
