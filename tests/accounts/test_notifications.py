"""Notifications: told once per event, the bell counts them, the slow cases are mailed once by Celery after the
commit, and every e-mail can be switched off in one click."""

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail as outbox
from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts import mail, notifications, tasks
from accounts.models import Notification

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


@pytest.fixture
def bruno(make_player):
    user = make_player("bruno")
    user.email = "bruno@example.org"
    user.save(update_fields=["email"])
    return user


def tell(user, key="turn:1:5:0", kind=Kind.TURN, mail_it=True):
    return notifications.notify(user=user, kind=kind, text="À toi de jouer au Gin Rami (table n° 1).",
                                url="/tables/1/", key=key, mail=mail_it)


def test_an_event_is_told_once_and_counted_by_the_bell(bruno, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        assert tell(bruno) is not None
        assert tell(bruno) is None  # the same event again (a retried task)
        tell(bruno, key="invite:7:bruno", kind=Kind.INVITATION)
    assert Notification.objects.filter(user=bruno).count() == 2
    assert notifications.bell_context(bruno.pk) == {"count": 2, "latest": "À toi de jouer au Gin Rami (table n° 1)."}
    assert len(outbox.outbox) == 2  # one e-mail per event


def test_the_mail_leaves_after_the_commit_never_inside_it(bruno, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        tell(bruno)
        assert outbox.outbox == []
    assert outbox.outbox == [] and callbacks
    for callback in callbacks:
        callback()
    assert len(outbox.outbox) == 1


def test_the_mail_has_the_link_and_a_one_click_unsubscribe(bruno, django_capture_on_commit_callbacks, settings):
    settings.SITE_URL = "https://cartes.example"
    with django_capture_on_commit_callbacks(execute=True):
        note = tell(bruno)
    [message] = outbox.outbox
    assert message.to == ["bruno@example.org"]
    assert "À toi de jouer au Gin Rami" in message.subject
    assert "https://cartes.example/tables/1/" in message.body
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith("https://cartes.example/compte/desabonner/") and unsubscribe in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["Message-ID"] == f"<notification-{note.pk}@cartes.example>"
    note.refresh_from_db()
    assert note.mail == Notification.Mail.SENT and note.mail_sent_at is not None

    # One click (a mail client's POST, no session, no CSRF token) switches that kind off, and only that kind.
    path = unsubscribe.removeprefix("https://cartes.example")
    response = Client(enforce_csrf_checks=True).post(path)
    assert response.status_code == 200 and "Tu es désabonné" in response.content.decode()
    bruno.refresh_from_db()
    assert bruno.mail_turn is False and bruno.mail_invitation is True
    with django_capture_on_commit_callbacks(execute=True):
        tell(bruno, key="turn:1:9:0")
    assert len(outbox.outbox) == 1  # no second e-mail: switched off
    assert Notification.objects.filter(user=bruno).count() == 2  # the bell still tells it


def test_the_unsubscribe_page_switches_back_and_refuses_a_forged_token(bruno):
    token = mail.unsubscribe_token(bruno, "mail_reminder")
    client = Client()
    assert "Tu es désabonné" in client.get(f"/compte/desabonner/{token}/").content.decode()
    bruno.refresh_from_db()
    assert bruno.mail_reminder is False
    assert "Tu es réabonné" in client.post(f"/compte/desabonner/{token}/", {"again": "1"}).content.decode()
    bruno.refresh_from_db()
    assert bruno.mail_reminder is True
    forged = client.get(f"/compte/desabonner/{token[:-3]}abc/")
    assert forged.status_code == 404 and "Ce lien de désabonnement n'est pas valable" in forged.content.decode()
    bruno.refresh_from_db()
    assert bruno.mail_reminder is True


def test_a_retried_task_never_sends_twice(bruno, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        note = tell(bruno)
    assert tasks.send_notification_mail.run(note.pk) is False
    assert tasks.send_pending_mails.run() == 0
    assert len(outbox.outbox) == 1


def test_a_claim_held_by_another_sender_is_left_until_its_lease_runs_out(bruno):
    note = tell(bruno)  # not committed through on_commit here: its task never ran
    Notification.objects.filter(pk=note.pk).update(mail_claimed_at=timezone.now())  # a sender at work (or killed)
    assert tasks.send_pending_mails.run() == 0 and outbox.outbox == []
    Notification.objects.filter(pk=note.pk).update(mail_claimed_at=timezone.now() - tasks.mail_lease()
                                                   - timedelta(seconds=1))
    assert tasks.send_pending_mails.run() == 1 and len(outbox.outbox) == 1
    assert tasks.send_pending_mails.run() == 0 and len(outbox.outbox) == 1


def test_a_server_away_gives_the_claim_back_and_the_sweep_sends_it_later(bruno):
    note = tell(bruno)
    with mock.patch("django.core.mail.backends.locmem.EmailBackend.send_messages",
                    side_effect=OSError("connexion refusée")):
        assert tasks.send_notification_mail.run(note.pk) is False
    note.refresh_from_db()
    assert note.mail == Notification.Mail.PENDING and note.mail_claimed_at is None
    assert tasks.send_pending_mails.run() == 1 and len(outbox.outbox) == 1


def test_only_the_slow_cases_are_mailed_and_never_to_a_player_without_address(bruno, make_player,
                                                                              django_capture_on_commit_callbacks):
    nobody = make_player("sansmail")
    with django_capture_on_commit_callbacks(execute=True):
        tell(bruno, key="friend:1", kind=Kind.FRIEND_REQUEST)
        tell(bruno, key="result:1", kind=Kind.RESULT)
        tell(nobody)
    assert outbox.outbox == []
    assert Notification.objects.filter(mail=Notification.Mail.PENDING).count() == 0


def test_an_old_pending_mail_is_dropped_not_sent(bruno):
    note = tell(bruno)
    Notification.objects.filter(pk=note.pk).update(created=timezone.now() - tasks.MAIL_GIVE_UP - timedelta(hours=1))
    assert tasks.send_pending_mails.run() == 0 and outbox.outbox == []
    note.refresh_from_db()
    assert note.mail == Notification.Mail.NONE


def test_the_notifications_page_opens_one_and_marks_all_read(bruno, client):
    client.force_login(bruno, backend="accounts.backends.HumanOnlyBackend")
    first = tell(bruno, mail_it=False)
    tell(bruno, key="turn:1:6:0", mail_it=False)
    page = client.get("/compte/notifications/").content.decode()
    assert "À toi de jouer au Gin Rami" in page and "Tout marquer comme lu (2)" in page
    assert 'data-count="2"' in page  # the bell in the header
    response = client.get(f"/compte/notifications/{first.pk}/")
    assert response.status_code == 302 and response["Location"] == "/tables/1/"
    first.refresh_from_db()
    assert first.read_at is not None
    client.post("/compte/notifications/lues/")
    assert notifications.unread_count(bruno.pk) == 0


def test_a_notification_never_leads_off_the_site_nor_to_another_players(bruno, make_player, client):
    other = make_player("autre")
    theirs = tell(other, mail_it=False)
    odd = Notification.objects.create(user=bruno, kind=Kind.INVITATION, text="x", url="//evil.example/", key="odd")
    client.force_login(bruno, backend="accounts.backends.HumanOnlyBackend")
    assert client.get(f"/compte/notifications/{odd.pk}/")["Location"] == "/compte/notifications/"
    response = client.get(f"/compte/notifications/{theirs.pk}/", follow=True)
    assert "Cette notification n&#x27;existe pas." in response.content.decode()
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_the_profile_sets_the_address_and_the_switches(bruno, client):
    client.force_login(bruno, backend="accounts.backends.HumanOnlyBackend")
    assert "Je reçois un e-mail" in client.get("/compte/profil/").content.decode()
    client.post("/compte/emails/", {"email": "b@example.org", "mail_turn": "on"})
    bruno.refresh_from_db()
    assert (bruno.email, bruno.mail_turn, bruno.mail_reminder, bruno.mail_invitation) == (
        "b@example.org", True, False, False)
    response = client.post("/compte/emails/", {"email": "pas une adresse"}, follow=True)
    assert "Ces choix d&#x27;e-mails ne sont pas valables." in response.content.decode()
    bruno.refresh_from_db()
    assert bruno.email == "b@example.org"
