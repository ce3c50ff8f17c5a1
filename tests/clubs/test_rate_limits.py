"""Rate limits and body size: sign-in and registration per address, a lockout after repeated
failed sign-ins (through the token endpoint, the session login and the admin's login alike)
that ends with its window and does not reach the user's other addresses, changes per account,
anonymous requests per address (any request without a valid access token), 413 for oversized
bodies; all 429s with Retry-After and a sentence."""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import subprocess
import sys
from typing import Any

import pytest
import redis
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from clubs.models import User
from config.api import throttles
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import make_field

pytestmark = pytest.mark.django_db
TOKEN = "/api/v1/auth/token/"
PINGS = "/api/v1/pings/"
SCHEMA = "/api/v1/"  # the API root: public and cheap


def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def sign_in(user: User, password: str, address: str = "10.0.0.1") -> Any:
    return APIClient().post(
        TOKEN, {"username": user.username, "password": password}, format="json",
        REMOTE_ADDR=address,
    )  # fmt: skip


def test_repeated_failures_lock_the_account_for_that_address_only(user: User, settings) -> None:
    settings.LOGIN_LOCKOUT_FAILURES = 5
    for _ in range(5):
        assert sign_in(user, "wrong").status_code == 401
    locked = sign_in(user, DEFAULT_PASSWORD)
    assert locked.status_code == 429
    assert locked.json()["code"] == "throttled"
    assert locked.json()["message"] == (
        "Too many failed sign-ins for this account; try again in about 15 minutes."
    )  # the wait said once: not DRF's "Expected available in …" after it
    assert 0 < int(locked["Retry-After"]) <= 900
    # the real user, somewhere else, is not locked out
    assert sign_in(user, DEFAULT_PASSWORD, address="10.0.0.2").status_code == 200


def test_a_lock_ends_with_its_window(user: User, settings, fake_clock) -> None:
    clock = fake_clock(throttles)
    settings.LOGIN_LOCKOUT_FAILURES = 3
    settings.LOGIN_LOCKOUT_SECONDS = 60
    for _ in range(3):
        sign_in(user, "wrong")
    clock.advance(59)
    assert sign_in(user, DEFAULT_PASSWORD).status_code == 429
    clock.advance(1)
    assert sign_in(user, DEFAULT_PASSWORD).status_code == 200


def test_failures_from_many_addresses_lock_the_account_for_everyone(user: User, settings) -> None:
    settings.LOGIN_LOCKOUT_FAILURES = 100
    settings.LOGIN_LOCKOUT_ACCOUNT_FAILURES = 6
    for i in range(6):
        assert sign_in(user, "wrong", address=f"10.0.1.{i}").status_code == 401
    assert sign_in(user, DEFAULT_PASSWORD, address="10.0.2.1").status_code == 429


def test_a_successful_sign_in_clears_the_failures(user: User, settings) -> None:
    settings.LOGIN_LOCKOUT_FAILURES = 3
    for _ in range(2):
        sign_in(user, "wrong")
    assert sign_in(user, DEFAULT_PASSWORD).status_code == 200
    for _ in range(2):
        assert sign_in(user, "wrong").status_code == 401
    assert sign_in(user, DEFAULT_PASSWORD).status_code == 200


def test_sign_in_attempts_are_limited_per_address(user: User, settings, fake_clock) -> None:
    fake_clock(throttles)  # the requests share one window, however slowly they run
    settings.LOGIN_RATE_PER_IP = "3/min"
    for _ in range(3):
        assert sign_in(user, DEFAULT_PASSWORD, address="10.0.3.1").status_code == 200
    limited = sign_in(user, DEFAULT_PASSWORD, address="10.0.3.1")
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert sign_in(user, DEFAULT_PASSWORD, address="10.0.3.2").status_code == 200


def test_registrations_are_limited_per_address(settings, fake_clock) -> None:
    fake_clock(throttles)  # the requests share one window, however slowly they run
    settings.REGISTER_RATE_PER_IP = "2/hour"
    statuses = [
        APIClient()
        .post(
            "/api/v1/auth/register/",
            {"username": f"new{i}", "password": "a-long-password-9", "email": f"n{i}@x.at"},
            format="json",
            REMOTE_ADDR="10.0.4.1",
        )
        .status_code
        for i in range(3)
    ]
    assert statuses == [201, 201, 429]


