"""The schemas ``make schema-compat`` hands to openapi-diff: each the same API, with every
union over the rule sets (``Rules``, ``RulesRequest``, ``HandView``, ``ScoreSheet``, ``Result``,
``Game``: ``oneOf`` or ``anyOf``) replaced by a plain object, and each rule set's component
reachable from a path of its own instead.

openapi-diff compares a ``oneOf`` by trying its alternatives against each other wherever the
union is used; with eight rule sets' rules in a dozen places it ran for more than twelve minutes
(a schema without them: under a minute). The per-rule-set components themselves are still
compared, once each, through ``/__compat/{component}`` (paths that exist only in these copies:
a ``…Request`` component as the body of a ``POST``, an answer's as the answer of a ``GET``), so
a removed option, a new required one or a dropped choice of any rule set still fails the
check.

    python -m config.api.schema_compat docs/openapi.yaml clients/openapi-compat.yaml
"""

from __future__ import annotations

import sys
from typing import Any

import yaml

UNIONS = ("Rules", "RulesRequest", "HandView", "ScoreSheet", "Result", "Game")


def flattened(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with each union of :data:`UNIONS` a plain object and its alternatives
    reachable from ``/__compat/<component>``."""
    components = schema.get("components", {}).get("schemas", {})
    paths = schema.setdefault("paths", {})
    for union in UNIONS:
        node = components.get(union)
        alternatives = node.get("oneOf", node.get("anyOf")) if node is not None else None
        if not isinstance(alternatives, list):
            continue
        for one in alternatives:
            name = one["$ref"].rsplit("/", 1)[1]
            body = {"content": {"application/json": {"schema": {"$ref": one["$ref"]}}}}
            if union.endswith("Request"):  # what clients send: compared as a request body
                operation = {
                    "post": {
                        "operationId": f"compat_{name}",
                        "requestBody": {"required": True, **body},
                        "responses": {"204": {"description": "accepted"}},
                    }
                }
            else:  # what clients read: compared as an answer
                operation = {
                    "get": {
                        "operationId": f"compat_{name}",
                        "responses": {"200": {"description": name, **body}},
                    }
                }
            paths[f"/__compat/{name}"] = operation
        components[union] = {"type": "object", "description": node.get("description", union)}
    return schema


def main(argv: list[str]) -> int:
    source, target = argv
    with open(source, encoding="utf-8") as f:
        schema = yaml.load(f, Loader=yaml.CSafeLoader)
    with open(target, "w", encoding="utf-8") as f:
        yaml.dump(flattened(schema), f, Dumper=yaml.CSafeDumper, sort_keys=False)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
