"""``balkan`` (``spec/next/austria-variants.md``): the page's examples as given, and one test per
rule that differs from ``wien``."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.errors import EngineError
from tests.engine.family_helpers import (
    act,
    deltas,
    legal,
    legal_values,
    play_first,
    record,
    sheet,
    state_of,
    suit,
)

BALKAN: dict[str, Any] = {"variant": "balkan", "unit": 1, "ante": 100}
#: dealt 5-2-5: forehand's 5, middlehand's 5, rearhand's 5, the talon, 5 each again
DEAL = {
    "anna": "DA DK DQ DJ DT D9 SA SK CA C7",
    "bert": "CK CQ CJ CT C9 C8 SQ SJ ST S9",
    "carl": "HA HK HQ HJ HT H9 H8 H7 D8 S8",
}


def notrump(level: str, talon: bool = True) -> dict[str, Any]:
    return {"type": "notrump", "level": level, "talon": talon}


# --- the page's examples (unit 1; carl deals; pot 1000) -----------------------------------------


def test_example_1_a_defender_short_of_two() -> None:
    entry = sheet(
        BALKAN,
        suit("H"),
        declarer="anna",
        defence={"bert": "play", "carl": "play"},
        tricks={"anna": 7, "bert": 2, "carl": 1},
        pot=1000,
    )
    result = engine.settle(entry)
    assert deltas(result) == (56, 16, -32)
    assert result["pot"] == 960 and result["fallen"] == ["carl"]


def test_example_2_hand_contra_recontra() -> None:
    entry = sheet(
        BALKAN,
        suit("C", talon=False),
        declarer="bert",
        defence={"carl": "play", "anna": "home"},
        contra={"by": "carl", "recontra": True},
        tricks={"anna": 3, "bert": 5, "carl": 2},
        pot=1000,
    )
    result = engine.settle(entry)
    assert deltas(result) == (0, -720, 240)
    assert result["pot"] == 1480 and result["fallen"] == ["bert"]


def test_example_3_an_open_refa_doubles_and_is_used_up() -> None:
    rules = {**BALKAN, "refe_limit": 4}
    entry = sheet(
        rules,
        notrump("misere"),
        declarer="carl",
        tricks={"anna": 6, "bert": 4, "carl": 0},
        pot=1000,
        refe={"carl": 1},
        refe_written=1,
    )
    result = engine.settle(entry)
    assert deltas(result) == (0, 0, 240)
    assert result["refe"] == {"anna": 0, "bert": 0, "carl": 0} and result["refe_written"] == 1


# --- the deal and the auction ------------------------------------------------------------------


def test_the_deal_is_five_two_five() -> None:
    rs = engine.rule_set("balkan")
    order = [f"{s}{r}" for s in "CSDH" for r in "789TJQKA"]
    deal = rs.deal_from_deck(order, ["anna", "bert", "carl"])
    assert deal["anna"] == order[0:5] + order[17:22]
    assert deal["talon"] == order[15:17]


def test_number_bids_go_up_one_at_a_time_and_hand_is_a_first_call() -> None:
    state = state_of(BALKAN, pot=1000)
    assert legal_values(state, "call") == ["pass", "2", "hand"]
    state = act(state, "anna call 2")
    assert legal_values(state, "call") == ["pass", "3", "hand"]
    state = act(act(state, "bert call 3"), "carl call pass")
    assert legal_values(state, "call") == ["pass", "4"]  # anna's first call is made


def test_the_top_bid_is_the_top_code() -> None:
    rules = {**BALKAN, "contracts": "sans_uno_slam"}
    bids = ["anna call 2", "bert call 3", "carl call pass"]
    bids += [f"{seat} call {n}" for seat, n in zip(["anna", "bert"] * 3, range(4, 9), strict=False)]
    state = state_of(rules, *bids, pot=1000)
    assert state.to_act_seat == "bert" and legal_values(state, "call") == ["pass", "9"]
    state = act(state, "bert call 9")
    assert legal_values(state, "call") == ["pass"]


def test_after_hand_only_hand_or_pass_and_hand_callers_stand() -> None:
    state = state_of(BALKAN, "anna call 2", "bert call hand", pot=1000)
    assert legal_values(state, "call") == ["pass", "hand"]
    state = act(state, "carl call hand")
    assert state.to_act_seat == "anna" and legal_values(state, "call") == ["pass"]
    state = act(state, "anna call pass")
    assert state.phase == "hand_contract" and state.to_act_seat == "bert"
    assert legal_values(state, "hand_contract") == ["S", "D", "H", "C", "misere", "slam"]
    state = act(state, "bert hand_contract H")
    assert legal_values(state, "hand_contract") == ["C", "misere", "slam", "pass"]
    state = act(state, "carl hand_contract pass")
    assert state.declarer == "bert" and state.game.to_json() == suit("H", talon=False)
    assert engine.view(state, "bert")["talon"] is None


def test_hold_moje_is_an_option_and_only_before_hand() -> None:
    state = state_of(
        {**BALKAN, "hold": True}, "anna call 2", "bert call 3", "carl call pass", pot=1000
    )
    assert legal_values(state, "call") == ["pass", "4", "hold"]
    state = act(state, "anna call hold")
    assert "hold" not in legal_values(state, "call")
    assert "hold" not in legal_values(
        state_of(BALKAN, "anna call 2", "bert call 3", "carl call pass", pot=1000), "call"
    )


def test_a_number_bid_winner_takes_the_talon_shown_to_all() -> None:
    state = state_of(BALKAN, "anna call 2", "bert call pass", "carl call pass", pot=1000)
    assert state.phase == "discard"
    for seat in ("bert", "carl", None):
        assert engine.view(state, seat)["dealt_talon"] == ["S7", "D7"]
    state = act(state, "anna discard C7 S7")
    assert engine.view(state, "bert")["talon"] is None  # the discard is hidden
    assert [(d["type"], d["level"]) for d in legal_values(state, "declare")] == [
        ("suit", "S"),
        ("suit", "D"),
        ("suit", "H"),
        ("suit", "C"),
        ("notrump", "misere"),
        ("notrump", "slam"),
    ]


def test_all_pass_is_thrown_in_and_writes_refe() -> None:
    rules = {**BALKAN, "refe_limit": 1}
    state = state_of(rules, "anna call pass", "bert call pass", "carl call pass", pot=1000)
    result = engine.settle(engine.to_record(state))
    assert result["transfers"] == [] and result["refe_written"] == 1
    assert result["refe"] == {"anna": 1, "bert": 1, "carl": 1}
    rs = engine.rule_set("balkan")
    after = rs.carry_after(result)
    assert after == {"pot": 1000, "refe": {"anna": 1, "bert": 1, "carl": 1}, "refe_written": 1}
    again = state_of(
        rules,
        "anna call pass",
        "bert call pass",
        "carl call pass",
        pot=1000,
        refe=after["refe"],
        refe_written=1,
    )
    assert engine.settle(engine.to_record(again))["refe"] == after["refe"]  # limit reached


def test_refe_keys_are_errors_without_refe() -> None:
    with pytest.raises(EngineError, match="only with refe_limit above 0"):
        engine.replay(record(BALKAN, DEAL, pot=0, refe={"anna": 1}))


# --- defence, give-up, contra ------------------------------------------------------------------


def _declared(rules: dict[str, Any], contract: str, *more: str) -> Any:
    kind = "notrump" if contract in ("misere", "sans", "uno", "slam") else "suit"
    return state_of(
        rules,
        "anna call 2",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        f"anna declare {kind} {contract}",
        *more,
        pot=1000,
    )


def test_suit_contracts_ask_play_or_home_then_give_up_then_contra() -> None:
    state = _declared(BALKAN, "D", "bert defence play", "carl defence home")
    assert legal_values(state, "defence") == ["invite", "alone"]
    state = act(state, "bert defence alone")
    assert state.phase == "give_up"
    state = act(state, "anna give_up false")
    assert state.phase == "contra" and state.to_act_seat == "bert"
    state = act(state, "bert contra true")
    assert state.phase == "recontra" and state.to_act_seat == "anna"
    state = act(state, "anna recontra false")
    assert state.phase == "play" and state.hand.playing == 0b111  # carl must play now
    end = play_first(state)
    entry = engine.sheet_entry(end)
    assert entry["defence"] == {"bert": "play", "carl": "home"}
    assert entry["contra"] == {"by": "bert", "recontra": False}
    assert set(entry["tricks"]) == {"anna", "bert", "carl"}


def test_premium_contracts_are_played_by_both_without_a_defence_step() -> None:
    state = _declared(BALKAN, "misere")
    assert state.phase == "give_up"
    state = act(state, "anna give_up false")
    assert state.phase == "contra" and state.to_act_seat == "bert"
    state = act(act(state, "bert contra false"), "carl contra false")
    assert state.phase == "play" and state.game.trump is None


def test_giving_up_pays_twenty_b_into_the_pot_and_is_no_fall() -> None:
    state = _declared(BALKAN, "H", "bert defence play", "carl defence play", "anna give_up true")
    result = engine.settle(engine.to_record(state))
    assert result["transfers"] == [{"from": "anna", "to": "pot", "amount": 80, "why": "giveup"}]
    assert result["fallen"] == [] and result["made"] is False


def test_both_home_is_made_without_play() -> None:
    state = _declared(BALKAN, "C", "bert defence home", "carl defence home")
    assert state.is_over
    assert deltas(engine.settle(engine.to_record(state))) == (100, 0, 0)


def test_with_an_invitation_only_the_inviter_is_asked_contra() -> None:
    state = _declared(
        BALKAN,
        "D",
        "bert defence home",
        "carl defence play",
        "carl defence invite",
        "anna give_up false",
    )
    assert state.phase == "contra" and state.to_act_seat == "carl"
    state = act(state, "carl contra false")
    assert state.phase == "play"


def test_an_uno_stops_at_the_declarers_second_trick() -> None:
    rules = {**BALKAN, "contracts": "sans_uno_slam"}
    state = state_of(
        rules,
        "anna call 2",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        "anna declare notrump uno",
        "anna give_up false",
        "bert contra false",
        "carl contra false",
        "anna card DA",
        "bert card C8",
        "carl card D8",
        "anna card DK",
        "bert card C9",
        pot=1000,
    )
    state = act(state, "carl card H7")
    assert state.is_over and engine.sheet_entry(state)["tricks"]["anna"] == 2
    assert engine.settle(engine.to_record(state))["made"] is False


def test_sans_may_be_led_by_the_defender_before_the_declarer() -> None:
    rules = {**BALKAN, "contracts": "sans", "sans_slam_lead": "second_defender"}
    state = _declared(
        rules,
        "sans",
        "bert defence play",
        "carl defence play",
        "anna give_up false",
        "bert contra false",
        "carl contra false",
    )
    assert state.to_act_seat == "carl"
    state = _declared(
        rules,
        "sans",
        "bert defence play",
        "carl defence home",
        "bert defence alone",
        "anna give_up false",
        "bert contra false",
    )
    assert state.to_act_seat == "bert"


def test_the_legal_list_shows_both_flag_values() -> None:
    state = _declared(BALKAN, "H", "bert defence play", "carl defence play")
    assert legal(state) == [{"give_up": False}, {"give_up": True}]
