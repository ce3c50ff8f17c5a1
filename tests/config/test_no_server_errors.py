"""No path of the API answers 5xx, whatever comes in, and every refusal is a JSON error
with a ``code`` and a ``message``. Every operation of the schema (generated here, so it is
never stale) is called

- with each path parameter at 1, at the largest value a route accepts and beyond it, and
  with OPTIONS, anonymously and signed in;
- with hostile input, on a small world whose ids fill the path parameters: a JSON body
  nested 5,000 deep (anonymously to every write, signed in to every write with a body), the
  operation's example body with one number at a time (every integer or number field of the
  body) at 2^31, 2^63, -2^63 and ``1e400``, the example with NUL bytes in its text, every
  query parameter at those numbers and with a NUL, and a NUL in a text path parameter.

(A first line of defence; the full fuzzing of issue 10 runs Schemathesis against the
schema.)"""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import Membership
from clubs.services import evenings, people, seasons
from games import services as games
from games.models import Table
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.openapi import generated_schema
from tests.tournaments.world import build_tournament_world

pytestmark = pytest.mark.django_db

STRINGS = {"code": "x", "token": "x", "delivery_id": str(uuid.uuid4())}
VALUES = ("1", "999999999", "999999999999999999", "99999999999999999999")
PARAM = re.compile(r"\{([a-z_]+)\}")


def schema_operations() -> list[tuple[str, str]]:
    schema = generated_schema()
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


# ---------------------------------------------------------------------------------------------
# hostile input

BOMB = "[" * 5000 + "]" * 5000
#: JSON number literals out of every column's range (``1e400`` is infinity to Python).
OUT_OF_RANGE = ("2147483648", "9223372036854775808", "-9223372036854775808", "1e400")
NUL = "a\x00b"
HOLE = "__out_of_range__"
RATES = ("LOGIN_RATE_PER_IP", "REGISTER_RATE_PER_IP", "USER_WRITE_RATE", "ANON_RATE_PER_IP")
RULES = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}


def schema() -> dict[str, Any]:
    return generated_schema()


def resolve(spec: dict[str, Any], node: Any) -> dict[str, Any]:
    while isinstance(node, dict) and "$ref" in node:
        node = spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node if isinstance(node, dict) else {}


def is_number(spec: dict[str, Any], node: Any) -> bool:
    node = resolve(spec, node)
    kinds = [node, *(resolve(spec, n) for n in node.get("anyOf", []) + node.get("oneOf", []))]
    return any(k.get("type") in ("integer", "number") for k in kinds)


def example_body(operation: dict[str, Any]) -> Any:
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    for example in content.get("examples", {}).values():
        return example.get("value")
    return {}


