"""No path of the API answers 5xx to ids and numbers out of range or to OPTIONS: every
operation of the schema is called with each path parameter at 1, at the largest value a route
accepts and beyond it, anonymously and signed in. (A first line of defence; the full fuzzing
of issue 10 runs Schemathesis against the schema.)"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.setup import client_for

pytestmark = pytest.mark.django_db

STRINGS = {"export_format": "csv", "code": "x", "token": "x", "delivery_id": str(uuid.uuid4())}
VALUES = ("1", "999999999", "999999999999999999", "99999999999999999999")
PARAM = re.compile(r"\{([a-z_]+)\}")


def schema_operations() -> list[tuple[str, str]]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (method, path)
        for path, operations in sorted(schema["paths"].items())
        for method in operations
        if method in ("get", "post", "put", "patch", "delete")
    ]


def call(client: APIClient, method: str, path: str) -> Any:
    client.raise_request_exception = False
    if method in ("post", "put", "patch"):
        return getattr(client, method)(path, {}, format="json")
    return getattr(client, method)(path)


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_no_operation_answers_5xx_to_out_of_range_ids_or_options(
    signed_in: bool, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user(username="prober", password="x" * 12)
    client = client_for(user if signed_in else None)
    failures = []
    for method, template in schema_operations():
        for value in VALUES:
            path = PARAM.sub(lambda m, v=value: STRINGS.get(m.group(1), v), template)
            for verb in {method, "options"}:
                answer = call(client, verb, path)
                if answer.status_code >= 500:
                    failures.append(f"{verb.upper()} {path}: {answer.status_code}")
    assert not failures, "\n".join(failures[:40])
