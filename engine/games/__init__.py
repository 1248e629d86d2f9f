"""Registry of games by slug (the rules file names), found rather than listed: every module of this package whose
name does not start with « _ » and that defines `GAME` is a game. Its `GameInfo` carries what the rest of the site
needs (name, seats, options, timers, catalogue place and pitch, its robots' adapter, its family): adding a game is
adding its module, with no list to edit."""

import pkgutil
from functools import cache
from importlib import import_module


@cache
def _registry() -> dict:
    found = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("_"):
            continue  # a family's shared rules and pieces
        game = getattr(import_module(f"{__name__}.{module.name}"), "GAME", None)
        if game is not None:
            found[game.info.slug] = game
    return dict(sorted(found.items(), key=lambda item: (item[1].info.order, item[0])))


def available() -> list[str]:
    """Slugs that have an engine, in catalogue order (`GameInfo.order`)."""
    return list(_registry())


def get(slug: str):
    """The game object for `slug`; KeyError if no engine implements it yet."""
    return _registry()[slug]


def forget() -> None:
    """Look for the games again at the next call (a test that adds a game module of its own)."""
    _registry.cache_clear()
