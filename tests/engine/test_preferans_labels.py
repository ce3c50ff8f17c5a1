"""``preferans``'s words and refusals for readers of any language: every word its data uses has
a display label (``RuleSet.labels``), and every refusal carries a ``preferans_`` code and the
parameters its English sentence is made of (``engine.rules.preferans.messages``)."""

from __future__ import annotations

import pytest

import engine
from engine.errors import MESSAGES, IllegalAction, NotYourTurn
from engine.rules.preferans.actions import BIDS
from engine.rules.preferans.labels import LABELS, words
from tests.engine.preferans_helpers import act, calls, declare, discard, record, state, whists

PREFERANS = engine.rule_set("preferans")
OWN = {c: m for c, m in MESSAGES.items() if m.module.startswith("engine.rules.preferans")}


def refused(s: object, data: dict[str, object]) -> engine.EngineError:
    with pytest.raises(engine.EngineError) as e:
        act(s, data)  # type: ignore[arg-type]
    return e.value


def test_every_word_of_the_rule_set_has_a_label() -> None:
    assert PREFERANS.labels == LABELS
    assert [word for word in words() if word not in LABELS] == []
    assert {f"call:{bid}" for bid in BIDS} <= set(LABELS)
    assert LABELS["call:7NT"] == "7 no trumps"
    assert LABELS["game:raspasy"] == "Raspasy"
    assert (LABELS["sheet:pool"], LABELS["sheet:mountain"]) == ("Pulya", "Gora")


def test_the_refusals_are_prefixed_and_each_code_is_one_sentence() -> None:
    assert len(OWN) > 100
    assert all(code.startswith("preferans_") for code in OWN)
    assert len({m.template for m in OWN.values()}) == len(OWN)


def test_a_refusal_out_of_turn_names_the_phase_in_its_code() -> None:
    error = refused(state(calls("anna 6S")), {"seat": "carl", "call": "pass"})
    assert isinstance(error, NotYourTurn)
    assert error.code == "preferans_not_your_turn_call"
    assert error.params == {"due": "bert", "seat": "carl"}
    assert error.message == "it is bert's turn to call, not carl's"


def test_a_refused_hold_carries_its_reason_as_its_code() -> None:
    s = state(calls("anna pass", "bert 6S"))
    error = refused(s, {"seat": "carl", "call": "hold"})
    assert isinstance(error, IllegalAction)
    assert (error.code, error.params) == ("preferans_hold_senior_only", {"seat": "carl"})


def test_a_refusal_in_a_record_keeps_its_code_where_the_record_names_it() -> None:
    actions = [
        *calls("anna 6S", "bert pass", "carl pass"),
        *discard("anna", "C7", "D8"),
        *declare("anna", "7H"),
        *whists("bert whist", "carl half"),
    ]
    with pytest.raises(IllegalAction) as e:
        engine.replay(record(actions=actions))
    assert (e.value.at, e.value.code) == ("actions[6]", "preferans_half_first_whisted")


def test_a_pulya_names_the_deal_of_a_refusal_and_keeps_its_code() -> None:
    pulya = {
        "rules": {"variant": "preferans", "convention": "sochi", "pool_target": 10},
        "seats": ["anna", "bert", "carl"],
        "dealer": "carl",
        "deals": [{"game": {"type": "raspasy"}, "tricks": {"anna": 3, "bert": 3, "carl": 3}}],
    }
    with pytest.raises(engine.EngineError) as e:
        engine.settle(pulya)
    assert (e.value.at, e.value.code) == ("deals[0].tricks", "preferans_tricks_sum")
    assert e.value.params == {"total": "9"}
