"""The table a log line is about: set where a table's work starts (a move, a task, a socket), read by the site's
log formatter (rummy_site.logs), so every line written meanwhile names its table without each call saying it."""

from contextvars import ContextVar

current_table: ContextVar[int | None] = ContextVar("current_table", default=None)


def at_table(table_id: int | None) -> None:
    """The work of this task, thread or coroutine is now about `table_id` (asgiref and Celery's threads carry it)."""
    current_table.set(table_id)
