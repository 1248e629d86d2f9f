"""The e-mails of notifications (accounts.notifications), sent by Celery once the event is committed.

Each pending e-mail is sent at most once per claim: a sender claims it (a lease, `mail_claimed_at`, committed
before the SMTP conversation), sends it, and marks it sent. A second delivery of the task (a retry, the broker
giving back the task of a killed worker, the sweep) finds it claimed or sent and does nothing. A sender killed
mid-conversation leaves a claim that runs out after settings.MAIL_LEASE_SECONDS; the sweep then sends it: the
player gets it late, not twice, unless the worker died in the instant between the server's acceptance and the
mark (measured: bench/mail_kill.py).
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import get_connection
from django.db.models import Q
from django.utils import timezone

from accounts import mail
from accounts.models import Notification

log = logging.getLogger(__name__)

MAIL_GIVE_UP = timedelta(days=2)  # an e-mail this old is no longer worth sending (the turn has passed)
SWEEP_BATCH = 200


def mail_lease() -> timedelta:
    """How long a sender's claim holds (settings.MAIL_LEASE_SECONDS: longer than one SMTP conversation)."""
    return timedelta(seconds=settings.MAIL_LEASE_SECONDS)


def _claimable(now):
    return Q(mail_claimed_at__isnull=True) | Q(mail_claimed_at__lt=now - mail_lease())


@shared_task(ignore_result=True)
def send_notification_mail(notification_id: int) -> bool:
    """Send one notification's e-mail if nobody else is sending or has sent it. Returns whether it was sent."""
    now = timezone.now()
    claimed = (Notification.objects.filter(pk=notification_id, mail=Notification.Mail.PENDING)
               .filter(_claimable(now)).update(mail_claimed_at=now))
    if not claimed:
        return False
    note = Notification.objects.select_related("user").get(pk=notification_id)
    message = mail.message_for(note)
    if message is None:  # the player switched it off, or has no address any more, since
        Notification.objects.filter(pk=note.pk).update(mail=Notification.Mail.NONE, mail_claimed_at=None)
        return False
    connection = get_connection(fail_silently=False)
    try:
        connection.open()  # opened here, so that send_messages leaves it open: the mark comes before the QUIT
        connection.send_messages([message])
    except Exception:
        # The server refused or is away: the claim is given back, the sweep tries again.
        Notification.objects.filter(pk=note.pk, mail_claimed_at=now).update(mail_claimed_at=None)
        log.warning("e-mail of notification %s not sent; the sweep tries again", note.pk, exc_info=True)
        _close(connection)
        return False
    # Accepted by the server: marked at once, the one instant where a kill -9 could still make a resend.
    Notification.objects.filter(pk=note.pk).update(mail=Notification.Mail.SENT, mail_sent_at=timezone.now())
    _close(connection)
    return True


def _close(connection) -> None:
    try:
        connection.close()
    except Exception:  # the message is handed over (or given back) already; a QUIT unanswered changes nothing
        log.debug("SMTP connection not closed cleanly", exc_info=True)


@shared_task(ignore_result=True)
def send_pending_mails() -> int:
    """The worker's sweep (rummy_site.celery, every MAIL_SWEEP_SECONDS): the e-mails whose task was lost (broker
    away at commit, worker killed mid-send) are sent now. Those older than MAIL_GIVE_UP are dropped."""
    now = timezone.now()
    pending = Notification.objects.filter(mail=Notification.Mail.PENDING)
    pending.filter(created__lt=now - MAIL_GIVE_UP).update(mail=Notification.Mail.NONE)
    ids = list(pending.filter(_claimable(now)).order_by("id").values_list("id", flat=True)[:SWEEP_BATCH])
    return sum(send_notification_mail.run(pk) for pk in ids)

