"""The reads of a move's hot path, in plain SQL.

Every move reads its table under a lock, and after the commit the table's seats to render each one's view.
Compiling these ORM queries cost more than the rest of a move together (bench/load.py: several ms per move on
this machine, against tens of µs for the SQL itself), so they are written out once here. They return model
instances as the ORM would (the fields' converters applied: JSON, dates), with these extras: `table.game_slug`
(the engine to use, without reading the game), `table.game_abandon_penalty`, `seat.username` and `seat.balance`
(what « Quitter » would cost, tables.economy.abandon_cost).
"""

from django.db import connection

from tables.models import Seat, Table


def _instances(model, sql: str, params: list) -> list:
    """The rows of `sql` as `model` instances, as `model.objects.raw(sql, params)` makes them.

    `RawQuerySet` works out again for every query which column feeds which field and with which converters:
    most of the CPU of these reads (bench/load.py --profile: 70 % of it, 7 % of the server's). That plan only
    depends on the query and the database, so it is made once per query here."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        if not rows:
            return []
        columns = tuple(column[0] for column in cursor.description)
        key = (model, sql, connection.vendor, columns)
        plan = _plans.get(key)
        if plan is None:
            plan = _plans[key] = _plan(model, columns)
    positions, names, converters, extras = plan
    db = connection.alias
    out = []
    for row in rows:
        values = [row[pos] for pos in positions]
        for index, functions, expression in converters:
            value = values[index]
            for function in functions:
                value = function(value, expression, connection)
            values[index] = value
        instance = model.from_db(db, names, values)
        for name, pos in extras:
            setattr(instance, name, row[pos])
        out.append(instance)
    return out


_plans: dict = {}


def _plan(model, columns: tuple[str, ...]) -> tuple:
    """Which column feeds each field (in the model's order), the fields' converters, the extra columns."""
    columns = [connection.introspection.identifier_converter(c) for c in columns]
    fields = model._meta.concrete_fields
    at = {}
    for pos, column in enumerate(columns):
        at.setdefault(column, pos)  # a joined row's own columns come first (SELECT t.*, ...)
    positions = [at[field.column] for field in fields]
    converters = []
    for index, field in enumerate(fields):
        expression = field.get_col(model._meta.db_table)
        functions = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
        if functions:
            converters.append((index, functions, expression))
    used = set(positions)
    extras = [(column, pos) for pos, column in enumerate(columns) if pos not in used and column not in
              {field.column for field in fields}]
    return positions, [field.attname for field in fields], converters, extras


# A player who pressed « Quitter » (`Seat.left`) holds no place any more: his seat is the robot's (or the
# autoplay's), and every read of "the user's place" below leaves it out. He may still watch (tables.spectators).
NOT_LEFT = ' AND NOT "left"'


def seat_position(table_id: int, user_id: int) -> int | None:
    """The place the user holds at the table (None: not seated, or left the match)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT position FROM tables_seat WHERE table_id = %s AND user_id = %s" + NOT_LEFT,
                       [table_id, user_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


TABLE_SQL = ("SELECT t.*, g.slug AS game_slug, g.abandon_penalty AS game_abandon_penalty "
             "FROM tables_table t JOIN tables_game g ON g.id = t.game_id WHERE t.id = %s")


def table(table_id: int) -> Table | None:
    """The table with its game's slug (a page opening, a push, a decision to schedule)."""
    rows = _instances(Table, TABLE_SQL, [table_id])
    return rows[0] if rows else None


# A player's move: his place read in the same query as the table (one round trip fewer for every move).
TABLE_WITH_SEAT_SQL = TABLE_SQL.replace(
    " FROM tables_table t",
    ', (SELECT s.position FROM tables_seat s WHERE s.table_id = t.id AND s.user_id = %s AND NOT s."left"'
    " ORDER BY s.position LIMIT 1)"
    " AS user_position"
    " FROM tables_table t")


def table_locked(table_id: int, *, user_id: int | None = None) -> Table | None:
    """The table with its game's slug, locked until the transaction ends (PostgreSQL: the row; SQLite: the
    whole database already, by BEGIN IMMEDIATE). With `user_id`: also `table.user_position`, the place that
    user holds at the table (None: not seated, or left the match)."""
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    if user_id is None:
        rows = _instances(Table, TABLE_SQL + lock, [table_id])
    else:
        rows = _instances(Table, TABLE_WITH_SEAT_SQL + lock, [user_id, table_id])
    return rows[0] if rows else None


def seat_locked(table_id: int, user_id: int) -> Seat | None:
    """The user's seat at the table, locked until the transaction ends (SQLite: BEGIN IMMEDIATE already). None:
    not seated, or left the match (his sockets no longer count for the seat)."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    rows = _instances(Seat, "SELECT * FROM tables_seat WHERE table_id = %s AND user_id = %s" + NOT_LEFT + lock,
                      [table_id, user_id])
    return rows[0] if rows else None


def seats_of(table_id: int) -> list[Seat]:
    """The table's seats in order, each with its player's `username` and token `balance` (None for a bot)."""
    return _instances(Seat, SEATS_SQL, [table_id])


SEATS_SQL = ("SELECT s.*, u.username AS username, a.balance AS balance FROM tables_seat s "
             "LEFT JOIN accounts_user u ON u.id = s.user_id LEFT JOIN accounts_account a ON a.user_id = s.user_id "
             "WHERE s.table_id = %s ORDER BY s.position")


CHAT_LINES = 30


def recent_chat(table_id: int) -> list[dict]:
    """The table's latest chat lines, oldest first, as the chat template reads them (`m.user.username`,
    `m.text`; `m.author`: the writer's id, which tables.chat filters on): every page opening shows them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT m.user_id, u.username, m.text FROM tables_chatmessage m "
                       "JOIN accounts_user u ON u.id = m.user_id "
                       "WHERE m.table_id = %s ORDER BY m.created DESC, m.id DESC LIMIT %s", [table_id, CHAT_LINES])
        rows = cursor.fetchall()
    return [{"author": author, "user": {"username": username}, "text": text}
            for author, username, text in reversed(rows)]
