"""The clubs permission matrix: every club endpoint as every role, on a private club and
(where it differs) a public one. The rows live beside their resources (``ROWS`` in
``matrix_*.py``); ``tests/games/test_endpoint_coverage.py`` fails when a schema path has no
row in either app's matrix."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import tests.clubs
from tests.clubs.world import ROLES, Row, run_row

pytestmark = pytest.mark.django_db


def all_rows() -> list[Row]:
    rows: list[Row] = []
    for info in sorted(pkgutil.iter_modules(tests.clubs.__path__), key=lambda m: m.name):
        if info.name.startswith("matrix_"):
            rows.extend(importlib.import_module(f"tests.clubs.{info.name}").ROWS)
    return rows


ROWS = all_rows()


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_each_role_gets_the_status_the_matrix_names(row: Row, role: str) -> None:
    response = run_row(row, role)
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
