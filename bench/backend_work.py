"""What one move costs PostgreSQL and Redis (bench.load --mode redis): counters read at the measured
window's edges, divided by the moves made in it.

Redis: `INFO commandstats` (calls per command; every command is one request, a pipeline sends several in one
round trip) and `INFO stats` (all commands processed). The counters are the whole server's: run the bench on a
Redis of its own (`LOAD_REDIS_URL=redis://127.0.0.1:<port>` to a `redis-server` started for it) for figures
that are the site's alone. PostgreSQL: `pg_stat_database` of the run's own database (transactions committed,
rows inserted, updated, returned)."""

import contextlib


def redis_counters(url: str) -> dict:
    import redis

    client = redis.Redis.from_url(url)
    stats = client.info("commandstats")
    out = {name.removeprefix("cmdstat_"): value["calls"] for name, value in stats.items()}
    out["@commands"] = client.info("stats")["total_commands_processed"]
    return out


def postgres_counters(url: str) -> dict:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url) as conn:
        # Statistics are sent to the collector at a transaction's end; this view shows them once flushed.
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute("SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, tup_returned, tup_fetched "
                           "FROM pg_stat_database WHERE datname = %s", (name,)).fetchone()
    keys = ("commits", "rows_inserted", "rows_updated", "rows_deleted", "rows_returned", "rows_fetched")
    return dict(zip(keys, row, strict=True))


def snapshot(env: dict) -> dict:
    out = {}
    with contextlib.suppress(Exception):
        out["redis"] = redis_counters(env["REDIS_URL"])
    with contextlib.suppress(Exception):
        out["pg"] = postgres_counters(env["DATABASE_URL"])
    return out


def per_move(start: dict, end: dict, moves: int) -> list[str]:
    lines = []
    moves = max(1, moves)
    if "redis" in start and "redis" in end:
        deltas = {k: end["redis"].get(k, 0) - start["redis"].get(k, 0) for k in end["redis"]}
        total = deltas.pop("@commands", sum(v for k, v in deltas.items() if not k.startswith("@")))
        top = sorted(((v, k) for k, v in deltas.items() if v > 0), reverse=True)[:8]
        lines.append(f"redis        : {total / moves:.1f} commands per move ("
                     + ", ".join(f"{k} {v / moves:.2f}" for v, k in top) + ")")
    if "pg" in start and "pg" in end:
        d = {k: end["pg"][k] - start["pg"][k] for k in end["pg"]}
        lines.append(f"postgresql   : per move {d['commits'] / moves:.2f} transactions committed, "
                     f"{d['rows_inserted'] / moves:.2f} rows inserted, {d['rows_updated'] / moves:.2f} updated, "
                     f"{d['rows_deleted'] / moves:.2f} deleted, {d['rows_fetched'] / moves:.1f} fetched")
    return lines
