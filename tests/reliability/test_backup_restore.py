"""The backup drill of the operator's guide, once, on PostgreSQL: a table in the middle of a match is dumped by
deploy/backup.sh, restored with pg_restore into a new database, and the site started on that copy finds the table
where it was (its state equal to the replay of its log) and plays its next move."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from engine import games
from tables import services
from tables.models import Table
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]

RESUME = """
import json, django
django.setup()
from tables import services
from tables.models import Table, engine_for
table = Table.objects.get(pk={table_id})
same = services.replay(table) == table.state
engine = engine_for(table)
seat = engine.to_act(table.state)[0]
outcome = services.play_move(table_id=table.pk, seat=seat, move=engine.autoplay(table.state, seat),
                             expected_version=table.version, actor="autoplay")
print(json.dumps({{"version": table.version, "same": same, "applied": outcome.applied, "after": outcome.version}}))
"""


def url_of(name: str) -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{name}"


def test_a_dump_restored_elsewhere_resumes_the_table_where_it_was(player, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the backup drill is PostgreSQL's (pg_dump, pg_restore)")
    table = create_table(player, "gin", seats=2, bots={1: 1})
    engine = games.get("gin")
    for _ in range(5):  # a few moves in: the human's by the autoplay, the robot's by its task
        table.refresh_from_db()
        seat = engine.to_act(table.state)[0]
        if seat == 0:
            services.play_move(table_id=table.pk, seat=0, move=engine.autoplay(table.state, 0),
                               expected_version=table.version, actor="autoplay")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.version > 3

    source = connection.settings_dict["NAME"]
    env = {**os.environ, "DATABASE_URL": url_of(source), "BACKUP_DIR": str(tmp_path / "backups")}
    dump = subprocess.run([str(ROOT / "deploy" / "backup.sh")], env=env, capture_output=True, text=True,
                          check=True, timeout=120).stdout.strip()
    assert Path(dump).exists() and dump.endswith(".dump")

    drill = f"{source}_drill"
    admin = url_of("postgres")
    subprocess.run(["dropdb", "--if-exists", "--maintenance-db", admin, drill], check=True, timeout=60)
    subprocess.run(["createdb", "--maintenance-db", admin, drill], check=True, timeout=60)
    try:
        subprocess.run(["pg_restore", "--no-owner", "--dbname", url_of(drill), dump], check=True, timeout=120)
        site = {**os.environ, "DJANGO_ENV": "development", "DJANGO_SETTINGS_MODULE": "rummy_site.settings",
                "DATABASE_URL": url_of(drill), "CELERY_TASK_ALWAYS_EAGER": "1", "BOT_DELAY_SECONDS": "0"}
        resumed = subprocess.run([sys.executable, "-c", RESUME.format(table_id=table.pk)], cwd=ROOT,
                                 capture_output=True, text=True, timeout=120, env=site)
        assert resumed.returncode == 0, resumed.stderr[-2000:]
        figures = json.loads(resumed.stdout.strip().splitlines()[-1])
        assert figures["version"] == table.version and figures["same"] and figures["applied"]
        assert figures["after"] > table.version
    finally:
        subprocess.run(["dropdb", "--if-exists", "--force", "--maintenance-db", admin, drill], timeout=60)
