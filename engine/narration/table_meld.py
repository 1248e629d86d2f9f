"""The table-meld rummies' events in words: melds laid, lay-offs, jokers taken back, the first lay-down, going out."""

from engine.narration.words import card_words, cards_list, cards_words, meld_noun, plural

KEPT = {
    "meld": ("seat", "cards", "wilds", "meld_kind", "points"),
    "lay_off": ("seat", "cards", "wilds"),
    "swap_joker": ("seat", "cards", "joker"),
    "opened": ("seat", "points"),
    "take_undone": ("seat", "card"),
    "go_out": ("seat",),
}


def _meld_owner(evt: dict) -> dict:
    """Whose meld a lay-off or a joker swap touched, and its kind (the event carries the whole meld)."""
    meld = evt.get("meld")
    return {"owner": meld.get("owner"), "meld_kind": meld.get("kind")} if isinstance(meld, dict) else {}


EXTRA = {"lay_off": _meld_owner, "swap_joker": _meld_owner}


def _meld(evt, names):
    ids = evt.get("cards") or []
    points = evt.get("points")
    worth = f" ({points} point{plural(points)})" if points else ""
    noun = meld_noun(evt.get("meld_kind"), len(ids))
    return evt.get("seat"), "avoir", f"posé {noun}{worth} : {cards_list(ids, evt.get('wilds'))}"


def _lay_off(evt, names):
    seat = evt.get("seat")
    owner = evt.get("owner")
    whose = "une de {ses} combinaisons" if owner == seat else (
        f"une combinaison de {names[owner]}" if owner in names else "une combinaison")
    return seat, "avoir", f"ajouté {cards_words(evt.get('cards') or [], evt.get('wilds'))} à {whose}"


def _opened(evt, names):
    points = evt.get("points")
    return evt.get("seat"), "avoir", f"fait {{sa}} première pose ({points} point{plural(points)})"


PHRASES = {
    "meld": _meld,
    "lay_off": _lay_off,
    "swap_joker": lambda evt, names: (evt.get("seat"), "avoir",
                                      f"repris un joker contre {cards_words(evt.get('cards') or [])}"),
    "opened": _opened,
    "take_undone": lambda evt, names: (evt.get("seat"), "avoir",
                                       f"reposé {card_words(evt.get('card'))} sur la défausse"),
    "go_out": lambda evt, names: (evt.get("seat"), "être", "sorti"),
}
