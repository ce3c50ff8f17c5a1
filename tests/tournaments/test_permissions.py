"""The tournaments permission matrix: every tournament endpoint as every role, on a public
listed tournament and (where it differs) a private one or a draft. The rows live beside their
resources (``ROWS`` in ``matrix_*.py``); ``tests/games/test_endpoint_coverage.py`` fails when
a schema path has no row in any app's matrix. Every answer is also checked for the secret of
the tournament's webhook, which only the answer that creates a webhook shows.

The rows that need the same world (state, kind, privacy and set-up) share one, built once
(``tests/worlds.py``); each test starts from it as built."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any

import pytest

import tests.tournaments
from tests.conftest import tasks_in_process
from tests.tournaments.world import (
    ROLES,
    Row,
    TournamentWorld,
    build_tournament_world,
    call_row,
)
from tests.worlds import built_once, fresh_copy, rows_by_world
from tournaments.models import Webhook

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def all_rows() -> list[Row]:
    rows: list[Row] = []
    for info in sorted(pkgutil.iter_modules(tests.tournaments.__path__), key=lambda m: m.name):
        if info.name.startswith("matrix_"):
            rows.extend(importlib.import_module(f"tests.tournaments.{info.name}").ROWS)
    return rows


ROWS = all_rows()


def world_of(row: Row) -> tuple[Any, ...]:
    """What a row's world depends on (``world_for`` in tests/tournaments/world.py): rows with
    the same share one."""
    return (row.state, row.kind, row.public, row.setup)


@pytest.fixture(scope="module")
def shared_world(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[TournamentWorld]:
    """The world of ``request.param``, a :func:`world_of`."""
    state, kind, public, setup = request.param

    def build() -> TournamentWorld:
        world = build_tournament_world(state=state, public=public, kind=kind)
        if setup is not None:
            setup(world)
        return world

    with tasks_in_process(), built_once(django_db_blocker, build) as world:
        yield world


def test_every_row_names_a_distinct_case() -> None:
    ids = [row.id for row in ROWS]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


@pytest.mark.parametrize("role", ROLES)
@rows_by_world(ROWS, world_of)
def test_each_role_gets_the_status_the_matrix_names(
    shared_world: TournamentWorld, row: Row, role: str
) -> None:
    world = fresh_copy(shared_world)
    secrets = list(
        Webhook.objects.filter(tournament=world.tournament).values_list("secret", flat=True)
    )
    assert secrets, "every world has a webhook, whose secret no answer may show"
    response = call_row(world, row, role)
    expected = row.expect[role]
    assert response.status_code == expected, (
        f"{row.id} as {role}: {response.status_code}, expected {expected}: "
        f"{getattr(response, 'content', b'')[:300]!r}"
    )
    if response.status_code >= 400:
        assert response.get("Content-Type", "").startswith("application/json"), response
        body = response.json()
        assert {"code", "message"} <= set(body), body
    content = getattr(response, "content", b"")
    leaked = [secret for secret in secrets if secret.encode() in content]
    assert not leaked, f"{row.id} as {role} shows a webhook's secret: {content[:300]!r}"
