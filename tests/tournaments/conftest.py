"""Fixtures for the tournament tests."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Tournaments need hundreds of accounts; hashing their passwords properly is not under
    test here (tests/clubs/test_auth.py covers logging in)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_public_polls(settings: Any) -> None:
    """Public polls read the tournament every time (tests change it between requests);
    tests/tournaments/test_lifecycle_api.py checks the cache on its own."""
    settings.PUBLIC_POLL_CACHE_SECONDS = 0
