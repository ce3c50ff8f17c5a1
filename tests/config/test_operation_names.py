"""Operations are tagged by the resource their operationId names (config/api/operations.py):
generated clients make a module or class of each tag, so a tag that is not the resource
hides the operation where nobody looks for it."""

from __future__ import annotations

import pytest

from config.api.operations import GROUPS, OPERATIONS, TAGS
from tests.openapi import generated_schema


@pytest.fixture(scope="module")
def named() -> dict[str, str]:
    """operationId → tag, as the schema writes them."""
    schema = generated_schema()
    return {
        operation["operationId"]: operation["tags"][0]
        for item in schema["paths"].values()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    }


def resources_of(tag: str) -> tuple[str, ...]:
    return (tag.replace(" ", "_"), *GROUPS.get(tag, ()))


def test_every_operation_is_tagged_by_the_resource_its_name_names() -> None:
    for (method, path), (operation_id, tag) in OPERATIONS.items():
        assert tag in TAGS, f"{method} {path}: tag {tag!r} is not described in TAGS"
        assert any(operation_id.startswith(f"{r}_") for r in resources_of(tag)), (
            f"{method} {path}: {operation_id} is not a resource of the tag {tag!r}"
        )


def test_every_group_and_tag_is_used() -> None:
    names = [operation_id for operation_id, _ in OPERATIONS.values()]
    for tag, resources in GROUPS.items():
        assert tag in TAGS, tag
        for resource in resources:
            assert any(n.startswith(f"{resource}_") for n in names), (tag, resource)
    assert {tag for _, tag in OPERATIONS.values()} == set(TAGS)


@pytest.mark.parametrize(
    ("operation_id", "tag"),
    [
        ("root_get", "root"),
        ("evening_tables_list", "evening tables"),
        ("tournament_tables_get", "tournament tables"),
        ("entries_get_results", "entries"),
        ("tournaments_get_settlement", "tournaments"),
        ("tournaments_get_standings", "tournaments"),
        ("tournaments_print_standings", "tournaments"),
        ("clubs_download_calendar", "clubs"),
        ("evenings_get_settlement", "evenings"),
    ],
)
def test_the_schema_names_and_tags_these_operations_by_their_resource(
    named: dict[str, str], operation_id: str, tag: str
) -> None:
    assert named[operation_id] == tag


def test_no_operation_is_left_under_the_old_group_tags(named: dict[str, str]) -> None:
    """1.1.0 had ``api`` (``api.api.api_get_root`` in the Python client), ``standings`` and
    ``exports`` (a tournament's documents apart from the tournament)."""
    assert not {"api", "standings", "exports"} & set(named.values())
    assert "api_get_root" not in named
