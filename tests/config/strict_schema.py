"""The strict schema check (zulip's ``event_schema.py`` is the model): every JSON body the API
answers is checked against the response schema its operation documents, with every object of
the schema closed, so that a key the schema does not document fails, naming where it is.

*Strict* means: an object schema (one with ``properties`` or ``type: object``) that does not
say ``additionalProperties`` itself is read as ``additionalProperties: false``; an object that
does say it (a map such as ``delta`` by seat, or a free-form ``{}``) keeps what it says. A
``oneOf``/``anyOf`` with a ``discriminator`` is checked against the one alternative the
discriminator's value names (its ``mapping``, else the component of that name), so a wrong key
in a Wien view is reported as that, not as "fits none of eleven alternatives".

The check knows no component by name: :meth:`StrictSchema.problems` finds the operation of a
request's method and path in the schema's ``paths`` and validates against whatever its
response of that status refers to. :class:`StrictClient` is an ``APIClient`` that does this
for every answer it receives and keeps the problems (:class:`Findings`), so a test drives
tables through the API as a client would and asks at the end what was undocumented.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jsonschema
from jsonschema import Draft7Validator, ValidationError
from rest_framework.test import APIClient

from tests.openapi import components, generated_schema

REF = "#/components/schemas/"
WHERE = "x-strict-where"  # marks an object schema with the component and path it is at

# schema keywords whose value is one schema, a list of schemas, or a map of name → schema
_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains")
_MANY = ("allOf", "anyOf", "oneOf")
_NAMED = ("properties", "patternProperties", "definitions")


def closed(node: Any, where: str) -> Any:
    """A copy of the JSON schema ``node`` with every object schema that does not say
    ``additionalProperties`` closed (``additionalProperties: false``), and every object
    schema marked with ``where`` it is (``Result.properties.entry``) for the messages."""
    if not isinstance(node, dict):
        return node
    out = dict(node)
    for key in _ONE:
        if isinstance(node.get(key), dict):
            out[key] = closed(node[key], f"{where}.{key}")
    for key in _MANY:
        if isinstance(node.get(key), list):
            out[key] = [closed(s, f"{where}.{key}[{i}]") for i, s in enumerate(node[key])]
    for key in _NAMED:
        if isinstance(node.get(key), dict):
            out[key] = {n: closed(s, f"{where}.{key}.{n}") for n, s in node[key].items()}
    kind = node.get("type")
    is_object = kind == "object" or (isinstance(kind, list) and "object" in kind)
    if (is_object or "properties" in node) and "enum" not in node:  # enum: [null] is null
        out.setdefault("additionalProperties", False)
        out[WHERE] = where
    return out


def _chosen(schema: dict[str, Any], instance: Any) -> tuple[str, str | None] | None:
    """For a ``oneOf``/``anyOf`` with a discriminator and an object instance: the
    discriminator's property and the ``$ref`` its value names (None when it names none)."""
    discriminator = schema.get("discriminator")
    if not isinstance(discriminator, dict) or not isinstance(instance, dict):
        return None
    name = discriminator["propertyName"]
    value = instance.get(name)
    if not isinstance(value, str):
        return name, None
    alternatives = [s.get("$ref") for s in schema.get("oneOf", schema.get("anyOf", []))]
    ref = discriminator.get("mapping", {}).get(value, REF + value)
    return name, ref if ref in alternatives else None


#: By the id of a oneOf's or anyOf's list of alternatives: the list (kept, so that its id is
#: not reused) and the instances, as JSON, found valid against it.
_VALID: dict[int, tuple[list[Any], set[str]]] = {}


