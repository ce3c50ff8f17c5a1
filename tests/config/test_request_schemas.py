"""Request bodies as generated clients send them: no ``default`` the server applies anyway
(openapi-python-client sends an optional field whenever the schema gives it a default), a
seat written with the id it reads back, and a self check-in without a body."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.openapi import generated_schema

CHECK_IN = "/api/v1/clubs/{club_id}/evenings/{evening_id}/check-ins/"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return generated_schema()


def defaults(node: Any, where: str) -> Iterator[str]:
    """Where a property below ``node`` documents a default."""
    if isinstance(node, dict):
        for name, value in node.get("properties", {}).items():
            if isinstance(value, dict) and "default" in value:
                yield f"{where}.{name}"
        for key, value in node.items():
            yield from defaults(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from defaults(value, f"{where}[{i}]")


def test_no_request_body_documents_a_default(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    found = [
        where
        for name, component in components.items()
        if name.endswith("Request")
        for where in defaults(component, name)
    ]
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            body = operation.get("requestBody", {}) if isinstance(operation, dict) else {}
            found += defaults(body, f"{method} {path}")
    assert found == []


@pytest.mark.parametrize(
    ("component", "field", "said"),
    [
        ("EntryInputRequest", "checked_in", "Omitted: true."),
        ("InvitationCreateRequest", "expires_in_days", "Omitted: 14."),
        ("TableCreateRequest", "is_public", "Omitted: false."),
    ],
)
def test_a_request_field_says_what_omitting_it_means(
    schema: dict[str, Any], component: str, field: str, said: str
) -> None:
    properties = schema["components"]["schemas"][component]["properties"]
    assert properties[field]["description"].endswith(said)


def test_a_patch_field_does_not_say_it_takes_a_value_when_omitted(schema: dict[str, Any]) -> None:
    """On a PATCH an omitted field stays as it is."""
    place = schema["components"]["schemas"]["PatchedEveningInputRequest"]["properties"]["place"]
    assert "default" not in place and "Omitted" not in place.get("description", "")


def test_a_user_seat_is_written_with_the_integer_id_a_seat_reads_back(
    schema: dict[str, Any],
) -> None:
    components = schema["components"]["schemas"]
    written = components["UserSeatRequest"]["properties"]["user"]
    read = components["Seat"]["properties"]["user"]
    assert written["type"] == read["type"] == "integer"
    assert set(components["UserSeatRequest"]["properties"]) <= set(components["Seat"]["properties"])
    for form in ("GuestSeatRequest", "BotSeatRequest"):
        assert set(components[form]["properties"]) <= set(components["Seat"]["properties"])


def test_a_check_in_is_written_with_the_ids_an_attendance_reads_back(
    schema: dict[str, Any],
) -> None:
    components = schema["components"]["schemas"]
    read = components["Attendance"]["properties"]
    for field in ("user_id", "guest_id"):
        assert components["CheckInRequest"]["properties"][field]["type"] == "integer"
        assert read[field]["type"] == "integer"


def test_the_self_check_in_documents_an_optional_body_of_one_object(
    schema: dict[str, Any],
) -> None:
    """openapi-python-client 0.29 cannot leave out an optional ``oneOf`` body: one object."""
    body = schema["paths"][CHECK_IN]["post"]["requestBody"]
    assert not body.get("required", False)
    reference = body["content"]["application/json"]["schema"]["$ref"]
    component = schema["components"]["schemas"][reference.rsplit("/", 1)[1]]
    assert component["type"] == "object" and "oneOf" not in component
    assert set(component["properties"]) == {"user_id", "guest_id", "guest_name"}
    assert not component.get("required")
