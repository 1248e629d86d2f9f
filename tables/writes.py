"""The writes of a move's hot path, in plain SQL (as tables.reads for its reads).

Compiling the ORM's UPDATE and INSERT cost more than running them (bench/load.py); the values still go through
each field's own preparation (`get_db_prep_save`: JSON, dates), so both databases get what the ORM would send.
"""

from django.db import connection
from django.utils import timezone

from tables.models import Seat, Table, TableMove


def _column(model, name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)


def _value(model, name: str, value):
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def table_update_and_move_append(table: Table, fields: list[str], *, previous_version: int, seat: int | None,
                                 move, actor: str) -> int:
    """`table_update`, then `move_append` of the move numbered with the table's new version, in one round trip
    on PostgreSQL (one statement: the log row is written only if the table row was); the number of table rows
    written."""
    if connection.vendor != "postgresql":
        written = table_update(table, fields, previous_version=previous_version)
        if written == 1:
            move_append(table_id=table.pk, seq=table.version, seat=seat, move=move, actor=actor)
        return written
    assignments = ", ".join(f"{_column(Table, name)} = %s" for name in fields)
    params = [_value(Table, name, getattr(table, name)) for name in fields] + [table.pk, previous_version]
    values = {"table": table.pk, "seq": table.version, "seat": seat, "move": move, "actor": actor,
              "created": timezone.now()}
    columns = ", ".join(_column(TableMove, name) for name in MOVE_FIELDS)
    params += [_value(TableMove, name, values[name]) for name in MOVE_FIELDS if name != "table"]
    placeholders = ", ".join(["u.id"] + ["%s"] * (len(MOVE_FIELDS) - 1))
    table_id = _column(Table, "id")
    with connection.cursor() as cursor:
        cursor.execute(f"WITH u AS (UPDATE {connection.ops.quote_name(Table._meta.db_table)} SET {assignments} "
                       f"WHERE {table_id} = %s AND {_column(Table, 'version')} = %s RETURNING {table_id} AS id) "
                       f"INSERT INTO {connection.ops.quote_name(TableMove._meta.db_table)} ({columns}) "
                       f"SELECT {placeholders} FROM u", params)
        return cursor.rowcount


def table_update(table: Table, fields: list[str], *, previous_version: int) -> int:
    """Write `fields` of the table if its version is still `previous_version`; the number of rows written."""
    assignments = ", ".join(f"{_column(Table, name)} = %s" for name in fields)
    params = [_value(Table, name, getattr(table, name)) for name in fields] + [table.pk, previous_version]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {connection.ops.quote_name(Table._meta.db_table)} SET {assignments} "
                       f"WHERE {_column(Table, 'id')} = %s AND {_column(Table, 'version')} = %s", params)
        return cursor.rowcount


MOVE_FIELDS = ("table", "seq", "seat", "move", "actor", "created")


def move_append(*, table_id: int, seq: int, seat: int | None, move, actor: str) -> None:
    values = {"table": table_id, "seq": seq, "seat": seat, "move": move, "actor": actor, "created": timezone.now()}
    columns = ", ".join(_column(TableMove, name) for name in MOVE_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {connection.ops.quote_name(TableMove._meta.db_table)} ({columns}) "
                       f"VALUES ({', '.join(['%s'] * len(MOVE_FIELDS))})",
                       [_value(TableMove, name, values[name]) for name in MOVE_FIELDS])


def seat_presence(seat: Seat) -> None:
    """Write the seat's socket count and when it was last seen."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {connection.ops.quote_name(Seat._meta.db_table)} "
                       f"SET {_column(Seat, 'connections')} = %s, {_column(Seat, 'last_seen')} = %s "
                       f"WHERE {_column(Seat, 'id')} = %s",
                       [seat.connections, _value(Seat, "last_seen", seat.last_seen), seat.pk])
