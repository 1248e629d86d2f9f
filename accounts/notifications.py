"""In-site notifications and the e-mails of the slow cases.

`notify` is the one way in: called inside the transaction of the event it tells (a move, an invitation), it
writes one row per player and event (`key`: the same event told twice is stored once). Once that transaction
commits, the player's open pages get the bell again (`ws/notifications/`, accounts.consumers), and an e-mail, if
the kind is one that is mailed and the player asked for it on his profile, goes to Celery (accounts.tasks), never
sent inside the transaction. A notification never carries a hidden card: its text is the caller's sentence.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction

from accounts.models import Notification, User

log = logging.getLogger(__name__)

Kind = Notification.Kind

# The kinds a player may receive by e-mail, and the profile switch of each (accounts.models.User).
MAILED = {Kind.TURN: "mail_turn", Kind.REMINDER: "mail_reminder", Kind.INVITATION: "mail_invitation"}

BELL_SHOWN = 20  # the notifications page lists this many of the latest


def bell_group(user_id: int) -> str:
    """Every bell socket a player has open (accounts.consumers.BellConsumer)."""
    return f"bell.{user_id}"


def notify(*, user: User | int, kind: str, text: str, url: str, key: str, mail: bool = False) -> Notification | None:
    """Tell `user` of an event, once per `key`. `mail`: the event may be mailed (a kind of MAILED, and the
    player's switch for it decides). Returns the new notification, None when this event was already told."""
    user = user if isinstance(user, User) else User.objects.filter(pk=user).first()
    if user is None or user.is_bot:
        return None
    wants_mail = mail and kind in MAILED and bool(user.email) and getattr(user, MAILED[kind])
    try:
        with transaction.atomic():  # a savepoint: a duplicate leaves the caller's transaction usable
            note = Notification.objects.create(
                user=user, kind=kind, text=text[:200], url=url[:200], key=key[:100],
                mail=Notification.Mail.PENDING if wants_mail else Notification.Mail.NONE)
    except IntegrityError:
        return None  # told already (the same event, retried)
    transaction.on_commit(lambda: _after_commit(note))
    return note


def _after_commit(note: Notification) -> None:
    bell_changed(note.user_id)
    if note.mail == Notification.Mail.PENDING:
        from accounts import tasks  # the tasks module imports this one

        try:
            tasks.send_notification_mail.delay(note.pk)
        except Exception:  # the broker away: the worker's sweep (tasks.send_pending_mails) sends it later
            log.warning("notification %s: its e-mail waits for the sweep", note.pk, exc_info=True)


def bell_changed(user_id: int) -> None:
    """The player's open pages show the bell again (after a commit: a new notification, some read)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "bell.changed"}
    try:
        if hasattr(type(layer), "group_send_many_threadsafe"):  # the in-process layer: no event loop needed
            layer.group_send_many_threadsafe([(bell_group(user_id), message)])
        else:
            async_to_sync(layer.group_send)(bell_group(user_id), message)
    except Exception:  # a bell not pushed is read again at the next page; the event itself is stored
        log.warning("bell of player %s not pushed", user_id, exc_info=True)


def bell_context(user_id: int) -> dict:
    """What the bell shows: the unread count, and the latest unread's text (read out to screen readers)."""
    latest = latest_unread(user_id)
    return {"count": unread_count(user_id), "latest": latest.text if latest else ""}


def mark_read(user_id: int, url: str) -> int:
    """The player opened `url`: what told him about it is read (his other pages' bells follow)."""
    from django.utils import timezone

    count = Notification.objects.filter(user_id=user_id, url=url, read_at__isnull=True).update(read_at=timezone.now())
    if count:
        transaction.on_commit(lambda: bell_changed(user_id))
    return count


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def latest_unread(user_id: int) -> Notification | None:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).first()
