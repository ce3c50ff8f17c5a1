"""Database work from async code: the long poll (``games/api/events.py``) and the websocket
consumer (:mod:`games.live.consumer`) call the database only through :func:`db_call`.

Each call runs in a thread and gives its connection back before it returns, so a waiting
request or an idle socket holds no database connection; at most :data:`DB_SLOTS` such calls
run at once per process and event loop, shared by the long polls and the sockets: hundreds of
clients that wake together must not open hundreds of connections (PostgreSQL refuses past
``max_connections``); the rest queue for a moment instead.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async  # type: ignore[import-untyped]
from django.db import connection

T = TypeVar("T")

#: Database calls from async code at once, per process and event loop.
DB_SLOTS = 8
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _slot() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slot = _slots.get(loop)
    if slot is None:
        slot = _slots[loop] = asyncio.Semaphore(DB_SLOTS)
    return slot


def _then_release(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, then give the thread's database connection back (kept inside
    a transaction: tests)."""
    try:
        return fn(*args, **kwargs)
    finally:
        if not connection.in_atomic_block:
            connection.close()


async def db_call(
    fn: Callable[..., T], /, *args: Any, thread_sensitive: bool = False, **kwargs: Any
) -> T:
    """Run ``fn(*args, **kwargs)`` in a thread, with at most :data:`DB_SLOTS` calls at once,
    closing its connection afterwards.

    ``thread_sensitive``: on the request's own thread (an HTTP request: Django's ASGI handler
    gives each one its own, and a test's transaction lives on the test's thread). Otherwise
    on a pool thread (a websocket has no request thread, and one shared thread would serve
    every socket in turn), dropping a connection left there past its age or broken first.
    """
    async with _slot():
        if thread_sensitive:
            return await sync_to_async(_then_release)(fn, *args, **kwargs)
        run = database_sync_to_async(_then_release, thread_sensitive=False)
        result: T = await run(fn, *args, **kwargs)
        return result
