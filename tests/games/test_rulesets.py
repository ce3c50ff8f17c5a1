"""games.rulesets: the rule set a table plays by, and turns in words."""

from __future__ import annotations

import pytest

import engine
from games.rulesets import rule_set_for, whose_turn


def test_the_rules_variant_names_the_rule_set() -> None:
    assert rule_set_for({"variant": "wien"}) is engine.rule_set("wien")
    with pytest.raises(engine.EngineError, match="unknown variant"):
        rule_set_for({})


@pytest.mark.parametrize(
    ("acting", "text"),
    [
        ({"carl"}, "carl's"),
        ({"dora", "anna"}, "anna's or dora's"),
        ({"carl", "anna", "bert"}, "anna's, bert's or carl's"),
        (set(), "nobody's"),
    ],
)
def test_whose_turn_names_the_seats_that_may_act_in_playing_order(
    acting: set[str], text: str
) -> None:
    assert whose_turn(frozenset(acting), ("anna", "bert", "carl", "dora")) == text
