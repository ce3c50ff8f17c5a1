"""``danube-swabian`` (``spec/next/austria-variants.md``): the page's examples as given, and one
test per rule that differs from ``balkan`` and ``wien``."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.errors import EngineError
from tests.engine.family_helpers import (
    act,
    legal_values,
    play_first,
    record,
    sheet,
    state_of,
    suit,
)

DANUBE: dict[str, Any] = {"variant": "danube-swabian", "unit": 10}


# --- the page's examples (unit 10; dealer carl) -------------------------------------------------


def test_example_1_an_overtrick_and_the_artwork() -> None:
    entry = sheet(
        DANUBE,
        suit("S"),
        declarer="anna",
        tricks={"anna": 8, "bert": 1, "carl": 1},
        talon=["HK", "CK"],
    )
    result = engine.settle(entry)
    assert result["delta"] == {"anna": 40, "bert": -30, "carl": -10}
    assert result["pot"] is None and result["fallen"] == []
    assert [t["why"] for t in result["transfers"]] == ["game", "game", "artwork"]


def test_example_2_a_hand_game_two_under_with_recontra() -> None:
    entry = sheet(
        DANUBE,
        suit("H", talon=False),
        declarer="bert",
        tricks={"anna": 3, "bert": 5, "carl": 2},
        talon=["D7", "C9"],
        contra={"carl": "recontra"},
    )
    result = engine.settle(entry)
    assert result["delta"] == {"anna": 70, "bert": -350, "carl": 280}
    assert result["made"] is False and result["fallen"] == []


# --- the record ---------------------------------------------------------------------------------


def test_there_is_no_pot_and_no_ante() -> None:
    with pytest.raises(EngineError, match="unknown key 'pot'"):
        engine.replay(record(DANUBE, pot=0))
    with pytest.raises(EngineError, match="unknown rule option 'ante'"):
        engine.parse_rules({**DANUBE, "ante": 100})
    state = engine.replay(record(DANUBE))
    assert "pot" not in engine.to_record(state)


def test_an_entry_needs_the_dealt_talon() -> None:
    entry = sheet(DANUBE, suit("S"), declarer="anna", tricks={"anna": 8, "bert": 1, "carl": 1})
    with pytest.raises(EngineError, match="two cards dealt to the talon") as e:
        engine.settle(entry)
    assert e.value.at == "talon"


# --- play ---------------------------------------------------------------------------------------


def _won(*more: str, rules: dict[str, Any] = DANUBE) -> Any:
    return state_of(rules, "anna call 2", "bert call pass", "carl call pass", *more)


def test_everyone_plays_no_defence_step_and_no_give_up() -> None:
    state = _won("anna discard C7 S7", "anna declare suit D")
    assert state.phase == "contra" and state.to_act_seat == "bert"


def test_the_declarer_answers_each_contra_at_once() -> None:
    state = _won("anna discard C7 S7", "anna declare suit D", "bert contra true")
    assert state.phase == "recontra" and state.to_act_seat == "anna"
    state = act(state, "anna recontra true")
    assert state.phase == "contra" and state.to_act_seat == "carl"
    state = act(state, "carl contra true")
    state = act(state, "anna recontra false")
    assert state.phase == "play" and state.hand.playing == 0b111
    entry = engine.sheet_entry(play_first(state))
    assert entry["contra"] == {"bert": "recontra", "carl": "contra"}
    assert entry["talon"] == ["S7", "D7"]


def test_targets_count_spades_and_hand_contracts() -> None:
    rs = engine.rule_set("danube-swabian")
    from engine.rules.family.game import Game

    fam = rs.family
    assert fam.target_tricks(Game("suit", "D")) == 6  # type: ignore[attr-defined]
    assert fam.target_tricks(Game("suit", "S")) == 7  # type: ignore[attr-defined]
    assert fam.target_tricks(Game("suit", "S", talon=False)) == 8  # type: ignore[attr-defined]
    assert fam.target_tricks(Game("notrump", "sans", talon=False)) == 7  # type: ignore[attr-defined]


def test_a_made_suit_game_pays_the_base_plus_overtricks_from_each_defender() -> None:
    entry = sheet(
        DANUBE,
        suit("C"),
        declarer="anna",
        tricks={"anna": 9, "bert": 1, "carl": 0},
        talon=["D7", "S8"],
    )
    # b = 5, target 6, 3 overtricks: 8 units from each
    assert engine.settle(entry)["delta"] == {"anna": 160, "bert": -80, "carl": -80}


def test_premium_contracts_pay_the_base_only() -> None:
    entry = sheet(
        DANUBE,
        {"type": "notrump", "level": "misere", "talon": False},
        declarer="anna",
        tricks={"anna": 1, "bert": 0, "carl": 0},
        talon=["D7", "S8"],
    )
    # misère 6 + 1 for the hand, failed: 7 units to each
    assert engine.settle(entry)["delta"] == {"anna": -140, "bert": 70, "carl": 70}


def test_the_artwork_goes_to_the_sitting_out_dealer_and_not_to_himself() -> None:
    entry = sheet(
        DANUBE,
        suit("D"),
        declarer="anna",
        tricks={"anna": 6, "bert": 2, "carl": 2},
        talon=["D7", "S7"],
        seats=["anna", "bert", "carl", "dora"],
        dealer="dora",
    )
    result = engine.settle(entry)
    assert result["delta"] == {"anna": 40, "bert": -30, "carl": -30, "dora": 20}
    entry = sheet(
        DANUBE,
        suit("D"),
        declarer="carl",
        tricks={"anna": 2, "bert": 2, "carl": 6},
        talon=["D7", "S7"],
    )
    assert [t["why"] for t in engine.settle(entry)["transfers"]] == ["game", "game"]


def test_all_pass_is_thrown_in_without_payment() -> None:
    state = state_of(DANUBE, "anna call pass", "bert call pass", "carl call pass")
    result = engine.settle(engine.to_record(state))
    assert result["transfers"] == [] and result["pot"] is None
    assert legal_values(state, "call") == []


def test_a_hand_game_shows_the_talon_only_after_play() -> None:
    state = state_of(
        DANUBE,
        "anna call hand",
        "bert call pass",
        "carl call pass",
        "anna hand_contract H",
        "bert contra false",
        "carl contra false",
    )
    assert all(engine.view(state, s)["dealt_talon"] is None for s in ("anna", "bert", None))
    end = play_first(state)
    assert engine.view(end, "bert")["dealt_talon"] == ["S7", "D7"]
