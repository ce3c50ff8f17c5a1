"""The clubs permission matrix: every club endpoint as every role, on a private club and
(where it differs) a public one. The rows live beside their resources (``ROWS`` in
``matrix_*.py``); ``tests/games/test_endpoint_coverage.py`` fails when a schema path has no
row in either app's matrix. The rows that need the same world (the club's privacy and the row's
set-up) share one, built once (``tests/worlds.py``); each test starts from it as built."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import tests.clubs
from tests.clubs.world import ROLES, ClubWorld, Row, build_club_world, call_row
from tests.worlds import built_once, fresh_copy, rows_by_world

pytestmark = pytest.mark.django_db


def all_rows() -> list[Row]:
    rows: list[Row] = []
    for info in sorted(pkgutil.iter_modules(tests.clubs.__path__), key=lambda m: m.name):
        if info.name.startswith("matrix_"):
            rows.extend(importlib.import_module(f"tests.clubs.{info.name}").ROWS)
    return rows


ROWS = all_rows()


def world_of(row: Row) -> tuple[bool, Callable[[ClubWorld], None] | None]:
    """What a row's world depends on: rows with the same share one."""
    return (row.public, row.setup)


@pytest.fixture(scope="module")
def shared_world(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[ClubWorld]:
    """The club world of ``request.param``, a :func:`world_of`."""
    public, setup = request.param

    def build() -> ClubWorld:
        world = build_club_world(public=public)
        if setup is not None:
            setup(world)
        return world

    with built_once(django_db_blocker, build) as world:
        yield world


@pytest.mark.parametrize("role", ROLES)
@rows_by_world(ROWS, world_of)
def test_each_role_gets_the_status_the_matrix_names(
    shared_world: ClubWorld, row: Row, role: str
) -> None:
    response = call_row(fresh_copy(shared_world), row, role)
    expected = row.expect[role]
    assert response.status_code == expected, (
        f"{row.id} as {role}: {response.status_code}, expected {expected}: "
        f"{getattr(response, 'content', b'')[:300]!r}"
    )
    if response.status_code >= 400 and response.get("Content-Type", "").startswith(
        "application/json"
    ):
        body = response.json()
        assert {"code", "message"} <= set(body), body
