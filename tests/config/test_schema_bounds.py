"""The schema states the bounds the server enforces, so generated clients and fuzzers know
them: capacities, rounds and deals with a maximum that fits their columns, ids within 64
bits, the Idempotency-Key's length, a member's role required on PATCH, and the webhook
secret rotation documented with its answers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.openapi import generated_schema

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generated_schema()


def request_schema(spec: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    body = spec["paths"]["/api/v1" + path][method]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"]
    return spec["components"]["schemas"][ref.rsplit("/", 1)[-1]]


@pytest.mark.parametrize(
    ("method", "path", "field", "maximum"),
    [
        ("post", "/tournaments/", "rounds_planned", 50),
        ("patch", "/tournaments/{tournament_id}/", "rounds_planned", 50),
        ("post", "/tournaments/", "club", 2**63 - 1),
        ("post", "/clubs/{club_id}/evenings/", "capacity", 1_000),
        ("patch", "/clubs/{club_id}/evenings/{evening_id}/", "capacity", 1_000),
        ("post", "/clubs/{club_id}/evening-series/", "capacity", 1_000),
        ("patch", "/clubs/{club_id}/evening-series/{series_id}/", "capacity", 1_000),
        ("post", "/clubs/{club_id}/transfer-ownership/", "user_id", 2**63 - 1),
    ],
)
def test_it_documents_the_maximum_of_each_bounded_number(
    spec: dict[str, Any], method: str, path: str, field: str, maximum: int
) -> None:
    prop = request_schema(spec, method, path)["properties"][field]
    assert prop.get("maximum") == maximum, prop
    assert prop.get("minimum") == 1, prop


@pytest.mark.parametrize("method", ["post", "patch"])
def test_it_documents_the_format_bounds_the_service_enforces(
    spec: dict[str, Any], method: str
) -> None:
    """A tournament seats at least 3 (up to 10,000); a round has 1 to 96 deals at each table
    (tournaments.services.tournaments), and no fixed multiple: which numbers let each seat deal
    equally often depends on the rule set (``RuleSet.deal_cycle``), which the service checks."""
    path = "/tournaments/" if method == "post" else "/tournaments/{tournament_id}/"
    fields = request_schema(spec, method, path)["properties"]
    assert (fields["capacity"]["minimum"], fields["capacity"]["maximum"]) == (3, 10_000)
    deals = fields["deals_per_round"]
    assert (deals["minimum"], deals["maximum"]) == (1, 96)
    assert "multipleOf" not in deals


def test_it_documents_the_idempotency_key_length(spec: dict[str, Any]) -> None:
    operations = [
        op for ops in spec["paths"].values() for op in ops.values() if isinstance(op, dict)
    ]
    keys = [
        p["schema"]
        for op in operations
        for p in op.get("parameters", [])
        if p["name"] == "Idempotency-Key"
    ]
    assert keys
    assert all(k.get("maxLength") == 200 and k.get("minLength") == 1 for k in keys), keys


def test_it_marks_a_members_role_required_on_patch(spec: dict[str, Any]) -> None:
    schema = request_schema(spec, "patch", "/clubs/{club_id}/members/{user_id}/")
    assert schema.get("required") == ["role"], schema


def test_it_documents_rotating_a_webhook_secret(spec: dict[str, Any]) -> None:
    path = "/api/v1/tournaments/{tournament_id}/webhooks/{webhook_id}/rotate-secret/"
    operation = spec["paths"][path]["post"]
    assert operation["operationId"] == "webhooks_rotate_secret"
    assert {"200", "401", "403", "404"} <= set(operation["responses"])
    answer = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    shape = spec["components"]["schemas"][answer.rsplit("/", 1)[-1]]
    assert {"secret", "previous_secret_expires_at"} <= set(shape["properties"])
