"""Who is connected, across server processes that may die without closing their sockets.

Each web server process has an id (`tables.socket_registry.SERVER_ID`) and beats every
`PRESENCE_HEARTBEAT_SECONDS` in the database (`ServerProcess.last_beat`). A seat's open sockets are counted per
process (`SeatPresence`, tables.socket_registry);
`Seat.connections` is their sum, kept in the same transaction, so the hot path reads one column.
A process silent for `PRESENCE_DEAD_AFTER_BEATS` beats is dead (kill -9, machine lost, or a graceful stop:
daphne does not close its consumers on SIGTERM): any live process takes its sockets off the seats they
counted for, so those players get the rules' autoplay after the grace delay instead of waiting forever.

A process found reaped while it still runs (it stalled longer than the dead delay) counts its open sockets
again from its own registry.
"""

import logging
import os
import socket
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone

from tables import scheduler, services, socket_registry, spectators
from tables.models import Seat, SeatPresence, ServerProcess

log = logging.getLogger(__name__)

_started = threading.Event()
_registered = False  # this process's row was created once: its absence later means it was reaped


def dead_after() -> timedelta:
    return timedelta(seconds=settings.PRESENCE_HEARTBEAT_SECONDS * settings.PRESENCE_DEAD_AFTER_BEATS)


def beat() -> bool:
    """Say this process is alive. Returns False when it had been taken for dead (its row was gone)."""
    global _registered
    updated = ServerProcess.objects.filter(pk=socket_registry.SERVER_ID).update(last_beat=timezone.now())
    if updated:
        return True
    ServerProcess.objects.create(id=socket_registry.SERVER_ID, label=f"{socket.gethostname()}:{os.getpid()}",
                                 last_beat=timezone.now())
    reaped, _registered = _registered, True
    return not reaped


def recount_own_sockets() -> None:
    """This process was reaped while alive: count its open sockets again."""
    for (table_id, user_id), count in socket_registry.held():
        services.seat_connected(table_id=table_id, user_id=user_id, delta=count)
    spectators.recount_own()


def reap_dead_servers() -> int:
    """Take the sockets of every dead process off their seats. Returns how many processes were reaped."""
    limit = timezone.now() - dead_after()
    dead = list(ServerProcess.objects.filter(last_beat__lt=limit).exclude(pk=socket_registry.SERVER_ID)
                .values_list("pk", flat=True))
    reaped = 0
    for server in dead:
        # The row goes first: a process that was only stalled finds it gone at its next beat and counts its
        # sockets again (`recount_own_sockets`).
        if not ServerProcess.objects.filter(pk=server, last_beat__lt=limit).delete()[0]:
            continue
        reaped += 1
        for presence_id, seat_id in SeatPresence.objects.filter(server=server).values_list("pk", "seat_id"):
            with transaction.atomic():
                seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
                presence = SeatPresence.objects.filter(pk=presence_id).first()
                if seat is None or presence is None:
                    continue
                seat.connections = max(0, seat.connections - presence.sockets)
                seat.save(update_fields=["connections"])
                presence.delete()
                if seat.connections == 0:
                    scheduler.after_commit_autoplay_if_due(seat.table_id)
                    scheduler.after_commit_presence_changed(seat.table_id)
        spectators.reap_server(server)
        log.warning("Server process %s stopped beating: its sockets are no longer counted", server)
    return reaped


def heartbeat_once() -> None:
    if not beat():
        recount_own_sockets()
    reap_dead_servers()


def _heartbeat_loop() -> None:
    while True:
        try:
            heartbeat_once()
        except Exception:  # the database may be away for a moment: try again at the next beat
            log.exception("Presence heartbeat failed")
        finally:
            close_old_connections()
        time.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)


def start_heartbeat() -> None:
    """Start this process's heartbeat thread (web server processes only; off when the period is 0)."""
    if settings.PRESENCE_HEARTBEAT_SECONDS <= 0 or _started.is_set():
        return
    _started.set()
    threading.Thread(target=_heartbeat_loop, name="presence-heartbeat", daemon=True).start()
