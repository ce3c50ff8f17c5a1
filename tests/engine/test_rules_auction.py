"""wien.md, "Auction (Lizitieren)": calls, turns and the three ways an auction ends.

The deal is helpers.DEAL: anna forehand, bert middlehand, carl rearhand and dealer.
"""

from __future__ import annotations

import pytest

from engine import IllegalAction, NotYourTurn
from engine.rules.wien import Phase, State
from tests.engine.helpers import DEAL, TALON, act, calls, hand_from, legal_calls, legal_json


def auction(*pairs: str, **kw: object) -> State:
    return hand_from(DEAL, TALON, actions=calls(*pairs), **kw)  # type: ignore[arg-type]


# --- number bids ----------------------------------------------------------------------------


def test_forehand_calls_first() -> None:
    state = auction()
    assert state.phase is Phase.AUCTION
    assert state.to_act_seat == "anna"


def test_the_first_number_bid_is_1() -> None:
    state = auction()
    assert "1" in legal_calls(state) and "2" not in legal_calls(state)
    with pytest.raises(IllegalAction, match="next number bid is 1"):
        act(state, "anna", call="2")


def test_a_number_bid_is_exactly_one_above_the_highest_so_far() -> None:
    state = auction("anna 1")
    with pytest.raises(IllegalAction, match="next number bid is 2, not 3"):
        act(state, "bert", call="3")
    assert act(state, "bert", call="2").high == "2"


def test_there_are_no_number_bids_after_a_call_above_4() -> None:
    state = auction("anna geschaeft")
    assert "2" not in legal_calls(state) and "1" not in legal_calls(state)
    with pytest.raises(IllegalAction, match="no number bids after geschaeft"):
        act(state, "bert", call="1")


def test_4_is_the_highest_number_bid_and_a_player_with_only_pass_must_still_pass() -> None:
    state = auction("anna 1", "bert 2", "carl 3", "anna 4")
    assert state.to_act_seat == "bert"
    assert legal_calls(state) == ["pass"]
    with pytest.raises(IllegalAction, match="4 is the highest number bid"):
        act(state, "bert", call="4")


# --- hold -------------------------------------------------------------------------------------


def test_the_holder_takes_over_another_players_number_bid_at_the_same_level() -> None:
    state = auction("anna 1", "bert 2", "carl pass", "anna hold")
    assert state.high == "2"
    assert state.active[state.high_by] == "anna"  # type: ignore[index]
    assert legal_calls(state)[:2] == ["pass", "3"]  # bert must go one higher


def test_only_the_holder_may_hold() -> None:
    state = auction("anna 1")
    assert "hold" not in legal_calls(state)
    with pytest.raises(IllegalAction, match=r"only the holder \(anna\) may hold"):
        act(state, "bert", call="hold")


def test_hold_needs_another_players_number_bid() -> None:
    state = auction()
    assert "hold" not in legal_calls(state)
    with pytest.raises(IllegalAction, match="another player's number bid"):
        act(state, "anna", call="hold")


def test_hold_does_not_take_over_a_geschaeft() -> None:
    state = auction("anna pass", "bert geschaeft")  # carl holds now, but there is no number bid
    assert "hold" not in legal_calls(state)
    with pytest.raises(IllegalAction, match="number bid"):
        act(state, "carl", call="hold")


def test_the_holder_may_hold_without_a_bid_of_his_own() -> None:
    state = auction("anna pass", "bert 1")
    assert "hold" in legal_calls(state)  # carl's first call
    assert act(state, "carl", call="hold").to_act_seat == "bert"


def test_after_forehand_passes_the_holding_right_goes_to_rearhand() -> None:
    state = auction("anna pass", "bert 1", "carl 2")
    assert "hold" not in legal_calls(state)
    with pytest.raises(IllegalAction, match=r"only the holder \(carl\)"):
        act(state, "bert", call="hold")


def test_with_the_middlehand_option_the_holding_right_goes_to_middlehand() -> None:
    state = auction("anna pass", "bert 1", holding_after_forehand="middlehand")
    with pytest.raises(IllegalAction, match=r"only the holder \(bert\)"):
        act(state, "carl", call="hold")
    state = act(state, "carl", call="2")
    assert "hold" in legal_calls(state)
    assert act(state, "bert", call="hold").high == "2"


