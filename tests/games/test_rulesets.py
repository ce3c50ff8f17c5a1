"""games.rulesets: the rule set a table plays by, and turns in words."""

from __future__ import annotations

import pytest

import engine
from games.rulesets import parse_offered_rules, rule_set_for, shares_pot_at_close, whose_turn


def test_the_rules_variant_names_the_rule_set() -> None:
    assert rule_set_for({"variant": "wien"}) is engine.rule_set("wien")
    with pytest.raises(engine.EngineError, match="must name a variant"):
        rule_set_for({})  # no favourite: a missing variant is an error, never wien
    with pytest.raises(engine.EngineError, match="unknown variant"):
        rule_set_for({"variant": "skat"})


def test_a_rules_object_a_club_may_choose_names_its_variant() -> None:
    with pytest.raises(engine.EngineError, match="^rules.variant: rules must name a variant"):
        parse_offered_rules({"dealer_contribution": 100})
    with pytest.raises(engine.EngineError, match="^rules.variant: unknown variant 'skat'"):
        parse_offered_rules({"variant": "skat"})
    assert parse_offered_rules(WIEN).variant == "wien"


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


WIEN = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
DOPPELKOPF = {"variant": "doppelkopf", "base": 20, "ante": 10}


@pytest.mark.parametrize(
    ("rules", "shared"),
    [
        (WIEN, False),  # wien.md "End of a sitting": pot_at_close carry, the default
        ({**WIEN, "pot_at_close": "split"}, True),
        (DOPPELKOPF, False),  # kasse_at_close carry, the default
        ({**DOPPELKOPF, "kasse_at_close": "split"}, True),
        ({"variant": "preferans", "convention": "sochi", "pool_target": 20}, False),  # no pot
        ({"variant": "trickgame"}, False),  # players pay one another
    ],
)
def test_whether_a_close_shares_the_pot_is_the_rule_sets_close(
    rules: dict[str, object], shared: bool
) -> None:
    """Who keeps the pot (the payments' sentences) is asked of the rule set's close, whatever
    its option is called."""
    assert shares_pot_at_close(rules) is shared
