"""The rate limiter: counts per key within a window, shared through Redis when REDIS_URL is set."""

import pytest
from django.conf import settings

from accounts import throttle


def test_the_hit_past_the_limit_is_refused_and_keys_are_separate():
    assert [throttle.hit("move:1", limit=3, window=10) for _ in range(5)] == [False, False, False, True, True]
    assert throttle.hit("move:2", limit=3, window=10) is False


@pytest.mark.skipif(not settings.REDIS_URL, reason="Redis mode only")
def test_on_redis_the_window_is_set_once_and_kept_by_later_hits():
    client = throttle._redis(settings.REDIS_URL)
    key = throttle.KEY_PREFIX + "move:42"
    throttle.hit("move:42", limit=3, window=10)
    assert 0 < client.ttl(key) <= 10
    client.expire(key, 3)  # later hits must not push the window's end back
    throttle.hit("move:42", limit=3, window=10)
    assert 0 < client.ttl(key) <= 3
    assert int(client.get(key)) == 2
