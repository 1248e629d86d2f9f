"""Table chat: short messages, escaped by the templates, rate-limited per user, closed when the game's rules say
so (the engine's `chat_closed`, e.g. a deal under way with a strict mode)."""

from django.db import transaction

from accounts.throttle import hit
from tables import reads
from tables.errors import TableError
from tables.models import ChatMessage, Table, engine_for

MAX_LENGTH = 300


def chat_closed(table: Table, engine=None) -> str | None:
    """Why nobody at this table (seat or spectator) may write in its chat now, in French, or None when it is open.
    The game's rules decide (`engine.chat_closed`); a table not yet started has no rules at work: open.
    `engine`: the table's engine when the caller has it."""
    state = table.state
    if state is None:
        return None
    if engine is None:
        engine = engine_for(table)
    return engine.chat_closed(state)


def chat_post(*, table: Table, user, text, spectator: bool = False) -> ChatMessage:
    """`spectator`: the caller checked that this user may watch and that the table lets spectators write.
    Otherwise only the players at the table now write (not one who left the match)."""
    if not isinstance(text, str) or not text.strip():
        raise TableError("Ton message est vide.", "chat_empty")
    text = "".join(ch for ch in text.strip() if ch.isprintable() or ch == " ")  # no control characters (NUL…)
    if not text:
        raise TableError("Ton message est vide.", "chat_empty")
    if len(text) > MAX_LENGTH:
        raise TableError(f"Un message fait au plus {MAX_LENGTH} caractères.", "chat_long")
    if not spectator and not table.seats.filter(user=user, left=False).exists():
        raise TableError("Seuls les joueurs assis peuvent écrire ici.", "not_seated")
    # Counted before the lock: a Redis round trip never holds up the table's moves.
    if hit(f"chat:{table.pk}:{user.pk}", limit=5, window=10):
        raise TableError("Doucement ! Attends quelques secondes avant d'écrire à nouveau.", "chat_flood")
    with transaction.atomic():
        # The state read under the table's lock, held until the line is written: a line never slips in after
        # the move that starts a deal has committed.
        closed = chat_closed(reads.table_locked(table.pk) or table)
        if closed is not None:  # seats and spectators alike: nothing reaches the players while it is closed
            raise TableError(closed, "chat_closed")
        return ChatMessage.objects.create(table=table, user=user, text=text)