def _by_discriminator(draft_keyword: Any) -> Any:
    """The draft's ``oneOf``/``anyOf``, reading a discriminator when there is one, and
    remembering which instances it found valid (a view's legal moves are checked against
    every rule set's action forms, and the same moves recur step after step)."""

    def check(
        validator: Any, alternatives: list[Any], instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        _, valid = _VALID.setdefault(id(alternatives), (alternatives, set()))
        text = json.dumps(instance, sort_keys=True)
        if text in valid:
            return
        chosen = _chosen(schema, instance)
        if chosen is None:
            errors = list(draft_keyword(validator, alternatives, instance, schema))
        else:
            name, ref = chosen
            errors = (
                [
                    ValidationError(
                        f"the discriminator {name!r} is {instance.get(name)!r}, which names "
                        f"none of the alternatives"
                    )
                ]
                if ref is None
                else list(validator.descend(instance, {"$ref": ref}))
            )
        if not errors:
            valid.add(text)
        yield from errors

    return check


StrictValidator = jsonschema.validators.extend(
    Draft7Validator,
    {
        "oneOf": _by_discriminator(Draft7Validator.VALIDATORS["oneOf"]),
        "anyOf": _by_discriminator(Draft7Validator.VALIDATORS["anyOf"]),
    },
)


def _path(parts: Any) -> str:
    text = "$"
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _mismatches(errors: list[ValidationError]) -> bool:
    """Whether ``errors`` say only that the instance is of another type or value than an
    alternative wants (``null`` for an object), not what is wrong inside it."""
    return all(
        not e.relative_path
        and (e.validator in ("type", "enum", "const") or bool(e.context and _mismatches(e.context)))
        for e in errors
    )


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors that say why ``error`` happened: for a failed ``oneOf``/``anyOf``, the
    errors of the alternative the instance came closest to (not the ``null`` one that an
    object merely is not), recursively; otherwise ``error`` itself."""
    if not error.context:
        return [error]
    by_alternative: dict[Any, list[ValidationError]] = {}
    for e in error.context:
        by_alternative.setdefault(e.relative_schema_path[0], []).append(e)
    closest = min(by_alternative.values(), key=lambda errors: (_mismatches(errors), len(errors)))
    return [leaf for e in closest for leaf in _leaves(e)]


def messages(error: ValidationError) -> list[str]:
    """One line per problem: an undocumented key as ``$.result.entry.foo: undocumented key
    (Result.properties.entry)``, anything else as jsonschema says it."""
    lines = []
    for leaf in _leaves(error):
        if leaf.validator == "additionalProperties" and leaf.validator_value is False:
            documented = set(leaf.schema.get("properties", {}))
            where = leaf.schema.get(WHERE, "?")
            lines += [
                f"{_path([*leaf.absolute_path, key])}: undocumented key ({where})"
                for key in sorted(set(leaf.instance) - documented)
            ]
        else:
            lines.append(f"{_path(leaf.absolute_path)}: {leaf.message[:300]}")
    return lines


class StrictSchema:
    """The generated schema's response bodies, closed (:func:`closed`), by operation."""

    def __init__(self, schema: dict[str, Any], converted: dict[str, Any]) -> None:
        self.schema = schema
        self.components = {
            "schemas": {name: closed(node, name) for name, node in converted["schemas"].items()}
        }
        self.templates = [  # "/api/v1/tables/{table_id}/" → r"^/api/v1/tables/[^/]+/$"
            (re.compile("^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(t)) + "$"), t)
            for t in schema["paths"]
        ]
        self._validators: dict[tuple[str, str, str], Any] = {}

    def template(self, path: str) -> str | None:
        """The ``paths`` key that ``path`` (``/api/v1/tables/7/``) is an instance of."""
        found = [t for pattern, t in self.templates if pattern.match(path)]
        # a literal segment beats a parameter (``…/sheet.csv`` is not ``…/{number}/``)
        return min(found, key=lambda t: t.count("{")) if found else None

    def validator(self, method: str, template: str, status: str) -> Any:
        """The validator of the JSON body of ``method template`` answering ``status``."""
        key = (method, template, status)
        if key not in self._validators:
            operation = self.schema["paths"][template][method]
            response = operation["responses"].get(status)
            body = None if response is None else response.get("content", {})
            body = None if body is None else body.get("application/json")
            if body is None:
                self._validators[key] = None
            else:
                from tests.config.test_examples import as_json_schema

                target = closed(as_json_schema(body["schema"]), f"{method} {template} {status}")
                self._validators[key] = StrictValidator({**target, "components": self.components})
        return self._validators[key]

    def problems(self, method: str, path: str, status: int, body: Any) -> list[str]:
        """Why the JSON ``body`` answered to ``method path`` with ``status`` is not what the
        schema documents (none when it is): an undocumented operation or status, a key the
        schema does not document, a value that does not fit."""
        method = method.lower()
        template = self.template(path)
        if template is None or method not in self.schema["paths"][template]:
            return [f"{method.upper()} {path}: no such operation in the schema"]
        if str(status) not in self.schema["paths"][template][method]["responses"]:
            return [f"{method.upper()} {template}: status {status} is not documented"]
        validator = self.validator(method, template, str(status))
        if validator is None:
            return [f"{method.upper()} {template} {status}: answers JSON the schema does not"]
        return [line for error in validator.iter_errors(body) for line in messages(error)]


@cache
def _strict() -> StrictSchema:
    return StrictSchema(generated_schema(), components())


def strict_schema() -> StrictSchema:
    """The strict schema of this code (built once per test process)."""
    return _strict()


@dataclass
class Findings:
    """What the strict check found in the answers of one or more clients: each problem once,
    with the first request that showed it and how many times it was seen; and how many
    bodies were checked, by operation."""

    schema: StrictSchema = field(default_factory=strict_schema)
    problems: dict[str, tuple[str, int]] = field(default_factory=dict)
    checked: dict[str, int] = field(default_factory=dict)

    def check(self, method: str, path: str, status: int, body: Any) -> list[str]:
        """Check one answer; returns its problems (also kept)."""
        template = self.schema.template(path) or path
        operation = f"{method.upper()} {template} {status}"
        self.checked[operation] = self.checked.get(operation, 0) + 1
        found = self.schema.problems(method, path, status, body)
        for problem in found:
            where = re.sub(r"\[\d+\]", "[*]", problem)  # one line for every item of a list
            line = f"{method.upper()} {template} {status} {where}"
            first, count = self.problems.get(line, (path, 0))
            self.problems[line] = (first, count + 1)
        return found

    def report(self) -> str:
        """The problems, one a line, sorted, each with the first path that showed it."""
        return "\n".join(
            f"{line}  [{count}x, first {first}]"
            for line, (first, count) in sorted(self.problems.items())
        )


class StrictClient(APIClient):
    """An ``APIClient`` whose every JSON answer is checked by the strict schema, the
    problems kept in ``findings`` (shared between the clients of one test)."""

    def __init__(self, findings: Findings, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.findings = findings

    def request(self, *args: Any, **kwargs: Any) -> Any:
        response = super().request(*args, **kwargs)
        if response.get("Content-Type", "").startswith("application/json") and response.content:
            request = response.wsgi_request
            method = str(request.method)
            self.findings.check(method, request.path, response.status_code, response.json())
        return response
