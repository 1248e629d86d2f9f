"""Friends at the tables (tables.invitations): inviting a friend to a waiting table notifies him once with the
table's invitation link, which seats him as it always did; a block stops the invitations and keeps each player out
of the other's private tables; « Mes amis » says where each friend is and offers « Regarder » or « Rejoindre »
where allowed. Every refusal is French and changes nothing."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts import friends
from accounts.models import Friendship, Notification, User
from tables import invitations, services
from tables.models import Game, Seat, SpectatorPresence, Table

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="accounts.backends.HumanOnlyBackend")
    return client


def said(response) -> str:
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def make_friends(a: User, b: User) -> None:
    """b asks a, who accepts (the asking is rate-limited per sender)."""
    friends.friend_request(user=b, pseudo=a.username)
    friends.friend_accept(user=a, pseudo=b.username)


def waiting_table(host: User, *, seats: int = 3, private: bool = True, bots: dict | None = None) -> Table:
    return services.table_create(host=host, game=Game.objects.get(slug="gin"), seats_count=seats,
                                 bot_levels=bots or {}, options={}, stake=0, turn_timer_s=30, private=private)


@pytest.fixture
def bruno(make_player):
    bruno = make_player("bruno")
    User.objects.filter(pk=bruno.pk).update(email="bruno@example.org")
    bruno.refresh_from_db()
    return bruno


def invite(client: Client, table, pseudo: str, **extra):
    return client.post(reverse("tables:invite_friend"), {"table": getattr(table, "pk", table), "pseudo": pseudo,
                                                         **extra})


def invitations_of(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=Notification.Kind.INVITATION))


def everything() -> tuple:
    return (sorted(Notification.objects.values_list("user_id", "key")),
            sorted(Seat.objects.values_list("table_id", "position", "user_id")))


# ----------------------------------------------------------------------------------------- invitations

def test_an_invitation_notifies_the_friend_once_with_the_tables_link(player, bruno):
    make_friends(player, bruno)
    table = waiting_table(player)
    alice = logged_in(player)
    response = invite(alice, table, "bruno", next=reverse("tables:table", args=[table.pk]))
    assert response.status_code == 302 and response.url == reverse("tables:table", args=[table.pk])
    assert said(response) == "Invitation envoyée à bruno."
    [note] = invitations_of(bruno)
    assert note.url == reverse("tables:invite", args=[table.invite_token]), "the invitation link, unchanged"
    assert note.key == f"invite:{table.pk}:{bruno.pk}"
    assert note.text == f"alice t'invite à jouer au Gin Rami (table n° {table.pk})."
    assert note.mail == Notification.Mail.PENDING, "mailed: his switch is on and he has an address"
    # Twice: told once.
    before = everything()
    assert said(invite(alice, table, "bruno")) == "Tu as déjà invité bruno à cette table."
    assert everything() == before
    # He follows it (the notification's link) and sits.
    guest = logged_in(bruno)
    opened = guest.get(reverse("accounts:notification", args=[note.pk]))
    assert opened.url == note.url
    seated = guest.get(note.url)
    assert seated.status_code == 302 and seated.url == reverse("tables:table", args=[table.pk])
    assert Seat.objects.filter(table=table, user=bruno).exists()


def test_the_waiting_tables_page_lists_my_friends_to_invite(player, bruno, make_player):
    make_friends(player, bruno)
    make_player("carla")  # not a friend: not listed
    table = waiting_table(player)
    html = logged_in(player).get(reverse("tables:table", args=[table.pk])).content.decode()
    listed = html.split('data-testid="invite-friends"')[1].split("</ul>")[0]
    assert "bruno" in listed and "Inviter" in listed and "carla" not in listed
    services.seat_join(table=table, user=bruno)
    html = logged_in(player).get(reverse("tables:table", args=[table.pk])).content.decode()
    assert 'data-testid="invite-friends"' not in html, "he sits there already"


@pytest.mark.parametrize(("case", "message"), [
    ("not_friends", invitations.IMPOSSIBLE),
    ("blocked_me", invitations.IMPOSSIBLE),
    ("i_blocked", invitations.IMPOSSIBLE),
    ("unknown", friends.UNKNOWN),
    ("bot", friends.UNKNOWN),
    ("not_my_table", "Tu n'es pas assis à cette table."),
    ("no_table", "Tu n'es pas assis à cette table."),
    ("forged_table", "Tu n'es pas assis à cette table."),
    ("huge_table", "Tu n'es pas assis à cette table."),
    ("started", "La partie a déjà commencé à cette table : on n'y invite plus."),
    ("seated", "bruno est déjà à cette table."),
    ("full", "Cette table est complète."),
    ("myself", "Tu es déjà à cette table."),
])
def test_a_refused_invitation_says_why_in_french_and_changes_nothing(player, bruno, make_player, case, message):
    make_friends(player, bruno)
    table = waiting_table(player)
    pseudo, target = "bruno", table.pk
    if case == "not_friends":
        Friendship.objects.all().delete()
    elif case == "blocked_me":
        friends.player_block(user=bruno, pseudo="alice")
    elif case == "i_blocked":
        friends.player_block(user=player, pseudo="bruno")
    elif case == "unknown":
        pseudo = "personne"
    elif case == "bot":
        pseudo = "Robot Expert"
    elif case == "not_my_table":
        target = waiting_table(make_player("carla")).pk
    elif case == "no_table":
        target = 999999
    elif case == "forged_table":
        target = "1 OR 1=1"
    elif case == "huge_table":
        target = str(2**70)
    elif case == "started":
        Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    elif case == "seated":
        services.seat_join(table=table, user=bruno)
    elif case == "full":
        services.seat_join(table=table, user=make_player("carla"))
        services.seat_join(table=table, user=make_player("denis"))
    elif case == "myself":
        pseudo = "alice"
    before = everything()
    response = invite(logged_in(player), target, pseudo)
    assert response.status_code == 302 and said(response) == message
    assert everything() == before


def test_invitations_are_rate_limited(player, make_player):
    table = waiting_table(player, seats=4)
    alice = logged_in(player)
    for n in range(invitations.INVITATIONS_PER_HOUR):
        friend = make_player(f"ami{n}")
        make_friends(player, friend)
        assert said(invite(alice, table, f"ami{n}")) == f"Invitation envoyée à ami{n}."
    make_friends(player, make_player("encore"))
    before = everything()
    assert said(invite(alice, table, "encore")) == "Tu as envoyé beaucoup d'invitations : réessaie dans une heure."
    assert everything() == before


# --------------------------------------------------------------------------------- private tables

@pytest.mark.parametrize("who_blocks", ["host", "guest"])
def test_a_block_keeps_each_out_of_the_others_private_table(player, bruno, who_blocks):
    if who_blocks == "host":
        friends.player_block(user=player, pseudo="bruno")
        expected = "Tu ne peux pas t'asseoir à cette table privée."
    else:
        friends.player_block(user=bruno, pseudo="alice")
        expected = "débloque-le"
    table = waiting_table(player)
    with pytest.raises(services.TableError) as refused:
        services.seat_join(table=table, user=bruno)
    assert expected in refused.value.message and refused.value.code == services.BLOCKED
    response = logged_in(bruno).get(reverse("tables:invite", args=[table.invite_token]))
    assert response.url == reverse("tables:lobby") and expected in said(response)
    assert not Seat.objects.filter(user=bruno).exists()
    # Started meanwhile: the link does not let him watch it either.
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    response = logged_in(bruno).get(reverse("tables:invite", args=[table.invite_token]))
    assert response.url == reverse("tables:lobby")
    # A public table is open to all: a block does not keep him out.
    public = waiting_table(player, private=False)
    assert services.seat_join(table=public, user=bruno).user == bruno


# -------------------------------------------------------------------------------------- « Mes amis »

def test_the_friends_page_says_where_each_friend_is_and_what_i_may_do(player, bruno, make_player):
    carla, denis, eve = make_player("carla"), make_player("denis"), make_player("eve")
    for friend in (bruno, carla, denis, eve):
        make_friends(player, friend)
    public = waiting_table(bruno, private=False)  # bruno waits at a public table: « Rejoindre »
    Seat.objects.filter(table=public, user=bruno).update(connections=1)
    private = waiting_table(carla)  # carla at a private one: nothing to do there
    Seat.objects.filter(table=private, user=carla).update(connections=1)
    playing = waiting_table(denis, private=False, seats=2, bots={1: 1})  # denis plays a public match: « Regarder »
    services.table_start(table=playing, user=denis)
    Seat.objects.filter(table=playing, user=denis).update(connections=1)
    mine = waiting_table(player)  # eve watches nothing; I have a waiting table to invite her to
    html = logged_in(player).get(reverse("friends")).content.decode()

    def row(pseudo):
        return html.split(f'data-pseudo="{pseudo}"')[1].split("</li>")[0]

    assert 'data-online="1"' in row("bruno") and "à la table" in row("bruno")
    assert reverse("tables:join", args=[public.pk]) in row("bruno")
    assert "Rejoindre" not in row("carla") and "Regarder" not in row("carla")
    assert reverse("tables:watch", args=[playing.pk]) in row("denis") and "partie en cours" in row("denis")
    assert 'data-online="0"' in row("eve") and "à la table" not in row("eve")
    assert f'<option value="{mine.pk}">' in row("eve")
    # Invited to carla's private table, I may join it from here (its invitation link).
    invitations.friend_invite(table_id=private.pk, user=carla, pseudo="alice")
    html = logged_in(player).get(reverse("friends")).content.decode()
    assert reverse("tables:invite", args=[private.invite_token]) in row("carla")
    # A friend watching a public match.
    SpectatorPresence.objects.create(table=playing, user=eve, server="x", sockets=1)
    html = logged_in(player).get(reverse("friends")).content.decode()
    assert "regarde la table" in row("eve") and reverse("tables:watch", args=[playing.pk]) in row("eve")
