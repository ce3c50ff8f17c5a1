"""Fixtures for the tournament tests."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def fresh_public_polls(settings: Any) -> None:
    """Public polls read the tournament every time (tests change it between requests);
    tests/tournaments/test_lifecycle_api.py checks the cache on its own."""
    settings.PUBLIC_POLL_CACHE_SECONDS = 0
