"""A rule set's options as data (``engine.options``) and ``python -m engine rules``, which lists
every registered rule set with its options, defaults, actions and an example."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest

import engine
from engine.__main__ import main
from engine.options import BOOLEAN, CHOICE, INTEGER, OBJECT, Option, example_rules, read_options

OPTIONS = (
    Option(
        "stake",
        INTEGER,
        "what a game is worth",
        minimum=10,
        multiple_of=10,
        unit="cents",
        example=100,
    ),
    Option(
        "cap",
        INTEGER,
        "the most a game is worth",
        minimum=1,
        maximum=500,
        nullable=True,
        default=None,
    ),
    Option("who", CHOICE, "who holds", default="rearhand", choices=("rearhand", "middlehand")),
    Option("open", BOOLEAN, "open play", default=False),
    Option(
        "rewards",
        OBJECT,
        "units per trick by suit",
        default={"S": 1},
        check=lambda value, at: value if isinstance(value, dict) else _refuse(at),
        schema={"type": "object"},
    ),
)


def _refuse(at: str) -> Any:
    raise engine.EngineError(at, "rewards must be an object")


def refusal(data: Any) -> tuple[str, str]:
    with pytest.raises(engine.EngineError) as refused:
        read_options("test", OPTIONS, data)
    return refused.value.at, refused.value.message


def test_omitted_options_take_their_defaults_and_given_ones_are_kept() -> None:
    assert read_options("test", OPTIONS, {"variant": "test", "stake": 20}) == {
        "stake": 20,
        "cap": None,
        "who": "rearhand",
        "open": False,
        "rewards": {"S": 1},
    }
    given = {"stake": 30, "cap": 500, "who": "middlehand", "open": True, "rewards": {"H": 4}}
    assert read_options("test", OPTIONS, given) == given


@pytest.mark.parametrize(
    ("data", "at", "message"),
    [
        ([], "rules", "rules must be an object"),
        ({}, "rules.stake", "stake is required"),
        ({"stake": 10, "colour": 1}, "rules.colour", "unknown rule option 'colour' for test"),
        ({"stake": 15}, "rules.stake", "of cents of at least 10 divisible by 10, not 15"),
        ({"stake": 0}, "rules.stake", "not 0"),
        ({"stake": True}, "rules.stake", "not True"),
        ({"stake": 10.0}, "rules.stake", "not 10.0"),
        ({"stake": None}, "rules.stake", "not None"),
        ({"stake": 10, "cap": 501}, "rules.cap", "from 1 to 500 or null, not 501"),
        ({"stake": 10, "who": "dealer"}, "rules.who", "one of 'rearhand', 'middlehand'"),
        ({"stake": 10, "open": 1}, "rules.open", "open must be true or false, not 1"),
        ({"stake": 10, "rewards": []}, "rules.rewards", "rewards must be an object"),
    ],
)
def test_a_bad_option_is_refused_with_a_sentence_naming_it(
    data: Any, at: str, message: str
) -> None:
    found_at, found = refusal(data)
    assert found_at == at
    assert message in found


def test_an_option_describes_itself_for_listings_and_schemas() -> None:
    stake, cap, who, _, rewards = OPTIONS
    assert stake.to_json() == {
        "name": "stake",
        "kind": "integer",
        "required": True,
        "example": 100,
        "minimum": 10,
        "multiple_of": 10,
        "unit": "cents",
        "description": "what a game is worth",
    }
    assert cap.json_schema() == {"type": "integer", "minimum": 1, "maximum": 500, "nullable": True}
    assert who.json_schema() == {"type": "string", "enum": ["rearhand", "middlehand"]}
    assert rewards.json_schema() == {"type": "object"}
    assert example_rules("test", OPTIONS) == {"variant": "test", "stake": 100}


def test_an_option_of_an_unknown_kind_or_without_choices_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        Option("x", "float", "")
    with pytest.raises(ValueError):
        Option("x", CHOICE, "")
    with pytest.raises(ValueError):
        Option("x", OBJECT, "")


def listing() -> dict[str, Any]:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["rules"]) == 0
    found: dict[str, Any] = json.loads(out.getvalue())
    return found


def test_the_cli_lists_every_rule_set_with_its_options_actions_and_an_example() -> None:
    listed = {r["variant"]: r for r in listing()["rule_sets"]}
    every = engine.rule_sets(include_engine_only=True)
    assert list(listed) == [rs.name for rs in every]
    for rs in every:
        entry = listed[rs.name]
        assert entry["description"] == rs.description
        assert entry["unit"] in ("cents", "points")
        assert [o["name"] for o in entry["options"]] == [o.name for o in rs.options]
        assert [a["key"] for a in entry["actions"]] == [f.key for f in rs.vocabulary]
        assert engine.parse_rules(entry["example"]).variant == rs.name
        # every option not given takes its listed default (an option whose default is no
        # value, such as Preferans's whist_value, may be left out of the spelled rules)
        spelled = engine.parse_rules(entry["example"]).to_json()
        for option in entry["options"]:
            if "default" in option and option["name"] not in entry["example"]:
                assert option["name"] in spelled or option["default"] is None, option["name"]
                assert spelled.get(option["name"]) == option["default"], option["name"]


def test_wien_lists_its_five_options_with_the_specs_defaults() -> None:
    wien = next(r for r in listing()["rule_sets"] if r["variant"] == "wien")
    assert {o["name"]: o.get("default", "required") for o in wien["options"]} == {
        "dealer_contribution": "required",
        "pot_cap": "required",
        "holding_after_forehand": "rearhand",
        "invitation_tricks": "inviter",
        "pot_at_close": "carry",
    }
    assert wien["players"] == 3 and wien["seats"] == [3, 4] and wien["carry"] == ["pot"]
