"""The e-mail of a notification, and its one-click unsubscribe link.

The unsubscribe link carries a signed token (player and switch), so it works without logging in and cannot be
forged for someone else; the e-mail also carries the List-Unsubscribe headers (RFC 8058), so a mail client's own
« Se désabonner » switches it off in one click as well.
"""

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import Notification, User
from accounts.notifications import MAILED

UNSUBSCRIBE_SALT = "accounts.mail.unsubscribe"

# What each switch is, in the profile and the unsubscribe page.
SWITCH_LABELS = {
    "mail_turn": "« À toi de jouer » dans une partie lente",
    "mail_reminder": "le rappel avant la fin de ton temps",
    "mail_invitation": "les invitations à une table",
}


def unsubscribe_token(user: User, switch: str) -> str:
    return signing.dumps({"u": user.pk, "s": switch}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """(player id, switch), or None for a token that is not ours."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("s") not in SWITCH_LABELS or not isinstance(data.get("u"), int):
        return None
    return data["u"], data["s"]


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def message_for(note: Notification) -> EmailMessage | None:
    """The e-mail of `note`, or None when its player no longer wants it (switch off, no address)."""
    user = note.user
    switch = MAILED.get(note.kind)
    if switch is None or not user.email or not getattr(user, switch):
        return None
    unsubscribe = absolute(reverse("accounts:unsubscribe", args=[unsubscribe_token(user, switch)]))
    context = {"note": note, "user": user, "link": absolute(note.url), "unsubscribe": unsubscribe,
               "switch_label": SWITCH_LABELS[switch], "profile": absolute(reverse("accounts:profile"))}
    body = render_to_string("accounts/mail/notification.txt", context)
    domain = settings.SITE_URL.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0] or "localhost"
    return EmailMessage(
        subject=f"Cartes & Rami : {note.text}",
        body=body,
        to=[user.email],
        headers={
            # One Message-ID per notification: a resend (never meant to happen) reads as the same message.
            "Message-ID": f"<notification-{note.pk}@{domain}>",
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
