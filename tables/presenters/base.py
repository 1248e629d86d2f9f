"""What a game family's presenter is: how its engine's view becomes what the family's pieces draw."""

# Drawn from the frame alone: templates/tables/live/<part>.jinja.
GENERIC_PIECES = ("status", "scores", "move_log", "chat_form")


class Presenter:
    """One per family of games (`family`, registered in tables.families), chosen by the engine's `family`.

    `folder`: where the family's pieces are, templates/tables/live/<folder>/<part>.jinja, one per part of
    `pieces`; the other parts of the table are the generic ones. `context` adds to the frame (seats, turn,
    clock, what just happened: tables.presenters.frame) what the family's pieces read."""

    family: str = ""
    folder: str = ""
    pieces: tuple[str, ...] = ()
    template_globals: dict = {}  # functions the family's templates call (tables.live.cached_macro)
    # The family's own stylesheets and scripts (static/), beside every table's css/table.css and js/table.js: a
    # table page loads its family's only.
    stylesheets: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()

    def templates(self) -> dict[str, str]:
        own = {part: f"tables/live/{self.folder}/{part}.jinja" for part in self.pieces}
        return {**{part: f"tables/live/{part}.jinja" for part in GENERIC_PIECES}, **own}

    def context(self, engine, view: dict, frame: dict, *, table, seats: list, me) -> dict:
        """What this family's pieces need beyond the frame (`view`: the seat's view, never None here)."""
        raise NotImplementedError
