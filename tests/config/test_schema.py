"""The OpenAPI schema validates without warnings and the docs pages are served."""

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from drf_spectacular.generators import SchemaGenerator


def test_the_schema_validates_without_warnings(tmp_path: object) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


@pytest.mark.django_db
def test_the_schema_is_served_and_documents_the_error_shape(client: Client) -> None:
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert "Error" in schema["components"]["schemas"]
    me = schema["paths"]["/api/v1/me/"]["get"]["responses"]
    for code in ("401", "403", "404"):
        assert me[code]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")


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


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (method, path, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def test_every_operation_has_a_summary_named_path_parameters_and_json_bodies_only() -> None:
    """What generated clients rely on (STYLE.md, API): no bare ``{id}``, JSON request bodies
    only, a summary on every operation."""
    for method, path, operation in _operations():
        where = f"{method.upper()} {path}"
        assert "{id}" not in path, f"{where}: name the path parameter ({{table_id}}, …)"
        assert operation.get("summary"), f"{where}: no summary"
        media = set(operation.get("requestBody", {}).get("content", {}))
        assert media <= {"application/json"}, f"{where}: documents {sorted(media)}"


@pytest.mark.django_db
def test_a_form_body_is_refused_with_a_clear_415(client: Client) -> None:
    answer = client.post("/api/v1/auth/register/", {"username": "x", "password": "y"})
    assert answer.status_code == 415
    assert answer.json()["code"] == "unsupported_media_type"
