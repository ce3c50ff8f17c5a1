"""Checking answers against the OpenAPI schema's components, as generated clients read them."""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema

from tests.config.test_examples import as_json_schema


@cache
def components() -> dict[str, Any]:
    """The schema's components as JSON Schema (generated once per test process)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    converted: dict[str, Any] = as_json_schema(schema["components"])
    return converted


def schema_errors(component: str, value: Any) -> list[str]:
    """Why ``value`` does not fit the component named ``component`` (none when it does)."""
    target = {"$ref": f"#/components/schemas/{component}", "components": components()}
    return [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
        for e in jsonschema.Draft7Validator(target).iter_errors(value)
    ]
