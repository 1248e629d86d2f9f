"""The move timer on the real site: the worker (embedded thread, or its own process with Redis) sweeps the
tables past their deadline every second and the rules' autoplay plays for the late player."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services
from tables.models import Table, TableMove
from tests.tables.helpers import create_table

pytestmark = [pytest.mark.e2e]


def test_a_late_player_is_autoplayed_by_the_running_worker(live_site, make_player):
    alice, bruno = make_player("alice"), make_player("bruno")
    table = create_table(alice, "gin", seats=2, bots={}, start=False)
    services.seat_join(table=table, user=bruno)
    services.table_start(table=table, user=alice)
    started = Table.objects.get(pk=table.pk)
    time.sleep(1.5)
    assert Table.objects.get(pk=table.pk).version == started.version, "nobody plays before the deadline"
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    limit = time.monotonic() + 20
    while Table.objects.get(pk=table.pk).version == started.version and time.monotonic() < limit:
        time.sleep(0.2)
    assert Table.objects.get(pk=table.pk).version == started.version + 1
    assert TableMove.objects.filter(table_id=table.pk).order_by("seq").last().actor == "autoplay"
