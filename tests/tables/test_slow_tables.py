"""« Partie lente »: hours or days per move, players told when it is their move and reminded before their time
runs out, the rules' autoplay when it has run out, « Mes parties » with my moves first. Time is moved, not waited:
the table's deadline and reminder are set in the past, then the timers' sweep runs."""

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail as outbox
from django.utils import timezone

from accounts.models import Notification
from engine import games
from tables import families, scheduler, services, tasks
from tables.errors import TableError
from tables.models import Game, Table
from tables.table_types import DAY, HOUR, duration_fr, timer_label
from tests.tables.helpers import assert_ledger_conserved, play_out

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


@pytest.fixture
def pair(make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    for user in (alice, bruno):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return alice, bruno


def slow_table(host, guest, slug="gin", timer=DAY, connected=()):
    table = services.table_create(host=host, game=Game.objects.get(slug=slug), seats_count=2, stake=10,
                                  turn_timer_s=timer)
    services.seat_join(table=table, user=guest)
    for position in connected:  # a page open at the table
        table.seats.filter(position=position).update(connections=1)
    services.table_start(table=table, user=host)
    table.refresh_from_db()
    return table


def to_act(table):
    return games.get(table.game.slug).to_act(table.state)


def run_sweep():
    with mock.patch.object(scheduler, "_enqueue"):  # the next decisions: asserted apart
        return tasks.expire_turns.run()


def test_words_for_the_timers():
    assert [timer_label(t) for t in (30, 12 * HOUR, DAY, 3 * DAY)] == [
        "30 secondes", "12 heures par coup (partie lente)", "24 heures par coup (partie lente)",
        "3 jours par coup (partie lente)"]
    assert [duration_fr(s) for s in (1, 59, 60, 3 * HOUR + 7 * 60, 2 * DAY + 5 * HOUR)] == [
        "1 seconde", "59 secondes", "1 min", "3 h 07", "2 j 5 h"]


def test_a_slow_table_is_a_friends_table_with_a_day_clock_and_a_reminder(pair, django_capture_on_commit_callbacks):
    alice, bruno = pair
    with django_capture_on_commit_callbacks(execute=True):
        table = slow_table(alice, bruno)
    assert table.slow and table.turn_timer_s == DAY
    assert timedelta(hours=23, minutes=59) < table.deadline - timezone.now() <= timedelta(hours=24)
    assert table.deadline - table.remind_at == timedelta(hours=6)  # a quarter of the time left
    for table_type in (Table.Type.QUICK,):
        with pytest.raises(TableError, match="Une partie lente se joue à une table entre amis."):
            services.table_create(host=alice, game=Game.objects.get(slug="gin"), seats_count=2, stake=10,
                                  turn_timer_s=DAY, table_type=table_type)
    with pytest.raises(TableError, match="Ce temps par coup n'est pas proposé."):
        services.table_create(host=alice, game=Game.objects.get(slug="gin"), seats_count=2, turn_timer_s=5 * HOUR)


def test_the_player_whose_move_it_is_is_told_and_mailed_once(pair, django_capture_on_commit_callbacks):
    alice, bruno = pair
    with django_capture_on_commit_callbacks(execute=True):
        table = slow_table(alice, bruno)
    [first] = to_act(table)
    waiting = (alice, bruno)[first]
    note = Notification.objects.get(user=waiting)
    assert note.kind == Kind.TURN and note.url == f"/tables/{table.pk}/"
    assert note.text == f"À toi de jouer au Gin Rami (table n° {table.pk}) : tu as 24 heures."
    assert [m.to for m in outbox.outbox] == [[waiting.email]]
    assert not Notification.objects.filter(user=(alice, bruno)[1 - first]).exists()


def test_a_player_with_the_table_open_is_not_told_again(pair, django_capture_on_commit_callbacks):
    alice, bruno = pair
    with django_capture_on_commit_callbacks(execute=True):
        table = slow_table(alice, bruno, connected=(0, 1))
    assert not Notification.objects.exists()
    assert outbox.outbox == []
    assert table.status == Table.Status.PLAYING


def test_a_player_away_is_not_autoplayed_before_his_time_is_up(pair):
    alice, bruno = pair
    table = slow_table(alice, bruno, connected=(0,))  # a robot-free table: one page open, the other player away
    with mock.patch.object(scheduler, "_enqueue") as enqueue:
        scheduler.schedule_decisions(table.pk, table.version)
    assert not enqueue.called  # only his move timer plays for him, in a day


def test_after_a_day_the_rules_autoplay_plays_and_the_next_player_is_told(pair, django_capture_on_commit_callbacks):
    alice, bruno = pair
    with django_capture_on_commit_callbacks(execute=True):
        table = slow_table(alice, bruno)
    version = table.version
    assert run_sweep() == 0  # nothing due yet
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))  # a day later
    with django_capture_on_commit_callbacks(execute=True):
        assert run_sweep() == 1
    table.refresh_from_db()
    assert table.version == version + 1
    assert table.moves.order_by("-seq").first().actor == "autoplay"
    assert table.deadline - timezone.now() > timedelta(hours=23)  # the next decision has its own day


def test_the_reminder_is_sent_once_when_a_quarter_of_the_time_is_left(pair, django_capture_on_commit_callbacks):
    alice, bruno = pair
    table = slow_table(alice, bruno)
    [first] = to_act(table)
    waiting = (alice, bruno)[first]
    Table.objects.filter(pk=table.pk).update(remind_at=timezone.now() - timedelta(seconds=1),  # 18 hours later
                                             deadline=timezone.now() + timedelta(hours=6))
    with django_capture_on_commit_callbacks(execute=True):
        run_sweep()
        run_sweep()
    [reminder] = Notification.objects.filter(kind=Kind.REMINDER)
    assert reminder.user == waiting
    assert reminder.text == f"Plus que 6 heures pour jouer au Gin Rami (table n° {table.pk})."
    assert [m.subject for m in outbox.outbox] == [f"Cartes & Rami : {reminder.text}"]
    table.refresh_from_db()
    assert table.remind_at is None and table.status == Table.Status.PLAYING


def test_no_reminder_to_a_player_looking_at_the_table(pair):
    alice, bruno = pair
    table = slow_table(alice, bruno, connected=(0, 1))
    Table.objects.filter(pk=table.pk).update(remind_at=timezone.now() - timedelta(seconds=1))
    run_sweep()
    assert not Notification.objects.filter(kind=Kind.REMINDER).exists()


def test_a_whole_slow_match_tells_its_end_and_never_a_card(pair, django_capture_on_commit_callbacks):
    alice, bruno = pair
    with django_capture_on_commit_callbacks(execute=True):
        table = slow_table(alice, bruno, slug="thanasis")
        table = play_out(table)
    assert table.status == Table.Status.FINISHED
    results = Notification.objects.filter(kind=Kind.RESULT)
    assert {n.user for n in results} == {alice, bruno}
    assert all(n.text == f"La partie du Thanasis (table n° {table.pk}) est terminée : viens voir le résultat."
               for n in results)
    assert Notification.objects.filter(kind=Kind.TURN).count() > 3
    cards = set()
    for _, state in services.replay_steps(table):
        hands = state.get("hands") or []
        for hand in hands.values() if isinstance(hands, dict) else hands:
            cards |= {card for card in hand if isinstance(card, str)}
    assert cards
    words = set()
    for text in [n.text for n in Notification.objects.all()] + [m.body + m.subject for m in outbox.outbox]:
        words |= set(text.replace("(", " ").replace(")", " ").replace(".", " ").split())
    assert not cards & words, "a card in a notification or an e-mail"
    assert_ledger_conserved()


