"""Friends and blocks: friend requests (accepted or refused by the other), friendships, blocks, and who is online.

One `Friendship` row per pair of players: a request until the other accepts it, then their friendship; removing
the friend, refusing or cancelling the request deletes it. A request notifies its receiver in the site
(Notification.Kind.FRIEND_REQUEST, no e-mail), once per request. A `Block` stops the blocked player's friend
requests and invitations (he is told « Demande impossible », never that he is blocked), ends the friendship and
the pending requests, keeps each out of the other's private tables and hides his chat lines from the blocker
(tables.services.seat_join, tables.chat).

Online: a player's `last_seen` is refreshed by the pages he asks for, at most once a minute
(accounts.middleware.LastSeenMiddleware); he is « en ligne » for ONLINE_WINDOW after it, or while a table page
of his is open (tables.invitations reads the table sockets: a page open for an hour asks for nothing).

Every refusal is a `FriendError` with its French message, and changes nothing.
"""

import logging
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts import notifications
from accounts.models import Block, Friendship, Notification, User
from accounts.throttle import hit

log = logging.getLogger(__name__)

ONLINE_WINDOW = timedelta(minutes=5)
SEEN_EVERY = timedelta(minutes=1)  # last_seen is written at most this often per player
REQUESTS_PER_HOUR = 20  # friend requests a player may send in an hour

IMPOSSIBLE = "Demande impossible."  # never says why: a player must not learn that someone blocked him
UNKNOWN = "Ce joueur n'existe pas."


class FriendError(Exception):
    """A friend request, answer or block refused, with its French message."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message = message
        self.code = code


# --- reading -----------------------------------------------------------------------------------

def player_named(pseudo) -> User | None:
    """The human player with this pseudo (not a robot, not a closed account), or None."""
    if not isinstance(pseudo, str) or not pseudo or len(pseudo) > 150 or not pseudo.isprintable():
        return None
    return User.objects.filter(username=pseudo, is_bot=False, is_active=True).first()


def _pair(a: int, b: int) -> Q:
    return Q(from_user_id=a, to_user_id=b) | Q(from_user_id=b, to_user_id=a)


def friendship_between(a: int, b: int) -> Friendship | None:
    return Friendship.objects.filter(_pair(a, b)).first()


def are_friends(a: int, b: int) -> bool:
    return Friendship.objects.filter(_pair(a, b), accepted__isnull=False).exists()


def friend_ids(user_id: int) -> set[int]:
    rows = Friendship.objects.filter(Q(from_user_id=user_id) | Q(to_user_id=user_id), accepted__isnull=False)
    return {b if a == user_id else a for a, b in rows.values_list("from_user_id", "to_user_id")}


def friends_of(user_id: int) -> list[User]:
    """The player's friends, by pseudo."""
    return list(User.objects.filter(pk__in=friend_ids(user_id), is_active=True).order_by("username"))


def requests_received(user_id: int) -> list[Friendship]:
    return list(Friendship.objects.filter(to_user_id=user_id, accepted__isnull=True).select_related("from_user"))


def requests_sent(user_id: int) -> list[Friendship]:
    return list(Friendship.objects.filter(from_user_id=user_id, accepted__isnull=True).select_related("to_user"))


def has_blocked(blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_either(a: int, b: int) -> bool:
    """Either player blocked the other."""
    return Block.objects.filter(Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)).exists()


