"""What a table refuses, in French: the one error every layer of tables/ raises and the interfaces show."""


class TableError(Exception):
    """A request the table refuses, with a French message for the player."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message = message
        self.code = code
