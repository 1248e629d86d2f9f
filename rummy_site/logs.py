"""Log lines with their time, level, logger and table: « 2026-12-07 08:57:00,123 INFO tables.tasks [table 12] … ».
With LOG_FORMAT=json, one JSON object per line (python-json-logger) with the same fields, for a log collector.

A log line never carries a hidden card, a password or a session key: the site's own lines name tables, seats and
move codes' outcomes, never a hand (tests/reliability/test_log_secrets.py scans the logs of a whole match)."""

import logging

from pythonjsonlogger.json import JsonFormatter

from tables.log_context import current_table

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [table %(table)s] %(message)s"
JSON_FIELDS = ["asctime", "levelname", "name", "table", "message"]


class TableField(logging.Filter):
    """Adds `table`: the table the current work is about (tables.log_context), or « - »."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "table"):
            record.table = current_table.get() or "-"
        return True


class JsonLines(JsonFormatter):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, fmt=" ".join(f"%({name})s" for name in JSON_FIELDS),
                         rename_fields={"levelname": "level", "name": "logger", "asctime": "time"}, **kwargs)
