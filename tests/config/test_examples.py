"""The request examples of the schema snapshot (docs/openapi.yaml) are real requests: sent in
order to the API, each is answered with its operation's success status. (So far the
examples of signing up and in, the profile, series, tables, score-sheet entries and moves;
issue 15 extends this to every operation.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

import engine
from clubs.models import User
from tests.factories import UserFactory

SNAPSHOT = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(SNAPSHOT.read_text())
    return loaded


def examples(schema: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The documented request examples of one operation, by name."""
    body = schema["paths"][path][method]["requestBody"]["content"]["application/json"]
    found = {name: example["value"] for name, example in body["examples"].items()}
    assert found, f"{method} {path} documents no example"
    return found


def send(client: APIClient, method: str, path: str, body: Any, status: int) -> Any:
    answer = getattr(client, method)(path, body, format="json")
    assert answer.status_code == status, (method, path, body, answer.content)
    return answer.json()


def signed_in(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {AccessToken.for_user(user)}")
    return client


def test_the_account_and_table_examples_are_accepted(schema: dict[str, Any]) -> None:
    anonymous = APIClient()
    (register,) = examples(schema, "post", "/api/v1/auth/register/").values()
    send(anonymous, "post", "/api/v1/auth/register/", register, 201)
    (sign_in,) = examples(schema, "post", "/api/v1/auth/token/").values()
    assert sign_in["username"] == register["username"]
    send(anonymous, "post", "/api/v1/auth/token/", sign_in, 200)

    anna = User.objects.get(username=register["username"])
    client = signed_in(anna)
    for body in examples(schema, "patch", "/api/v1/me/").values():
        send(client, "patch", "/api/v1/me/", body, 200)
    for body in examples(schema, "post", "/api/v1/series/").values():
        send(client, "post", "/api/v1/series/", body, 201)

    tables = examples(schema, "post", "/api/v1/tables/")
    for body in tables.values():
        for seat in body["seats"]:
            if seat["kind"] == "user" and not User.objects.filter(username=seat["user"]).exists():
                UserFactory.create(username=seat["user"])
    made = {
        name: send(client, "post", "/api/v1/tables/", body, 201) for name, body in tables.items()
    }
    recorded = next(t for t in made.values() if t["mode"] == "recorded")
    hands = f"/api/v1/tables/{recorded['id']}/hands/"
    for body in examples(schema, "post", "/api/v1/tables/{table_id}/hands/").values():
        send(client, "post", hands, body, 201)
    for body in examples(schema, "put", "/api/v1/tables/{table_id}/hands/{number}/").values():
        send(client, "put", hands + "1/", body, 200)


def test_the_action_examples_are_actions_of_the_record_vocabulary(schema: dict[str, Any]) -> None:
    path = "/api/v1/tables/{table_id}/hands/{number}/actions/"
    for name, body in examples(schema, "post", path).items():
        action = engine.action_from_json({**body["action"], "seat": "anna"}, engine.PIQUET, name)
        assert engine.action_to_json(action, engine.PIQUET) == {**body["action"], "seat": "anna"}
        assert isinstance(body["expected_version"], int)
