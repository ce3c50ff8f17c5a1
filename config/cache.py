"""The cache backend of every process with Redis (``settings.CACHES``): Django's Redis cache,
keeping its client.

Django's ``RedisCacheClient`` wraps its connection pool in a new ``redis.Redis`` for every
call, and each one copies the client's table of response callbacks: in the clocks worker's
profile (issue 41, ``docs/benchmarks.md``) that was about 5 % of its CPU, the cache's
round trip itself a good deal less. A ``redis.Redis`` is safe to share between threads (a
command takes a connection from the pool and gives it back), so one is kept per pool.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class KeptClient(django_redis.RedisCacheClient):
    """Django's Redis cache client that builds one ``redis.Redis`` per connection pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own attributes, which django-stubs does not declare
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._kept.get(id(pool))  # pools live as long as this client: ids stay
        if client is None:
            make = self._client  # type: ignore[attr-defined]
            client = self._kept[id(pool)] = make(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with :class:`KeptClient`."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClient
