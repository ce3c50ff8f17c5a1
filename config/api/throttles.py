"""Rate limits, the failed-sign-in lockout and the client address they count by.

Limits (each a rate like ``30/min``; ``off`` or ``0`` turns one off):

- Sign-in attempts (``POST /api/v1/auth/token/``) per client address: ``LOGIN_RATE_PER_IP``
  (30 a minute).
- Registrations (``POST /api/v1/auth/register/``) per address: ``REGISTER_RATE_PER_IP``
  (30 an hour).
- Changes by a signed-in user (every POST, PUT, PATCH and DELETE: actions, score-sheet
  entries, lifecycle commands) per account: ``USER_WRITE_RATE`` (600 a minute).
- Requests without credentials (public standings, tournament pages, the schema) per address:
  ``ANON_RATE_PER_IP`` (1,200 a minute), counted by :mod:`config.api.limits` before any view
  runs, so the fast public paths are covered too.

Every password sign-in counts here, whichever way it comes (the token endpoint, the browsable
API's session login, the admin's login): the authentication backend
(:class:`config.api.authentication.LockoutModelBackend`) refuses a locked account and counts
failures and successes, and the two login forms (:mod:`config.sign_in`) share the token
endpoint's per-address limit.

Failed sign-ins lock an account for ``LOGIN_LOCKOUT_SECONDS`` (15 minutes, counted from the
first failure of the series): after ``LOGIN_LOCKOUT_FAILURES`` (10) failures from one address,
for that address only; after ``LOGIN_LOCKOUT_ACCOUNT_FAILURES`` (100) from all addresses
together, for everyone. A lock always ends when its window does, so nobody can lock the real
user out for good, and a lock caused from one address does not stop the user signing in from
another. A successful sign-in clears the account's counts.

Refusals are 429 ``throttled`` with ``Retry-After`` (seconds) and a sentence saying when to
try again. Counts are fixed windows (a limit of 30 a minute allows at most 30 in each clock
minute, so up to 60 across a minute's boundary) kept in Django's cache: Redis, shared by every
process, when the deployment has Redis (``REDIS_URL`` or a Redis broker), else each process's
memory. When the cache cannot be reached the limits let requests through (and log it): a
Redis outage must not take the API down with it.

A busy caller does not cost a Redis round trip per request: each process takes counts from the
shared window in leases (:func:`take`) and spends them in memory. The first request of a window
leases one count, each further lease twice the last, at most a hundredth of the limit (and at
most 64), so limits under 200 are counted request by request as before. Leases never let more
than the limit through in a window; counts one process leased but did not spend can refuse the
caller at most a few percent early (with three processes and 1,200 a minute: after 1,176),
and once the window is used up each process refuses without asking Redis again.

The client address is ``REMOTE_ADDR``, or with ``TRUSTED_PROXIES=n`` (the number of reverse
proxies in front of the service, e.g. 1 behind nginx) the n-th address from the right of
``X-Forwarded-For``, which those proxies append: a client cannot choose its own address by
sending the header.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, ngettext
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)

#: Seconds in a rate's period, by the period's first letter (as DRF reads rates).
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"30/min"`` -> ``(30, 60)``; ``None`` for no limit (``""``, ``"off"``, ``"0"``)."""
    text = (rate or "").strip().lower()
    if text in {"", "off", "none", "0"}:
        return None
    number, _, period = text.partition("/")
    count = int(number)
    if count <= 0:
        return None
    try:
        return count, PERIODS[period.strip()[0]]
    except (IndexError, KeyError):
        raise ValueError(f"A rate is a number per s, min, hour or day, not {rate!r}.") from None


def client_address(request: HttpRequest | Request) -> str:
    """The caller's address, trusting ``X-Forwarded-For`` only as far as ``TRUSTED_PROXIES``
    proxies append to it."""
    meta = request.META
    remote = str(meta.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "TRUSTED_PROXIES", 0))
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
    return hops[-min(proxies, len(hops))] if hops else remote


#: The Redis client each cache client writes with, kept for the process's life.
_writers: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()


def _redis_writer() -> Any | None:
    """The Redis client that writes Django's cache keys, or None when the cache is not Redis.
    Django's Redis cache builds a new client for every call (20–50 µs, a tenth of an
    anonymous standings read); a client is safe to share between threads (each command takes
    a connection from the pool), so one is kept per cache client."""
    backend = getattr(cache, "_cache", None)
    get_client = getattr(backend, "get_client", None)
    if get_client is None:
        return None
    writer = _writers.get(backend)
    if writer is None:
        writer = _writers[backend] = get_client(write=True)
    return writer


