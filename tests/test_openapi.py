"""The tests' schema check (tests/openapi.py) answers as the pure-Python validator does.

:func:`tests.openapi.schema_errors` asks the compiled validator (jsonschema-rs) whether an
answer fits and the pure-Python one (jsonschema) only why it does not. If the two disagreed
about a value, a test could pass an answer the schema does not document: so every documented
response example, and every way of breaking it one value at a time, is checked by both.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from tests.openapi import (
    _fast_validator,
    _validator,
    errors_told,
    generated_schema,
    schema_errors,
)

#: What a value is replaced with: one of each JSON type (a negative and a fractional number).
REPLACEMENTS: tuple[Any, ...] = (None, -1, 1.5, "x", True, [], {})


def documented_examples() -> list[tuple[str, Any]]:
    """(component, example) for every response example the schema documents whose body is a
    component."""
    found = []
    for item in generated_schema()["paths"].values():
        for operation in item.values():
            for response in operation.get("responses", {}).values():
                body = response.get("content", {}).get("application/json", {})
                ref = body.get("schema", {}).get("$ref", "")
                for example in body.get("examples", {}).values():
                    if ref.startswith("#/components/schemas/"):
                        found.append((ref.rsplit("/", 1)[1], example["value"]))
    return found


def broken(value: Any, depth: int = 3) -> Iterator[Any]:
    """Copies of ``value`` with one thing changed: a key left out or a value replaced (by each
    of :data:`REPLACEMENTS`), at every place down to ``depth`` levels, the first item of a
    list standing for all."""
    places: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...], level: int) -> None:
        if level > depth:
            return
        if isinstance(node, dict):
            for key, child in node.items():
                places.append((*path, key))
                walk(child, (*path, key), level + 1)
        elif isinstance(node, list) and node:
            places.append((*path, 0))
            walk(node[0], (*path, 0), level + 1)

    walk(value, (), 1)
    for place in places:
        for replacement in (..., *REPLACEMENTS):
            changed = copy.deepcopy(value)
            parent = changed
            for step in place[:-1]:
                parent = parent[step]
            if replacement is ...:
                del parent[place[-1]]
            else:
                parent[place[-1]] = replacement
            yield changed


EXAMPLES = documented_examples()


@pytest.mark.parametrize(("component", "example"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_both_validators_agree_on_an_example_and_every_way_of_breaking_it(
    component: str, example: Any
) -> None:
    assert schema_errors(component, example) == []
    rejected = []
    for value in broken(example):
        fits = _validator(component).is_valid(value)
        assert _fast_validator(component).is_valid(value) == fits, value
        if not fits:
            rejected.append(value)
    # the breaking reaches what the schema requires (no example is all optional keys), and a
    # value that does not fit is told with the pure-Python validator's messages
    assert rejected
    assert schema_errors(component, rejected[0]) == errors_told(component, rejected[0]) != []


def test_the_examples_include_the_hand_view_and_its_rule_sets_alternatives() -> None:
    """The seat view (a ``oneOf`` over every rule set's forms) is the answer the hidden-card
    sweeps check most often."""
    assert "HandView" in {component for component, _ in EXAMPLES}
