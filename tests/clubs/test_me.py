"""The signed-in user's profile."""

import pytest
from rest_framework.test import APIClient

from clubs.models import User

pytestmark = pytest.mark.django_db


def test_it_shows_my_profile(auth_client: APIClient, user: User) -> None:
    body = auth_client.get("/api/v1/me/").json()
    assert body["id"] == user.pk
    assert body["display_name"] == user.display_name


def test_it_updates_my_display_name_and_email(auth_client: APIClient, user: User) -> None:
    response = auth_client.patch(
        "/api/v1/me/", {"display_name": "Ann K.", "email": "ann@example.org"}, format="json"
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert (user.display_name, user.email) == ("Ann K.", "ann@example.org")


def test_it_ignores_read_only_fields(auth_client: APIClient, user: User) -> None:
    auth_client.patch("/api/v1/me/", {"username": "other", "is_staff": True}, format="json")
    user.refresh_from_db()
    assert not user.is_staff
    assert user.username != "other"


def test_it_rejects_an_invalid_email(auth_client: APIClient) -> None:
    response = auth_client.patch("/api/v1/me/", {"email": "nope"}, format="json")
    assert response.status_code == 400
    assert "email" in response.json()["fields"]
