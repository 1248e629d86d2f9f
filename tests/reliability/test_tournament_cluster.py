"""The short version of `python -m bench.tournament --players 256 --rounds 5 --kill-round 3`: a Swiss tournament
played by scripted players over the cluster (HAProxy, two daphne, two workers), `kill -9` of a daphne and of a
worker when its last round starts: it ends, every result stored is its table's, the standings equal a
recomputation from them, nothing is lost or applied twice, tokens are conserved (PostgreSQL + Redis only)."""

from types import SimpleNamespace

import pytest
from django.db import connection

from rummy_site.cluster import haproxy_binary

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tournament_over_the_cluster_loses_no_result_when_processes_are_killed(settings, tmp_path):
    if connection.vendor != "postgresql" or not settings.REDIS_URL or haproxy_binary() is None:
        pytest.skip("PostgreSQL + Redis mode, with HAProxy")
    from bench.tournament import run

    db = connection.settings_dict
    args = SimpleNamespace(players=8, rounds=2, kill_round=2, think=0.2, timeout=300, redis=settings.REDIS_URL,
                           database=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
                           log=str(tmp_path / "cluster.log"))
    result = run(args, say=lambda *_: None)
    report = str(result)
    assert result["status"] == "finished" and result["rounds"] == 2, report
    assert result["kills"].count(",") == 1, report
    assert (result["missing_results"], result["wrong_results"], result["bad_rounds"]) == (0, 0, 0), report
    assert result["standings_mismatch"] == 0 and result["standings_order_ok"], report
    assert (result["lost_moves"], result["duplicate_moves"], result["replay_mismatches"]) == (0, 0, 0), report
    assert result["tokens_conserved"], report
