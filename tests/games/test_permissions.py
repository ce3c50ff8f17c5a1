"""The permission matrix: every endpoint of the API, every role, the status it must answer.

Roles: ``anonymous``; ``outsider`` (signed in, no member of the club, not seated); ``member``
of the club (no other role, not seated); ``seated`` (anna, who sits at every table; on
``actions`` the seat whose turn it is); ``club_admin`` of the table's club and ``director`` of
its tournament, neither seated. Tables are private unless a row says ``public``: a private
table does not exist for those who may not read it (404); the club's members read it;
writers are the seated players, club admins and directors; on a hosted hand only a seated
player acts; the world's tables belong to a club and a tournament round, so only the club's
admins and the directors close and reopen them (``tests/games/test_table_access.py`` has
every role on every kind of table). ``test_endpoint_coverage.py`` fails when a path of the OpenAPI
schema is missing here.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

import engine
from games import services
from games.models import Hand, Table, WorkerPing
from tests.factories import DEFAULT_PASSWORD
from tests.games.world import ENTRY, ROLES, World
from tests.worlds import fresh_copy, rows_by_world

pytestmark = pytest.mark.django_db

_names = itertools.count()


def new_table(w: World, role: str) -> dict[str, Any]:
    return {
        "name": f"table {next(_names)}",
        "mode": "recorded",
        "rules": {"variant": "wien", "dealer_contribution": 10, "pot_cap": None},
        "seats": [{"key": k, "kind": "guest", "guest_name": k} for k in ("x", "y", "z")],
        "first_dealer": "z",
    }


def to_act_action(w: World) -> dict[str, Any]:
    table = w.tables["hosted"]
    hand = table.hands.get(number=1)
    state = services.hand_state(table, hand)
    action = engine.action_to_json(engine.legal_actions(state)[0], engine.PIQUET, seat=False)
    return {"action": action, "expected_version": hand.version}


def pending_hand(w: World) -> None:
    table = w.tables["recorded"]
    Table.objects.filter(pk=table.pk).update(requires_confirmation=True)
    services.table_record_hand(table_id=table.pk, user=w.users["bert"], entry=ENTRY)


def closed(w: World) -> None:
    services.table_close(table_id=w.tables["recorded"].pk, user=w.users["club_admin"])


def hints_on(w: World) -> None:
    Table.objects.filter(pk=w.tables["hosted"].pk).update(hints=True)


def anna_ping(w: World) -> None:
    WorkerPing.objects.create(user=w.users["anna"], api_pid=1)


@dataclass(frozen=True)
class Row:
    """One endpoint: how to call it and the status per role (``public``: on public tables)."""

    method: str
    path: str
    expect: dict[str, int]
    body: Callable[[World, str], Any] | None = None
    setup: Callable[[World], None] | None = None
    public: bool = False

    @property
    def id(self) -> str:
        return f"{self.method} {self.path}{' public' if self.public else ''}"


R, H = "{recorded}", "{hosted}"
READ = {
    "anonymous": 404,
    "outsider": 404,
    "member": 200,
    "seated": 200,
    "club_admin": 200,
    "director": 200,
}
PUBLIC_READ = dict.fromkeys(ROLES, 200)
WRITE_OK = {**READ, "anonymous": 401, "member": 403}
PUBLIC_WRITE = {**WRITE_OK, "outsider": 403}
MANAGE = {**WRITE_OK, "seated": 403}
PUBLIC_MANAGE = {**MANAGE, "outsider": 403}
SIGNED_IN = {**dict.fromkeys(ROLES, 200), "anonymous": 401}
ANYONE = dict.fromkeys(ROLES, 200)
SEATED_ONLY = {**WRITE_OK, "club_admin": 403, "director": 403}


def with_status(base: dict[str, int], ok: int) -> dict[str, int]:
    return {role: ok if status == 200 else status for role, status in base.items()}


T = "/api/v1/tables/"
ROWS = [
    Row("get", T, ANYONE),
    Row("post", T, with_status(SIGNED_IN, 201), body=lambda w, r: new_table(w, r)),
    Row("get", T + R + "/", READ),
    Row("get", T + R + "/", PUBLIC_READ, public=True),
    Row("get", T + R + "/balances/", READ),
    Row("get", T + R + "/balances/", PUBLIC_READ, public=True),
    Row("get", T + R + "/settlement/", READ),
    Row("get", T + R + "/settlement/", PUBLIC_READ, public=True),
    Row("get", T + R + "/sheet/", READ),
    Row("get", T + R + "/sheet/", PUBLIC_READ, public=True),
    Row("get", T + R + "/sheet.csv", READ),
    Row("get", T + R + "/sheet.csv", PUBLIC_READ, public=True),
    Row("post", T + R + "/close/", MANAGE),
    Row("post", T + R + "/close/", PUBLIC_MANAGE, public=True),
    Row("post", T + R + "/reopen/", MANAGE, setup=closed),
    Row("post", T + R + "/reopen/", PUBLIC_MANAGE, setup=closed, public=True),
    Row("post", T + H + "/back/", SEATED_ONLY),
    Row("post", T + H + "/back/", {**SEATED_ONLY, "outsider": 403}, public=True),
    Row("get", T + R + "/ledger/", READ),
    Row("get", T + R + "/ledger/", PUBLIC_READ, public=True),
    Row("get", T + R + "/audit/", READ),
    Row("get", T + R + "/audit/", PUBLIC_READ, public=True),
    Row("get", T + R + "/hands/", READ),
    Row("get", T + H + "/hands/", PUBLIC_READ, public=True),
    Row("post", T + R + "/hands/", with_status(WRITE_OK, 201), body=lambda w, r: ENTRY),
    Row(
        "post",
        T + R + "/hands/",
        with_status(PUBLIC_WRITE, 201),
        body=lambda w, r: ENTRY,
        public=True,
    ),
    # a writer may deal, but hand 1 is still being played
    Row("post", T + H + "/hands/", with_status(WRITE_OK, 409)),
    Row("get", T + R + "/hands/1/", READ),
    Row("get", T + H + "/hands/1/", PUBLIC_READ, public=True),
    Row("put", T + R + "/hands/1/", WRITE_OK, body=lambda w, r: ENTRY),
    Row("put", T + R + "/hands/1/", PUBLIC_WRITE, body=lambda w, r: ENTRY, public=True),
    Row("delete", T + R + "/hands/1/", with_status(WRITE_OK, 204)),
    Row("delete", T + R + "/hands/1/", with_status(PUBLIC_WRITE, 204), public=True),
    # only a seated player other than the one who entered it confirms (bert entered hand 2)
    Row(
        "post",
        T + R + "/hands/2/confirm/",
        {**WRITE_OK, "club_admin": 403, "director": 403},
        setup=pending_hand,
    ),
    Row("get", T + H + "/hands/1/view/", READ),
    Row("get", T + H + "/hands/1/view/", PUBLIC_READ, public=True),
    Row("get", T + R + "/hands/1/view/", READ),
    # only the seat to act plays; organisers have no seat
    Row(
        "post",
        T + H + "/hands/1/actions/",
        {**WRITE_OK, "club_admin": 403, "director": 403},
        body=lambda w, r: to_act_action(w),
    ),
    Row(
        "post",
        T + H + "/hands/1/actions/",
        {**PUBLIC_WRITE, "club_admin": 403, "director": 403},
        body=lambda w, r: to_act_action(w),
        public=True,
    ),
    Row("get", T + R + "/hands/1/record/", READ),
    Row("get", T + R + "/hands/1/record/", PUBLIC_READ, public=True),
    # a hosted hand's record is secret until the end, for everyone who may read the table
    Row("get", T + H + "/hands/1/record/", with_status(READ, 409)),
    # the analysis shows every hand: never before the end; a score-sheet entry has no cards
    Row("get", T + H + "/hands/1/analysis/", with_status(READ, 409)),
    Row("get", T + H + "/hands/1/analysis/", with_status(PUBLIC_READ, 409), public=True),
    Row("get", T + R + "/hands/1/analysis/", with_status(READ, 409)),
    # a hint is for the seat whose turn it is, at a table that gives hints (409 hints_off)
    Row(
        "get",
        T + H + "/hands/1/hint/",
        {**WRITE_OK, "seated": 409, "club_admin": 403, "director": 403},
    ),
    Row(
        "get",
        T + H + "/hands/1/hint/",
        {**WRITE_OK, "club_admin": 403, "director": 403},
        setup=hints_on,
    ),
    Row("get", T + H + "/hands/1/events/?wait=0", READ),
    Row("get", T + H + "/hands/1/events/?wait=0", PUBLIC_READ, public=True),
    Row("get", "/api/v1/rules/", ANYONE),
    Row("get", "/api/v1/rules/{variant}/", ANYONE),
    Row("get", "/api/v1/series/", ANYONE),
    Row(
        "post",
        "/api/v1/series/",
        with_status(SIGNED_IN, 201),
        body=lambda w, r: {"name": "Dienstag"},
    ),
    Row("get", "/api/v1/series/{series}/", READ),
    Row("get", "/api/v1/pings/", with_status(SIGNED_IN, 200)),
    Row("post", "/api/v1/pings/", with_status(SIGNED_IN, 201)),
    Row(
        "get",
        "/api/v1/pings/{ping}/",
        {**dict.fromkeys(ROLES, 404), "anonymous": 401, "seated": 200},
        setup=anna_ping,
    ),
    Row("get", "/api/v1/me/", SIGNED_IN),
    Row("patch", "/api/v1/me/", SIGNED_IN, body=lambda w, r: {"display_name": "Neu"}),
    Row(
        "post",
        "/api/v1/auth/register/",
        dict.fromkeys(ROLES, 201),
        body=lambda w, r: {"username": f"new{next(_names)}", "password": "a-long-pass-9931"},
    ),
    Row(
        "post",
        "/api/v1/auth/token/",
        ANYONE,
        body=lambda w, r: {"username": "anna", "password": DEFAULT_PASSWORD},
    ),
    Row(
        "post",
        "/api/v1/auth/token/refresh/",
        ANYONE,
        body=lambda w, r: {"refresh": str(RefreshToken.for_user(w.users["anna"]))},
    ),
]


def resolve(w: World, path: str) -> str:
    ping = WorkerPing.objects.filter(user=w.users["anna"]).first()
    return path.format(
        recorded=w.tables["recorded"].pk,
        hosted=w.tables["hosted"].pk,
        series=w.tables["recorded"].series_id,
        ping=ping.pk if ping else 0,
        variant=engine.rule_sets()[0].name,
    )


def client_for(w: World, row: Row, role: str) -> APIClient:
    if role == "seated" and row.path.endswith(("/actions/", "/hint/")):
        table = w.tables["hosted"]
        state = services.hand_state(table, Hand.objects.get(table=table, number=1))
        client = APIClient()
        client.force_authenticate(w.users[state.to_act_seat or "anna"])
        return client
    return w.client(role)


def world_of(row: Row) -> tuple[bool, Callable[[World], None] | None]:
    """What a row's world depends on (the ``shared_world`` of tests/games/conftest.py, built
    once for the rows that need the same)."""
    return (row.public, row.setup)


@pytest.mark.parametrize("role", ROLES)
@rows_by_world(ROWS, world_of)
def test_permission_matrix(shared_world: World, row: Row, role: str) -> None:
    w = fresh_copy(shared_world)
    client = client_for(w, row, role)
    body = row.body(w, role) if row.body else None
    response = getattr(client, row.method)(resolve(w, row.path), body, format="json")
    assert response.status_code == row.expect[role], response.content[:300]
    if response.status_code >= 400:
        error = response.json()
        assert set(error) == {"code", "message", "fields"}