def test_changes_are_limited_per_account_not_per_address(user: User, settings, fake_clock) -> None:
    fake_clock(throttles)  # the requests share one window, however slowly they run
    settings.USER_WRITE_RATE = "3/min"
    client = client_for(user)
    statuses = [client.post(PINGS, REMOTE_ADDR=f"10.0.5.{i}").status_code for i in range(4)]
    assert statuses == [201, 201, 201, 429]
    refused = client.post(PINGS)
    assert refused.json()["code"] == "throttled"
    assert refused.json()["message"].startswith("Too many requests from this account; try again")
    assert "Expected available" not in refused.json()["message"]
    assert 0 < int(refused["Retry-After"]) <= 60
    # reads go on, and another account is not affected
    assert client.get(PINGS).status_code == 200
    assert client_for(UserFactory.create()).post(PINGS).status_code == 201


def test_anonymous_requests_are_limited_per_address(settings, fake_clock) -> None:
    fake_clock(throttles)  # the requests share one window, however slowly they run
    settings.ANON_RATE_PER_IP = "2/min"
    field = make_field(3)
    standings = field.url + "standings/"
    client = APIClient()
    statuses = [client.get(standings, REMOTE_ADDR="10.0.6.1").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    refused = client.get(standings, REMOTE_ADDR="10.0.6.1")
    assert refused.json()["code"] == "throttled"
    assert "without signing in" in refused.json()["message"]
    assert int(refused["Retry-After"]) > 0
    # the same endpoint from another address, and signed in from this one, still answer
    assert client.get(standings, REMOTE_ADDR="10.0.6.2").status_code == 200
    signed_in = client_for(field.players[0]).get(standings, REMOTE_ADDR="10.0.6.1")
    assert signed_in.status_code == 200
    # health checks are not API requests and are never counted
    assert client.get("/healthz", REMOTE_ADDR="10.0.6.1").status_code == 200


def _count_trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The counts each trip to the shared counter took, recorded as the real counter runs."""
    trips: list[int] = []
    real = throttles._count_in_window

    def counting(slot: str, period: int, amount: int = 1) -> int:
        trips.append(amount)
        return real(slot, period, amount)

    monkeypatch.setattr(throttles, "_count_in_window", counting)
    return trips


def test_a_busy_caller_is_counted_in_leases_without_passing_the_limit(
    settings, fake_clock, monkeypatch
) -> None:
    """A process takes counts from the shared window in growing leases (at most a hundredth
    of the limit) and spends them in memory: 1,000 requests a minute cost about a hundred
    trips to Redis, not 1,000, and exactly 1,000 pass."""
    fake_clock(throttles)
    trips = _count_trips(monkeypatch)
    key, rate = "anon:10.0.11.1", "1000/min"
    assert [throttles.take(key, rate) for _ in range(1000)] == [0.0] * 1000
    assert throttles.take(key, rate) > 0
    assert max(trips) == 10 and len(trips) <= 1000 // 10 + 4
    # once the window is used up, refusing asks Redis no more
    before = len(trips)
    assert all(throttles.take(key, rate) > 0 for _ in range(50))
    assert len(trips) == before


def test_leases_of_several_processes_never_pass_the_limit_together(settings, fake_clock) -> None:
    """What other server processes took from the shared window counts against this one's next
    lease: together they let through exactly the limit."""
    clock = fake_clock(throttles)
    key, rate = "anon:10.0.11.2", "1000/min"
    mine = sum(throttles.take(key, rate) == 0 for _ in range(20))  # leases 1+2+4+8+10: 5 left
    window = int(clock.time() // 60)
    throttles._count_in_window(f"rate:{key}:{window}", 60, 970)  # the other processes' leases
    while throttles.take(key, rate) == 0:
        mine += 1
    assert mine == 1000 - 970


def test_small_limits_are_counted_request_by_request(settings, fake_clock, monkeypatch) -> None:
    """Under 200 a window (sign-ins, registrations, a test's 2/min) every request asks the
    shared counter, so no process can hold counts another one needs."""
    fake_clock(throttles)
    trips = _count_trips(monkeypatch)
    assert [throttles.take("anon:10.0.11.3", "199/min") for _ in range(199)] == [0.0] * 199
    assert trips == [1] * 199
    assert throttles.take("anon:10.0.11.3", "199/min") > 0


def test_forwarded_addresses_count_only_behind_trusted_proxies(settings, fake_clock) -> None:
    fake_clock(throttles)  # the requests share one window, however slowly they run
    settings.ANON_RATE_PER_IP = "1/min"
    client = APIClient()
    # no trusted proxy: a forged X-Forwarded-For does not give a fresh address
    first = client.get(SCHEMA, REMOTE_ADDR="10.0.7.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert first.status_code == 200
    forged = client.get(SCHEMA, REMOTE_ADDR="10.0.7.1", HTTP_X_FORWARDED_FOR="5.6.7.8")
    assert forged.status_code == 429
    # behind one proxy (nginx at 10.0.7.9), the address the proxy appended counts
    settings.TRUSTED_PROXIES = 1
    via = {"REMOTE_ADDR": "10.0.7.9"}
    assert client.get(SCHEMA, HTTP_X_FORWARDED_FOR="9.9.9.1, 1.1.1.1", **via).status_code == 200
    assert client.get(SCHEMA, HTTP_X_FORWARDED_FOR="9.9.9.2, 1.1.1.1", **via).status_code == 429
    assert client.get(SCHEMA, HTTP_X_FORWARDED_FOR="1.1.1.2", **via).status_code == 200


def test_a_limit_can_be_turned_off(user: User, settings) -> None:
    settings.USER_WRITE_RATE = "off"
    settings.ANON_RATE_PER_IP = "0"
    client = client_for(user)
    assert {client.post(PINGS).status_code for _ in range(5)} == {201}
    assert {APIClient().get(SCHEMA).status_code for _ in range(5)} == {200}


def test_an_unreachable_cache_lets_requests_through(user: User, settings) -> None:
    """A Redis outage must not take the API down: with the cache on a closed port, the limits
    count nothing and answer as if under them (after a short connect timeout)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    settings.USER_WRITE_RATE = "1/min"
    settings.ANON_RATE_PER_IP = "1/min"
    assert [client_for(user).post(PINGS).status_code for _ in range(2)] == [201, 201]
    assert [APIClient().get(SCHEMA).status_code for _ in range(2)] == [200, 200]
    assert sign_in(user, "wrong").status_code == 401
    assert sign_in(user, DEFAULT_PASSWORD).status_code == 200


def test_oversized_bodies_are_refused_before_they_are_read(user: User, settings) -> None:
    settings.MAX_REQUEST_BODY_BYTES = 1000
    body = json.dumps({"display_name": "x" * 2000})
    answer = client_for(user).generic("PATCH", "/api/v1/me/", body, "application/json")
    assert answer.status_code == 413
    assert answer.json()["code"] == "request_too_large"
    assert answer.json()["message"] == (
        f"The request body has {len(body):,} bytes; this service accepts at most 1,000."
    )
    # anonymous callers get the same answer, before any rate counting or authentication
    assert APIClient().generic("POST", TOKEN, body, "application/json").status_code == 413
    small = json.dumps({"display_name": "Anna"})
    answer = client_for(user).generic("PATCH", "/api/v1/me/", small, "application/json")
    assert answer.status_code == 200


@pytest.mark.services
def test_counts_are_shared_by_every_server_process(user: User, settings) -> None:
    """With Redis, a lock counted by one process holds in another (gunicorn runs several)."""
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    settings.LOGIN_LOCKOUT_FAILURES = 3
    for _ in range(3):
        assert sign_in(user, "wrong", address="10.0.8.1").status_code == 401
    check = (
        "import django; django.setup()\n"
        "from rest_framework.exceptions import Throttled\n"
        "from config.api.throttles import check_lockout\n"
        "for address, expected in (('10.0.8.1', True), ('10.0.8.2', False)):\n"
        "    try:\n"
        f"        check_lockout({user.username!r}, address)\n"
        "        locked = False\n"
        "    except Throttled:\n"
        "        locked = True\n"
        "    assert locked is expected, address\n"
        "print('shared')\n"
    )
    # this test run's settings (DJANGO_SETTINGS_MODULE, tests/settings.py): the same cache
    env = dict(os.environ)
    env["LOGIN_LOCKOUT_FAILURES"] = "3"
    done = subprocess.run(
        [sys.executable, "-c", check], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "shared"


@pytest.mark.services
def test_counting_goes_on_after_redis_closes_the_connection(settings, fake_clock) -> None:
    """Each process keeps one Redis client for its counts: when Redis closes the connection
    (a restart, an idle timeout), the next request connects again and its count is kept."""
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    fake_clock(throttles)
    settings.ANON_RATE_PER_IP = "2/min"
    client = APIClient()
    assert client.get(SCHEMA, REMOTE_ADDR="10.0.10.1").status_code == 200
    writer = throttles._redis_writer()
    assert writer is not None
    killer = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    assert killer.client_kill_filter(_id=writer.client_id()) == 1
    killer.close()
    assert client.get(SCHEMA, REMOTE_ADDR="10.0.10.1").status_code == 200
    assert client.get(SCHEMA, REMOTE_ADDR="10.0.10.1").status_code == 429


SESSION_LOGIN = "/api/v1/auth/session/login/"
ADMIN_LOGIN = "/admin/login/"


def form_sign_in(path: str, user: User, password: str, address: str = "10.0.1.1") -> Any:
    return Client().post(
        path, {"username": user.username, "password": password}, REMOTE_ADDR=address
    )


@pytest.mark.parametrize("path", [SESSION_LOGIN, ADMIN_LOGIN])
def test_it_refuses_password_guessing_through_the_login_forms(
    path: str, user: User, settings
) -> None:
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    settings.LOGIN_LOCKOUT_FAILURES = 3
    for _ in range(3):
        assert form_sign_in(path, user, "wrong").status_code == 200  # the form again

    locked = form_sign_in(path, user, DEFAULT_PASSWORD)

    assert locked.status_code == 429
    assert "Too many failed sign-ins for this account" in locked.content.decode()
    assert 0 < int(locked["Retry-After"]) <= 900
    assert "_auth_user_id" not in locked.client.session
    # one lockout for every way in: the token endpoint is locked too, from that address only
    assert sign_in(user, DEFAULT_PASSWORD, address="10.0.1.1").status_code == 429
    assert form_sign_in(path, user, DEFAULT_PASSWORD, address="10.0.1.2").status_code == 302


def test_failures_through_the_token_endpoint_lock_the_login_forms(user: User, settings) -> None:
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    settings.LOGIN_LOCKOUT_FAILURES = 2
    for _ in range(2):
        assert sign_in(user, "wrong", address="10.0.1.1").status_code == 401
    assert form_sign_in(SESSION_LOGIN, user, DEFAULT_PASSWORD).status_code == 429
    assert form_sign_in(ADMIN_LOGIN, user, DEFAULT_PASSWORD).status_code == 429


def test_it_counts_form_sign_ins_against_the_addresses_sign_in_limit(
    user: User, settings, fake_clock
) -> None:
    fake_clock(throttles)  # the requests share one window, however slowly they run
    settings.LOGIN_RATE_PER_IP = "3/min"
    assert sign_in(user, DEFAULT_PASSWORD, address="10.0.3.1").status_code == 200
    assert form_sign_in(SESSION_LOGIN, user, DEFAULT_PASSWORD, "10.0.3.1").status_code == 302
    assert form_sign_in(ADMIN_LOGIN, user, "wrong", "10.0.3.1").status_code == 200

    limited = form_sign_in(SESSION_LOGIN, user, DEFAULT_PASSWORD, "10.0.3.1")

    assert limited.status_code == 429
    assert "Too many requests to sign in from this address" in limited.content.decode()
    assert sign_in(user, DEFAULT_PASSWORD, address="10.0.3.1").status_code == 429
    assert form_sign_in(SESSION_LOGIN, user, DEFAULT_PASSWORD, "10.0.3.2").status_code == 302


@pytest.mark.parametrize(
    "authorization",
    ["Basic YW5uYTpzZWNyZXQ=", "Junk x", "Bearer not-a-token", "Bearer", "bearer x.y.z"],
)
def test_it_counts_requests_without_a_valid_token_as_anonymous(
    authorization: str, settings, fake_clock
) -> None:
    fake_clock(throttles)  # the requests share one window, however slowly they run
    settings.ANON_RATE_PER_IP = "2/min"
    client = APIClient()
    statuses = [
        client.get(SCHEMA, REMOTE_ADDR="10.0.9.1", HTTP_AUTHORIZATION=authorization).status_code
        for _ in range(3)
    ]
    assert statuses[2] == 429, statuses
    assert client.get(SCHEMA, REMOTE_ADDR="10.0.9.1").status_code == 429


def test_an_expired_access_token_counts_as_anonymous(user: User, settings, fake_clock) -> None:
    fake_clock(throttles)  # the requests share one window, however slowly they run
    settings.ANON_RATE_PER_IP = "1/min"
    token = AccessToken.for_user(user)
    token.set_exp(from_time=timezone.now() - dt.timedelta(hours=1))
    client = APIClient()
    header = {"HTTP_AUTHORIZATION": f"Bearer {token}", "REMOTE_ADDR": "10.0.9.2"}
    client.get(SCHEMA, **header)
    assert client.get(SCHEMA, **header).status_code == 429
    # a valid token is not counted
    valid = client_for(user)
    assert all(valid.get(SCHEMA, REMOTE_ADDR="10.0.9.2").status_code == 200 for _ in range(3))