def _count_in_window(slot: str, period: int, amount: int = 1) -> int:
    """Add ``amount`` to the window's counter and return the new total. With Redis one round
    trip (``SET NX EX`` then ``INCRBY`` in a pipeline); with another cache ``add`` then
    ``incr``."""
    writer = _redis_writer()
    if writer is not None:
        key = cache.make_key(slot)
        pipe = writer.pipeline(transaction=False)
        pipe.set(key, 0, ex=period + 1, nx=True)
        pipe.incrby(key, amount)
        return int(pipe.execute()[1])
    if cache.add(slot, amount, timeout=period + 1):
        return amount
    try:
        return int(cache.incr(slot, amount))
    except ValueError:  # the window's key expired between add and incr
        cache.set(slot, amount, timeout=period + 1)
        return amount


#: The largest lease, and the share of a limit one lease may take at most (a hundredth).
LEASE_MOST = 64
LEASE_SHARE = 100
#: Leases kept per process; beyond it those of ended windows are dropped (or all of them).
LEASES_KEPT = 10_000


@dataclass
class _Lease:
    """A process's counts of one key's window: ``left`` to spend without asking the shared
    counter, the ``size`` of the next lease, and whether the window is ``used_up``."""

    window: int
    ends: float
    left: int = 0
    size: int = 1
    used_up: bool = False


_leases: dict[tuple[str, int, int], _Lease] = {}
_leases_lock = threading.Lock()


def _lease_for(slot: tuple[str, int, int], window: int, ends: float, now: float) -> _Lease:
    """The process's lease of ``slot`` for ``window`` (a new one when the window changed).
    Called with ``_leases_lock`` held."""
    lease = _leases.get(slot)
    if lease is not None and lease.window == window:
        return lease
    if len(_leases) >= LEASES_KEPT:
        for old in [k for k, v in _leases.items() if v.ends <= now]:
            del _leases[old]
        if len(_leases) >= LEASES_KEPT:  # many callers in one window: spent leases are lost,
            _leases.clear()  # which can only refuse earlier, never let more through
    lease = _leases[slot] = _Lease(window, ends)
    return lease


def forget_leases() -> None:
    """Drop this process's leases (after the shared counts were emptied, as each test does)."""
    with _leases_lock:
        _leases.clear()


