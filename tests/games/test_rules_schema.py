"""The rules object in the schema: one component per registered rule set, discriminated by
``variant``, documenting every option as the engine checks it (``games.api.rules``).

Read from the schema this code generates in the test process (``tests.openapi``), which
documents every registered rule set, the test-only ``trickgame`` among them: the committed
``docs/openapi.yaml`` is the same schema under the project's settings, without it
(``tests/config/test_schema.py``). Each documented bound is checked against the engine: a
value the schema rules out, the engine refuses, naming the option. A rule set with conventions
(Preferans) shows each as a whole request example of ``tables_create``, which the schema and
the server accept; option descriptions keep their apostrophes and write defaults as JSON.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

import engine
from config.api.rule_sets import camel, rules_component_name
from engine.options import Option
from tests.factories import UserFactory
from tests.openapi import generated_schema, schema_errors

RULE_SETS = engine.rule_sets()
OPTIONS = [(rs, o) for rs in RULE_SETS for o in rs.options]


CONVENTIONS = [
    (rs, convention)
    for rs in RULE_SETS
    for o in rs.options
    if o.name == "convention"
    for convention in o.choices
]


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generated_schema()


@pytest.fixture(scope="module")
def schemas(spec: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = spec["components"]["schemas"]
    return found


@pytest.mark.parametrize("suffix", ["", "Request"])
def test_rules_are_one_of_a_schema_per_rule_set_discriminated_by_variant(
    schemas: dict[str, Any], suffix: str
) -> None:
    rules = schemas[f"Rules{suffix}"]
    mapping = {
        rs.name: f"#/components/schemas/{rules_component_name(rs.name)}{suffix}" for rs in RULE_SETS
    }
    assert rules["discriminator"] == {"propertyName": "variant", "mapping": mapping}
    assert [one["$ref"] for one in rules["oneOf"]] == list(mapping.values())


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=lambda rs: rs.name)
def test_each_rule_sets_schema_lists_its_options_and_an_example_the_engine_accepts(
    schemas: dict[str, Any], rule_set: engine.RuleSet[Any, Any, Any]
) -> None:
    request = schemas[f"{rules_component_name(rule_set.name)}Request"]
    assert set(request["properties"]) == {"variant", *(o.name for o in rule_set.options)}
    assert set(request["required"]) == {
        "variant",
        *(o.name for o in rule_set.options if o.required),
    }
    assert request["example"] == rule_set.examples[0]
    assert engine.parse_rules(request["example"]).variant == rule_set.name
    answer = schemas[rules_component_name(rule_set.name)]
    assert answer["example"] == rule_set.examples[0]
    assert answer["description"].startswith(rule_set.description[:20])


def documented(schemas: dict[str, Any], rule_set: Any, option: Option) -> dict[str, Any]:
    """An option's property in the request schema, with an enum reference resolved."""
    node = dict(schemas[f"{rules_component_name(rule_set.name)}Request"]["properties"][option.name])
    refs = node.pop("allOf", None)
    if refs:
        node.update(schemas[refs[0]["$ref"].rsplit("/", 1)[1]])
    return node


def refused_at(rules: dict[str, Any]) -> str:
    with pytest.raises(engine.EngineError) as refused:
        engine.parse_rules(rules)
    return refused.value.at


@pytest.mark.parametrize(("rule_set", "option"), OPTIONS, ids=lambda x: getattr(x, "name", ""))
def test_each_documented_bound_is_one_the_engine_enforces(
    schemas: dict[str, Any], rule_set: Any, option: Option
) -> None:
    node = documented(schemas, rule_set, option)
    example = dict(rule_set.examples[0])
    at = f"rules.{option.name}"
    assert node.get("nullable", False) == option.nullable
    assert ("Omitted:" in node["description"]) == (not option.required)
    if node.get("type") == "integer":
        if "minimum" in node:
            assert refused_at({**example, option.name: node["minimum"] - 1}) == at
        if "maximum" in node:
            assert refused_at({**example, option.name: node["maximum"] + 1}) == at
        if "multipleOf" in node and node["multipleOf"] > 1:
            assert refused_at({**example, option.name: node["multipleOf"] * 3 + 1}) == at
        assert refused_at({**example, option.name: True}) == at
    elif "enum" in node:
        assert node["enum"] == list(option.choices)
        assert refused_at({**example, option.name: "none of these"}) == at
    elif node.get("type") == "boolean":
        assert refused_at({**example, option.name: 1}) == at
    if not node.get("nullable"):
        assert refused_at({**example, option.name: None}) == at


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=lambda rs: rs.name)
def test_an_unknown_option_is_refused_by_name(rule_set: Any) -> None:
    rules = {**rule_set.examples[0], "no_such_option": 1}
    assert refused_at(rules) == "rules.no_such_option"


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=lambda rs: rs.name)
def test_each_rule_sets_actions_phases_and_sheet_keys_are_documented(
    schemas: dict[str, Any], rule_set: Any
) -> None:
    """A typed client can build every action of the rule set (``<Variant>Action``: one of its
    keys' forms), read every phase, and send every score-sheet key it has."""
    variant = schemas[f"{camel(rule_set.name)}Action"]
    forms = [schemas[one["$ref"].rsplit("/", 1)[1]] for one in variant["oneOf"]]
    keys = [next(k for k in form["required"]) for form in forms]
    assert keys == [f.key for f in rule_set.vocabulary]
    for form, declared in zip(forms, rule_set.vocabulary, strict=True):
        assert form["properties"][declared.key]["description"]
        assert form["additionalProperties"] is False
    # one component for an action, whether a view lists it as legal or a move sends it
    action = {"$ref": "#/components/schemas/Action"}
    assert schemas["ActionInputRequest"]["properties"]["action"]["allOf"] == [action]
    view = schemas[f"{camel(rule_set.name)}HandView"]
    assert view["properties"]["legal"]["items"] == action
    assert {"$ref": f"#/components/schemas/{camel(rule_set.name)}Action"} in schemas["Action"][
        "anyOf"
    ]
    assert set(rule_set.phases) <= set(schemas["PhaseEnum"]["enum"])
    entry = schemas["ScoreSheetEntryRequest"]["properties"]
    assert rule_set.sheet_keys <= set(entry)