def blocked_ids(user_id: int) -> set[int]:
    """The players this one blocked (their chat lines never reach his pages)."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocked_players(user_id: int) -> list[User]:
    return [b.blocked for b in Block.objects.filter(blocker_id=user_id).select_related("blocked")
            .order_by("blocked__username")]


def relation(me: User, other: User) -> dict:
    """What a player page shows between me and `other`: friends, a request either way, my block of him. (Whether
    he blocked me is never shown.)"""
    row = friendship_between(me.pk, other.pk)
    return {
        "friends": row is not None and row.accepted is not None,
        "sent": row is not None and row.accepted is None and row.from_user_id == me.pk,
        "received": row is not None and row.accepted is None and row.to_user_id == me.pk,
        "blocked": has_blocked(me.pk, other.pk),
    }


def is_online(user: User, now=None) -> bool:
    """Seen on a page within ONLINE_WINDOW (tables.invitations adds: or a table page of his open)."""
    now = now or timezone.now()
    return user.last_seen is not None and now - user.last_seen < ONLINE_WINDOW


def seen(user: User) -> None:
    """A page of this player: `last_seen` written if it is older than SEEN_EVERY (one UPDATE a minute at most)."""
    now = timezone.now()
    if user.last_seen is None or now - user.last_seen >= SEEN_EVERY:
        User.objects.filter(pk=user.pk).update(last_seen=now)
        user.last_seen = now


# --- requests and friendships --------------------------------------------------------------------

def _target(me: User, pseudo) -> User:
    other = player_named(pseudo)
    if other is None:
        raise FriendError(UNKNOWN, "unknown")
    if other.pk == me.pk:
        raise FriendError("Tu ne peux pas être ton propre ami.", "self")
    return other


def _request_key(row: Friendship) -> str:
    return f"friend_request:{row.pk}"


def friend_request(*, user: User, pseudo) -> str:
    """Ask `pseudo` to be my friend. His own request to me pending: it is accepted instead. Returns the French
    sentence to show; raises FriendError (nothing changed) if refused."""
    other = _target(user, pseudo)
    if has_blocked(user.pk, other.pk):
        raise FriendError("Tu as bloqué ce joueur : débloque-le d'abord depuis ta page « Mes amis ».", "blocker")
    if hit(f"friend_request:{user.pk}", limit=REQUESTS_PER_HOUR, window=3600):
        raise FriendError("Tu as envoyé beaucoup de demandes d'ami : réessaie dans une heure.", "throttled")
    if has_blocked(other.pk, user.pk):
        raise FriendError(IMPOSSIBLE, "impossible")
    try:
        with transaction.atomic():
            row = Friendship.objects.select_for_update().filter(_pair(user.pk, other.pk)).first()
            if row is not None and row.accepted is not None:
                raise FriendError(f"{other.username} et toi êtes déjà amis.", "friends")
            if row is not None and row.from_user_id == user.pk:
                raise FriendError(f"Ta demande à {other.username} attend déjà sa réponse.", "pending")
            if row is not None:  # he asked me first: asking him back is accepting
                _accept(row)
                return f"{other.username} et toi êtes maintenant amis."
            row = Friendship.objects.create(from_user=user, to_user=other)
            notifications.notify(user=other, kind=Notification.Kind.FRIEND_REQUEST,
                                 text=f"{user.username} te demande en ami.", url=reverse("friends"),
                                 key=_request_key(row))
    except IntegrityError:  # he asked me at the same moment: one request stands, answered on his page
        raise FriendError(f"{other.username} vient de te demander en ami : réponds-lui depuis « Mes amis ».",
                          "crossed") from None
    return f"Demande envoyée à {other.username}."


def _accept(row: Friendship) -> None:
    row.accepted = timezone.now()
    row.save(update_fields=["accepted"])
    _request_read(row)
    notifications.notify(user=row.from_user_id, kind=Notification.Kind.FRIEND_REQUEST,
                         text=f"{row.to_user.username} a accepté ta demande d'ami.", url=reverse("friends"),
                         key=f"friend_accepted:{row.pk}")


def _request_read(row: Friendship) -> None:
    """The request answered or withdrawn: its notification no longer waits in the receiver's bell."""
    if Notification.objects.filter(user_id=row.to_user_id, key=_request_key(row), read_at__isnull=True).update(
            read_at=timezone.now()):
        transaction.on_commit(lambda: notifications.bell_changed(row.to_user_id))


def _pending_from(sender: User, receiver: User) -> Friendship:
    row = (Friendship.objects.select_for_update().select_related("from_user", "to_user")
           .filter(from_user=sender, to_user=receiver, accepted__isnull=True).first())
    if row is None:
        raise FriendError("Cette demande d'ami n'existe plus.", "no_request")
    return row


@transaction.atomic
def friend_accept(*, user: User, pseudo) -> str:
    other = _target(user, pseudo)
    _accept(_pending_from(other, user))
    return f"{other.username} et toi êtes maintenant amis."


@transaction.atomic
def friend_refuse(*, user: User, pseudo) -> str:
    """Refuse his request (he is not told; he may ask again later)."""
    other = _target(user, pseudo)
    row = _pending_from(other, user)
    _request_read(row)
    row.delete()
    return f"Demande de {other.username} refusée."


@transaction.atomic
def friend_cancel(*, user: User, pseudo) -> str:
    """Withdraw my request before he answers (its notification goes from his bell)."""
    other = _target(user, pseudo)
    row = _pending_from(user, other)
    _request_read(row)
    row.delete()
    return f"Demande à {other.username} annulée."


@transaction.atomic
def friend_remove(*, user: User, pseudo) -> str:
    other = _target(user, pseudo)
    if not Friendship.objects.filter(_pair(user.pk, other.pk), accepted__isnull=False).delete()[0]:
        raise FriendError(f"{other.username} n'est pas dans tes amis.", "not_friends")
    return f"{other.username} n'est plus dans tes amis."


# --- blocks --------------------------------------------------------------------------------------

def hides_group(user_id: int) -> str:
    """Every table socket of a player: told when the chat lines hidden from him change (tables.consumers)."""
    return f"hides.{user_id}"


def hides_changed(user_id: int) -> None:
    """Once the transaction commits, the player's table pages draw their chat again without the lines he hides
    now (a block, an unblock, a mute at a table: tables.chat)."""
    transaction.on_commit(lambda: _send(hides_group(user_id), {"type": "hides.changed"}))


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if hasattr(type(layer), "group_send_many_threadsafe"):  # the in-process layer: no event loop needed
            layer.group_send_many_threadsafe([(group, message)])
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # the next page drawn reads the blocks again; nothing is lost
        log.warning("%s not pushed", group, exc_info=True)


@transaction.atomic
def player_block(*, user: User, pseudo) -> str:
    """Block `pseudo`: our friendship and requests end, and his chat lines stop reaching my pages."""
    other = _target(user, pseudo)
    for row in Friendship.objects.filter(_pair(user.pk, other.pk)):
        if row.accepted is None:
            _request_read(row)
        row.delete()
    _, created = Block.objects.get_or_create(blocker=user, blocked=other)
    if created:
        hides_changed(user.pk)
    return f"Tu as bloqué {other.username}."


@transaction.atomic
def player_unblock(*, user: User, pseudo) -> str:
    other = _target(user, pseudo)
    if not Block.objects.filter(blocker=user, blocked=other).delete()[0]:
        raise FriendError(f"Tu n'as pas bloqué {other.username}.", "not_blocked")
    hides_changed(user.pk)
    return f"Tu as débloqué {other.username}."
