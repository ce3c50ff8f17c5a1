"""Every 4xx shares one shape: {"code", "message", "fields"}."""

import json
import sqlite3
from pathlib import Path

import pytest
from django.core.handlers.exception import response_for_exception
from django.db import OperationalError, connection
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from clubs.models import User
from config.api.errors import DomainError, exception_handler
from games.errors import NotYourTurn, RuleViolation, StaleVersion

pytestmark = pytest.mark.django_db


def assert_error_shape(body: dict, code: str) -> None:
    assert set(body) == {"code", "message", "fields"}
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]


def test_it_reports_validation_errors_per_field(api_client: APIClient) -> None:
    response = api_client.post("/api/v1/auth/register/", {"password": "x"}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert_error_shape(body, "validation_error")
    assert body["fields"]["username"] == ["This field is required."]
    assert "username" in body["message"]


def test_it_requires_authentication(api_client: APIClient) -> None:
    response = api_client.get("/api/v1/me/")
    assert response.status_code == 401
    assert_error_shape(response.json(), "not_authenticated")


def test_it_rejects_an_invalid_token(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    response = api_client.get("/api/v1/me/")
    assert response.status_code == 401
    assert_error_shape(response.json(), "token_not_valid")


def test_it_answers_a_missing_object_with_not_found(auth_client: APIClient) -> None:
    response = auth_client.get("/api/v1/pings/999999/")
    assert response.status_code == 404
    assert_error_shape(response.json(), "not_found")


@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_it_answers_an_unknown_api_route_with_json_not_found(client: Client, method: str) -> None:
    response = getattr(client, method)("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert_error_shape(response.json(), "not_found")


def test_it_suggests_the_trailing_slash(client: Client) -> None:
    response = client.post("/api/v1/pings")
    assert response.status_code == 404
    assert response.json()["message"].endswith("did you mean /api/v1/pings/?")


def test_it_answers_an_unknown_api_root_path_with_json_not_found(client: Client) -> None:
    response = client.get("/api/v2/")
    assert response.status_code == 404
    assert_error_shape(response.json(), "not_found")


def test_it_rejects_an_unsupported_method(auth_client: APIClient) -> None:
    response = auth_client.put("/api/v1/me/", {}, format="json")
    assert response.status_code == 405
    assert_error_shape(response.json(), "method_not_allowed")


def test_it_rejects_malformed_json(api_client: APIClient) -> None:
    response = api_client.generic(
        "POST", "/api/v1/auth/register/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert_error_shape(response.json(), "parse_error")


def test_it_rejects_nul_characters_anywhere_in_a_body(auth_client: APIClient) -> None:
    """PostgreSQL cannot store NUL in text: a username looked up with one failed there (500,
    found by Schemathesis); every body with one is a 400 now, before any lookup."""
    seats = [{"key": k, "kind": "user", "user": "anna\u0000"} for k in ("a", "b", "c")]
    body = {"name": "T", "mode": "recorded", "rules": {"variant": "wien"}, "seats": seats}
    response = auth_client.post("/api/v1/tables/", body, format="json")
    assert response.status_code == 400
    assert_error_shape(response.json(), "parse_error")
    assert "NUL" in response.json()["message"]


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (RuleViolation(), 400, "rule_violation"),
        (NotYourTurn(), 403, "not_your_turn"),
        (StaleVersion(), 409, "stale_version"),
        (DomainError("Bad seat.", fields={"seat": ["Out of range."]}), 400, "domain_error"),
    ],
)
def test_it_maps_domain_errors(error: DomainError, status: int, code: str) -> None:
    response = exception_handler(error, {})
    assert response is not None
    assert response.status_code == status
    assert_error_shape(response.data, code)


def test_domain_error_keeps_its_fields() -> None:
    response = exception_handler(DomainError("Bad seat.", fields={"seat": ["Out."]}), {})
    assert response is not None
    assert response.data == {
        "code": "domain_error",
        "message": "Bad seat.",
        "fields": {"seat": ["Out."]},
    }


def test_it_answers_a_server_error_under_api_with_json(client: Client, user: User) -> None:
    from config.api.views import handler500

    request = client.get("/healthz").wsgi_request
    request.path = "/api/v1/boom/"
    response = handler500(request)
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's lock")
@pytest.mark.parametrize("path", ["/api/v1/clubs/", "/admin/"])
def test_a_locked_database_reaching_djangos_500_handling_answers_503(
    tmp_path: Path, rf: RequestFactory, path: str
) -> None:
    """A write that waited out the busy timeout raised where no view's handling reaches it (a
    middleware) comes to Django's 500 handling: the answer is still 503 with Retry-After."""
    holder = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    writer = sqlite3.connect(tmp_path / "db.sqlite3", timeout=0.01, isolation_level=None)
    try:
        holder.execute("CREATE TABLE t (x INTEGER)")
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(OperationalError) as raised, connection.wrap_database_errors:
            writer.execute("INSERT INTO t VALUES (1)")
        try:
            raise raised.value
        except OperationalError as e:
            response = response_for_exception(rf.post(path), e)
    finally:
        holder.close()
        writer.close()
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = json.loads(response.content)
    assert_error_shape(body, "service_unavailable")
    assert "busy" in body["message"]
