"""A small fixed-window rate limiter: on Redis when REDIS_URL is set (shared by every process), else on the
Django cache (in-process)."""

import functools

import redis
from django.conf import settings
from django.core.cache import cache

KEY_PREFIX = "ratelimit:"


def client_ip(request) -> str:
    return request.META.get("REMOTE_ADDR", "unknown")


@functools.cache
def _redis(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, protocol=2)


def hit(key: str, *, limit: int, window: int) -> bool:
    """Count one hit on `key`; True if the limit is exceeded within the window."""
    if settings.REDIS_URL:
        # One round trip (a move pays it on the thread that applies moves one after the other); Django's
        # RedisCache.incr takes two (EXISTS, INCRBY) and add/set on a first hit.
        pipe = _redis(settings.REDIS_URL).pipeline(transaction=False)
        pipe.incr(KEY_PREFIX + key)
        pipe.expire(KEY_PREFIX + key, window, nx=True)
        count, _ = pipe.execute()
        return count > limit
    try:
        count = cache.incr(key)  # one round trip to Redis in the usual case
    except ValueError:  # no window open: open one
        if cache.add(key, 1, timeout=window):
            count = 1
        else:  # another request opened it meanwhile
            try:
                count = cache.incr(key)
            except ValueError:  # expired meanwhile
                cache.set(key, 1, timeout=window)
                count = 1
    return count > limit


def throttled(request, scope: str, *, limit: int, window: int) -> bool:
    return hit(f"throttle:{scope}:{client_ip(request)}", limit=limit, window=window)
