"""The tile rummy's events in words (Rummikub: a turn committed, with the rack tiles it laid)."""

from engine.narration.words import plural

KEPT = {"table": ("seat", "placed")}


def _table(evt, names):
    placed = len(evt.get("placed") or ())
    return evt.get("seat"), "avoir", f"posé {placed} tuile{plural(placed)}"


PHRASES = {"table": _table}
