"""The cluster shape in a real browser (PostgreSQL + Redis only): two daphne processes, a Celery worker and
HAProxy in front (rummy_site/cluster.py). A new player signs up and plays through the proxy; the daphne
process holding his page's websocket is killed with `kill -9`; the page reconnects through the proxy to the
other process by itself, gets the current view, and he plays on."""

import os
import time

import pytest
from django.db import connection
from playwright.sync_api import Page, expect

from rummy_site.cluster import Cluster, free_port, haproxy_binary
from tests.e2e.test_play import create_table, play_one_step, sign_up

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def cluster_site(transactional_db, settings, tmp_path):
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("the cluster shape is PostgreSQL + Redis (set DATABASE_URL and REDIS_URL)")
    if haproxy_binary() is None:
        pytest.skip("HAProxy is not installed (.ci/run installs it)")
    db = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "rummy_site.settings", "BOT_DELAY_SECONDS": "0.05",
           "NEXT_ROUND_DELAY_SECONDS": "1", "DISCONNECT_GRACE_SECONDS": "30", "CELERY_TASK_ALWAYS_EAGER": "0",
           "DEBUG": "0", "PRESENCE_HEARTBEAT_SECONDS": "0.5",
           "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    log = open(tmp_path / "cluster.log", "a")  # noqa: SIM115 - closed below
    cluster = Cluster(env=env, workers=1, port=free_port(), daphne_ports=[free_port(), free_port()], output=log)
    try:
        yield cluster.start()
    finally:
        cluster.stop()
        log.close()


def _holding_my_socket(cluster: Cluster) -> int | None:
    servers = cluster.servers()
    holding = [i for i, name in enumerate(sorted(servers)) if servers[name]["sessions"]]
    return holding[0] if len(holding) == 1 else None


def _wait(condition, timeout: float = 15):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value is not None and value is not False:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_a_page_moves_to_the_other_daphne_when_its_own_is_killed(cluster_site, page: Page, artifacts_dir):
    cluster = cluster_site
    sign_up(page, cluster.url, "grappe")
    create_table(page, cluster.url, "thanasis", 3, ["1", "1"])
    hand = page.locator("#table-hand button.card")
    expect(hand.first).to_be_visible(timeout=15000)
    for _ in range(6):  # a few moves through the proxy
        play_one_step(page) or page.wait_for_timeout(200)
    victim = _wait(lambda: _holding_my_socket(cluster))
    version = int(page.locator("#table-status").get_attribute("data-version") or 0)

    killed = time.monotonic()
    cluster.kill_daphne(victim)
    survivor = 1 - victim
    # The page reconnects through the proxy, by itself, to the process still alive
    _wait(lambda: cluster.servers()[f"daphne{survivor + 1}"]["sessions"] >= 1)
    back = time.monotonic() - killed
    assert back < 10, back
    # ... gets the current view, and plays on: the table moves forward with its clicks and the robots' moves
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        shown = page.locator("#table-status").get_attribute("data-version")
        if shown and int(shown) >= version + 6 or page.locator("#table-round-end.is-open").count():
            break
        play_one_step(page) or page.wait_for_timeout(200)
    else:
        raise AssertionError("the table did not move on after the kill")
    page.screenshot(path=str(artifacts_dir / "cluster-after-kill.png"))
    expect(page.locator("#table-status")).to_be_visible()
