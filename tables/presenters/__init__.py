"""Turn an engine view into what the table's pieces draw.

The frame every table shares (seats, turn, clock, what just happened, the leave cost: `frame`) is built the
same for every game; what a view becomes inside the pieces belongs to the game's family: one presenter per
family (tables/presenters/<family>.py, registered in tables.families and chosen by the engine's `family`, never by
a game's name), drawing with the family's pieces under templates/tables/live/<folder>/. A family without a
presenter has no live table yet: its games are not offered in the lobby (tables.families.live_slugs).
"""

import pkgutil
from importlib import import_module

from tables.families import presenter_for
from tables.models import Seat, Table, engine_for
from tables.presenters.frame import frame_context

SHARED = frozenset({"base", "frame"})  # modules of this package that are not a family's


def autodiscover() -> None:
    """Import every family's presenter module, each registering its presenter (tables.families)."""
    for module in pkgutil.iter_modules(__path__):
        if module.name not in SHARED:
            import_module(f"{__name__}.{module.name}")


def table_context(table: Table, seats: list[Seat], me: Seat | None, *, error: str | None = None,
                  viewer: int | None = None) -> dict:
    """`viewer`: the place of a player watching without his seat's view (a replay of his own match, drawn from
    the public view): the family's pieces take his side in their words (« Nous », « Partenaire »), no more."""
    engine = engine_for(table)
    presenter = presenter_for(engine)
    state = table.state
    view = None
    if state is not None:
        view = engine.view(state, me.position) if me is not None else engine.public_view(state)
    ctx = frame_context(table, seats, me, engine, view, error)
    ctx["viewer"] = me.position if me is not None else viewer
    ctx["pieces"] = presenter.templates()
    if view is not None:
        ctx.update(presenter.context(engine, view, ctx, table=table, seats=seats, me=me))
    return ctx
