"""JWT authentication that remembers a token's user for a few seconds in this process.

Every API request with a JWT costs a database query for its user; the seat view that phones
poll is otherwise served from one cheap query, so that lookup was a third of its cost. The user
is kept for ``JWT_USER_CACHE_SECONDS`` (default 5): a deactivated user or a changed profile is
seen by other processes at most that late, while tokens stay valid for their whole lifetime
anyway. Nothing is kept while a transaction is open (tests, ``ATOMIC_REQUESTS``), so a rolled
back user is never reused. The kept user is shared between requests: read it, do not change it
outside ``clubs.services``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db import connection
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.settings import api_settings

_USERS: OrderedDict[Any, tuple[float, Any]] = OrderedDict()
_LOCK = threading.Lock()
KEPT = 10_000


class CachedJWTAuthentication(JWTAuthentication):
    """:class:`JWTAuthentication` with a short per-process memory of users by id."""

    def get_user(self, validated_token: Any) -> Any:
        seconds = float(getattr(settings, "JWT_USER_CACHE_SECONDS", 5.0))
        user_id = validated_token.get(api_settings.USER_ID_CLAIM)
        now = time.monotonic()
        with _LOCK:
            hit = _USERS.get(user_id)
        if hit is not None and now - hit[0] < seconds:
            return hit[1]
        user = super().get_user(validated_token)
        if seconds > 0 and not connection.in_atomic_block:
            with _LOCK:
                _USERS[user_id] = (now, user)
                _USERS.move_to_end(user_id)
                while len(_USERS) > KEPT:
                    _USERS.popitem(last=False)
        return user


def forget(user_id: Any) -> None:
    """Drop a user from this process's memory (after changing it)."""
    with _LOCK:
        _USERS.pop(user_id, None)


def forget_everyone() -> None:
    """Drop every kept user (tests: a new test's users may reuse an earlier test's ids)."""
    with _LOCK:
        _USERS.clear()
