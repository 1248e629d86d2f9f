"""Turn an engine view into what the table's pieces draw.

The frame every table shares (seats, turn, clock, what just happened, the leave cost: `frame`) is built the
same for every game; what a view becomes inside the pieces belongs to the game's family: one presenter per
family (`FAMILIES`, chosen by the engine's `family`, never by a game's name), drawing with the family's pieces
under templates/tables/live/<folder>/. A family without a presenter has no live table yet: its games are not
offered in the lobby (tables.forms.live_slugs).
"""

from functools import cache
from importlib import import_module

from tables.models import Seat, Table
from tables.presenters.base import Presenter
from tables.presenters.frame import frame_context

FAMILIES = {
    "cards": "tables.presenters.cards",
    "table_meld": "tables.presenters.table_meld",
    "tiles": "tables.presenters.tiles",
    "tricks": "tables.presenters.tricks",
    "team_meld": "tables.presenters.team_meld",
}


@cache
def presenter_for(engine) -> Presenter | None:
    module = FAMILIES.get(getattr(engine, "family", ""))
    return None if module is None else import_module(module).PRESENTER


def template_globals() -> dict:
    """Every family's template functions, for the live pieces' environment (tables.live)."""
    merged = {}
    for module in FAMILIES.values():
        merged.update(import_module(module).PRESENTER.template_globals)
    return merged


def table_context(table: Table, seats: list[Seat], me: Seat | None, *, error: str | None = None,
                  viewer: int | None = None) -> dict:
    """`viewer`: the place of a player watching without his seat's view (a replay of his own match, drawn from
    the public view): the family's pieces take his side in their words (« Nous », « Partenaire »), no more."""
    from tables.services import engine_for

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