def take(key: str, rate: str | None) -> float:
    """Count one request against ``key`` under ``rate``; the seconds to wait when over it,
    else 0. Counts come from the process's lease of the window when it has some left, else
    a new lease is taken from the shared counter (see the module's notes). Cache failures
    count as allowed."""
    limit = parse_rate(rate)
    if limit is None:
        return 0.0
    count_max, period = limit
    now = time.time()
    window = int(now // period)
    ends = float((window + 1) * period)
    wait = max(1.0, ends - now)
    with _leases_lock:
        lease = _lease_for((key, count_max, period), window, ends, now)
        if lease.left > 0:
            lease.left -= 1
            return 0.0
        if lease.used_up:
            return wait
        size = lease.size
        lease.size = min(size * 2, max(1, min(LEASE_MOST, count_max // LEASE_SHARE)))
    try:
        total = _count_in_window(f"rate:{key}:{window}", period, size)
    except Exception:  # any cache failure: let the request through
        log.warning("rate limit %s not counted: the cache is unavailable", key, exc_info=True)
        return 0.0
    granted = min(size, count_max - (total - size))
    with _leases_lock:
        if granted <= 0 or total >= count_max:
            lease.used_up = True
        if granted > 0:
            lease.left += granted - 1
    return 0.0 if granted > 0 else wait


def in_words(seconds: float) -> str:
    """``42`` -> ``"42 seconds"``, ``600`` -> ``"about 10 minutes"``, in the active
    language."""
    if seconds < 90:
        whole = max(1, round(seconds))
        return ngettext("{count} second", "{count} seconds", whole).format(count=whole)
    minutes = max(1, round(seconds / 60))
    return ngettext("about {count} minute", "about {count} minutes", minutes).format(count=minutes)


class _WindowThrottle(BaseThrottle):
    """Counts requests of a view per :meth:`ident` under the rate in setting ``setting``;
    over it, refuses with :attr:`refusal` (``{wait}``: how long, in words)."""

    scope = ""
    setting = ""
    refusal: str | Promise = gettext_lazy(
        "Too many requests from this address; try again in {wait}."
    )

    def applies(self, request: Request) -> bool:
        return True

    def ident(self, request: Request) -> str:
        return client_address(request)

    def allow_request(self, request: Request, view: Any) -> bool:
        if not self.applies(request):
            return True
        wait = take(f"{self.scope}:{self.ident(request)}", getattr(settings, self.setting))
        if wait > 0:
            raise throttled(str(self.refusal).format(wait=in_words(wait)), wait)
        return True


class LoginThrottle(_WindowThrottle):
    scope = "login"
    setting = "LOGIN_RATE_PER_IP"
    refusal = gettext_lazy("Too many requests to sign in from this address; try again in {wait}.")


class RegisterThrottle(_WindowThrottle):
    scope = "register"
    setting = "REGISTER_RATE_PER_IP"
    refusal = gettext_lazy("Too many requests to register from this address; try again in {wait}.")


class UserWriteThrottle(_WindowThrottle):
    """Changes (POST, PUT, PATCH, DELETE) per signed-in account."""

    scope = "write"
    setting = "USER_WRITE_RATE"
    refusal = gettext_lazy("Too many requests from this account; try again in {wait}.")

    def applies(self, request: Request) -> bool:
        return request.method in UNSAFE_METHODS and bool(request.user.is_authenticated)

    def ident(self, request: Request) -> str:
        return str(request.user.pk)


def check_sign_in(request: HttpRequest | Request, username: str) -> None:
    """Count a sign-in attempt against its address (``LOGIN_RATE_PER_IP``, the token
    endpoint's :class:`LoginThrottle` count) and refuse it, 429, when that is over its limit
    or the account is locked: the check the login forms make before a password is tried."""
    LoginThrottle().allow_request(request, None)  # type: ignore[arg-type]
    check_lockout(username, client_address(request))


def take_from_first(key: str, rate: str | None) -> float:
    """Like :func:`take`, but the window starts with the first request counted (so ``3/hour``
    allows three in any hour from the first, whatever the clock says); the seconds to wait
    when over it, else 0. Cache failures count as allowed."""
    limit = parse_rate(rate)
    if limit is None:
        return 0.0
    count_max, period = limit
    now = time.time()
    slot = f"rate-first:{key}"
    try:
        count, ends = cache.get(slot) or (0, now + period)
        if ends <= now:
            count, ends = 0, now + period
        if count >= count_max:
            return max(1.0, ends - now)
        cache.set(slot, (count + 1, ends), timeout=max(1, int(ends - now) + 1))
    except Exception:  # any cache failure: let the request through
        log.warning("rate limit %s not counted: the cache is unavailable", key, exc_info=True)
    return 0.0


def _keys(username: str, address: str) -> tuple[str, str]:
    account = username.strip().lower()[:150]
    return f"login-fail:{account}:{address}", f"login-fail:{account}"


def _locked_for(key: str, limit: int, now: float) -> float:
    try:
        found = cache.get(key)
    except Exception:  # an unreachable cache locks nobody out
        log.warning("sign-in lockout not checked: the cache is unavailable", exc_info=True)
        return 0.0
    if found is None:
        return 0.0
    count, ends = found
    return max(0.0, ends - now) if count >= limit else 0.0


def lockout_wait(username: str, address: str) -> float:
    """Seconds until a locked account may sign in again from ``address``; 0 when it may now."""
    now = time.time()
    here, everywhere = _keys(username, address)
    return max(
        _locked_for(here, settings.LOGIN_LOCKOUT_FAILURES, now),
        _locked_for(everywhere, settings.LOGIN_LOCKOUT_ACCOUNT_FAILURES, now),
    )


class SaidThrottled(Throttled):
    """A 429 whose sentence says when to try again itself; ``wait`` gives ``Retry-After``."""

    wait: int | None

    def __init__(self, sentence: str, wait: float) -> None:
        super().__init__(detail=sentence)
        self.wait = math.ceil(wait)


def throttled(sentence: str, wait: float) -> Throttled:
    """A 429 saying ``sentence`` (which says when to try again) with ``Retry-After`` of
    ``wait`` seconds. DRF's ``Throttled(wait=…)`` would add its own "Expected available in …"
    after the sentence, saying the wait twice."""
    return SaidThrottled(sentence, wait)


def check_lockout(username: str, address: str) -> None:
    """Refuse (429) a sign-in for a locked account."""
    wait = lockout_wait(username, address)
    if wait > 0:
        minutes = max(1, round(wait / 60))
        raise throttled(
            ngettext(
                "Too many failed sign-ins for this account; try again in about {count} minute.",
                "Too many failed sign-ins for this account; try again in about {count} minutes.",
                minutes,
            ).format(count=minutes),
            wait,
        )


def _count(key: str, now: float) -> None:
    window = settings.LOGIN_LOCKOUT_SECONDS
    count, ends = cache.get(key) or (0, now + window)
    if ends <= now:
        count, ends = 0, now + window
    cache.set(key, (count + 1, ends), timeout=max(1, int(ends - now) + 1))


def record_failure(username: str, address: str) -> None:
    """Count a failed sign-in for the account, from ``address`` and from anywhere."""
    now = time.time()
    try:
        for key in _keys(username, address):
            _count(key, now)
    except Exception:
        log.warning("failed sign-in not counted: the cache is unavailable", exc_info=True)


def record_success(username: str, address: str) -> None:
    """Forget the account's failed sign-ins."""
    try:
        cache.delete_many(list(_keys(username, address)))
    except Exception:
        log.warning("sign-in counts not cleared: the cache is unavailable", exc_info=True)
