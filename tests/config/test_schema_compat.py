"""``make schema-compat`` diffs copies of the schemas in which the union of the rule sets'
rules is a plain object and each rule set's rules is reached from a path of its own
(``config.api.schema_compat``): every rule set's component is still compared."""

from __future__ import annotations

import engine
from config.api.rule_sets import rules_component_name
from config.api.schema_compat import flattened
from tests.openapi import committed_schema

REF = "#/components/schemas/"


def test_each_rule_sets_rules_stay_reachable_once_the_union_is_flattened() -> None:
    flat = flattened(committed_schema())
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
    assert real == set(committed_schema()["paths"])
