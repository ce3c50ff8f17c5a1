"""What the engine exports reads as its page says (``spec/hand-record.md``, ``spec/next/``):
every registered rule set's records of finished hands (the full record of ``GET
…/hands/{n}/record/`` and the score-sheet entry) name only options the rule set declares, each
with a value the option allows and the page writes (``null`` only where the page allows it,
an option without a value left out), and they read back through the engine to the same
state and the same settlement.

Another program reads our exports by the pages, not by our reader, so a value our reader
happens to accept (``"whist_value": null``) is still wrong in an export."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine.bots import random_bot
from engine.rules import AnyRuleSet

RULE_SETS = engine.rule_sets(include_engine_only=True)
NAMES = ("anna", "bert", "carl", "dora")
HANDS = 6

#: The options whose page lets a record spell ``null``; every other option has a value or is
#: left out.
PAGE_NULLS = {
    ("wien", "pot_cap"): "wien.md, Options: pot_cap required, may be null for no cap",
    ("doppelkopf", "hochzeit_deadline"): "doppelkopf.md, Options: default null",
    ("doppelkopf-ddv", "hochzeit_deadline"): "doppelkopf.md, Options: default null",
}

by_rule_set = pytest.mark.parametrize("rs", RULE_SETS, ids=[rs.name for rs in RULE_SETS])


def finished_hands(rs: AnyRuleSet) -> list[Any]:
    """A few hands of every example rules, played to the end by the random bot (seeded)."""
    out = []
    for k, rules in enumerate(rs.examples):
        for n in range(HANDS):
            rng = random.Random(1000 * k + n)
            seats = list(NAMES[: rs.table.seats[n % len(rs.table.seats)]])
            dealer = seats[n % len(seats)]
            carry = rs.carry_examples[n % len(rs.carry_examples)]
            order, _ = rs.shuffled_deck(rng)
            deal = rs.deal_from_deck(order, rs.active_seats(seats, dealer))
            state = engine.replay(
                {"rules": rules, "seats": seats, "dealer": dealer, **carry, "deal": deal}
            )
            while not state.is_over:
                state = engine.apply(state, random_bot.choose(state, rng))
            out.append(state)
    return out


def check_rules(rs: AnyRuleSet, rules: dict[str, Any]) -> None:
    """Every option named is declared and has a value its option reads; null only where the
    page allows it; every required option is there."""
    assert rules["variant"] == rs.name
    options = {o.name: o for o in rs.options}
    for name, value in rules.items():
        if name == "variant":
            continue
        assert name in options, f"{rs.name}: {name} is no option of the rule set"
        if value is None:
            assert (rs.name, name) in PAGE_NULLS, f"{rs.name}: {name} is null; leave it out"
        options[name].read(value)
    for name, option in options.items():
        if option.required:
            assert name in rules, f"{rs.name}: the required option {name} is missing"


@by_rule_set
def test_exported_rules_name_only_declared_options_with_values_the_page_allows(
    rs: AnyRuleSet,
) -> None:
    for example in rs.examples:
        check_rules(rs, engine.parse_rules(example).to_json())
    for state in finished_hands(rs)[:2]:
        check_rules(rs, engine.to_record(state)["rules"])
        check_rules(rs, engine.sheet_entry(state)["rules"])


@by_rule_set
def test_exported_records_read_back_to_the_same_hand_and_settlement(rs: AnyRuleSet) -> None:
    for state in finished_hands(rs):
        full = json.loads(json.dumps(engine.to_record(state)))
        again = engine.replay(full)
        assert again == state
        assert engine.to_record(again) == full
        entry = json.loads(json.dumps(engine.sheet_entry(state)))
        allowed = {"rules", "seats", "dealer", *rs.carry.keys, *rs.carry.optional, *rs.sheet_keys}
        assert set(entry) <= allowed, f"{rs.name}: {sorted(set(entry) - allowed)}"
        assert engine.settle(entry) == engine.settle(full)
        assert engine.sheet_entry(engine.replay(full)) == entry
