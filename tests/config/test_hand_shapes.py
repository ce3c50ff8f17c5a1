"""The components of hands are generated from the registered rule sets' shapes
(``RuleSet.shapes``, ``config.api.rule_sets.hand_schemas``): each rule set has its view,
Result, game and score sheet, the unions pick a rule set's by ``variant``, and none allows a
key it does not document."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from config.api.rule_sets import TABLE_REASONS, camel, hand_reasons
from tests.openapi import generated_schema, schema_errors

REF = "#/components/schemas/"
RULE_SETS = engine.rule_sets()
by_rule_set = pytest.mark.parametrize("rs", RULE_SETS, ids=[rs.name for rs in RULE_SETS])


@pytest.fixture(scope="module")
def schemas() -> dict[str, Any]:
    found: dict[str, Any] = generated_schema()["components"]["schemas"]
    return found


@by_rule_set
def test_each_rule_set_has_its_view_result_game_and_sheet(
    schemas: dict[str, Any], rs: engine.RuleSet[Any, Any, Any]
) -> None:
    name = camel(rs.name)
    for part in ("HandView", "Result", "ScoreSheet", "ScoreSheetRow"):
        component = schemas[f"{name}{part}"]
        assert component["additionalProperties"] is False, part
        assert set(component["required"]) <= set(component["properties"]), part
    view = schemas[f"{name}HandView"]["properties"]
    assert view["variant"] == {"$ref": f"{REF}{name}VariantEnum"}
    assert set(rs.shapes.view.get("properties", {})) <= set(view)
    result = schemas[f"{name}Result"]["properties"]
    assert set(rs.shapes.result.get("properties", {})) <= set(result)
    assert {"$ref": f"{REF}{name}Result"} in view["result"]["anyOf"]
    game = schemas[f"{name}Game"]
    kinds = [form["properties"]["type"]["enum"][0] for form in rs.shapes.games]
    assert list(game["discriminator"]["mapping"]) == kinds
    assert len(game["oneOf"]) == len(kinds)
    row = schemas[f"{name}ScoreSheetRow"]["properties"]
    if rs.shapes.sheet_row is None:
        assert f"{name}SheetRow" not in schemas
        assert row["details"]["enum"] == [None]
    else:
        assert {"$ref": f"{REF}{name}SheetRow"} in row["details"]["anyOf"]
    for legacy in ("pulya", "doppelkopf"):
        assert row[legacy]["deprecated"] is True


@pytest.mark.parametrize("union", ["HandView", "ScoreSheet"])
def test_a_view_and_a_sheet_are_one_rule_sets_by_variant(
    schemas: dict[str, Any], union: str
) -> None:
    node = schemas[union]
    assert node["discriminator"]["propertyName"] == "variant"
    assert node["discriminator"]["mapping"] == {
        rs.name: f"{REF}{camel(rs.name)}{union}" for rs in RULE_SETS
    }
    assert node["oneOf"] == [{"$ref": f"{REF}{camel(rs.name)}{union}"} for rs in RULE_SETS]


def test_a_result_without_its_variant_is_any_rule_sets(schemas: dict[str, Any]) -> None:
    """Identical Results (the talon sets whose games are suit games only) are named once."""
    named = {node["$ref"].removeprefix(REF) for node in schemas["Result"]["anyOf"]}
    assert named <= {f"{camel(rs.name)}Result" for rs in RULE_SETS}
    assert {"WienResult", "PreferansResult", "DoppelkopfResult"} <= named


def test_the_transfer_words_are_the_rule_sets(schemas: dict[str, Any]) -> None:
    words = {r for rs in RULE_SETS for r in rs.shapes.reasons}
    assert schemas["WhyEnum"]["enum"] == hand_reasons()
    assert set(hand_reasons()) == words - set(TABLE_REASONS)
    assert set(schemas["ReasonEnum"]["enum"]) == words | set(TABLE_REASONS)


VIEW = {"mode": "hosted", "variant": "wien", "number": 1, "status": "playing", "version": 0}


def test_a_view_fits_its_rule_sets_form_only() -> None:
    assert not schema_errors("HandView", VIEW)
    assert not schema_errors("HandView", {**VIEW, "pot": 0, "offer": None})
    assert schema_errors("HandView", {**VIEW, "kasse": 0})  # a Doppelkopf key
    assert schema_errors("HandView", {**VIEW, "variant": "preferans", "pot": 0})
    assert not schema_errors("HandView", {**VIEW, "variant": "doppelkopf", "kasse": 0})


def test_an_undocumented_key_fails_the_schema() -> None:
    assert schema_errors("WienHandView", {**VIEW, "surprise": 1})
    result: dict[str, Any] = {
        "stake": None, "declarer": None, "game": None, "made": None, "fallen": [],
        "tricks": {}, "delta": {}, "pot": None, "transfers": [],
    }  # fmt: skip
    assert not schema_errors("KurzResult", result)
    assert schema_errors("KurzResult", {**result, "surprise": 1})
    assert schema_errors("Result", {**result, "surprise": 1})


def _untyped_nullables(node: Any, path: str) -> list[str]:
    """The places in ``node`` where ``nullable`` stands without a ``type``."""
    found = []
    if isinstance(node, dict):
        if node.get("nullable") is True and "type" not in node:
            found.append(path)
        for key, value in node.items():
            found += _untyped_nullables(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _untyped_nullables(value, f"{path}/{index}")
    return found


def test_a_nullable_part_of_a_rule_sets_shapes_states_its_type(schemas: dict[str, Any]) -> None:
    """OpenAPI 3.0 allows ``nullable`` only beside a ``type`` (openapi-typescript refuses the
    schema otherwise): a rule set's nullable ``oneOf`` gets ``null`` as an alternative."""
    assert _untyped_nullables(schemas, "#/components/schemas") == []
    doppelkopf = schemas["DoppelkopfHandView"]["properties"]["own_reservation"]
    assert {"type": "object", "nullable": True, "enum": [None]} in doppelkopf["oneOf"]


@by_rule_set
def test_a_rule_set_that_keeps_rounds_declares_their_shape(
    schemas: dict[str, Any], rs: engine.RuleSet[Any, Any, Any]
) -> None:
    """A table's ``round`` (``TableSerializer.round``) is the rule set's own shape
    (``Shapes.round``), closed; a rule set without rounds has none in the schema."""
    name = f"{camel(rs.name)}TableRound"
    keeping = [other for other in RULE_SETS if other.shapes.round is not None]
    if rs.round_deals is None:
        assert rs.shapes.round is None
        assert name not in schemas
        return
    assert rs.shapes.round is not None
    union = schemas["TableRound"]
    own = union if len(keeping) == 1 else schemas[name]
    assert own["additionalProperties"] is False
    assert set(own["properties"]) == set(rs.shapes.round["properties"])
    if len(keeping) > 1:
        assert {"$ref": f"{REF}{name}"} in union["anyOf"]
