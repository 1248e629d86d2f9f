"""Turn an engine view into what the table's pieces draw (tables.rendering.table_context puts them together).

The frame every table shares (seats, turn, clock, what just happened, the leave cost: `frame`) is built the
same for every game; what a view becomes inside the pieces belongs to the game's family: one presenter per
family (tables/presenters/<family>.py, registered in tables.families and chosen by the engine's `family`, never by
a game's name), drawing with the family's pieces under templates/tables/live/<folder>/. A family without a
presenter has no live table yet: its games are not offered in the lobby (tables.families.live_slugs).
"""

import pkgutil
from importlib import import_module

SHARED = frozenset({"base", "frame"})  # modules of this package that are not a family's


def autodiscover() -> None:
    """Import every family's presenter module, each registering its presenter (tables.families)."""
    for module in pkgutil.iter_modules(__path__):
        if module.name not in SHARED:
            import_module(f"{__name__}.{module.name}")
