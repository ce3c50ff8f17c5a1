"""``trickgame`` in the schema generated in the test process (``tests.openapi``: the test
settings registered the game, ``make schema`` does not) and in a Python client generated
from it: the rule set's rules, actions, view, Result, games and score-sheet row each a
component of its own, built from its declared options, vocabulary and shapes.

The strict check (``tests/config/test_strict_schema.py``) runs over every offered rule set and
so over this one: every key its answers carry must be documented there.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.generated import generated_once
from tests.openapi import generated_schema
from tests.trickgame import RULE_SET

SCHEMAS = "#/components/schemas/"
COMPONENTS = ("Rules", "Action", "HandView", "Result", "Game", "SheetRow")


def reachable(schemas: dict[str, Any], node: Any, seen: set[str] | None = None) -> Iterator[Any]:
    """Every schema reachable from ``node`` (``$ref``s followed once each)."""
    seen = set() if seen is None else seen
    if isinstance(node, list):
        for item in node:
            yield from reachable(schemas, item, seen)
        return
    if not isinstance(node, dict):
        return
    yield node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(SCHEMAS):
        name = ref.removeprefix(SCHEMAS)
        if name not in seen:
            seen.add(name)
            yield from reachable(schemas, schemas[name], seen)
    for value in node.values():
        yield from reachable(schemas, value, seen)


def keys_and_values(component: str) -> tuple[set[str], set[Any]]:
    """The property names and enum values reachable from ``component``."""
    schemas = generated_schema()["components"]["schemas"]
    keys: set[str] = set()
    values: set[Any] = set()
    for node in reachable(schemas, schemas[component]):
        keys |= set(node.get("properties", {}))
        values |= {v for v in node.get("enum", []) if isinstance(v, str)}
    return keys, values


@pytest.mark.parametrize("part", COMPONENTS)
def test_the_schema_has_a_component_of_each_part_of_the_game(part: str) -> None:
    assert f"Trickgame{part}" in generated_schema()["components"]["schemas"]


def test_its_rules_and_actions_come_from_its_options_and_vocabulary() -> None:
    keys, values = keys_and_values("TrickgameRules")
    assert {o.name for o in RULE_SET.options} <= keys and {"high_bid", "forehand"} <= values
    keys, values = keys_and_values("TrickgameAction")
    assert {"bid", "card"} <= keys and set(RULE_SET.deck.codes) <= values


@pytest.mark.parametrize(
    ("component", "keys"),
    [
        ("TrickgameHandView", {"bids", "needs"}),
        ("TrickgameResult", {"bids", "exact"}),
        ("TrickgameSheetRow", {"bids", "exact"}),
        ("TrickgameGame", {"high_bid"}),
    ],
)
def test_its_own_keys_are_documented(component: str, keys: set[str]) -> None:
    assert keys <= keys_and_values(component)[0]


def test_its_games_reasons_and_phases_are_documented() -> None:
    assert {"quiet", "contest", "sweep"} <= keys_and_values("TrickgameGame")[1]
    assert set(RULE_SET.shapes.reasons) <= keys_and_values("TrickgameResult")[1]
    assert set(RULE_SET.phases) <= keys_and_values("TrickgameHandView")[1]


@pytest.mark.slow
def test_a_client_generated_from_the_schema_has_a_class_for_each_part() -> None:
    """``openapi-python-client`` (as ``make clients`` runs it) on the schema of the test
    process: the game's view, Result, sheet row and rules are classes, and so is each form of
    its game and action (a union is no class of its own); a sheet row of the game reads into
    its class and back unchanged. (The client is kept for the next run while the schema and
    the generator stay the same: tests/generated.py.)"""
    schema = yaml.safe_dump(generated_schema(), sort_keys=False)

    def generate(where: Path) -> None:
        (where / "openapi.yaml").write_text(schema)
        generator = Path(sys.executable).parent / "openapi-python-client"
        done = subprocess.run(
            [str(generator), "generate", "--path", str(where / "openapi.yaml"), "--meta", "none",
             "--output-path", str(where / "client")],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr

    inputs = [schema, f"openapi-python-client {version('openapi-python-client')} --meta none"]
    kept = generated_once("trickgame-client", inputs, generate)
    sys.path.insert(0, str(kept))
    try:
        models = importlib.import_module("client.models")
        for part in COMPONENTS:
            for name in classes(f"Trickgame{part}"):
                assert hasattr(models, name), name
        result = RULE_SET.settle_outcome(
            RULE_SET.parse_sheet(
                {
                    "bids": {"a": 4, "b": 0, "c": 1, "d": 0},
                    "taken": {"a": 4, "b": 0, "c": 0, "d": 0},
                },
                common(),
            )
        )
        own = {k: result[k] for k in ("bids", "exact")}
        read = models.TrickgameSheetRow.from_dict(RULE_SET.sheet_row(result))
        assert read.to_dict() == own
    finally:
        sys.path.remove(str(kept))
        for name in [m for m in sys.modules if m == "client" or m.startswith("client.")]:
            del sys.modules[name]


def classes(component: str) -> list[str]:
    """The generated classes of ``component``: its alternatives' where it is a union of
    components, else its own."""
    schema = generated_schema()["components"]["schemas"][component]
    union = schema.get("oneOf", schema.get("anyOf", []))
    refs = [a["$ref"].removeprefix(SCHEMAS) for a in union if "$ref" in a]
    return refs or [component]


def common() -> Any:
    from engine.ruleset import Common

    rules = RULE_SET.parse_rules(RULE_SET.examples[0])
    return Common(rules, ("a", "b", "c", "d"), "d", {})
