"""The game families drawn at live tables: each family's presenter registers itself here when its module is
imported (tables/presenters/<family>.py, all imported once the app is ready: `TablesConfig.ready`).

A game is played live when its engine exists, robots can fill its seats, and its family has a presenter: the
lobby, the table form and the table service ask `live_slugs`. Nothing here names a game or a family.
"""

from engine import bots, games

PRESENTERS: dict = {}  # family -> its presenter (tables.presenters.base.Presenter)


def register(presenter):
    """Declare `presenter` (its `family`, folder, pieces, template functions) as its family's; returns it."""
    PRESENTERS[presenter.family] = presenter
    return presenter


def presenter_for(engine):
    """The presenter of the engine's family, or None: a family without one has no live table yet."""
    return PRESENTERS.get(getattr(engine, "family", ""))


def template_globals() -> dict:
    """Every family's template functions, for the live pieces' environment (tables.live)."""
    merged = {}
    for presenter in PRESENTERS.values():
        merged.update(presenter.template_globals)
    return merged


def live_slugs() -> list[str]:
    """Games playable at a live table: an engine, robots that can fill its seats, and a presenter for its family
    (the pieces that draw its table)."""
    return [slug for slug in games.available() if bots.supports(slug) and presenter_for(games.get(slug)) is not None]
