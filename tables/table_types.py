"""What the table types ask of a game, read from its engine's declarations only (no game named here).

- Friends: the host seats friends and robots; the game's own options.
- Quick start: any game; the players waiting, then robots (tables.quick_start).
- Arena: the engine's Arena format (e.g. three rounds plus the engine's tie-break rounds), for an entry
  stake. Offered for a game whose engine declares `GameInfo.arena_options`; those options are forced.
"""


def arena_options(info) -> dict | None:
    """{option: value} an Arena forces on this game (its engine's `GameInfo.arena_options`), or None."""
    return dict(info.arena_options) if info.arena_options else None


def arena_possible(info) -> bool:
    return arena_options(info) is not None
