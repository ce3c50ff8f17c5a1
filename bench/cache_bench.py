"""The cache's cost a call (issue 41): Django's Redis cache, which wraps its connection pool in a
new ``redis.Redis`` for every call, against ``config.cache.RedisCache``, which keeps one.

    python bench/cache_bench.py [--calls 20000] [--repeats 5] [--no-write]

Both backends talk to the same Redis (``BENCH_REDIS_URL``, default
``redis://127.0.0.1:6379/9``) from one thread: ``--calls`` calls of each kind (``get`` of a
missing key, ``set``, ``add`` of a present key: the clocks' once-per-flag check) after a
warm-up, ``--repeats`` rounds alternating the backends; the median per call of this process's
CPU time (``time.process_time``: what the call costs the worker, whatever else the machine
does) and of wall time (with Redis's answer). Written to the "Cache calls" section of
``docs/benchmarks.md`` unless ``--no-write``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report import cpu_wall_medians, write_section  # noqa: E402

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
KINDS = ("get", "set", "add")


def backends() -> dict[str, Any]:
    from django.conf import settings

    if not settings.configured:
        settings.configure(USE_TZ=True)
    from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

    from config.cache import RedisCache as KeptRedisCache

    params = {"KEY_PREFIX": f"cache-bench-{os.getpid()}", "OPTIONS": {"socket_timeout": 2}}
    return {
        "Django's RedisCache": DjangoRedisCache(REDIS_URL, dict(params)),
        "config.cache.RedisCache": KeptRedisCache(REDIS_URL, dict(params)),
    }


def one(cache: Any, kind: str, calls: int) -> tuple[float, float]:
    """CPU and wall microseconds a call of ``kind``."""
    cache.set("present", 1, 60)
    cpu, wall = time.process_time(), time.perf_counter()
    if kind == "get":
        for _ in range(calls):
            cache.get("missing")
    elif kind == "set":
        for k in range(calls):
            cache.set("key", k, 60)
    else:
        for _ in range(calls):
            cache.add("present", 1, 60)
    return (
        (time.process_time() - cpu) / calls * 1e6,
        (time.perf_counter() - wall) / calls * 1e6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    caches = backends()
    for cache in caches.values():  # connect and warm up
        one(cache, "get", 1000)
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.repeats):
        for kind in KINDS:
            for name, cache in caches.items():
                figures.setdefault((name, kind), []).append(one(cache, kind, args.calls))
    for cache in caches.values():
        cache.delete_many(["present", "key"])  # this run's keys only (its own prefix)
    rows = [
        "| backend | call | CPU µs a call | wall µs a call |",
        "| --- | --- | ---: | ---: |",
    ]
    for kind in KINDS:
        for name in caches:
            cpu, wall = cpu_wall_medians(figures[(name, kind)])
            rows.append(f"| {name} | `{kind}` | {cpu:.0f} | {wall:.0f} |")
    body = (
        f"{args.calls:,} calls of each kind from one thread, {args.repeats} rounds alternating "
        "the backends, medians; Redis on loopback.\n\n" + "\n".join(rows) + "\n"
    )
    print(body)
    if not args.no_write:
        write_section("cache", "Cache calls (issue 41)", body)


if __name__ == "__main__":
    main()
