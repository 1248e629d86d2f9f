"""Presence across server processes: a process that dies without closing its sockets stops counting."""

from datetime import timedelta

import pytest
from django.utils import timezone

from engine import games
from tables import presence, scheduler, services, socket_registry, tasks
from tables.models import Seat, SeatPresence, ServerProcess, TableMove
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _beats(settings):
    """The production timings (the test process itself runs no heartbeat thread)."""
    settings.PRESENCE_HEARTBEAT_SECONDS = 5
    settings.PRESENCE_DEAD_AFTER_BEATS = 3


@pytest.fixture
def gin_table(player):
    return create_table(player, "gin", seats=2, bots={1: 1})


def human_seat(table) -> Seat:
    return Seat.objects.get(table=table, position=0)


def counted_by(server: str, table, sockets: int) -> None:
    """`sockets` open sockets of the table's human, held by the process `server`."""
    seat = human_seat(table)
    SeatPresence.objects.create(seat=seat, server=server, sockets=sockets)
    Seat.objects.filter(pk=seat.pk).update(connections=seat.connections + sockets)


def beating(server: str, ago_s: float) -> None:
    ServerProcess.objects.create(id=server, last_beat=timezone.now() - timedelta(seconds=ago_s))


def test_sockets_are_counted_per_server_process(gin_table, player):
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=+1)
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=+1)
    assert human_seat(gin_table).connections == 2
    assert SeatPresence.objects.get(server=socket_registry.SERVER_ID).sockets == 2
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=-1)
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=-1)
    assert human_seat(gin_table).connections == 0
    assert not SeatPresence.objects.exists()


def test_a_dead_server_no_longer_keeps_the_player_connected_and_autoplay_takes_over(gin_table, monkeypatch):
    engine = games.get("gin")
    assert engine.to_act(gin_table.state) == [0], "the human has the decision"
    beating("dead", ago_s=3600)
    counted_by("dead", gin_table, 1)
    queued = []
    monkeypatch.setattr(scheduler, "_enqueue", lambda task, args, countdown=0: queued.append((task, args)))
    assert presence.reap_dead_servers() == 1
    assert human_seat(gin_table).connections == 0
    assert not SeatPresence.objects.exists() and not ServerProcess.objects.filter(pk="dead").exists()
    # Disconnected: after the grace delay, the rules' autoplay plays for the player.
    assert queued == [(tasks.autoplay_turn.name, (gin_table.pk, gin_table.version, 0, True))]
    tasks.autoplay_turn.run(*queued[0][1])
    assert TableMove.objects.filter(table=gin_table, seat=0, actor="autoplay").exists()


def test_a_live_server_keeps_its_sockets(gin_table, settings):
    beating("alive", ago_s=settings.PRESENCE_HEARTBEAT_SECONDS)
    counted_by("alive", gin_table, 2)
    assert presence.reap_dead_servers() == 0
    assert human_seat(gin_table).connections == 2
    assert not TableMove.objects.filter(table=gin_table, actor="autoplay").exists()


def test_a_dead_server_only_takes_off_its_own_sockets(gin_table, player):
    beating("dead", ago_s=3600)
    counted_by("dead", gin_table, 1)
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=+1)  # the page reconnected here
    presence.reap_dead_servers()
    assert human_seat(gin_table).connections == 1


def test_a_process_taken_for_dead_while_alive_counts_its_sockets_again(gin_table, player, monkeypatch):
    monkeypatch.setattr(socket_registry, "SEATS", socket_registry.OpenSockets())
    monkeypatch.setattr(presence, "_registered", False)
    presence.heartbeat_once()  # this process registers
    socket_registry.socket_opened(gin_table.pk, player.pk)
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=+1)
    # Stalled longer than the dead delay: another process reaps it.
    ServerProcess.objects.filter(pk=socket_registry.SERVER_ID).update(last_beat=timezone.now() - timedelta(hours=1))
    with monkeypatch.context() as other_process:
        other_process.setattr(socket_registry, "SERVER_ID", "another")
        assert presence.reap_dead_servers() == 1
    assert human_seat(gin_table).connections == 0
    presence.heartbeat_once()  # back: its row is gone, so it counts its open socket again
    assert human_seat(gin_table).connections == 1
    socket_registry.socket_closed(gin_table.pk, player.pk)
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=-1)
    assert human_seat(gin_table).connections == 0


def test_a_socket_closing_after_its_count_was_reaped_does_not_undercount(gin_table, player):
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=+1)
    SeatPresence.objects.filter(server=socket_registry.SERVER_ID).delete()  # reaped meanwhile
    Seat.objects.filter(pk=human_seat(gin_table).pk).update(connections=0)
    beating("other", ago_s=0)
    counted_by("other", gin_table, 1)
    services.seat_connected(table_id=gin_table.pk, user_id=player.pk, delta=-1)
    assert human_seat(gin_table).connections == 1
