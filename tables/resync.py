"""Anti-entropy for the pushes: a socket whose page is behind its table gets the full view again.

Redis pub/sub delivers at most once and forgets what it could not deliver: while a daphne process is
reconnecting to a Redis that restarted (or across a network blip), the pushes published meanwhile are lost,
and a player whose turn came in one of them would wait, frozen, for his move timer. So each process looks,
every RESYNC_SECONDS, at the version of the tables its sockets show (one query for all of them); a socket
still behind on two looks in a row (a push in flight is not a lost one) gets its full view, as on a
reconnection. Only with the Redis layer: the in-process layer of the embedded mode loses nothing."""

import asyncio
import logging
import re
import weakref

from channels.db import database_sync_to_async
from django.conf import settings

from tables.models import Table

RE_VERSION = re.compile(r'id="table-status"[^>]*?data-version="(\d+)"')

_sockets: "weakref.WeakSet" = weakref.WeakSet()
_task: asyncio.Task | None = None


def version_in(html: str | None) -> int | None:
    match = RE_VERSION.search(html or "")
    return int(match.group(1)) if match else None


def enabled() -> bool:
    return bool(settings.REDIS_URL) and settings.RESYNC_SECONDS > 0


def watch(consumer) -> None:
    """Start looking after this consumer (it has table_id, user_id, shown_version and resend())."""
    global _task
    if not enabled():
        return
    _sockets.add(consumer)
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_loop())


def forget(consumer) -> None:
    _sockets.discard(consumer)


def _versions(table_ids: list[int]) -> dict[int, object]:
    """Per table, what each page should show (Table.version_seen_by): the private moves of a player are never
    his table's other pages' lag, else a resync would send them the view after each of his staged actions."""
    return {t.pk: t for t in Table.objects.filter(pk__in=table_ids).only("version", "public_version", "private_seat")}


def _due(consumer, table) -> int | None:
    if table is None:
        return None
    return table.version_seen_by(None if getattr(consumer, "watching", False) else getattr(consumer, "seat", None))


async def check_once(stale: dict) -> int:
    """One look; `stale` carries what was behind at the previous look. Returns how many sockets were resent."""
    sockets = [c for c in list(_sockets) if c.shown_version is not None]
    if not sockets:
        stale.clear()
        return 0
    versions = await database_sync_to_async(_versions, thread_sensitive=False)(sorted({c.table_id for c in sockets}))
    behind = {}
    resent = 0
    for consumer in sockets:
        current = _due(consumer, versions.get(consumer.table_id))
        if current is None or consumer.shown_version >= current:
            continue
        key = id(consumer)
        if stale.get(key) == consumer.shown_version:
            await consumer.resend()
            resent += 1
        else:
            behind[key] = consumer.shown_version
    stale.clear()
    stale.update(behind)
    return resent


async def _loop() -> None:
    stale: dict = {}
    while _sockets:
        await asyncio.sleep(settings.RESYNC_SECONDS)
        try:
            await check_once(stale)
        except Exception:  # the database away for a moment: look again next time
            logging.getLogger(__name__).warning("resync check failed", exc_info=True)
