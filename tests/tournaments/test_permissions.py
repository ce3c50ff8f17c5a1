"""The tournaments permission matrix: every tournament endpoint as every role, on a public
listed tournament and (where it differs) a private one or a draft. The rows live beside their
resources (``ROWS`` in ``matrix_*.py``); ``tests/games/test_endpoint_coverage.py`` fails when
a schema path has no row in any app's matrix. Every answer is also checked for the secret of
the tournament's webhook, which only the answer that creates a webhook shows."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import tests.tournaments
from tests.tournaments.world import ROLES, Row, call_row, world_for
from tournaments.models import Webhook

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def all_rows() -> list[Row]:
    rows: list[Row] = []
    for info in sorted(pkgutil.iter_modules(tests.tournaments.__path__), key=lambda m: m.name):
        if info.name.startswith("matrix_"):
            rows.extend(importlib.import_module(f"tests.tournaments.{info.name}").ROWS)
    return rows


ROWS = all_rows()


def test_every_row_names_a_distinct_case() -> None:
    ids = [row.id for row in ROWS]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_each_role_gets_the_status_the_matrix_names(row: Row, role: str) -> None:
    world = world_for(row)
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
