"""Registration, JWT tokens and session login."""

import pytest
from rest_framework.test import APIClient

from clubs.models import User
from tests.factories import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db


def test_it_registers_a_player(api_client: APIClient) -> None:
    response = api_client.post(
        "/api/v1/auth/register/",
        {"username": "zoe", "password": "a-long-pass-99", "display_name": "Zoë"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["username"] == "zoe"
    assert body["display_name"] == "Zoë"
    assert "password" not in body
    assert User.objects.get(username="zoe").check_password("a-long-pass-99")


def test_it_rejects_a_weak_password(api_client: APIClient) -> None:
    response = api_client.post(
        "/api/v1/auth/register/", {"username": "zoe", "password": "123"}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation_error"
    assert body["fields"]["password"]
    assert not User.objects.filter(username="zoe").exists()


def test_it_rejects_a_taken_username_case_insensitively(api_client: APIClient, user: User) -> None:
    response = api_client.post(
        "/api/v1/auth/register/",
        {"username": user.username.upper(), "password": "a-long-pass-99"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["fields"]["username"] == ["This username is taken."]


def test_it_issues_and_refreshes_tokens(api_client: APIClient, user: User) -> None:
    response = api_client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
        format="json",
    )
    assert response.status_code == 200
    tokens = response.json()

    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['access']}")
    me = api_client.get("/api/v1/me/")
    assert me.status_code == 200
    assert me.json()["username"] == user.username

    refreshed = APIClient().post(
        "/api/v1/auth/token/refresh/", {"refresh": tokens["refresh"]}, format="json"
    )
    assert refreshed.status_code == 200
    assert refreshed.json()["access"]


def test_it_rejects_a_wrong_password(api_client: APIClient, user: User) -> None:
    response = api_client.post(
        "/api/v1/auth/token/", {"username": user.username, "password": "wrong"}, format="json"
    )
    assert response.status_code == 401
    assert response.json()["code"] == "no_active_account"


def test_session_login_works_for_the_browsable_api(api_client: APIClient, user: User) -> None:
    assert api_client.login(username=user.username, password=DEFAULT_PASSWORD)
    assert api_client.get("/api/v1/me/").status_code == 200
    page = api_client.get("/api/v1/auth/session/login/")
    assert page.status_code == 200
