"""Fixtures of the live-updates tests: a real server per test on the transactional test
database, and tokens as the REST API issues them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rest_framework_simplejwt.tokens import AccessToken

from clubs.models import User
from tests.live.server import LiveServer, serve


@pytest.fixture
def live(transactional_db: None) -> Iterator[LiveServer]:
    """uvicorn serving config.asgi on a free port, for this test."""
    with serve() as server:
        yield server


def token_for(user: User) -> str:
    """An access token for ``user``, as ``POST /api/v1/auth/token/`` gives it."""
    return str(AccessToken.for_user(user))
