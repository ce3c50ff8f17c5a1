"""``american`` (``spec/next/austria-variants.md``): the page's examples as given, and one test
per rule that differs from ``wien``."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.errors import EngineError, IllegalAction
from tests.engine.family_helpers import act, deltas, legal, legal_values, sheet, state_of, suit

AM: dict[str, Any] = {"variant": "american", "unit": 1, "ante": 20}


# --- the page's examples (unit 1; carl deals; pot 100) ------------------------------------------


def test_example_1_round_one_without_the_widow() -> None:
    state = state_of(AM, "anna call pass", "bert call D", "carl call H", pot=100)
    assert state.declarer == "carl"
    assert state.phase == "play" and state.to_act_seat == "anna"  # the player after carl leads
    assert state.hand.game.to_json() == suit("H", talon=False)
    entry = sheet(
        AM,
        suit("H", talon=False),
        declarer="carl",
        tricks={"anna": 2, "bert": 1, "carl": 7},
        pot=100,
    )
    result = engine.settle(entry)
    assert deltas(result) == (0, 0, 28) and result["pot"] == 72


@pytest.mark.parametrize(("paid", "pot", "anna"), [("winner", 117, 0), ("all", 120, -3)])
def test_example_2_round_two_offers(paid: str, pot: int, anna: int) -> None:
    entry = sheet(
        {**AM, "offer_paid": paid},
        suit("C"),
        declarer="bert",
        tricks={"anna": 3, "bert": 5, "carl": 2},
        offers={"anna": 3, "bert": 5},
        pot=100,
    )
    result = engine.settle(entry)
    assert deltas(result) == (anna, -17, 0) and result["pot"] == pot
    assert result["fallen"] == ["bert"]


# --- the rounds ---------------------------------------------------------------------------------


def test_round_one_each_player_once_a_higher_suit_in_bidding_order() -> None:
    state = state_of(AM, pot=100)
    assert legal_values(state, "call") == ["pass", "S", "C", "D", "H"]
    state = act(state, "anna call C")
    assert legal_values(state, "call") == ["pass", "D", "H"]
    state = act(act(state, "bert call pass"), "carl call pass")
    assert state.declarer == "anna" and state.game.trump == 0  # clubs, no second round


def test_round_two_offers_and_the_lowest_legal_offer() -> None:
    state = state_of(AM, "anna call pass", "bert call pass", "carl call pass", pot=100)
    assert state.phase == "offer" and legal(state) == [{"offer": "pass"}, {"offer": 1}]
    state = act(state, "anna offer 3")
    assert legal(state) == [{"offer": "pass"}, {"offer": 4}]
    state = act(state, "bert offer 9")  # any larger offer is legal too
    with pytest.raises(IllegalAction):
        act(state, "carl offer 9")
    state = act(state, "carl offer pass")
    assert state.declarer == "bert" and state.phase == "talon"


def test_all_pass_again_throws_the_cards_in() -> None:
    state = state_of(
        AM,
        "anna call pass",
        "bert call pass",
        "carl call pass",
        "anna offer pass",
        "bert offer pass",
        "carl offer pass",
        pot=100,
    )
    assert state.is_over and engine.sheet_entry(state)["game"] is None
    assert engine.settle(engine.to_record(state))["transfers"] == []


def _round_two(rules: dict[str, Any], *more: str) -> Any:
    return state_of(
        rules,
        "anna call pass",
        "bert call pass",
        "carl call pass",
        "anna offer 2",
        "bert offer pass",
        "carl offer pass",
        *more,
        pot=100,
    )


def test_the_winner_takes_the_widow_then_discards_and_declares_any_suit() -> None:
    state = _round_two(AM, "anna talon true")
    assert state.phase == "discard" and len(engine.view(state, "anna")["hand"]) == 12
    state = act(state, "anna discard C7 S7")
    assert len(legal_values(state, "declare")) == 4
    state = act(state, "anna declare suit C")
    assert state.game.talon is True and state.to_act_seat == "bert"
    assert engine.view(state, "bert")["talon"] is None


def test_discard_first_lays_two_cards_away_before_the_widow() -> None:
    state = _round_two({**AM, "discard_first": True}, "anna talon true")
    assert len(engine.view(state, "anna")["hand"]) == 10
    assert engine.view(state, "anna")["dealt_talon"] is None
    state = act(state, "anna discard C7 SA")
    hand = engine.view(state, "anna")["hand"]
    assert len(hand) == 10 and {"D7", "S7"} <= set(hand)
    assert state.phase == "declare"


def test_the_winner_may_keep_his_hand() -> None:
    state = _round_two(AM, "anna talon false", "anna declare suit D")
    assert state.game.talon is False and engine.view(state, "anna")["dealt_talon"] is None
    assert engine.sheet_entry(play_to_end(state))["offers"] == {"anna": 2}


def play_to_end(state: Any) -> Any:
    while not state.is_over:
        state = engine.apply(state, engine.legal_actions(state)[0])
    return state


def test_whist_play_no_duty_to_trump_and_forehand_may_lead() -> None:
    state = state_of(
        {**AM, "leader": "forehand"}, "anna call pass", "bert call pass", "carl call H", pot=100
    )
    assert state.to_act_seat == "anna"
    state = act(state, "anna card DA")
    assert legal_values(state, "card") == sorted(
        ["CK", "CQ", "CJ", "CT", "C9", "C8", "SQ", "SJ", "ST", "S9"],
        key=engine.PIQUET.index.__getitem__,
    )


def test_contract_mode_pays_r_once() -> None:
    entry = sheet(
        {**AM, "reward_mode": "contract"},
        suit("H", talon=False),
        declarer="carl",
        tricks={"anna": 2, "bert": 1, "carl": 7},
        pot=100,
    )
    assert deltas(engine.settle(entry)) == (0, 0, 4)


def test_a_widow_game_needs_its_offers() -> None:
    entry = sheet(AM, suit("C"), declarer="bert", tricks={"anna": 3, "bert": 5, "carl": 2}, pot=100)
    with pytest.raises(EngineError, match="give offers"):
        engine.settle(entry)
    entry["offers"] = {"anna": 6, "bert": 5}
    with pytest.raises(EngineError, match="the declarer's offer is the highest"):
        engine.settle(entry)


def test_trick_reward_is_checked() -> None:
    with pytest.raises(EngineError, match="trick_reward maps S, C, D and H") as e:
        engine.parse_rules({**AM, "trick_reward": {"S": 1, "C": 2, "D": 3}})
    assert e.value.at == "rules.trick_reward"
