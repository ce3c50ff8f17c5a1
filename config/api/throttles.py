"""Rate limits for signing in and registering, and the failed-sign-in lockout.

- Every sign-in attempt (``POST /api/v1/auth/token/``) counts against the caller's address:
  ``LOGIN_RATE_PER_IP`` (30 a minute).
- Registrations (``POST /api/v1/auth/register/``) count per address: ``REGISTER_RATE_PER_IP``
  (30 an hour).
- Failed sign-ins lock an account for ``LOGIN_LOCKOUT_SECONDS`` (15 minutes, counted from the
  first failure of the series): after ``LOGIN_LOCKOUT_FAILURES`` (10) failures from one
  address, for that address only; after ``LOGIN_LOCKOUT_ACCOUNT_FAILURES`` (100) from all
  addresses together, for everyone. A lock always ends when its window does, so nobody can
  lock the real user out for good, and a lock caused from one address does not stop the
  user signing in from another. A successful sign-in clears the account's counts.

Refusals are 429 ``throttled`` with ``Retry-After`` (seconds) and a sentence saying when to
try again. Counts live in Django's cache (per process with the default local-memory cache).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle


class _AddressThrottle(SimpleRateThrottle):
    """Counts every request of a view per client address (``scope`` names the rate)."""

    setting = ""

    def get_rate(self) -> str:
        return str(getattr(settings, self.setting))

    def get_cache_key(self, request: Request, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginThrottle(_AddressThrottle):
    scope = "login"
    setting = "LOGIN_RATE_PER_IP"


class RegisterThrottle(_AddressThrottle):
    scope = "register"
    setting = "REGISTER_RATE_PER_IP"


def _keys(username: str, address: str) -> tuple[str, str]:
    account = username.strip().lower()[:150]
    return f"login-fail:{account}:{address}", f"login-fail:{account}"


def _locked_for(key: str, limit: int, now: float) -> float:
    found = cache.get(key)
    if found is None:
        return 0.0
    count, ends = found
    return max(0.0, ends - now) if count >= limit else 0.0


def check_lockout(username: str, address: str) -> None:
    """Refuse (429) a sign-in for a locked account."""
    now = time.time()
    here, everywhere = _keys(username, address)
    wait = max(
        _locked_for(here, settings.LOGIN_LOCKOUT_FAILURES, now),
        _locked_for(everywhere, settings.LOGIN_LOCKOUT_ACCOUNT_FAILURES, now),
    )
    if wait > 0:
        minutes = max(1, round(wait / 60))
        raise Throttled(
            wait=wait,
            detail=f"Too many failed sign-ins for this account; try again in about {minutes} "
            f"minute{'s' if minutes != 1 else ''}.",
        )


def _count(key: str, now: float) -> None:
    window = settings.LOGIN_LOCKOUT_SECONDS
    count, ends = cache.get(key) or (0, now + window)
    if ends <= now:
        count, ends = 0, now + window
    cache.set(key, (count + 1, ends), timeout=max(1, int(ends - now) + 1))


def record_failure(username: str, address: str) -> None:
    now = time.time()
    for key in _keys(username, address):
        _count(key, now)


def record_success(username: str, address: str) -> None:
    cache.delete_many(list(_keys(username, address)))