def test_holding_to_the_end_wins_the_number_bid() -> None:
    state = auction(
        "anna 1",
        "bert 2",
        "carl pass",
        "anna hold",
        "bert 3",
        "anna hold",
        "bert 4",
        "anna hold",
        "bert pass",
    )
    assert state.phase is Phase.TALON
    assert state.to_act_seat == "anna"
    assert state.high == "4"


# --- pass --------------------------------------------------------------------------------------


def test_a_pass_is_final() -> None:
    state = auction("anna 1", "bert pass", "carl 2", "anna hold", "carl 3")
    assert state.to_act_seat == "anna"  # bert is skipped for good
    state = act(state, "anna", call="hold")
    assert state.to_act_seat == "carl"
    with pytest.raises(NotYourTurn):
        act(state, "bert", call="4")


def test_it_rejects_a_call_out_of_turn() -> None:
    with pytest.raises(NotYourTurn, match="anna's turn"):
        act(auction(), "bert", call="pass")


def test_it_rejects_a_card_during_the_auction() -> None:
    with pytest.raises(IllegalAction, match="time to call"):
        act(auction(), "anna", card="DA")


# --- geschaeft, herz and premium calls --------------------------------------------------------


@pytest.mark.parametrize("call", ["geschaeft", "herz", "5", "6h", "8h"])
def test_geschaeft_herz_and_premium_calls_are_allowed_only_as_a_first_call(call: str) -> None:
    state = auction("anna 1", "bert 2", "carl pass")
    assert call not in legal_calls(state)
    with pytest.raises(IllegalAction, match="only as a player's first call"):
        act(state, "anna", call=call)


def test_a_first_call_may_jump_over_number_bids() -> None:
    state = auction("anna 1", "bert 2")
    assert {"geschaeft", "herz", "5", "8h"} <= set(legal_calls(state))


@pytest.mark.parametrize(
    ("first", "lower"),
    [
        ("herz", "geschaeft"),
        ("5", "herz"),  # herz = 5 on the ladder: not strictly higher
        ("herz", "5"),
        ("5h", "5"),
        ("6", "5h"),
        ("8", "7h"),
    ],
)
def test_a_premium_call_must_be_strictly_higher(first: str, lower: str) -> None:
    state = auction(f"anna {first}")
    assert lower not in legal_calls(state)
    with pytest.raises(IllegalAction, match=f"higher than the highest call so far \\({first}\\)"):
        act(state, "bert", call=lower)


def test_nothing_is_higher_than_8h() -> None:
    assert legal_calls(auction("anna 8h")) == ["pass"]


def test_geschaeft_may_be_called_on_a_geschaeft() -> None:
    state = auction("anna geschaeft")
    assert "geschaeft" in legal_calls(state)
    state = act(state, "bert", call="geschaeft")
    assert state.to_act_seat == "carl"


def test_players_standing_on_geschaeft_are_skipped() -> None:
    state = auction("anna 1", "bert geschaeft", "carl geschaeft")
    assert state.to_act_seat == "anna"  # bert and carl stand on Geschäft
    state = act(state, "anna", call="pass")
    assert state.phase is Phase.GESCHAEFT  # neither bert nor carl is asked to call again


def test_a_geschaeft_caller_is_asked_again_once_a_higher_call_is_made() -> None:
    state = auction("anna geschaeft", "bert herz", "carl pass")
    assert state.to_act_seat == "anna"
    assert legal_calls(state) == ["pass"]  # she has called already, so only pass is left


# --- how the auction ends -----------------------------------------------------------------------


def test_when_all_three_pass_the_hand_is_an_ausfechten_led_by_rearhand_without_trumps() -> None:
    state = auction("anna pass", "bert pass", "carl pass")
    assert state.phase is Phase.PLAY
    assert state.game is not None and state.game.kind == "ausfechten"
    assert state.declarer is None and state.trump is None
    assert state.to_act_seat == "carl"


