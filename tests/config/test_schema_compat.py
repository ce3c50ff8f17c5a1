"""``make schema-compat`` diffs copies of the schemas in which each union over the rule sets
(``config.api.schema_compat.UNIONS``: the rules, the hand view, the score sheet, ...) is a plain
object and each alternative is reached from a path of its own: every rule set's components are
still compared.

Checked on the schema this code generates in the test process, which documents every
registered rule set, the test-only ``trickgame`` among them: a new game's components are
compared with no change to ``config.api.schema_compat``. (``make schema-compat`` reads the
committed snapshot: the same schema under the project's settings, ``tests/config/test_schema.py``.)
"""

from __future__ import annotations

import engine
from config.api.rule_sets import rules_component_name
from config.api.schema_compat import UNIONS, flattened
from tests.openapi import generated_schema

REF = "#/components/schemas/"


def test_each_rule_sets_rules_stay_reachable_once_the_union_is_flattened() -> None:
    flat = flattened(generated_schema())
    schemas = flat["components"]["schemas"]
    assert schemas["Rules"]["type"] == schemas["RulesRequest"]["type"] == "object"
    assert "oneOf" not in schemas["Rules"] and "oneOf" not in schemas["RulesRequest"]
    for rs in engine.rule_sets():
        name = rules_component_name(rs.name)
        answer = flat["paths"][f"/__compat/{name}"]["get"]["responses"]["200"]
        sent = flat["paths"][f"/__compat/{name}Request"]["post"]["requestBody"]
        assert answer["content"]["application/json"]["schema"] == {"$ref": REF + name}
        assert sent["content"]["application/json"]["schema"] == {"$ref": REF + name + "Request"}
        assert name in schemas and f"{name}Request" in schemas
    real = {p for p in flat["paths"] if not p.startswith("/__compat/")}
    assert real == set(generated_schema()["paths"])


def test_every_alternative_of_every_union_is_compared_where_clients_meet_it() -> None:
    """Each name in ``UNIONS`` is a union of the schema (a stale name would leave a union
    uncompared), flattened to a plain object; each of its alternatives is the body of a
    ``POST`` if clients send it (a ``…Request`` union), else the answer of a ``GET``."""
    schemas = generated_schema()["components"]["schemas"]
    flat = flattened(generated_schema())
    for union in UNIONS:
        alternatives = schemas[union].get("oneOf", schemas[union].get("anyOf"))
        assert alternatives, f"{union} is no union"
        plain = flat["components"]["schemas"][union]
        assert plain["type"] == "object" and not {"oneOf", "anyOf"} & set(plain), union
        for one in alternatives:
            path = flat["paths"][f"/__compat/{one['$ref'].rsplit('/', 1)[1]}"]
            if union.endswith("Request"):
                content = path["post"]["requestBody"]["content"]
            else:
                content = path["get"]["responses"]["200"]["content"]
            assert content["application/json"]["schema"] == one, (union, one)
