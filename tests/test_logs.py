"""Log lines name their time, level, logger and table; LOG_FORMAT=json writes them as JSON objects."""

import json
import logging

import pytest

from rummy_site.logs import JsonLines, TableField
from tables import log_context, services
from tests.tables.helpers import create_table

pytestmark = pytest.mark.django_db


def formatted(formatter: logging.Formatter, message: str = "coup joué") -> str:
    record = logging.LogRecord("tables.tasks", logging.WARNING, __file__, 1, message, None, None)
    TableField().filter(record)
    return formatter.format(record)


def test_a_line_names_the_table_of_the_work_under_way(player):
    text = logging.Formatter("%(asctime)s %(levelname)s %(name)s [table %(table)s] %(message)s")
    log_context.at_table(None)
    assert formatted(text).endswith("WARNING tables.tasks [table -] coup joué")
    table = create_table(player, "gin", seats=2, bots={1: 1})
    services.play_move(table_id=table.pk, seat=0, move={"action": "nothing"}, expected_version=table.version)
    assert formatted(text).endswith(f"WARNING tables.tasks [table {table.pk}] coup joué")


def test_json_lines_carry_the_same_fields():
    log_context.at_table(12)
    line = json.loads(formatted(JsonLines()))
    assert {key: line[key] for key in ("level", "logger", "table", "message")} == {
        "level": "WARNING", "logger": "tables.tasks", "table": 12, "message": "coup joué"}
    assert line["time"]
    log_context.at_table(None)


def test_the_site_logs_through_the_formatter(settings):
    handler = settings.LOGGING["handlers"]["console"]
    assert handler["filters"] == ["table"] and handler["formatter"] in ("text", "json")
    assert settings.CELERY_WORKER_HIJACK_ROOT_LOGGER is False
