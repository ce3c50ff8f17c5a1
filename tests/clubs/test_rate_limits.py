"""Sign-in and registration limits: 429 with Retry-After, a lockout after repeated failed
sign-ins that ends with its window and does not reach the user's other addresses."""

from __future__ import annotations

import time
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import User
from tests.factories import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db
TOKEN = "/api/v1/auth/token/"


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
    assert "try again in about 15 minutes" in locked.json()["message"]
    assert 0 < int(locked["Retry-After"]) <= 900
    # the real user, somewhere else, is not locked out
    assert sign_in(user, DEFAULT_PASSWORD, address="10.0.0.2").status_code == 200


def test_a_lock_ends_with_its_window(user: User, settings) -> None:
    settings.LOGIN_LOCKOUT_FAILURES = 3
    settings.LOGIN_LOCKOUT_SECONDS = 1
    for _ in range(3):
        sign_in(user, "wrong")
    assert sign_in(user, DEFAULT_PASSWORD).status_code == 429
    time.sleep(1.1)
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


def test_sign_in_attempts_are_limited_per_address(user: User, settings) -> None:
    settings.LOGIN_RATE_PER_IP = "3/min"
    for _ in range(3):
        assert sign_in(user, DEFAULT_PASSWORD, address="10.0.3.1").status_code == 200
    limited = sign_in(user, DEFAULT_PASSWORD, address="10.0.3.1")
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert sign_in(user, DEFAULT_PASSWORD, address="10.0.3.2").status_code == 200


def test_registrations_are_limited_per_address(settings) -> None:
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