def test_in_an_ausfechten_with_four_players_rearhand_is_the_seat_before_the_dealer() -> None:
    state = hand_from(
        DEAL,
        TALON,
        seats=["anna", "bert", "carl", "dora"],
        dealer="dora",
        actions=calls("anna pass", "bert pass", "carl pass"),
    )
    assert state.to_act_seat == "carl"


def test_the_last_player_in_who_has_called_wins_the_auction() -> None:
    state = auction("anna 1", "bert pass", "carl pass")
    assert state.declarer == 0
    assert state.phase is Phase.TALON


def test_the_last_player_in_who_has_not_called_yet_still_calls() -> None:
    state = auction("anna pass", "bert pass")
    assert state.phase is Phase.AUCTION and state.to_act_seat == "carl"
    assert "1" in legal_calls(state)
    won = act(state, "carl", call="1")
    assert won.phase is Phase.TALON and won.to_act_seat == "carl"
    fought = act(state, "carl", call="pass")
    assert fought.game is not None and fought.game.kind == "ausfechten"


def test_an_uncontested_geschaeft_wins_and_is_declared_without_the_talon() -> None:
    state = auction("anna geschaeft", "bert pass", "carl pass")
    assert state.phase is Phase.DECLARE and state.to_act_seat == "anna"
    assert state.hands[0].bit_count() == 10  # the talon was not taken


def test_a_premium_call_that_stays_highest_wins() -> None:
    state = auction("anna 1", "bert 6h", "carl pass", "anna pass")
    assert state.declarer == 1
    assert state.game is not None and state.game.kind == "premium"
    assert (state.game.level, state.game.hand) == (6, True)


# --- Geschäft resolution (case 3) ---------------------------------------------------------------


def contested() -> State:
    return auction("anna geschaeft", "bert geschaeft", "carl pass")


def test_several_geschaeft_callers_resolve_it_in_the_order_they_called() -> None:
    state = contested()
    assert state.phase is Phase.GESCHAEFT
    assert state.to_act_seat == "anna"


def test_the_first_geschaeft_caller_must_name_a_suit() -> None:
    state = contested()
    assert legal_json(state) == [{"geschaeft_suit": s} for s in "CSD"]
    with pytest.raises(IllegalAction, match="name the Geschäft suit"):
        act(state, "anna", geschaeft_suit="pass")


def test_a_later_geschaeft_caller_names_a_strictly_higher_suit_or_passes() -> None:
    state = act(contested(), "anna", geschaeft_suit="S")
    assert legal_json(state) == [{"geschaeft_suit": "D"}, {"geschaeft_suit": "pass"}]
    with pytest.raises(IllegalAction):
        act(state, "bert", geschaeft_suit="S")
    with pytest.raises(IllegalAction):
        act(state, "bert", geschaeft_suit="C")


def test_a_later_geschaeft_caller_must_pass_when_no_higher_suit_is_left() -> None:
    state = act(contested(), "anna", geschaeft_suit="D")
    assert legal_json(state) == [{"geschaeft_suit": "pass"}]


def test_the_highest_suit_named_wins_and_is_trumps_without_a_declaration() -> None:
    state = act(act(contested(), "anna", geschaeft_suit="C"), "bert", geschaeft_suit="S")
    assert state.active[state.declarer] == "bert"  # type: ignore[index]
    assert state.game is not None and state.game.to_json() == {
        "type": "suit",
        "level": "S",
        "talon": False,
    }
    assert state.phase is Phase.LOOK  # no DECLARE step: straight to Nachschauen
    with pytest.raises(IllegalAction):
        act(state, "bert", declare={"type": "suit", "level": "D"})


def test_the_first_geschaeft_caller_keeps_it_when_the_others_pass() -> None:
    state = auction("anna 1", "bert geschaeft", "carl geschaeft", "anna pass")
    state = act(act(state, "bert", geschaeft_suit="C"), "carl", geschaeft_suit="pass")
    assert state.active[state.declarer] == "bert"  # type: ignore[index]
    assert state.trump == 0  # clubs
