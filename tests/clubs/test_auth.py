"""Registration, JWT tokens (refreshed once each, revocable) and session login."""

import datetime as dt

import pytest
from rest_framework.response import Response
from rest_framework.test import APIClient
from rest_framework_simplejwt.backends import TokenBackend
from rest_framework_simplejwt.tokens import AccessToken, RefreshToken

from clubs.models import User
from tests.factories import DEFAULT_PASSWORD, UserFactory

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


# ---------------------------------------------------------------------------------------------
# refresh tokens: used once, revocable


def sign_in(user: User) -> dict[str, str]:
    response = APIClient().post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
        format="json",
    )
    assert response.status_code == 200, response.json()
    tokens: dict[str, str] = response.json()
    return tokens


def refresh(token: str) -> Response:
    return APIClient().post("/api/v1/auth/token/refresh/", {"refresh": token}, format="json")


def test_it_refuses_a_refresh_token_used_once_already(user: User) -> None:
    tokens = sign_in(user)
    first = refresh(tokens["refresh"])
    assert first.status_code == 200
    rotated = first.json()
    assert rotated["access"] and rotated["refresh"] != tokens["refresh"]

    reused = refresh(tokens["refresh"])

    assert reused.status_code == 401
    assert reused.json()["code"] == "token_not_valid"
    # the new one works, once
    assert refresh(rotated["refresh"]).status_code == 200
    assert refresh(rotated["refresh"]).status_code == 401


def test_it_refuses_a_refresh_token_after_signing_out(user: User) -> None:
    tokens = sign_in(user)
    other_device = sign_in(user)

    signed_out = APIClient().post(
        "/api/v1/auth/token/revoke/", {"refresh": tokens["refresh"]}, format="json"
    )

    assert signed_out.status_code == 204
    assert refresh(tokens["refresh"]).status_code == 401
    assert refresh(other_device["refresh"]).status_code == 200
    again = APIClient().post(
        "/api/v1/auth/token/revoke/", {"refresh": tokens["refresh"]}, format="json"
    )
    assert again.status_code == 204


def test_it_refuses_to_revoke_what_is_not_a_refresh_token(user: User) -> None:
    tokens = sign_in(user)
    for junk in (tokens["access"], "not-a-token"):
        refused = APIClient().post("/api/v1/auth/token/revoke/", {"refresh": junk}, format="json")
        assert refused.status_code == 401
        assert refused.json()["code"] == "token_not_valid"


def test_it_refuses_every_refresh_token_after_signing_out_everywhere(user: User) -> None:
    phone, tablet = sign_in(user), sign_in(user)
    other = UserFactory(username="other")
    others = sign_in(other)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {phone['access']}")

    answer = client.post("/api/v1/auth/token/revoke-all/")

    assert answer.status_code == 200
    assert answer.json() == {"revoked": 2}
    assert refresh(phone["refresh"]).status_code == 401
    assert refresh(tablet["refresh"]).status_code == 401
    assert refresh(others["refresh"]).status_code == 200
    assert APIClient().post("/api/v1/auth/token/revoke-all/").status_code == 401


def test_a_signed_in_request_decodes_its_access_token_once(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request limits check the access token (a signed-in caller skips the anonymous
    limit); authentication takes the token they checked instead of decoding it again. A
    refresh token sent as the access token is still refused, and an expired one."""
    decoded: list[object] = []
    decode = TokenBackend.decode

    def counted(self: TokenBackend, token: object, verify: bool = True) -> object:
        decoded.append(token)
        return decode(self, token, verify)  # type: ignore[arg-type]

    monkeypatch.setattr(TokenBackend, "decode", counted)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {AccessToken.for_user(user)}")
    assert client.get("/api/v1/me/").json()["username"] == user.username
    assert len(decoded) == 1

    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user)}")
    assert client.get("/api/v1/me/").json()["code"] == "token_not_valid"
    expired = AccessToken.for_user(user)
    expired.set_exp(lifetime=-dt.timedelta(seconds=1))
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {expired}")
    assert client.get("/api/v1/me/").json()["code"] == "token_not_valid"