def number_fields(spec: dict[str, Any], operation: dict[str, Any], body: Any) -> list[str]:
    """The body's top-level fields that take a number (in the schema or in the example)."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    node = resolve(spec, content.get("schema", {}))
    names = {n for n, prop in node.get("properties", {}).items() if is_number(spec, prop)}
    if isinstance(body, dict):
        names |= {
            n for n, v in body.items() if isinstance(v, (int, float)) and not isinstance(v, bool)
        }
    return sorted(names)


def with_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value + NUL
    if isinstance(value, dict):
        return {k: with_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [with_nul(v) for v in value]
    return value


def small_world() -> tuple[APIClient, dict[str, str]]:
    """A club owner who runs a tournament being played, sits at a recorded table, and has an
    evening, a season, an invitation and a calendar feed; their client and the ids of it
    all by path parameter name."""
    w = build_tournament_world(state="playing")
    boss = w.users["club_admin"]
    Membership.objects.filter(club=w.club, user=boss).update(role=Membership.Role.OWNER)
    others = [UserFactory.create(username=name) for name in ("bert", "carl")]
    seats = [games.SeatSpec(key=user.username, kind="user", user=user) for user in (boss, *others)]
    table = games.table_create(
        user=boss, name="Dienstag", mode=Table.Mode.RECORDED, rules=RULES, seats=seats,
        first_dealer="carl",
    )  # fmt: skip
    starts = timezone.now() + dt.timedelta(days=3)
    evening = w.club.evenings.create(
        title="Clubabend", starts_at=starts, ends_at=starts + dt.timedelta(hours=4)
    )
    attendance = evenings.attendance_answer(user=boss, evening_id=evening.pk, answer="yes")
    today = timezone.localdate()
    season = seasons.season_create(
        user=boss, club=w.club, name="Saison", is_active=True,
        starts_on=today - dt.timedelta(days=30), ends_on=today + dt.timedelta(days=60),
    )  # fmt: skip
    invitation = people.invitation_create(club_id=w.club.pk, user=boss)
    feed = evenings.calendar_feed_create(user=boss)
    ids = {
        "club_id": w.club.pk, "evening_id": evening.pk, "attendance_id": attendance.pk,
        "season_id": season.pk, "series_id": table.series_id, "invitation_id": invitation.pk,
        "code": invitation.code, "token": feed.token, "feed_id": feed.pk,
        "user_id": w.users["player"].pk, "table_id": table.pk, "number": 1,
        "tournament_id": w.tournament.pk, "entry_id": w.entry.pk, "round_number": 1,
        "table_number": 1, "webhook_id": w.extra["webhook"], "delivery_id": uuid.uuid4(),
    }  # fmt: skip
    return client_for(boss), {name: str(value) for name, value in ids.items()}


def send(client: APIClient, method: str, path: str, body: str | None = None, **query: str) -> Any:
    client.raise_request_exception = False
    if body is None:
        return getattr(client, method)(path, query or None)
    if query:
        path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return client.generic(method.upper(), path, body, content_type="application/json")


def problems(answer: Any, label: str) -> list[str]:
    """What is wrong with an answer to hostile input: a 5xx, or a 4xx that is not JSON with a
    code and a message."""
    if answer.status_code >= 500:
        return [f"{label}: {answer.status_code}"]
    if answer.status_code >= 400:
        try:
            body = json.loads(answer.content)
        except ValueError:
            return [f"{label}: {answer.status_code} is not JSON: {answer.content[:80]!r}"]
        if not (isinstance(body, dict) and body.get("code") and body.get("message")):
            return [f"{label}: {answer.status_code} without code and message: {body}"]
    return []


def test_no_operation_answers_5xx_to_nesting_bombs_out_of_range_numbers_or_nul_bytes(
    settings: Any, django_user_model: Any
) -> None:
    for name in RATES:
        setattr(settings, name, "1000000/min")
    spec = schema()
    signed_in, ids = small_world()
    anonymous = client_for(None)
    failures: list[str] = []
    for template, operations in sorted(spec["paths"].items()):
        path = PARAM.sub(lambda m: ids.get(m.group(1), "1"), template)
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            label = f"{method.upper()} {template}"
            texts = [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]
            for name in texts:
                if name in ("code", "token"):
                    bad = template.replace("{" + name + "}", NUL)
                    bad = PARAM.sub(lambda m: ids.get(m.group(1), "1"), bad)
                    failures += problems(send(signed_in, method, bad), f"{label} NUL {name}")
            query = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
            if method == "get":
                for value in (*OUT_OF_RANGE, NUL):
                    answer = send(signed_in, method, path, **dict.fromkeys(query, value))
                    failures += problems(answer, f"{label} ?={value!r}")
                continue
            failures += problems(send(anonymous, method, path, BOMB), f"{label} anonymous bomb")
            if "requestBody" not in operation:
                continue
            failures += problems(send(signed_in, method, path, BOMB), f"{label} bomb")
            body = example_body(operation)
            failures += problems(
                send(signed_in, method, path, json.dumps(with_nul(body))), f"{label} NUL body"
            )
            if not isinstance(body, dict):
                continue
            for field in number_fields(spec, operation, body):
                text = json.dumps({**body, field: HOLE})
                for value in OUT_OF_RANGE:
                    answer = send(signed_in, method, path, text.replace(f'"{HOLE}"', value))
                    failures += problems(answer, f"{label} {field}={value}")
    assert not failures, "\n".join(failures[:60])
