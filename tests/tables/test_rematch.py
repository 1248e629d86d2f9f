"""« Revanche » (tables.rematch): the same match again, with the same players at the same places."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.urls import reverse

from accounts.services import house_account, player_account, pot_account, transfer_create, user_balance
from tables import broadcast, reads, rematch, services
from tables.errors import TableError
from tables.models import Game, Seat, Table
from tables.rendering import render_push
from tests.tables.helpers import assert_ledger_conserved, play_out

pytestmark = pytest.mark.django_db(transaction=True)

STAKE = 10


def finished_match(alice, bruno, *, others=(), slug="gin", seats=3, bots=None, stake=STAKE, options=None,
                   **settings) -> Table:
    """A match played to its end: alice at place 0, bruno at place 1, then `others` (humans), robots where asked
    (default: an Expert at the last place)."""
    bots = {seats - 1: 3} if bots is None else bots
    table = services.table_create(host=alice, game=Game.objects.get(slug=slug), seats_count=seats, bot_levels=bots,
                                  options={"match": "1"} if options is None else options, stake=stake,
                                  **{"turn_timer_s": 60, "private": True, **settings})
    for user in (bruno, *others):
        services.seat_join(table=table, user=user)
    if not table.starts_when_full:  # a quick start started as it filled
        services.table_start(table=table, user=alice)
    table = play_out(table)
    assert table.status == Table.Status.FINISHED
    return table


def seats_of(table: Table) -> dict[int, tuple]:
    """{place: (user id, robot level)}"""
    return {s.position: (s.user_id if not s.is_bot else None, s.bot_level) for s in table.seats.all()}


def page_of(table: Table, user) -> str:
    """What the user's page shows of the table now (his push)."""
    seats = reads.seats_of(table.pk)
    return render_push(reads.table(table.pk), seats, next(s for s in seats if s.user_id == user.pk))


def rematch_count() -> int:
    return Table.objects.filter(rematch_of__isnull=False).count()


@pytest.fixture
def alice(make_player):
    return make_player("alice")


@pytest.fixture
def bruno(make_player):
    return make_player("bruno")


def test_the_rematch_copies_the_table_and_its_host_sits_at_his_old_place(alice, bruno):
    old = finished_match(alice, bruno, coach_limit=1, spectators_chat=True, rated=True)
    new = rematch.rematch_offer(table_id=old.pk, user=bruno)
    new.refresh_from_db()
    assert new.rematch_of_id == old.pk and new.status == Table.Status.WAITING
    assert new.host_id == bruno.pk
    for field in ("game_id", "seats_count", "options", "stake", "turn_timer_s", "private", "table_type", "rated",
                  "coach_limit", "spectators_chat"):
        assert getattr(new, field) == getattr(old, field), field
    # bruno at his place (1, not 0), the Expert at its place, alice's place kept for her
    assert seats_of(new) == {1: (bruno.pk, None), 2: (None, 3)}
    assert new.reserved_places() == {0: alice.pk}
    # alice's page of the finished match shows the offer, with her answers
    html = page_of(old, alice)
    assert "<strong>bruno</strong> propose une revanche" in html
    assert "Accepter" in html and "Refuser" in html
    assert reverse("tables:rematch_accept", args=[old.pk]) in html
    assert "Rejouer" not in html and "Autre partie" in html


def test_accepting_seats_at_the_old_place_and_the_full_table_starts_with_stakes_escrowed(alice, bruno):
    old = finished_match(alice, bruno)
    balances = {u.pk: user_balance(u) for u in (alice, bruno)}
    new = rematch.rematch_offer(table_id=old.pk, user=bruno)
    assert Table.objects.get(pk=new.pk).status == Table.Status.WAITING, "alice has not answered"
    assert rematch.rematch_accept(table_id=old.pk, user=alice).pk == new.pk
    new.refresh_from_db()
    assert new.status == Table.Status.PLAYING and new.state is not None
    assert seats_of(new) == {0: (alice.pk, None), 1: (bruno.pk, None), 2: (None, 3)}
    assert new.reserved_places() == {}
    assert new.moves.filter(seq=1, move__action="start").exists(), "started through services.match_start"
    for user in (alice, bruno):
        assert user_balance(user) == balances[user.pk] - STAKE
    assert pot_account(new.pk).balance == 2 * STAKE
    assert_ledger_conserved()
    # a second click changes nothing
    assert rematch.rematch_accept(table_id=old.pk, user=alice).pk == new.pk
    assert user_balance(alice) == balances[alice.pk] - STAKE
    # both pages of the finished match lead to it
    for user in (alice, bruno):
        assert "Aller à la revanche" in page_of(old, user)
    play_out(new)
    assert_ledger_conserved()