def test_my_games_lists_my_moves_first_with_the_time_left(pair, client, make_player):
    alice, bruno = pair
    carla = make_player("carla")
    first = slow_table(alice, bruno)
    second = slow_table(alice, carla)
    waiting = services.table_create(host=alice, game=Game.objects.get(slug="gin"), seats_count=2, stake=10)
    Table.objects.filter(pk=first.pk).update(deadline=timezone.now() + timedelta(hours=20))
    Table.objects.filter(pk=second.pk).update(deadline=timezone.now() + timedelta(hours=10))
    mine = [t for t in (second, first) if to_act(t) == [0]]  # soonest deadline first
    theirs = [t for t in (second, first) if to_act(t) == [1]]
    client.force_login(alice, backend="accounts.backends.HumanOnlyBackend")
    page = client.get("/tables/mes-parties/").content.decode()
    order = [page.index(f'data-table="{t.pk}"') for t in mine + theirs + [waiting]]
    assert order == sorted(order)
    assert "encore 9 h 59" in page and "encore 19 h 59" in page and "En attente de joueurs" in page
    assert ("À toi de jouer" in page) == bool(mine)
    assert "partie lente (24 heures par coup (partie lente))" not in page


def test_opening_the_table_reads_its_notifications(pair, client, django_capture_on_commit_callbacks):
    alice, bruno = pair
    with django_capture_on_commit_callbacks(execute=True):
        table = slow_table(alice, bruno)
    [note] = Notification.objects.all()
    client.force_login(note.user, backend="accounts.backends.HumanOnlyBackend")
    client.get(f"/tables/{table.pk}/")
    note.refresh_from_db()
    assert note.read_at is not None


def test_the_second_half_of_my_own_turn_is_not_news(pair, django_capture_on_commit_callbacks):
    alice, bruno = pair
    with django_capture_on_commit_callbacks(execute=True):
        table = slow_table(alice, bruno, slug="thanasis")
    [first] = to_act(table)
    player = (alice, bruno)[first]
    assert Notification.objects.filter(user=player, kind=Kind.TURN).count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert services.play_move(table_id=table.pk, seat=first, move={"action": "draw_stock"},
                                  expected_version=table.version).applied
    table.refresh_from_db()
    assert to_act(table) == [first]  # now he throws a card: the same turn
    assert Notification.objects.filter(kind=Kind.TURN).count() == 1


def test_a_turn_is_one_day_and_the_autoplay_plays_all_of_it_once_the_day_is_over(pair):
    alice, bruno = pair
    table = slow_table(alice, bruno, slug="thanasis")
    [first] = to_act(table)
    deadline = table.deadline
    assert services.play_move(table_id=table.pk, seat=first, move={"action": "draw_stock"},
                              expected_version=table.version).applied
    table.refresh_from_db()
    assert table.deadline == deadline  # throwing a card is the same turn: no new day
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    run_sweep()
    table.refresh_from_db()
    assert to_act(table) != [first]  # the autoplay ended his turn (a card thrown, or the round closed)
    if to_act(table):  # the other's turn, with a day of his own
        assert table.deadline - timezone.now() > timedelta(hours=23)


@pytest.mark.parametrize("slug", sorted(families.live_slugs()))
def test_every_game_plays_slowly_robots_at_once_and_the_autoplay_after_the_day(slug, pair,
                                                                             django_capture_on_commit_callbacks):
    alice, _ = pair
    info = games.get(slug).info
    seats = info.min_players
    with django_capture_on_commit_callbacks(execute=True):
        table = services.table_create(host=alice, game=Game.objects.get(slug=slug), seats_count=seats, stake=0,
                                      turn_timer_s=DAY, bot_levels=dict.fromkeys(range(1, seats), 1))
        services.table_start(table=table, user=alice)
    for _ in range(200):  # the robots play at once (eager tasks): until the match waits for alice
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING or 0 in to_act(table):
            break
        if not to_act(table):
            tasks.next_round.run(table.pk, table.version)
    assert table.status == Table.Status.PLAYING and 0 in to_act(table)
    assert Notification.objects.filter(user=alice, kind=Kind.TURN).exists()
    version = table.version
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))  # a day later
    with django_capture_on_commit_callbacks(execute=True):
        tasks.expire_turns.run()
    table.refresh_from_db()
    assert table.version > version
    assert table.moves.filter(actor="autoplay", seat=0).exists()
