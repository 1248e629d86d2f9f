"""Registry of games by slug (the rules file names)."""

from importlib import import_module

SLUGS = (
    "thanasis", "rami", "rami40", "kalooki", "rami-traditionnel",
    "gin", "rummikub", "canasta", "canasta-tuiles", "thunee",
)

_MODULES = {
    "thanasis": "engine.games.thanasis",
    "gin": "engine.games.gin",
    "rami": "engine.games.rami",
    "rami40": "engine.games.rami40",
    "kalooki": "engine.games.kalooki",
    "rami-traditionnel": "engine.games.rami_traditionnel",
    "rummikub": "engine.games.rummikub",  # engine only: no bot yet, so tables.forms.live_slugs leaves it out
    "canasta": "engine.games.canasta",
    "canasta-tuiles": "engine.games.canasta_tuiles",
    "thunee": "engine.games.thunee",
}

_cache: dict = {}


def available() -> list[str]:
    """Slugs that have an engine, in catalogue order."""
    return [s for s in SLUGS if s in _MODULES]


def get(slug: str):
    """The game object for `slug`; KeyError if no engine implements it yet."""
    if slug not in _cache:
        if slug not in _MODULES:
            raise KeyError(slug)
        _cache[slug] = import_module(_MODULES[slug]).GAME
    return _cache[slug]
