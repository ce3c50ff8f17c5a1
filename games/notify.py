"""Waking long-polling clients when a hosted hand changes.

After an action commits, :func:`publish` sends the hand's new version on the Redis channel
``hand:<id>``; a waiting request (:func:`wait_for_change`) subscribes to that channel and
returns as soon as something arrives or its time is up. Without Redis (the embedded default)
waiters poll the database instead, which is fine for one developer and never used in
production. Redis is ``REDIS_URL``, or the Celery broker when that is a ``redis://`` URL.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import redis
import redis.asyncio as aredis
from django.conf import settings

log = logging.getLogger(__name__)

_client: redis.Redis | None = None
POLL_SECONDS = 0.25


def channel(hand_id: int) -> str:
    return f"hand:{hand_id}"


def _sync_client() -> redis.Redis | None:
    global _client
    if not settings.EVENTS_REDIS_URL:
        return None
    if _client is None:
        _client = redis.Redis.from_url(settings.EVENTS_REDIS_URL, socket_timeout=2)
    return _client


def publish(hand_id: int, version: int) -> None:
    """Tell waiters that hand ``hand_id`` reached ``version`` (best effort: a lost message
    only delays a client until its poll times out)."""
    client = _sync_client()
    if client is None:
        return
    try:
        client.publish(channel(hand_id), str(version))
    except redis.RedisError:
        log.warning("could not publish hand %s version %s", hand_id, version, exc_info=True)


async def wait_for_change(
    hand_id: int, changed: Callable[[], Awaitable[bool]], timeout: float
) -> bool:
    """Wait until ``changed()`` is true or ``timeout`` seconds pass; returns ``changed()``.

    With Redis the wait subscribes before checking, so a change between the check and the
    subscription is not missed, and checks again only when a message arrives; without Redis
    it polls every quarter second.
    """
    url = settings.EVENTS_REDIS_URL
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    if not url:
        while not await changed():
            left = deadline - loop.time()
            if left <= 0:
                return False
            await asyncio.sleep(min(POLL_SECONDS, left))
        return True
    client = aredis.Redis.from_url(url)
    try:
        async with client.pubsub() as pubsub:
            await pubsub.subscribe(channel(hand_id))
            while not await changed():
                # Ask the database again only when a message came: 200 waiters cost no
                # queries while nothing happens.
                while True:
                    left = deadline - loop.time()
                    if left <= 0:
                        return False
                    message = await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=min(left, 5.0)
                    )
                    if message is not None:
                        break
            return True
    except aredis.RedisError:
        log.warning("events wait for hand %s fell back to a poll", hand_id, exc_info=True)
        await asyncio.sleep(min(POLL_SECONDS * 4, max(0.0, deadline - loop.time())))
        return await changed()
    finally:
        await client.aclose()
