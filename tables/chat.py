"""Table chat: short messages, escaped by the templates, rate-limited per user, closed when the game's rules say
so (the engine's `chat_closed`, e.g. a deal under way with a strict mode).

Each reader may hide writers: every player he blocked, at every table (accounts.Block), and the players whose
discussion he hid at this table (« Masquer sa discussion »: `ChatMute`). Their lines are left out server-side,
for him only: on the pages drawn for him and in every chat push his sockets forward (tables.consumers keeps its
reader's `hidden_authors` and draws the log again without them; tables.rendering.chat_for)."""

from django.db import transaction

from accounts import friends
from accounts.models import User
from accounts.throttle import hit
from tables import reads
from tables.errors import TableError
from tables.models import ChatMessage, ChatMute, Seat, Table, engine_for

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


# --- what each reader hides ----------------------------------------------------------------------

def hidden_authors(table_id: int, user_id: int) -> frozenset[int]:
    """The writers whose lines `user_id` does not see at this table: the players he blocked, and those whose
    discussion he hid here."""
    muted = ChatMute.objects.filter(table_id=table_id, user_id=user_id).values_list("muted_id", flat=True)
    return frozenset(friends.blocked_ids(user_id)) | frozenset(muted)


def visible_lines(lines: list[dict], hidden: frozenset[int] | set[int]) -> list[dict]:
    return [line for line in lines if line["author"] not in hidden] if hidden else lines


def chat_people(table: Table, user_id: int) -> list[dict]:
    """The people of this table's chat a reader may hide, by pseudo: its human players and whoever wrote in it
    lately (a spectator), but not himself; `muted`: hidden here, `blocked`: hidden everywhere."""
    seated = Seat.objects.filter(table=table, user__isnull=False, bot_level__isnull=True).values_list("user_id",
                                                                                                     flat=True)
    writers = {line["author"] for line in reads.recent_chat(table.pk)}
    people = (User.objects.filter(pk__in={*seated, *writers}, is_bot=False).exclude(pk=user_id)
              .order_by("username").values_list("pk", "username"))
    muted = set(ChatMute.objects.filter(table=table, user_id=user_id).values_list("muted_id", flat=True))
    blocked = friends.blocked_ids(user_id)
    return [{"pk": pk, "username": name, "muted": pk in muted, "blocked": pk in blocked} for pk, name in people]


def chat_mute(*, table: Table, user, pseudo, hide: bool) -> str:
    """« Masquer sa discussion » (`hide`) or « Afficher sa discussion » at this table, for `user` alone. The
    caller checked that `user` may see the table. Returns the French sentence to show."""
    target = friends.player_named(pseudo)
    if target is None or not any(p["pk"] == target.pk for p in chat_people(table, user.pk)):
        raise TableError("Ce joueur ne participe pas à la discussion de cette table.", "not_in_chat")
    with transaction.atomic():
        if hide:
            _, changed = ChatMute.objects.get_or_create(table=table, user=user, muted=target)
        else:
            changed = bool(ChatMute.objects.filter(table=table, user=user, muted=target).delete()[0])
        if changed:
            friends.hides_changed(user.pk)  # his open pages draw the chat again
    if hide:
        return f"La discussion de {target.username} est masquée pour toi à cette table."
    return f"La discussion de {target.username} est de nouveau visible pour toi."
