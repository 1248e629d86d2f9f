"""What the table types ask of a game, read from its engine's declarations only (no game named here).

- Friends: the host seats friends and robots; the game's own options.
- Quick start: any game; the players waiting, then robots (tables.quick_start).
- Arena: three rounds plus the engine's tie-break rounds, for an entry stake. Offered for a game whose engine
  declares a match-length option with a three-round value; that value is forced.
"""

import re

MATCH_LENGTH = "match_length"  # the option's name in the rules files' §8
_THREE_ROUNDS = re.compile(r"^(3|3_?rounds?|rounds?_?3)$", re.IGNORECASE)
_THREE_ROUNDS_LABEL = re.compile(r"^\s*3\s+(manches|tours)\b", re.IGNORECASE)


def arena_options(info) -> dict | None:
    """{option: value} an Arena forces on this game, or None when the game has no three-round format."""
    for opt in info.options:
        if opt.name != MATCH_LENGTH:
            continue
        for value, label in opt.choices:
            if _THREE_ROUNDS.match(str(value)) or _THREE_ROUNDS_LABEL.match(str(label)):
                return {opt.name: value}
    return None


def arena_possible(info) -> bool:
    return arena_options(info) is not None


def partner_of(position: int, seats_count: int) -> int | None:
    """In a team game partners sit face to face (teams 0/2 and 1/3)."""
    return (position + 2) % 4 if seats_count == 4 else None


def team_index(position: int) -> int:
    return position % 2
