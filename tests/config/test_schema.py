"""The OpenAPI schema validates without warnings and the docs pages are served."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.validation import validate_schema

from tests.openapi import committed_schema, generated_schema, generating_warned

PROJECT_DIR = Path(__file__).resolve().parents[2]


def test_the_schema_validates_without_warnings() -> None:
    """What ``manage.py spectacular --validate --fail-on-warn`` checks (``make lint``), on
    the schema generated once for the tests: no warning or error while generating it, and it
    validates against the OpenAPI specification."""
    assert not generating_warned(), "run `manage.py spectacular --validate` for the warnings"
    validate_schema(generated_schema())


def test_the_committed_snapshot_is_the_schema_of_this_code(tmp_path: Path) -> None:
    """docs/openapi.yaml is what client makers read and the linter checks: `make schema`
    writes it, and a change to the API commits it with the change. Generated here as `make
    schema` does, in a process of its own with the project's settings: the test settings
    register a test-only rule set (``tests/trickgame``), which the schema generated in the
    test process documents and the committed one must not."""
    out = tmp_path / "openapi.yaml"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "API_PUBLIC_URL": "http://127.0.0.1:8000",  # as `make schema` writes it
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--file", str(out)],
        cwd=PROJECT_DIR, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    committed = PROJECT_DIR / "docs" / "openapi.yaml"
    assert out.read_text() == committed.read_text(), (
        "run `make schema` and commit docs/openapi.yaml"
    )


def test_the_test_process_documents_the_test_only_rule_set_and_the_snapshot_does_not() -> None:
    """The schema generated in the test process (what the strict check and the answers'
    checks read) documents the test-only rule set; the committed snapshot never names it."""
    assert {"TrickgameRules", "TrickgameAction"} <= set(generated_schema()["components"]["schemas"])
    assert "trickgame" not in json.dumps(committed_schema()).lower()


@pytest.mark.django_db
def test_the_schema_is_served_and_documents_the_error_shape(client: Client) -> None:
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert "ApiError" in schema["components"]["schemas"]
    me = schema["paths"]["/api/v1/me/"]["get"]["responses"]
    for code in ("401", "403", "404"):
        assert me[code]["content"]["application/json"]["schema"]["$ref"].endswith("/ApiError")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "asset"),
    [("/api/v1/docs/", "drf_spectacular_sidecar/swagger-ui-dist"),
     ("/api/v1/redoc/", "drf_spectacular_sidecar/redoc")],
)  # fmt: skip
def test_the_docs_pages_are_served_with_local_assets(client: Client, path: str, asset: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert asset in html
    assert not re.search(r"https://cdn\.", html)


@pytest.mark.django_db
def test_the_swagger_ui_asset_is_served(client: Client) -> None:
    response = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css")
    try:
        assert response.status_code == 200
    finally:
        response.close()


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def test_every_operation_has_a_summary_a_description_named_parameters_and_json_bodies() -> None:
    """What generated clients rely on (STYLE.md, API): no bare ``{id}``, JSON request bodies
    only, a summary on every operation."""
    for method, path, operation in _operations(generated_schema()):
        where = f"{method.upper()} {path}"
        assert "{id}" not in path, f"{where}: name the path parameter ({{table_id}}, …)"
        assert operation.get("summary"), f"{where}: no summary"
        assert operation.get("description"), f"{where}: no description"
        media = set(operation.get("requestBody", {}).get("content", {}))
        assert media <= {"application/json"}, f"{where}: documents {sorted(media)}"


def test_public_operations_take_the_default_and_the_others_list_the_token() -> None:
    """The root ``security`` is "a token or nothing"; an operation anyone may call lists
    none of its own (generators then let it be called without a token), every other one
    lists the token and the session cookie, never ``{}``."""
    schema = generated_schema()
    assert schema["security"] == [{"jwtAuth": []}, {"cookieAuth": []}, {}]
    paths = schema["paths"]
    for path in ("/api/v1/auth/register/", "/api/v1/auth/token/", "/api/v1/auth/token/refresh/"):
        assert "security" not in paths[path]["post"], path
    assert "security" not in paths["/api/v1/tournaments/{tournament_id}/standings/"]["get"]
    for method, path, operation in _operations(schema):
        if "security" in operation:
            assert operation["security"] == [{"jwtAuth": []}, {"cookieAuth": []}], (method, path)


def test_the_schema_names_an_ascii_title_a_version_and_its_server(settings: Any) -> None:
    info = generated_schema()
    assert info["info"]["title"].isascii() and info["info"]["version"]
    assert info["info"]["contact"] == settings.API_CONTACT and info["info"]["contact"]["url"]
    assert info["servers"] == [
        {"url": settings.API_PUBLIC_URL, "description": "This deployment (API_PUBLIC_URL)"}
    ]


def test_dealing_a_hosted_hand_needs_no_body_and_recording_documents_the_entry() -> None:
    paths = generated_schema()["paths"]
    body = paths["/api/v1/tables/{table_id}/hands/"]["post"]["requestBody"]
    assert "required" not in body  # a hosted table deals with POST and no body
    assert set(body["content"]) == {"application/json"}


@pytest.mark.django_db
def test_a_hosted_hand_is_dealt_by_a_post_without_a_body(client: Client) -> None:
    from rest_framework_simplejwt.tokens import AccessToken

    from games import services
    from games.models import Table
    from tests.factories import UserFactory

    users = [UserFactory.create() for _ in range(3)]
    table = services.table_create(
        user=users[0],
        name="t",
        mode=Table.Mode.HOSTED,
        rules={"variant": "wien", "dealer_contribution": 100, "pot_cap": 300},
        seats=[services.SeatSpec(key=u.username, kind="user", user=u) for u in users],
        first_dealer=users[2].username,
    )
    answer = client.generic(  # no body and no Content-Type, as a generated client sends it
        "POST",
        f"/api/v1/tables/{table.pk}/hands/",
        content_type="",
        HTTP_AUTHORIZATION=f"Bearer {AccessToken.for_user(users[0])}",
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["number"] == 1


@pytest.mark.django_db
def test_a_form_body_is_refused_with_a_clear_415(client: Client) -> None:
    answer = client.post("/api/v1/auth/register/", {"username": "x", "password": "y"})
    assert answer.status_code == 415
    assert answer.json()["code"] == "unsupported_media_type"


def test_every_operation_has_a_unique_snake_case_name_and_one_described_tag() -> None:
    """Generators turn operationIds into function names and tags into modules or classes
    (config/api/operations.py)."""
    schema = generated_schema()
    described = {tag["name"] for tag in schema["tags"] if tag.get("description")}
    names = [operation["operationId"] for _, _, operation in _operations(schema)]
    assert len(names) == len(set(names))
    for method, path, operation in _operations(schema):
        where = f"{method.upper()} {path}"
        assert re.fullmatch(r"[a-z]+(_[a-z]+)+", operation["operationId"]), where
        assert len(operation["tags"]) == 1 and operation["tags"][0] in described, where


def test_an_operation_missing_from_the_names_stops_the_schema() -> None:
    from config.api.schema import name_operations

    with pytest.raises(LookupError, match="GET /api/v1/new/ has no name"):
        name_operations({"paths": {"/api/v1/new/": {"get": {}}}})


def test_released_operations_keep_their_names_and_tags_within_a_version() -> None:
    """A renamed operationId or tag renames the generated function or module: a breaking
    change for clients that openapi-diff does not see, so it needs a new API version."""
    released = committed_schema("openapi-released.yaml")
    current = committed_schema()
    if released["info"]["version"] != current["info"]["version"]:
        return  # a new version may rename; docs/api-changelog.md says what
    for path, operations in released["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            now = current["paths"].get(path, {}).get(method)
            where = f"{method.upper()} {path}"
            assert now is not None, f"{where} was released and is gone"
            assert now["operationId"] == operation["operationId"], where
            assert now["tags"] == operation["tags"], where
