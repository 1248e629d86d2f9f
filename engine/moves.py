"""The shape of a move: the parameters a game accepts, their types and sizes.

A move arrives from a client as any JSON. Before the rules read it, `clean` keeps it to the parameters its
game declares (`Game.move_shape`), each of the declared type and size, with text that any database can store
(valid UTF-8: no lone surrogate, no NUL). The table service applies and logs only the cleaned move, so a
legal move can never carry junk into the move log.
"""

from dataclasses import dataclass

from engine.errors import IllegalMove

BAD_MOVE = "Coup invalide."


@dataclass(frozen=True)
class Text:
    max_len: int = 16

    def clean(self, value):
        if not isinstance(value, str) or not value or len(value) > self.max_len or not _storable(value):
            raise ValueError
        return value


@dataclass(frozen=True)
class Flag:
    """A yes/no; the HTTP fallback sends form fields as text, so "true" / "false" are read too."""

    def clean(self, value):
        if isinstance(value, bool):
            return value
        if value in ("true", "false"):
            return value == "true"
        raise ValueError


@dataclass(frozen=True)
class Maybe:
    """A parameter that may be sent as null (the same as leaving it out)."""

    inner: object

    def clean(self, value):
        return None if value is None else self.inner.clean(value)


@dataclass(frozen=True)
class ListOf:
    item: object
    max_items: int

    def clean(self, value):
        if not isinstance(value, list) or len(value) > self.max_items:
            raise ValueError
        return [self.item.clean(v) for v in value]


@dataclass(frozen=True)
class MapOf:
    key: Text
    value: object
    max_items: int

    def clean(self, value):
        if not isinstance(value, dict) or len(value) > self.max_items:
            raise ValueError
        return {self.key.clean(k): self.value.clean(v) for k, v in value.items()}


def _storable(text: str) -> bool:
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800"): PostgreSQL refuses it
        return False
    return True


ACTION = Text(32)
CARD = Text(8)
BASE_SHAPE = {"action": ACTION}


def clean(move, shape: dict) -> dict:
    """`move` reduced to what `shape` declares, or IllegalMove (French) naming what is wrong."""
    if not isinstance(move, dict) or "action" not in move:
        raise IllegalMove("bad_move", BAD_MOVE)
    cleaned = {}
    for key, value in move.items():
        spec = shape.get(key) if isinstance(key, str) else None
        if spec is None:
            raise IllegalMove("unknown_param", "Coup invalide : il contient un élément que ce jeu ne connaît pas.")
        try:
            cleaned[key] = spec.clean(value)
        except (ValueError, RecursionError):
            raise IllegalMove("bad_param", f"Coup invalide : « {key} » n'a pas la forme attendue.") from None
    return cleaned
