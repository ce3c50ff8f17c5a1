"""The Redis cache keeps its client (``config/cache.py``): one ``redis.Redis`` per pool for
every call of every thread, which still answers each thread its own values and reconnects when
Redis closes the connection."""

from __future__ import annotations

import threading

import pytest
import redis
from django.conf import settings
from django.core.cache import cache

from config.cache import KeptClient

pytestmark = pytest.mark.services


def test_the_cache_keeps_one_client_for_its_calls() -> None:
    assert settings.CACHES["default"]["BACKEND"] == "config.cache.RedisCache"
    kept = cache._cache  # type: ignore[attr-defined]
    assert isinstance(kept, KeptClient)
    client = kept.get_client(write=True)
    assert kept.get_client() is client
    assert kept.get_client("some-key", write=False) is client
    cache.set("kept:a", {"seats": ["a", "b"]}, 30)
    assert cache.get("kept:a") == {"seats": ["a", "b"]}
    assert cache.add("kept:a", 1, 30) is False
    assert cache.add("kept:b", 1, 30) is True
    assert kept.get_client() is client


def test_threads_sharing_the_client_each_get_their_own_values() -> None:
    failures: list[str] = []

    def work(n: int) -> None:
        for k in range(50):
            key = f"kept:thread:{n}:{k}"
            cache.set(key, (n, k), 30)
            if cache.get(key) != (n, k):
                failures.append(key)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failures == []
    assert cache.get_many([f"kept:thread:{n}:49" for n in range(8)]) == {
        f"kept:thread:{n}:49": (n, 49) for n in range(8)
    }


def test_the_kept_client_reconnects_after_redis_closes_its_connection() -> None:
    cache.set("kept:before", 1, 30)
    client = cache._cache.get_client(write=True)  # type: ignore[attr-defined]
    killer = redis.Redis.from_url(str(settings.CACHES["default"]["LOCATION"]))
    try:
        assert killer.client_kill_filter(_id=client.client_id()) == 1
    finally:
        killer.close()
    assert cache.get("kept:before") == 1  # a new connection from the same pool
    cache.set("kept:after", 2, 30)
    assert cache.get("kept:after") == 2