def test_a_double_click_and_two_first_clicks_at_once_make_one_rematch(alice, bruno):
    old = finished_match(alice, bruno)
    first = rematch.rematch_offer(table_id=old.pk, user=bruno)
    assert rematch.rematch_offer(table_id=old.pk, user=bruno).pk == first.pk
    assert rematch_count() == 1

    other = finished_match(alice, bruno)
    barrier = threading.Barrier(2)

    def click(user):
        barrier.wait()
        try:
            return rematch.rematch_offer(table_id=other.pk, user=user).pk
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        made = set(pool.map(click, (alice, bruno)))
    assert len(made) == 1 and rematch_count() == 2
    new = Table.objects.get(pk=made.pop())
    # the second « Revanche » said yes to the first one: everyone is back, so it started (and, with no page open,
    # the robot and the autoplay of the absent may already have played it to its end on a slow machine)
    assert new.status in (Table.Status.PLAYING, Table.Status.FINISHED)
    assert new.moves.filter(seq=1).exists()
    assert seats_of(new) == {0: (alice.pk, None), 1: (bruno.pk, None), 2: (None, 3)}
    assert_ledger_conserved()


def test_a_refusal_is_shown_and_the_host_gives_the_place_to_a_robot_then_it_starts(alice, bruno, monkeypatch):
    old = finished_match(alice, bruno)
    new = rematch.rematch_offer(table_id=old.pk, user=alice)
    Seat.objects.filter(table=new).update(connections=1)  # alice's page of the rematch is open
    sent = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message: sent.append((group, message)))
    rematch.rematch_refuse(table_id=old.pk, user=bruno)
    new.refresh_from_db()
    assert new.reserved_places() == {} and new.status == Table.Status.WAITING
    # pushed to alice's page of the rematch: bruno refused, and the free place may go to a robot
    pushed = "".join(str(m) for g, m in sent if g == broadcast.public_group(new.pk))
    assert "<strong>bruno</strong> a refusé" in pushed
    assert "Donner au robot" in pushed
    assert "<strong>bruno</strong> a refusé" in page_of(old, alice)
    assert "Tu as refusé" in page_of(old, bruno)
    # refusing again changes nothing; accepting later takes the free place
    rematch.rematch_refuse(table_id=old.pk, user=bruno)
    with pytest.raises(TableError) as error:
        rematch.rematch_seat_robot(table_id=new.pk, user=alice, position=1, level=4)
    assert "niveau" in error.value.message
    rematch.rematch_seat_robot(table_id=new.pk, user=alice, position=1, level=1)
    new.refresh_from_db()
    assert new.status == Table.Status.PLAYING
    assert seats_of(new) == {0: (alice.pk, None), 1: (None, 1), 2: (None, 3)}
    assert_ledger_conserved()


def test_a_player_who_left_the_match_is_not_waited_for(alice, bruno, make_player):
    chloe = make_player("chloe")
    table = services.table_create(host=alice, game=Game.objects.get(slug="thanasis"), seats_count=3, stake=STAKE,
                                  turn_timer_s=30)
    for user in (bruno, chloe):
        services.seat_join(table=table, user=user)
    services.table_start(table=table, user=alice)
    services.seat_abandon(table_id=table.pk, user=chloe)
    old = play_out(table)
    assert old.status == Table.Status.FINISHED
    new = rematch.rematch_offer(table_id=old.pk, user=alice)
    assert new.reserved_places() == {1: bruno.pk}, "no place kept for chloe"
    assert "<strong>chloe</strong> a quitté la table" in page_of(old, bruno)
    # she may not answer (nor offer) a rematch of the match she left
    for action in (rematch.rematch_accept, rematch.rematch_offer, rematch.rematch_refuse):
        with pytest.raises(TableError) as error:
            action(table_id=old.pk, user=chloe)
        assert "Tu as quitté cette partie" in error.value.message
    rematch.rematch_accept(table_id=old.pk, user=bruno)
    assert Table.objects.get(pk=new.pk).status == Table.Status.WAITING, "chloe's place is free, not waited for"
    rematch.rematch_seat_robot(table_id=new.pk, user=alice, position=2, level=2)
    assert Table.objects.get(pk=new.pk).status == Table.Status.PLAYING


def test_a_kept_place_is_not_taken_through_the_invite_link_a_free_one_is(alice, bruno, make_player):
    old = finished_match(alice, bruno, others=[make_player("chloe")], seats=4, bots={3: 2})
    chloe = old.seats.get(position=2).user
    new = rematch.rematch_offer(table_id=old.pk, user=alice)
    stranger = make_player("dora")
    with pytest.raises(TableError) as error:
        services.seat_join(table=new, user=stranger)
    assert error.value.message == "Les places libres sont gardées pour les joueurs de la partie précédente."
    with pytest.raises(TableError) as error:
        rematch.rematch_seat_robot(table_id=new.pk, user=alice, position=1, level=2)
    assert "gardée pour son joueur" in error.value.message
    assert seats_of(new) == {0: (alice.pk, None), 3: (None, 2)}
    # chloe refuses: her place goes to whoever follows the link; bruno's link click takes his own place
    rematch.rematch_refuse(table_id=old.pk, user=chloe)
    assert services.seat_join(table=new, user=stranger).position == 2
    assert services.seat_join(table=new, user=bruno).position == 1
    new.refresh_from_db()
    assert new.status == Table.Status.PLAYING
    assert seats_of(new) == {0: (alice.pk, None), 1: (bruno.pk, None), 2: (stranger.pk, None), 3: (None, 2)}


def test_accepting_without_the_stake_is_refused_in_french_and_changes_nothing(alice, bruno):
    old = finished_match(alice, bruno)
    new = rematch.rematch_offer(table_id=old.pk, user=bruno)
    transfer_create(source=player_account(alice), target=house_account(), amount=user_balance(alice) - 3,
                    reason="adjust")
    with pytest.raises(TableError) as error:
        rematch.rematch_accept(table_id=old.pk, user=alice)
    assert error.value.message == f"Il te faut au moins {STAKE} jetons pour t'asseoir à cette table."
    new.refresh_from_db()
    assert new.reserved_places() == {0: alice.pk} and new.seats.count() == 2


def test_forged_and_invalid_requests_are_refused_in_french_and_change_nothing(alice, bruno, make_player, client):
    stranger = make_player("eve")
    old = finished_match(alice, bruno)
    playing = services.table_create(host=alice, game=Game.objects.get(slug="gin"), seats_count=2, bot_levels={1: 2},
                                    stake=0)
    services.table_start(table=playing, user=alice)

    def refused(call, **kwargs) -> str:
        with pytest.raises(TableError) as error:
            call(**kwargs)
        return error.value.message

    assert "Tu n'as pas joué cette partie" in refused(rematch.rematch_offer, table_id=old.pk, user=stranger)
    assert "une fois la partie terminée" in refused(rematch.rematch_offer, table_id=playing.pk, user=alice)
    assert "n'existe pas" in refused(rematch.rematch_offer, table_id=999999, user=alice)
    assert "Personne ne propose" in refused(rematch.rematch_accept, table_id=old.pk, user=bruno)
    assert "pas de revanche en attente" in refused(rematch.rematch_refuse, table_id=old.pk, user=bruno)
    assert rematch_count() == 0
    new = rematch.rematch_offer(table_id=old.pk, user=alice)
    assert "Tu n'as pas joué cette partie" in refused(rematch.rematch_accept, table_id=old.pk, user=stranger)
    assert "Tu as déjà accepté" in refused(rematch.rematch_refuse, table_id=old.pk, user=alice)
    assert "Seul l'hôte" in refused(rematch.rematch_seat_robot, table_id=new.pk, user=bruno, position=1, level=2)
    assert "déjà prise" in refused(rematch.rematch_seat_robot, table_id=new.pk, user=alice, position=2, level=2)
    assert "n'existe pas" in refused(rematch.rematch_seat_robot, table_id=new.pk, user=alice, position=7, level=2)
    assert "pas une revanche" in refused(rematch.rematch_seat_robot, table_id=old.pk, user=alice, position=1, level=2)
    assert "pas en équipes" in refused(rematch.rematch_teams_change, table_id=new.pk, user=alice)
    new.refresh_from_db()
    assert seats_of(new) == {0: (alice.pk, None), 2: (None, 3)} and new.reserved_places() == {1: bruno.pk}

    # Through the views: a French message, a redirect, never a 500, nothing changed.
    client.force_login(stranger, backend="accounts.backends.HumanOnlyBackend")
    response = client.post(reverse("tables:rematch_accept", args=[old.pk]), follow=True)
    assert response.status_code == 200 and "Tu n&#x27;as pas joué cette partie" in response.content.decode()
    client.force_login(alice, backend="accounts.backends.HumanOnlyBackend")
    for data in ({"place": "x", "level": "2"}, {"place": "1", "level": "9" * 40}, {}, {"place": "-1", "level": "2"}):
        response = client.post(reverse("tables:rematch_robot", args=[new.pk]), data)
        assert response.status_code == 302, data
    response = client.post(reverse("tables:rematch_robot", args=[new.pk]), {"place": "1", "level": "2"}, follow=True)
    assert "gardée pour son joueur" in response.content.decode()
    assert client.get(reverse("tables:rematch", args=[old.pk])).status_code == 302  # a GET does nothing
    assert client.post(reverse("tables:rematch", args=[playing.pk])).status_code == 302
    new.refresh_from_db()
    assert seats_of(new) == {0: (alice.pk, None), 2: (None, 3)} and new.reserved_places() == {1: bruno.pk}
    assert rematch_count() == 1
    # the views that work: the offer and the answer lead to the rematch
    client.force_login(bruno, backend="accounts.backends.HumanOnlyBackend")
    response = client.post(reverse("tables:rematch_accept", args=[old.pk]))
    assert response.status_code == 302 and response.url == reverse("tables:table", args=[new.pk])


def test_a_cancelled_rematch_may_be_offered_again(alice, bruno):
    old = finished_match(alice, bruno)
    first = rematch.rematch_offer(table_id=old.pk, user=bruno)
    services.seat_leave_waiting(table=first, user=bruno)  # the host leaves: the rematch is cancelled
    assert "La revanche proposée a été annulée" in page_of(old, alice)
    second = rematch.rematch_offer(table_id=old.pk, user=alice)
    assert second.pk != first.pk and second.host_id == alice.pk
    assert Table.objects.get(pk=first.pk).rematch_of_id is None


def test_the_invited_players_are_named_to_the_notification_hook_once_committed(alice, bruno, monkeypatch):
    calls = []
    monkeypatch.setattr(rematch, "_rematch_offered", lambda *args: calls.append(args))
    old = finished_match(alice, bruno)
    new = rematch.rematch_offer(table_id=old.pk, user=alice)
    rematch.rematch_offer(table_id=old.pk, user=alice)
    assert [(o.pk, n.pk, p.pk, [u.pk for u in i]) for o, n, p, i in calls] == [(old.pk, new.pk, alice.pk, [bruno.pk])]


def test_quick_start_and_arena_rematches_follow_their_type(alice, bruno):
    quick = finished_match(alice, bruno, stake=0, table_type=Table.Type.QUICK, private=False)
    new = rematch.rematch_offer(table_id=quick.pk, user=alice)
    assert (new.table_type, new.stake, new.private) == (Table.Type.FRIENDS, 0, True)
    arena = services.table_create(host=alice, game=Game.objects.get(slug="canasta-tuiles"), seats_count=4,
                                  bot_levels={1: 2, 3: 2}, stake=STAKE, table_type=Table.Type.ARENA)
    services.seat_join(table=arena, user=bruno)
    Table.objects.filter(pk=arena.pk).update(status=Table.Status.FINISHED)  # as if played to its end
    new = rematch.rematch_offer(table_id=arena.pk, user=bruno)
    arena.refresh_from_db()
    assert (new.table_type, new.stake, new.private) == (Table.Type.ARENA, STAKE, False)
    assert new.options == arena.options and new.options["match_length"] == "3"


