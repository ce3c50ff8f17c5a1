"""Conformance: every registered rule set keeps the promises of the seam, on random hands.

Parametrised over every registered rule set, the engine-only ones included
(``engine.rule_sets(include_engine_only=True)``: a new rule set is checked the moment it is
registered), with Hypothesis drawing the table (one of the rule set's example rules, a
number of seats its table allows, a dealer, an example carry), a shuffled deck dealt the rule
set's way, and a move policy:

- random bots through ``legal_actions`` always finish a hand, and only seats in ``to_act``
  have legal actions;
- replaying a record gives the same state, and the record survives JSON unchanged;
- every deal's payments sum to zero with the carry, and closing the table balances too; a rule
  set scoring in points instead settles the sheet after the deal, which sums to zero;
- no view shows a card its seat may not know (``known``), and a view does not change when the
  cards hidden from its seat are dealt differently;
- every legal action has a key of the rule set's vocabulary (``RuleSet.vocabulary``) and a
  value its form allows (the API documents action bodies from it), and reads back the same.

The checks use the engine's public functions and the rule set's data only, nothing of any one
rule set; ``test_properties.py`` checks wien's own rules over random hands.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.actions import action_to_json
from engine.bots import random_bot
from engine.rules import AnyRuleSet
from engine.transfers import totals
from tests.cards import cards_in, swap_hidden
from tests.draws import draws

RULE_SETS = engine.rule_sets(include_engine_only=True)
NAMES = ("anna", "bert", "carl", "dora", "emil", "fritz")
MAX_ACTIONS = 1000

by_rule_set = pytest.mark.parametrize("rs", RULE_SETS, ids=[rs.name for rs in RULE_SETS])


@dataclass(frozen=True)
class Deal:
    """A deal about to be played: its full record (no actions yet) and how to play it."""

    record: dict[str, Any]
    policy: str
    seed: int


@st.composite
def deals(draw: st.DrawFn, rs: AnyRuleSet) -> Deal:
    rules = draw(st.sampled_from(rs.examples))
    n = draw(st.sampled_from(rs.table.seats))
    seats = list(draw(st.permutations(NAMES)))[:n]
    dealer = draw(st.sampled_from(seats))
    carry = draw(st.sampled_from(rs.carry_examples))
    seed = draw(st.integers(0, 2**32 - 1))
    order, _ = rs.shuffled_deck(random.Random(seed))
    deal = rs.deal_from_deck(order, rs.active_seats(seats, dealer))
    record = {"rules": rules, "seats": seats, "dealer": dealer, **carry, "deal": deal}
    return Deal({**record, "actions": []}, draw(st.sampled_from(("bot", "uniform"))), seed)


def play(deal: Deal, each_step: Callable[[Any, random.Random], None] | None = None) -> Any:
    """Play ``deal`` to the end through ``to_act`` and ``legal_actions``, checking on the way
    that exactly the seats to act have legal actions and that the chosen action is one of
    them. (An action's ``seat`` is the hand it is about; the seat that may send it is the one
    whose legal actions list it: Preferans's whister sends the passer's cards.)"""
    rng = random.Random(deal.seed)
    state = engine.replay(deal.record)
    for _ in range(MAX_ACTIONS):
        who = engine.to_act(state)
        if not who:
            assert state.is_over
            assert engine.legal_actions(state) == []
            return state
        assert not state.is_over and who <= set(state.seats)
        legal = {seat: engine.legal_actions(state, seat) for seat in state.seats}
        assert all(legal[s] for s in who), "a seat to act has nothing to do"
        assert not any(legal[s] for s in state.seats if s not in who)
        rs = engine.rule_set(state.rules.variant)
        assert all(rs.sender(state, a.seat) == s for s in who for a in legal[s])
        if each_step is not None:
            each_step(state, rng)
        if deal.policy == "bot":
            action = random_bot.choose(state, rng)
            assert any(action in legal[s] for s in who)
        else:
            action = rng.choice(legal[rng.choice(sorted(who))])
        state = engine.apply(state, action)
    raise AssertionError(f"the hand did not end within {MAX_ACTIONS} actions")


# ---------------------------------------------------------------------------------------------


@by_rule_set
def test_a_rule_sets_data_fits_together(rs: AnyRuleSet) -> None:
    """The deal shares out the whole deck; the examples are valid rules and carries; the
    carry has a unit; the name is the registered variant."""
    dealing, deck = rs.dealing, rs.deck
    piles = sum(dealing.pile_size(p) for p in dealing.piles)
    assert dealing.hand_size * rs.table.players + piles == deck.size
    assert rs.examples and rs.carry_examples
    for rules in rs.examples:
        assert engine.parse_rules(rules).to_json()["variant"] == rs.name
        assert rs.parse_rules(rules).to_json() == engine.parse_rules(rules).to_json()
    for carry in rs.carry_examples:
        assert set(carry) <= {*rs.carry.keys, *rs.carry.optional}
        rs.read_carry(carry)
    assert rs.carry.unit in ("cents", "points")
    assert not set(rs.table.reserved) & set(NAMES)
    assert min(rs.table.seats) >= rs.table.players


@by_rule_set
@settings(max_examples=draws(100))
@given(data=st.data())
def test_every_legal_action_and_every_phase_is_one_the_rule_set_declares(
    rs: AnyRuleSet, data: st.DataObject
) -> None:
    forms = {f.key: jsonschema.Draft7Validator(dict(f.schema)) for f in rs.vocabulary}
    assert forms, f"{rs.name} declares no action vocabulary (RuleSet.vocabulary)"
    assert len(forms) == len(rs.vocabulary), "a key is declared twice"
    assert all(f.description for f in rs.vocabulary)

    def check(state: Any, rng: random.Random) -> None:
        phase = engine.view(state, None).get("phase")
        assert phase is None or phase in rs.phases, f"{rs.name}: phase {phase!r} not in phases"
        for seat in sorted(engine.to_act(state)):
            for action in engine.legal_actions(state, seat):
                body = action_to_json(action, rs.deck)
                ((key, value),) = ((k, v) for k, v in body.items() if k != "seat")
                assert key in forms, f"{rs.name}: {key!r} is not in RuleSet.vocabulary"
                forms[key].validate(value)
                assert rs.action_from_json(body, "action") == action

    play(data.draw(deals(rs)), check)


@by_rule_set
@settings(max_examples=draws(300))
@given(data=st.data())
def test_random_bots_through_legal_actions_always_finish_a_hand(
    rs: AnyRuleSet, data: st.DataObject
) -> None:
    state = play(data.draw(deals(rs)))
    assert state.is_over and not engine.to_act(state)


@by_rule_set
@settings(max_examples=draws(200))
@given(data=st.data())
def test_replaying_a_record_gives_the_same_state_and_the_same_json(
    rs: AnyRuleSet, data: st.DataObject
) -> None:
    midway: list[Any] = []

    def keep(state: Any, rng: random.Random) -> None:
        if not midway or rng.random() < 0.1:
            midway[:] = [state]

    deal = data.draw(deals(rs))
    end = play(deal, keep)
    for state in (*midway, end):
        record = engine.to_record(state)
        text = json.dumps(record)
        again = engine.replay(json.loads(text))
        assert again == state
        assert json.dumps(engine.to_record(again)) == text
    dealt = {k: sorted(v) for k, v in deal.record["deal"].items()}
    assert {k: sorted(v) for k, v in engine.to_record(end)["deal"].items()} == dealt
    sheet = json.loads(json.dumps(engine.sheet_entry(end)))
    assert engine.settle(sheet) == engine.settle(engine.to_record(end))


@by_rule_set
@settings(max_examples=draws(200))
@given(data=st.data())
def test_every_deal_balances_with_the_carry(rs: AnyRuleSet, data: st.DataObject) -> None:
    deal = data.draw(deals(rs))
    record = engine.to_record(play(deal))
    result = engine.settle(record)
    party, seats = rs.carry.party, record["seats"]
    if rs.carry.unit == "points":
        check_points(rs, record, result)
        return
    if rs.carry.unit != "cents":
        pytest.fail(f"{rs.name} scores in {rs.carry.unit}: give its results a balance check")
    assert set(result["delta"]) == set(seats)
    for t in result["transfers"]:
        assert type(t["amount"]) is int and t["amount"] > 0 and t["from"] != t["to"]
        assert {t["from"], t["to"]} <= {*seats, party}
    if party is None:
        assert sum(result["delta"].values()) == 0
        return
    before = record[party]
    after = rs.carry_after(result)[party]
    assert totals(result["transfers"], seats, party, before) == (result["delta"], after)
    assert sum(result["delta"].values()) + after - before == 0
    assert after >= 0
    closing = rs.close(rs.parse_rules(record["rules"]), seats, after)
    paid = 0
    for t in closing.transfers:
        assert t["from"] == party and t["to"] in seats and t["amount"] > 0
        paid += t["amount"]
    assert paid + closing.carry[party] == after


def check_points(rs: AnyRuleSet, record: dict[str, Any], result: dict[str, Any]) -> None:
    """A points result (a score sheet, Preferans) balances when its sheet is settled: the
    sheet after the deal (without a sheet before it, the deal's own ``entry``) settles to
    results that sum to zero, and closing the table pays as much as it receives."""
    after = rs.carry_after(result)
    sheet = after.get("sheet", result.get("entry"))
    assert sheet is not None, f"{rs.name}: a points result names its sheet or entry"
    settled = engine.settle({"rules": record["rules"], "seats": record["seats"], "sheet": sheet})
    assert sum(settled["result"].values()) == 0
    assert sum(settled["result_n"].values()) == 0
    rules = rs.parse_rules(record["rules"])
    closing = rs.close(rules, record["seats"], rs.read_carry({**after, "sheet": sheet}))
    assert sum(t["amount"] for t in closing.transfers) == sum(
        v for v in settled.get("money", {}).values() if v > 0
    )


@by_rule_set
@settings(max_examples=draws(150))
@given(data=st.data())
def test_no_view_shows_a_card_its_seat_may_not_know(rs: AnyRuleSet, data: st.DataObject) -> None:
    """Before the end of the hand, a seat's view (every seat's, and a spectator's) holds no
    card outside ``known``; and it stays the same when the cards hidden from that seat (not
    known to it, not named by any action) are dealt differently among the others."""

    def check(state: Any, rng: random.Random) -> None:
        if rng.random() > 0.2:
            return
        record = engine.to_record(state)
        for seat in rng.sample([*state.seats, None], 2):
            view = engine.view(state, seat)
            known = set(rs.deck.codes_of(engine.known(state, seat)))
            leaked = cards_in(view, rs.deck.codes) - known
            assert not leaked, f"{seat} sees {sorted(leaked)}"
            other = swap_hidden(
                record, seat, known | cards_in(record["actions"], rs.deck.codes), rng
            )
            try:
                alt = engine.replay(other)
            except engine.EngineError:
                continue  # the moved cards made a played card illegal: not the same hand
            assert engine.view(alt, seat) == view, seat

    play(data.draw(deals(rs)), check)
