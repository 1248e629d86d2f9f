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


# « Partie lente »: a move's time in hours or days, for every game (a friends' table). Players need not be online
# together; each is told when it is his move (tables.notices) and reminded when a quarter of his time is left.
HOUR = 3600
DAY = 24 * HOUR
SLOW_TURN_TIMERS = (12 * HOUR, DAY, 3 * DAY)
SLOW_FROM = HOUR  # a move timer this long or longer makes a slow table


def is_slow(turn_timer_s: int) -> bool:
    return turn_timer_s >= SLOW_FROM


def reminder_lead(turn_timer_s: int) -> int:
    """How long before the end of a slow move the player is reminded, in seconds."""
    return turn_timer_s // 4


def duration_fr(seconds: int) -> str:
    """« 45 secondes », « 12 heures », « 3 jours », « 2 j 5 h », « 5 h 07 », « 12 min »: a time in French words."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} seconde{'s' if seconds > 1 else ''}"
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    if days and not hours and not minutes:
        return "24 heures" if days == 1 else f"{days} jours"
    if days:
        return f"{days} j {hours} h"
    if hours and not minutes and not rest % 60:
        return f"{hours} heure{'s' if hours > 1 else ''}"
    if hours:
        return f"{hours} h {minutes:02d}"
    return f"{minutes} min"


def timer_label(turn_timer_s: int) -> str:
    """The move timer as the table creation form and the table page say it."""
    if is_slow(turn_timer_s):
        return f"{duration_fr(turn_timer_s)} par coup (partie lente)"
    return f"{turn_timer_s} secondes"
