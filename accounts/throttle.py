"""A small fixed-window rate limiter on the Django cache (Redis in production)."""

from django.core.cache import cache


def client_ip(request) -> str:
    return request.META.get("REMOTE_ADDR", "unknown")


def hit(key: str, *, limit: int, window: int) -> bool:
    """Count one hit on `key`; True if the limit is exceeded within the window."""
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