def test_preferans_has_its_three_conventions() -> None:
    assert {(rs.name, c) for rs, c in CONVENTIONS} == {
        ("preferans", "sochi"),
        ("preferans", "leningrad"),
        ("preferans", "rostov"),
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rule_set", "convention"), CONVENTIONS, ids=lambda x: getattr(x, "name", x)
)
def test_each_convention_is_a_table_example_the_schema_and_the_server_accept(
    spec: dict[str, Any], rule_set: Any, convention: str
) -> None:
    """OpenAPI 3.0 gives the rules component one ``example`` (the first convention); each
    convention is a whole request example of ``tables_create`` (a media type may carry many:
    a hosted table per example rules, ``games.api.examples``), valid against the request
    schema, a rules object the engine reads as that convention, and a table the server
    opens."""
    body = spec["paths"]["/api/v1/tables/"]["post"]["requestBody"]["content"]["application/json"]
    found = [
        e["value"]
        for e in body["examples"].values()
        if e["value"]["rules"].get("variant") == rule_set.name
        and e["value"]["rules"].get("convention") == convention
        and e["value"]["mode"] == "hosted"
    ]
    assert found, f"no hosted tables_create example of {convention}"
    table = found[0]
    assert table["rules"] in rule_set.examples
    assert not schema_errors("TableCreateRequest", table)
    assert not schema_errors(f"{rules_component_name(rule_set.name)}Request", table["rules"])
    parsed: Any = engine.parse_rules(table["rules"])  # the seam types no rule set's options
    assert (parsed.variant, parsed.convention) == (rule_set.name, convention)

    anna = UserFactory.create()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {AccessToken.for_user(anna)}")
    # the example seats the caller as user 3 (tests/config/test_examples.py sends it as is)
    seats = [{**seat, "user": anna.pk} if "user" in seat else seat for seat in table["seats"]]
    answer = client.post("/api/v1/tables/", {**table, "seats": seats}, format="json")
    assert answer.status_code == 201, answer.content
    opened = answer.json()
    assert opened["rules"]["convention"] == convention
    assert opened["rules"]["pool_target"] == table["rules"]["pool_target"]


def descriptions(node: Any) -> list[str]:
    """Every ``description`` and ``summary`` text in a schema, however deep."""
    if isinstance(node, list):
        return [text for item in node for text in descriptions(item)]
    if not isinstance(node, dict):
        return []
    found = [v for k, v in node.items() if k in ("description", "summary") and isinstance(v, str)]
    return found + [text for v in node.values() for text in descriptions(v)]


def test_descriptions_keep_their_apostrophes_and_write_defaults_as_json() -> None:
    """An option's help text once went through ``replace("'", '"')`` to turn the default's
    Python repr into JSON, which also made "every seat's" "every seat"s"."""
    schema = generated_schema()
    texts = descriptions(schema)
    assert len(texts) > 1000
    turned = [t for t in texts if re.search(r"[^\W\d_]\"s\b", t)]
    assert not turned, turned[:3]
    components = schema["components"]["schemas"]
    for rule_set, option in OPTIONS:  # each option's own text as the engine words it
        node = components[f"{rules_component_name(rule_set.name)}Request"]["properties"]
        said = option.description[:1].upper() + option.description[1:]
        assert node[option.name]["description"].startswith(said), (rule_set.name, option.name)
    options = components["PreferansRulesRequest"]["properties"]
    said = "T: every seat's own pool target (§10) (points)."
    assert options["pool_target"]["description"] == said
    assert options["raspasy_progression"]["description"].endswith(" Omitted: [1, 2, 3].")
    assert options["open_timing"]["description"].endswith(' Omitted: "after_declarer_lead".')
    assert options["whist_value"]["description"].endswith(" Omitted: null.")
    assert options["bid_jumps"]["description"].endswith(" Omitted: false.")
    assert options["dealer_consolation"]["description"].endswith(" Omitted: true.")
