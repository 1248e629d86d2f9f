"""Errors the engine raises. Codes are stable; messages are French, for players."""


class IllegalMove(Exception):
    """A move the rules refuse. The state it was tried on is left unchanged."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
