"""Friends at the tables: inviting a friend to a waiting table, and where my friends are (the « Mes amis » page).

An invitation is a notification (Notification.Kind.INVITATION, e-mailed if the friend's switch is on) whose link
is the table's invitation link, unchanged: following it seats him as any invitation link does
(tables.services.seat_join). One per table and friend (`key`): inviting him twice tells him once.

Where a friend is: at a table while one of its pages is open, as a player (`Seat.connections`) or a spectator
(`SpectatorPresence`), read from the sockets' own counts (no query per friend); online if he asked for a page in
the last minutes (accounts.friends.is_online) or such a page is open.
"""

from django.db import transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from accounts import friends, notifications
from accounts.models import Notification, User
from accounts.throttle import hit
from tables import spectators
from tables.errors import TableError
from tables.models import Seat, SpectatorPresence, Table

INVITATIONS_PER_HOUR = 30
IMPOSSIBLE = "Invitation impossible : tu ne peux inviter que tes amis."
LIVE = (Table.Status.WAITING, Table.Status.PLAYING)


def invitation_key(table_id: int, user_id: int) -> str:
    return f"invite:{table_id}:{user_id}"


def _taken(table_ids) -> dict[int, int]:
    """Places taken per table."""
    return dict(Seat.objects.filter(table_id__in=table_ids).values("table_id").annotate(n=Count("id"))
                .values_list("table_id", "n"))


def my_waiting_tables(user: User) -> list[Table]:
    """The waiting tables I sit at that still have a free place: where I may invite a friend."""
    tables = list(Table.objects.filter(status=Table.Status.WAITING, seats__user=user, seats__left=False)
                  .select_related("game").distinct().order_by("-created")[:20])
    taken = _taken([t.pk for t in tables])
    return [t for t in tables if taken.get(t.pk, 0) < t.seats_count]


def friend_invite(*, table_id, user: User, pseudo) -> str:
    """Invite my friend `pseudo` to a waiting table I sit at. Returns the French sentence to show; a refusal
    (TableError) changes nothing and never says whether he blocked me."""
    friend = friends.player_named(pseudo)
    if friend is None:
        raise TableError(friends.UNKNOWN, "unknown")
    try:
        table_id = int(table_id)
    except (TypeError, ValueError, OverflowError):
        table_id = 0
    table = Table.objects.select_related("game").filter(pk=table_id).first() if 0 < table_id < 2**63 else None
    if table is None or not Seat.objects.filter(table=table, user=user, left=False).exists():
        raise TableError("Tu n'es pas assis à cette table.", "not_seated")
    if friend.pk == user.pk:
        raise TableError("Tu es déjà à cette table.", "self")
    if table.status != Table.Status.WAITING:
        raise TableError("La partie a déjà commencé à cette table : on n'y invite plus.", "started")
    if not friends.are_friends(user.pk, friend.pk) or friends.blocked_either(user.pk, friend.pk):
        raise TableError(IMPOSSIBLE, "not_friends")
    if Seat.objects.filter(table=table, user=friend).exists():
        raise TableError(f"{friend.username} est déjà à cette table.", "seated")
    if _taken([table.pk]).get(table.pk, 0) >= table.seats_count:
        raise TableError("Cette table est complète.", "full")
    if hit(f"invite:{user.pk}", limit=INVITATIONS_PER_HOUR, window=3600):
        raise TableError("Tu as envoyé beaucoup d'invitations : réessaie dans une heure.", "throttled")
    with transaction.atomic():
        note = notifications.notify(
            user=friend, kind=Notification.Kind.INVITATION,
            text=f"{user.username} t'invite à jouer {table.game.au_name} (table n° {table.pk}).",
            url=reverse("tables:invite", args=[table.invite_token]), key=invitation_key(table.pk, friend.pk),
            mail=True)
    if note is None:
        raise TableError(f"Tu as déjà invité {friend.username} à cette table.", "already")
    return f"Invitation envoyée à {friend.username}."


def friends_whereabouts(user: User, session) -> list[dict]:
    """My friends, online first: whether each is online, at which table (playing or watching), and what I may do
    there: « Regarder » (tables.spectators allows it), « Rejoindre » (a waiting table with a free place that I may
    join: a public one, or a private one he invited me to)."""
    people = friends.friends_of(user.pk)
    ids = [p.pk for p in people]
    at: dict[int, tuple[Table, bool]] = {}  # friend -> (table, playing)
    for presence in (SpectatorPresence.objects.filter(user_id__in=ids, sockets__gt=0, table__status__in=LIVE)
                     .select_related("table__game").order_by("pk")):
        at[presence.user_id] = (presence.table, False)
    for seat in (Seat.objects.filter(user_id__in=ids, left=False, connections__gt=0, table__status__in=LIVE)
                 .select_related("table__game").order_by("table__created")):
        at[seat.user_id] = (seat.table, True)  # playing wins over watching; the latest table wins
    tables = {t.pk: t for t, _ in at.values()}
    taken = _taken(list(tables))
    mine = set(Seat.objects.filter(table_id__in=list(tables), user=user, left=False).values_list("table_id", flat=True))
    invited = set(Notification.objects.filter(user=user, kind=Notification.Kind.INVITATION,
                                              key__in=[invitation_key(t, user.pk) for t in tables])
                  .values_list("key", flat=True))
    now = timezone.now()
    rows = []
    for person in people:
        table, playing = at.get(person.pk, (None, False))
        row = {"user": person, "online": table is not None or friends.is_online(person, now), "table": table,
               "playing": playing, "mine": False, "watch_url": "", "join_url": "", "join_post": False}
        if table is not None:
            row["mine"] = table.pk in mine
            free = taken.get(table.pk, 0) < table.seats_count
            if row["mine"]:
                pass
            elif table.status == Table.Status.WAITING and free and not table.private:
                row["join_url"], row["join_post"] = reverse("tables:join", args=[table.pk]), True
            elif (table.status == Table.Status.WAITING and free
                  and invitation_key(table.pk, user.pk) in invited):
                row["join_url"] = reverse("tables:invite", args=[table.invite_token])
            elif spectators.watch_refusal(table, session, user.pk) is None:
                row["watch_url"] = reverse("tables:watch", args=[table.pk])
        rows.append(row)
    rows.sort(key=lambda r: (not r["online"], r["user"].username.lower()))
    return rows