def test_changing_teams_turns_the_three_other_places_so_every_pair_of_partners_changes(alice, bruno):
    # Canasta: partners face to face (places 1 and 3, 2 and 4). alice at place 1 with bruno facing her.
    game = Game.objects.get(slug="canasta")
    old = services.table_create(host=alice, game=game, seats_count=4, bot_levels={1: 1, 3: 3}, stake=0)
    services.seat_join(table=old, user=bruno)
    Table.objects.filter(pk=old.pk).update(status=Table.Status.FINISHED)  # as if played to its end
    assert seats_of(old)[2] == (bruno.pk, None)
    new = rematch.rematch_offer(table_id=old.pk, user=alice)
    assert "Changer d'équipes" in page_of(new, alice)
    with pytest.raises(TableError) as error:
        rematch.rematch_teams_change(table_id=new.pk, user=bruno)
    assert "Seul l'hôte" in error.value.message

    def partners(table) -> set[frozenset]:
        places = seats_of(table)
        reserved = table.reserved_places()
        who = {p: places[p] if p in places else ("kept", reserved.get(p)) for p in range(4)}
        return {frozenset((who[0], who[2])), frozenset((who[1], who[3]))}

    first = partners(Table.objects.get(pk=new.pk))
    seen = [first]
    for _ in range(3):
        rematch.rematch_teams_change(table_id=new.pk, user=alice)
        table = Table.objects.get(pk=new.pk)
        assert seats_of(table)[0] == (alice.pk, None), "the host keeps his place"
        seen.append(partners(table))
    assert len({frozenset(p) for p in seen[:3]}) == 3, "three different pairings"
    assert not seen[1] & seen[0] and not seen[2] & seen[1], "every pair of partners changes"
    assert seen[3] == seen[0], "the third click brings the first teams back"

    # once: the player at alice's left comes to face her
    rematch.rematch_teams_change(table_id=new.pk, user=alice)
    table = Table.objects.get(pk=new.pk)
    assert seats_of(table) == {0: (alice.pk, None), 2: (None, 1), 1: (None, 3)}
    assert table.reserved_places() == {3: bruno.pk}, "bruno's kept place moved with the others"
    # bruno accepts: he sits at his kept place, now at alice's right
    rematch.rematch_accept(table_id=old.pk, user=bruno)
    assert Table.objects.get(pk=new.pk).status == Table.Status.PLAYING  # full: it starts
    assert seats_of(Table.objects.get(pk=new.pk))[3] == (bruno.pk, None)


def test_an_accepted_player_moves_with_the_teams_and_his_page_follows(alice, bruno, make_player, monkeypatch):
    chloe = make_player("chloe")
    game = Game.objects.get(slug="canasta")
    old = services.table_create(host=alice, game=game, seats_count=4, bot_levels={3: 2}, stake=0)
    for user in (bruno, chloe):
        services.seat_join(table=old, user=user)
    Table.objects.filter(pk=old.pk).update(status=Table.Status.FINISHED)
    new = rematch.rematch_offer(table_id=old.pk, user=alice)
    rematch.rematch_accept(table_id=old.pk, user=bruno)  # place 2 (index 1), chloe not answered yet
    sent = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message: sent.append((group, message)))
    rematch.rematch_teams_change(table_id=new.pk, user=alice)
    table = Table.objects.get(pk=new.pk)
    assert seats_of(table) == {0: (alice.pk, None), 2: (bruno.pk, None), 1: (None, 2)}
    assert table.reserved_places() == {3: chloe.pk}
    moved = [m for g, m in sent if m.get("type") == "seat.moved"]
    assert moved == [{"type": "seat.moved", "user": bruno.pk, "position": 1, "to": 2}]
    assert any(g == broadcast.player_group(new.pk, bruno.pk) for g, m in sent if m.get("type") == "seat.moved")
    rematch.rematch_accept(table_id=old.pk, user=chloe)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert seats_of(table)[3] == (chloe.pk, None)


def test_the_offer_rings_the_invited_players_bell_once(alice, bruno, make_player):
    from accounts.models import Notification

    carla = make_player("carla")
    old = finished_match(alice, bruno, others=(carla,), seats=4, bots={3: 1})
    rematch.rematch_offer(table_id=old.pk, user=bruno)
    rematch.rematch_offer(table_id=old.pk, user=bruno)  # a double click
    notes = Notification.objects.filter(kind=Notification.Kind.REMATCH)
    assert sorted(n.user.username for n in notes) == ["alice", "carla"]
    assert {n.text for n in notes} == {f"bruno te propose une revanche au Gin Rami (table n° {old.pk})."}
    assert {n.url for n in notes} == {f"/tables/{old.pk}/"} and not any(n.mail for n in notes)
