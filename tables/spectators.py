"""Spectators: who may watch a table, and how many watch it now.

A public table can be watched by anyone logged in (« Regarder » in the lobby); a private one only by whoever
opened its invitation link (the link grants the table to the session: `grant`), or who sat at it and left its
match (« Quitter »: from then on he is a spectator there, never his former seat). A spectator sees what the
engine's `public_view` shows, the public part of the table's pushes (tables.broadcast: a spectator's socket
never forwards a seat's part); he never acts, and writes in the chat only where the table allows it
(`Table.spectators_chat`).

The count the seats see (« 2 spectateurs ») is `Table.spectators`: the distinct users with a spectator socket
open, over every server process. Each process's sockets are rows of `SpectatorPresence`, taken off when the
process stops beating (tables.presence.reap_dead_servers), as the seats' are.
"""


from django.db import transaction
from django.db.models import F

from tables import scheduler, socket_registry
from tables.models import Seat, SpectatorPresence, Table

SESSION_KEY = "watch_tables"
MAX_GRANTS = 50  # tables remembered per session
WATCHABLE = (Table.Status.PLAYING, Table.Status.FINISHED)

CANNOT_ACT = "Tu regardes cette partie : seuls les joueurs assis peuvent jouer."
CANNOT_CHAT = "Les spectateurs ne peuvent pas écrire à cette table."
NOT_ALLOWED = "Cette table est privée : on ne peut la regarder qu'avec son lien d'invitation."
NOT_STARTED = "La partie n'a pas encore commencé : il n'y a rien à regarder."

_open = socket_registry.OpenSockets()  # the spectator sockets this process holds open


def grant(session, table_id: int) -> None:
    """The invitation link was opened in this session: its table may be watched even if it is private."""
    granted = [t for t in session.get(SESSION_KEY, []) if t != table_id]
    session[SESSION_KEY] = (granted + [table_id])[-MAX_GRANTS:]


def granted(session, table_id: int) -> bool:
    return session is not None and table_id in (session.get(SESSION_KEY) or [])


def former_player(table_id: int, user_id: int | None) -> bool:
    """The user sat at this table and left its match (« Quitter »): he may watch it, even if it is private."""
    return user_id is not None and Seat.objects.filter(table_id=table_id, user_id=user_id, left=True).exists()


def watch_refusal(table: Table, session, user_id: int | None = None) -> str | None:
    """Why this session (of `user_id`) may not watch the table (None: it may). The caller checked the user is
    logged in."""
    if table.private and not granted(session, table.pk) and not former_player(table.pk, user_id):
        return NOT_ALLOWED
    if table.status not in WATCHABLE:
        return NOT_STARTED
    return None


def may_watch(table_id: int, session, user_id: int | None = None) -> bool:
    table = Table.objects.filter(pk=table_id).only("pk", "private", "status").first()
    return table is not None and watch_refusal(table, session, user_id) is None


def label(count: int) -> str:
    return f"{count} spectateur{'s' if count > 1 else ''}"


# --- the count -------------------------------------------------------------------------------

def socket_opened(table_id: int, user_id: int) -> None:
    _open.opened(table_id, user_id)


def socket_closed(table_id: int, user_id: int) -> None:
    _open.closed(table_id, user_id)


def spectator_connected(*, table_id: int, user_id: int, delta: int) -> int:
    """Count a spectator socket of this process opened (+1) or closed (-1); returns the table's new count of
    spectators, which the seats see at the next push (one is scheduled)."""
    with transaction.atomic():
        server = socket_registry.SERVER_ID
        row = SpectatorPresence.objects.filter(table_id=table_id, user_id=user_id, server=server).first()
        if row is None:
            if delta > 0:
                SpectatorPresence.objects.create(table_id=table_id, user_id=user_id, server=server, sockets=delta)
        elif row.sockets + delta > 0:
            SpectatorPresence.objects.filter(pk=row.pk).update(sockets=F("sockets") + delta)
        else:
            row.delete()
        return _recount(table_id)


def _recount(table_id: int) -> int:
    count = SpectatorPresence.objects.filter(table_id=table_id, sockets__gt=0).values("user_id").distinct().count()
    if Table.objects.filter(pk=table_id).exclude(spectators=count).update(spectators=count):
        scheduler.after_commit_presence_changed(table_id)  # the seats' « N spectateurs »
    return count


def reap_server(server: str) -> None:
    """A dead process's spectator sockets are no longer counted (tables.presence.reap_dead_servers)."""
    tables = set(SpectatorPresence.objects.filter(server=server).values_list("table_id", flat=True))
    for table_id in tables:
        with transaction.atomic():
            SpectatorPresence.objects.filter(server=server, table_id=table_id).delete()
            _recount(table_id)


def recount_own() -> None:
    """This process was reaped while alive: count its open spectator sockets again."""
    held = _open.held()
    for (table_id, user_id), sockets in held:
        spectator_connected(table_id=table_id, user_id=user_id, delta=sockets)
