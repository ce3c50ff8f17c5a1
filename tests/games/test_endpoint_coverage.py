"""Every operation of the OpenAPI schema is in a permission matrix (games', clubs' or
tournaments'); the games rows are also in the hidden-information sweep that calls every row of
it as every kind of caller. A new endpoint without a row fails here."""

from __future__ import annotations

import re

from tests.clubs.test_permissions import ROWS as CLUB_ROWS
from tests.games import test_hidden_information
from tests.games.test_permissions import ROWS
from tests.openapi import generated_schema
from tests.tournaments.test_permissions import ROWS as TOURNAMENT_ROWS

METHODS = ("get", "post", "put", "patch", "delete")


def template(path: str) -> str:
    """``/api/v1/tables/{table_id}/hands/{number}/`` and ``/api/v1/tables/{hosted}/hands/1/``
    → ``/api/v1/tables/{}/hands/{}/``; a file's suffix too: ``…/standings.csv`` and
    ``…/standings.json`` → ``…/standings.{}``."""
    path = path.split("?")[0]
    path = re.sub(r"\{[^}]*\}", "{}", path)
    path = re.sub(r"\.[a-z]+$", ".{}", path)
    return re.sub(r"/\d+/", "/{}/", path)


def schema_operations() -> set[tuple[str, str]]:
    schema = generated_schema()
    return {
        (method, template(path))
        for path, operations in schema["paths"].items()
        for method in operations
        if method in METHODS
    }


def test_every_schema_operation_is_in_the_permission_matrix() -> None:
    covered = {(row.method, template(row.path)) for row in [*ROWS, *CLUB_ROWS, *TOURNAMENT_ROWS]}
    missing = schema_operations() - covered
    assert not missing, f"add permission-matrix rows for {sorted(missing)}"


def test_the_hidden_information_sweep_calls_every_row_as_every_caller() -> None:
    sweep = test_hidden_information.test_no_endpoint_shows_a_caller_cards_it_may_not_see
    marks = {m.args[0]: m.args[1] for m in sweep.pytestmark if m.name == "parametrize"}
    # (each row's world, the row), the rows of one world together (tests/worlds.py)
    swept = [row for _, row in marks[("shared_world", "row")]]
    assert sorted(swept, key=lambda r: r.id) == sorted(ROWS, key=lambda r: r.id)
    assert {"anonymous", "outsider", "bert", "carl", "club_admin", "director"} <= set(
        marks["viewer"]
    )


def test_the_matrix_has_no_rows_for_endpoints_that_do_not_exist() -> None:
    rows = [*ROWS, *CLUB_ROWS, *TOURNAMENT_ROWS]
    stale = {(row.method, template(row.path)) for row in rows} - schema_operations()
    assert not stale, f"rows for endpoints that are gone: {sorted(stale)}"
