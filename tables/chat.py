"""Table chat: short messages, escaped by the templates, rate-limited per user."""

from accounts.throttle import hit
from tables.models import ChatMessage, Table

MAX_LENGTH = 300


def chat_post(*, table: Table, user, text, spectator: bool = False) -> ChatMessage:
    """`spectator`: the caller checked that this user may watch and that the table lets spectators write.
    Otherwise only the players at the table now write (not one who left the match)."""
    from tables.services import TableError

    if not isinstance(text, str) or not text.strip():
        raise TableError("Ton message est vide.", "chat_empty")
    text = "".join(ch for ch in text.strip() if ch.isprintable() or ch == " ")  # no control characters (NUL…)
    if not text:
        raise TableError("Ton message est vide.", "chat_empty")
    if len(text) > MAX_LENGTH:
        raise TableError(f"Un message fait au plus {MAX_LENGTH} caractères.", "chat_long")
    if not spectator and not table.seats.filter(user=user, left=False).exists():
        raise TableError("Seuls les joueurs assis peuvent écrire ici.", "not_seated")
    if hit(f"chat:{table.pk}:{user.pk}", limit=5, window=10):
        raise TableError("Doucement ! Attends quelques secondes avant d'écrire à nouveau.", "chat_flood")
    return ChatMessage.objects.create(table=table, user=user, text=text)
