"""Friends and blocks (accounts.friends): a request waits for the other's « Accepter » or « Refuser » and tells him
once in the site; friends are removed; a block ends the friendship and the requests, and the blocked player learns
only « Demande impossible »; forged forms change nothing; `last_seen` is written at most once a minute."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import friends
from accounts.models import Block, Friendship, Notification, User

pytestmark = pytest.mark.django_db


def logged_in(user):
    client = Client()
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


@pytest.fixture
def bruno(make_player):
    return make_player("bruno")


@pytest.fixture
def alice_client(client, player):
    client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
    return client


@pytest.fixture
def bruno_client(bruno):
    return logged_in(bruno)


def said(response) -> list[str]:
    """The message this answer added (the earlier ones wait in the session until a page shows them)."""
    return [str(m) for m in get_messages(response.wsgi_request)][-1:]


def post(client, name: str, pseudo, **extra):
    return client.post(reverse(name), {"pseudo": pseudo, **extra})


def state() -> tuple:
    """Everything a friend form may change."""
    return (sorted(Friendship.objects.values_list("from_user_id", "to_user_id", "accepted")),
            sorted(Block.objects.values_list("blocker_id", "blocked_id")),
            sorted(Notification.objects.values_list("user_id", "key", "read_at")))


def requests_to(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=Notification.Kind.FRIEND_REQUEST))


# ------------------------------------------------------------------------------- requests and answers

def test_a_request_waits_for_the_answer_and_notifies_him_once(alice_client, player, bruno):
    response = post(alice_client, "friends:request", "bruno")
    assert response.status_code == 302 and response.url == reverse("friends")
    assert said(response) == ["Demande envoyée à bruno."]
    row = Friendship.objects.get()
    assert (row.from_user, row.to_user, row.accepted) == (player, bruno, None)
    assert not friends.are_friends(player.pk, bruno.pk)
    [note] = requests_to(bruno)
    assert note.text == "alice te demande en ami." and note.url == reverse("friends")
    assert note.mail == Notification.Mail.NONE, "a friend request is never e-mailed"
    assert requests_to(player) == []

    before = state()
    again = post(alice_client, "friends:request", "bruno")
    assert said(again) == ["Ta demande à bruno attend déjà sa réponse."]
    assert state() == before, "a second request changes nothing and tells him nothing more"


def test_accepting_makes_friends_and_reads_the_request(alice_client, bruno_client, player, bruno):
    post(alice_client, "friends:request", "bruno")
    response = post(bruno_client, "friends:accept", "alice")
    assert said(response) == ["alice et toi êtes maintenant amis."]
    assert friends.are_friends(player.pk, bruno.pk) and friends.are_friends(bruno.pk, player.pk)
    assert friends.friend_ids(player.pk) == {bruno.pk} and friends.friend_ids(bruno.pk) == {player.pk}
    [request] = requests_to(bruno)
    assert request.read_at is not None, "answered: it no longer counts in his bell"
    [accepted] = requests_to(player)
    assert accepted.text == "bruno a accepté ta demande d'ami."
    # Accepting twice, or a request that is not there, is refused without change.
    before = state()
    assert said(post(bruno_client, "friends:accept", "alice")) == ["Cette demande d'ami n'existe plus."]
    assert said(post(alice_client, "friends:accept", "bruno")) == ["Cette demande d'ami n'existe plus."]
    assert said(post(alice_client, "friends:request", "bruno")) == ["bruno et toi êtes déjà amis."]
    assert state() == before


def test_refusing_drops_the_request_and_he_may_ask_again(alice_client, bruno_client, player, bruno):
    post(alice_client, "friends:request", "bruno")
    assert said(post(bruno_client, "friends:refuse", "alice")) == ["Demande de alice refusée."]
    assert not Friendship.objects.exists()
    assert all(n.read_at for n in requests_to(bruno))
    assert requests_to(player) == [], "he is not told of a refusal"
    post(alice_client, "friends:request", "bruno")
    assert len(requests_to(bruno)) == 2, "a new request is a new event"
    assert Friendship.objects.get().accepted is None


def test_cancelling_my_request_takes_it_from_his_bell(alice_client, player, bruno):
    post(alice_client, "friends:request", "bruno")
    assert said(post(alice_client, "friends:cancel", "bruno")) == ["Demande à bruno annulée."]
    assert not Friendship.objects.exists()
    assert Notification.objects.filter(user=bruno, read_at__isnull=True).count() == 0


def test_asking_back_is_accepting(alice_client, bruno_client, player, bruno):
    post(alice_client, "friends:request", "bruno")
    assert said(post(bruno_client, "friends:request", "alice")) == ["alice et toi êtes maintenant amis."]
    assert friends.are_friends(player.pk, bruno.pk)
    assert Friendship.objects.count() == 1


def test_the_pair_is_one_row_whichever_way_round(player, bruno):
    """Two requests crossing at the same moment: the database keeps one."""
    from django.db import IntegrityError, transaction

    Friendship.objects.create(from_user=player, to_user=bruno)
    with pytest.raises(IntegrityError), transaction.atomic():
        Friendship.objects.create(from_user=bruno, to_user=player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Friendship.objects.create(from_user=player, to_user=player)


def test_either_friend_removes_the_other(alice_client, bruno_client, player, bruno):
    post(alice_client, "friends:request", "bruno")
    post(bruno_client, "friends:accept", "alice")
    assert said(post(bruno_client, "friends:remove", "alice")) == ["alice n'est plus dans tes amis."]
    assert not Friendship.objects.exists()
    before = state()
    assert said(post(alice_client, "friends:remove", "bruno")) == ["bruno n'est pas dans tes amis."]
    assert state() == before


@pytest.mark.parametrize(("pseudo", "message"), [
    ("alice", "Tu ne peux pas être ton propre ami."),
    ("personne", friends.UNKNOWN),
    ("", friends.UNKNOWN),
    ("x" * 300, friends.UNKNOWN),
    ("bru\x00no", friends.UNKNOWN),
    ("Robot Expert", friends.UNKNOWN),
])
@pytest.mark.parametrize("action", ["request", "accept", "refuse", "cancel", "remove", "block", "unblock"])
def test_forged_forms_are_refused_in_french_and_change_nothing(alice_client, bruno, action, pseudo, message):
    assert User.objects.filter(username="Robot Expert", is_bot=True).exists()
    before = state()
    response = post(alice_client, f"friends:{action}", pseudo)
    assert response.status_code == 302
    assert said(response) == [message]
    assert state() == before


def test_a_get_or_a_foreign_next_goes_back_to_my_friends(alice_client, bruno):
    assert alice_client.get(reverse("friends:request")).url == reverse("friends")
    response = post(alice_client, "friends:request", "bruno", next="https://evil.example/")
    assert response.url == reverse("friends")
    response = post(alice_client, "friends:cancel", "bruno", next="/joueurs/bruno/")
    assert response.url == "/joueurs/bruno/"


def test_a_visitor_is_sent_to_log_in(client, bruno):
    response = client.post(reverse("friends:request"), {"pseudo": "bruno"})
    assert response.status_code == 302 and reverse("accounts:login") in response.url
    assert not Friendship.objects.exists()


def test_friend_requests_are_rate_limited(alice_client, make_player):
    for n in range(friends.REQUESTS_PER_HOUR):
        make_player(f"ami{n}")
        assert said(post(alice_client, "friends:request", f"ami{n}")) == [f"Demande envoyée à ami{n}."]
    make_player("encore")
    before = state()
    assert "réessaie dans une heure" in said(post(alice_client, "friends:request", "encore"))[0]
    assert state() == before


# ------------------------------------------------------------------------------------------- blocks

def test_a_blocked_player_is_told_only_that_the_request_is_impossible(alice_client, bruno_client, player, bruno):
    post(bruno_client, "friends:block", "alice")
    before = state()
    response = post(alice_client, "friends:request", "bruno")
    assert said(response) == ["Demande impossible."], "the block is never revealed"
    assert state() == before and requests_to(bruno) == []
    # The blocker himself is told what to do.
    assert "débloque-le" in said(post(bruno_client, "friends:request", "alice"))[0]


def test_blocking_ends_the_friendship_and_the_requests(alice_client, bruno_client, player, bruno, make_player):
    post(alice_client, "friends:request", "bruno")
    post(bruno_client, "friends:accept", "alice")
    assert said(post(bruno_client, "friends:block", "alice")) == ["Tu as bloqué alice."]
    assert not Friendship.objects.exists() and friends.has_blocked(bruno.pk, player.pk)
    assert friends.blocked_either(player.pk, bruno.pk) and not friends.has_blocked(player.pk, bruno.pk)
    # A pending request from the player blocked: gone, and out of the blocker's bell.
    carla = make_player("carla")
    carla_client = logged_in(carla)
    post(carla_client, "friends:request", "bruno")
    post(bruno_client, "friends:block", "carla")
    assert not Friendship.objects.exists()
    assert Notification.objects.filter(user=bruno, kind=Notification.Kind.FRIEND_REQUEST,
                                       read_at__isnull=True).count() == 0
    # Blocking twice changes nothing; unblocking lets requests through again.
    before = state()
    post(bruno_client, "friends:block", "carla")
    assert state() == before
    assert said(post(bruno_client, "friends:unblock", "alice")) == ["Tu as débloqué alice."]
    assert said(post(bruno_client, "friends:unblock", "alice")) == ["Tu n'as pas bloqué alice."]
    assert said(post(alice_client, "friends:request", "bruno")) == ["Demande envoyée à bruno."]


# ------------------------------------------------------------------------------------- the pages

def test_the_player_page_offers_what_fits(alice_client, bruno_client, player, bruno):
    page = alice_client.get(reverse("player_profile", args=["bruno"])).content.decode()
    assert "Ajouter en ami" in page and "Bloquer" in page
    assert "Ajouter en ami" not in alice_client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "Ajouter en ami" not in Client().get(reverse("player_profile", args=["bruno"])).content.decode()
    post(alice_client, "friends:request", "bruno")
    assert "Annuler ma demande" in alice_client.get(reverse("player_profile", args=["bruno"])).content.decode()
    theirs = bruno_client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "te demande en ami" in theirs and "Accepter" in theirs and "Refuser" in theirs
    post(bruno_client, "friends:block", "alice")
    assert "Débloquer" in bruno_client.get(reverse("player_profile", args=["alice"])).content.decode()
    # alice's view of bruno's page says nothing of his block
    page = alice_client.get(reverse("player_profile", args=["bruno"])).content.decode()
    assert "Ajouter en ami" in page and "Débloquer" not in page and "bloqué" not in page


def test_the_friends_page_lists_requests_friends_and_blocks(alice_client, bruno_client, player, bruno, make_player):
    carla = make_player("carla")
    make_player("denis")
    post(alice_client, "friends:request", "bruno")
    post(bruno_client, "friends:accept", "alice")
    post(logged_in(carla), "friends:request", "alice")
    post(alice_client, "friends:request", "denis")
    make_player("eve")
    post(alice_client, "friends:block", "eve")
    response = alice_client.get(reverse("friends"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Mes amis</h1>" in html and 'href="/amis/"' in html, "the « Amis » link of the menu"
    received = html.split('data-testid="requests-received"')[1].split("</ul>")[0]
    assert "carla" in received and "Accepter" in received
    assert "denis" in html.split('data-testid="requests-sent"')[1].split("</ul>")[0]
    mine = html.split('data-testid="friends"')[1].split("</ul>")[0]
    assert "bruno" in mine and 'data-online="1"' in mine, "he just asked for a page"
    User.objects.filter(pk=bruno.pk).update(last_seen=timezone.now() - timedelta(minutes=6))
    mine = alice_client.get(reverse("friends")).content.decode().split('data-testid="friends"')[1].split("</ul>")[0]
    assert 'data-online="0"' in mine and "hors ligne" in mine
    assert "eve" in html.split('data-testid="blocked"')[1].split("</ul>")[0]


def test_a_visitor_has_no_friends_page(client):
    response = client.get(reverse("friends"))
    assert response.status_code == 302 and reverse("accounts:login") in response.url


# --------------------------------------------------------------------------------------------- online

def test_last_seen_is_written_at_most_once_a_minute(alice_client, player):
    alice_client.get(reverse("friends"))
    player.refresh_from_db()
    first = player.last_seen
    assert first is not None and friends.is_online(player)
    alice_client.get(reverse("friends"))
    player.refresh_from_db()
    assert player.last_seen == first, "within the minute: no write"
    User.objects.filter(pk=player.pk).update(last_seen=first - timedelta(minutes=2))
    alice_client.get(reverse("friends"))
    player.refresh_from_db()
    assert player.last_seen > first - timedelta(minutes=2)
    User.objects.filter(pk=player.pk).update(last_seen=timezone.now() - friends.ONLINE_WINDOW - timedelta(seconds=1))
    player.refresh_from_db()
    assert not friends.is_online(player)


def test_the_admin_lists_friendships_and_blocks(admin_client, player, bruno):
    Friendship.objects.create(from_user=player, to_user=bruno)
    Block.objects.create(blocker=bruno, blocked=player)
    for model in ("friendship", "block"):
        response = admin_client.get(reverse(f"admin:accounts_{model}_changelist"))
        assert response.status_code == 200 and "alice" in response.content.decode()


def test_every_friend_form_needs_its_csrf_token(player, bruno):
    from accounts import friend_urls

    client = Client(enforce_csrf_checks=True)
    client.force_login(player, backend="accounts.backends.HumanOnlyBackend")
    urls = [reverse(f"friends:{p.name}") for p in friend_urls.urlpatterns] + [reverse("tables:invite_friend")]
    assert len(urls) == 8
    before = state()
    for url in urls:
        assert client.post(url, {"pseudo": "bruno", "table": 1}).status_code == 403, url
    assert state() == before
