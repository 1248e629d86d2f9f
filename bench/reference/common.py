"""Helpers the reference opponents share: reading the legal moves."""


def first(legal: list[dict], action: str) -> dict | None:
    """The first legal move of `action`, or None."""
    return next((m for m in legal if m.get("action") == action), None)


def of(legal: list[dict], action: str) -> list[dict]:
    """Every legal move of `action`."""
    return [m for m in legal if m.get("action") == action]
