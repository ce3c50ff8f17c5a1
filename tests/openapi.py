"""The OpenAPI schema in tests: generated once per test process, the committed snapshots
read once, and answers checked against the schema's components as generated clients read
them."""

from __future__ import annotations

import pickle
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import yaml

DOCS = Path(__file__).resolve().parent.parent / "docs"


@cache
def _generated() -> tuple[bytes, bool]:
    """The generated schema, pickled, and whether drf-spectacular warned generating it."""
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)  # resets the warnings
    return pickle.dumps(schema), bool(GENERATOR_STATS)


def generated_schema() -> dict[str, Any]:
    """The schema of this code as ``manage.py spectacular`` generates it, with the test
    settings. Generating it takes a quarter to half a second, and a dozen test modules read
    it: it is generated once per test process, and each call returns a fresh copy, which the
    test may change. (A test that changes ``SPECTACULAR_SETTINGS`` generates its own.)"""
    schema: dict[str, Any] = pickle.loads(_generated()[0])
    return schema


def generating_warned() -> bool:
    """Whether drf-spectacular warned (or reported an error) generating the schema of
    :func:`generated_schema`: what ``manage.py spectacular --fail-on-warn`` fails on."""
    return _generated()[1]


@cache
def _committed(name: str) -> bytes:
    # libyaml's loader: the same data, five times faster than PyYAML's own on 600 kB
    return pickle.dumps(yaml.load((DOCS / name).read_text(), Loader=yaml.CSafeLoader))


def committed_schema(name: str = "openapi.yaml") -> dict[str, Any]:
    """``docs/<name>`` (the snapshot, or ``openapi-released.yaml``) as committed: parsed
    once per test process, each call a fresh copy."""
    schema: dict[str, Any] = pickle.loads(_committed(name))
    return schema


@cache
def components() -> dict[str, Any]:
    """The generated schema's components as JSON Schema (converted once per test process)."""
    from tests.config.test_examples import as_json_schema

    converted: dict[str, Any] = as_json_schema(generated_schema()["components"])
    return converted


@cache
def _validator(component: str) -> jsonschema.Draft7Validator:
    """The validator of one component, made once per test process: it keeps the references
    it resolved, so a component checked again does not resolve them again."""
    return jsonschema.Draft7Validator(_target(component))


@cache
def _fast_validator(component: str) -> jsonschema_rs.Draft7Validator:
    """The same check compiled (jsonschema-rs, which Schemathesis validates answers with): a
    view's ``oneOf`` over every rule set's forms took the pure-Python validator some 90 ms an
    answer, most of a hidden-card sweep's time. Formats are not checked, as the pure-Python
    validator (given no format checker) does not check them."""
    return jsonschema_rs.Draft7Validator(_target(component), validate_formats=False)


@cache
def _target(component: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{component}", "components": components()}


def schema_errors(component: str, value: Any) -> list[str]:
    """Why ``value`` does not fit the component named ``component`` (none when it does).

    The compiled validator answers whether it fits; only a value that does not is checked
    again by the pure-Python one, whose messages the tests print (tests/test_openapi.py
    checks that the two agree)."""
    if _fast_validator(component).is_valid(value):
        return []
    return errors_told(component, value)


def errors_told(component: str, value: Any) -> list[str]:
    """The pure-Python validator's messages about ``value`` (none when it fits)."""
    return [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
        for e in _validator(component).iter_errors(value)
    ]
