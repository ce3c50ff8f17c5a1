"""Helpers the API tests of every app share."""

from __future__ import annotations

from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from clubs.models import User


def client_for(user: User | None) -> APIClient:
    """An APIClient that sends ``user``'s access token, as an app does (anonymous for None)."""
    client = APIClient()
    if user is not None:
        token = RefreshToken.for_user(user).access_token
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client
