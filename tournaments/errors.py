class TournamentError(Exception):
    """A refused tournament action: `message` in French for the player, `code` for the code."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code
