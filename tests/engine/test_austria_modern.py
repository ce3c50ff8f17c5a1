"""``austria-modern`` (``spec/next/austria-variants.md``): the page's examples as given, and one
test per rule that differs from ``wien``."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.errors import EngineError, IllegalAction
from tests.engine.family_helpers import (
    act,
    deltas,
    legal_values,
    play_first,
    record,
    sheet,
    state_of,
    suit,
)

MODERN: dict[str, Any] = {"variant": "austria-modern", "unit": 10, "ante": 100}


# --- the page's examples (unit 10; carl deals; pot before 300) ---------------------------------


def test_example_1_a_defender_short_of_two_tricks_pays_into_the_pot() -> None:
    entry = sheet(
        MODERN,
        suit("S"),
        declarer="anna",
        defence={"bert": "play", "carl": "play"},
        tricks={"anna": 7, "bert": 2, "carl": 1},
        pot=300,
    )
    result = engine.settle(entry)
    assert deltas(result) == (90, 10, -100)
    assert result["pot"] == 300 and result["fallen"] == ["carl"]
    assert [(t["from"], t["to"], t["amount"], t["why"]) for t in result["transfers"]] == [
        ("carl", "pot", 100, "fall"),
        ("pot", "anna", 100, "game"),
        ("anna", "bert", 10, "tricks"),
    ]


def test_example_2_the_declarer_falls() -> None:
    entry = sheet(
        MODERN,
        suit("H"),
        declarer="anna",
        defence={"bert": "play", "carl": "play"},
        tricks={"anna": 5, "bert": 3, "carl": 2},
        pot=300,
    )
    result = engine.settle(entry)
    assert deltas(result) == (-220, 10, 10)
    assert result["pot"] == 500 and result["fallen"] == ["anna"]


def test_example_3_giving_up_pays_the_lone_defender_five() -> None:
    entry = sheet(
        MODERN,
        suit("D"),
        declarer="anna",
        defence={"bert": "play", "carl": "home"},
        gave_up=True,
        pot=300,
    )
    result = engine.settle(entry)
    assert deltas(result) == (-50, 50, 0)
    assert result["made"] is False and result["fallen"] == [] and result["tricks"] == {}
    assert result["transfers"] == [{"from": "anna", "to": "bert", "amount": 50, "why": "giveup"}]


def test_giving_up_against_two_pays_three_each_and_an_inviter_five() -> None:
    both = sheet(
        MODERN,
        suit("D"),
        declarer="anna",
        defence={"bert": "play", "carl": "play"},
        gave_up=True,
        pot=300,
    )
    assert deltas(engine.settle(both)) == (-60, 30, 30)
    invited = sheet(
        {**MODERN, "invitation": True},
        suit("D"),
        declarer="anna",
        defence={"bert": "invite", "carl": "invited"},
        gave_up=True,
        pot=300,
    )
    assert deltas(engine.settle(invited)) == (-50, 50, 0)


# --- settlement rules --------------------------------------------------------------------------


def test_both_home_the_pot_pays_ten_units_and_antes_refill_a_short_pot() -> None:
    entry = sheet(
        MODERN,
        suit("C"),
        declarer="anna",
        defence={"bert": "home", "carl": "home"},
        tricks={},
        pot=30,
    )
    result = engine.settle(entry)
    # the pot holds 30 and owes 100: every seat pays one ante of 100 (k = 1), then it pays
    assert [t["why"] for t in result["transfers"]] == ["ante", "ante", "ante", "game"]
    assert deltas(result) == (0, -100, -100) and result["pot"] == 230


def test_antes_come_in_as_many_rounds_as_needed_and_the_sitting_out_dealer_pays_too() -> None:
    entry = sheet(
        {**MODERN, "ante": 10},
        suit("C"),
        declarer="anna",
        defence={"bert": "home", "carl": "home"},
        tricks={},
        pot=0,
        seats=["anna", "bert", "carl", "dora"],
        dealer="dora",
    )
    result = engine.settle(entry)
    # 100 owed, 4 seats × 10 a round: 3 rounds, 30 each
    assert [(t["from"], t["amount"]) for t in result["transfers"] if t["why"] == "ante"] == [
        ("anna", 30),
        ("bert", 30),
        ("carl", 30),
        ("dora", 30),
    ]
    assert result["delta"] == {"anna": 70, "bert": -30, "carl": -30, "dora": -30}
    assert result["pot"] == 20


def test_multiply_by_bid_and_the_dealer_pays_the_defender_unit() -> None:
    entry = sheet(
        {**MODERN, "multiply_by_bid": True, "defender_unit_from": "dealer"},
        suit("D"),
        declarer="anna",
        defence={"bert": "play", "carl": "play"},
        tricks={"anna": 6, "bert": 2, "carl": 2},
        pot=1000,
    )
    result = engine.settle(entry)
    # × 3: the pot pays anna 300; carl deals and pays bert 30; nothing to himself
    assert deltas(result) == (300, 30, -30)


def test_an_inviter_counts_both_defenders_tricks() -> None:
    rules = {**MODERN, "invitation": True, "defender_unit_per_trick": True}
    made = sheet(
        rules,
        suit("S"),
        declarer="anna",
        defence={"bert": "invite", "carl": "invited"},
        tricks={"anna": 5, "bert": 1, "carl": 4},
        pot=1000,
    )
    assert deltas(engine.settle(made)) == (-250, 50, 0)  # 20 into the pot; 5 tricks to bert
    short = sheet(
        rules,
        suit("S"),
        declarer="anna",
        defence={"bert": "invite", "carl": "invited"},
        tricks={"anna": 7, "bert": 1, "carl": 2},
        pot=1000,
    )
    result = engine.settle(short)
    assert deltas(result) == (100, -10, 0) and result["fallen"] == ["bert"]


def test_bonuses_from_each_of_the_other_two() -> None:
    rules = {**MODERN, "preference_bonus": 10, "four_aces_bonus": 10, "no_ace_bonus": 10}
    pref = sheet(
        rules,
        suit("H", talon=False),
        declarer="anna",
        defence={"bert": "play", "carl": "home"},
        tricks={"anna": 6, "bert": 4},
        pot=1000,
    )
    assert deltas(engine.settle(pref)) == (100 + 10 * 10 * 2 - 10, 10 - 100, -100)
    # a talon game declared in hearts earns no preference bonus
    talon = sheet(
        rules,
        suit("H"),
        declarer="anna",
        defence={"bert": "play", "carl": "home"},
        tricks={"anna": 6, "bert": 4},
        pot=1000,
    )
    assert deltas(engine.settle(talon)) == (90, 10, 0)
    lost_aces = sheet(
        rules,
        suit("D"),
        declarer="anna",
        defence={"bert": "play", "carl": "play"},
        tricks={"anna": 5, "bert": 3, "carl": 2},
        pot=1000,
        bonuses={"four_aces": True, "no_aces": False},
    )
    assert deltas(engine.settle(lost_aces)) == (-220, 10, 10)  # four aces pay only when made
    no_aces = sheet(
        rules,
        suit("D"),
        declarer="anna",
        defence={"bert": "home", "carl": "home"},
        tricks={},
        pot=1000,
        bonuses={"four_aces": False, "no_aces": True},
    )
    assert deltas(engine.settle(no_aces)) == (300, -100, -100)


# --- the auction -------------------------------------------------------------------------------


def test_hand_calls_rank_above_every_talon_call_and_jumps_are_allowed() -> None:
    state = state_of(MODERN, "anna call 4", pot=300)
    assert legal_values(state, "call") == ["pass", "1h", "2h", "3h", "4h"]


def test_without_jump_bids_each_bid_is_the_next_rung() -> None:
    rules = {**MODERN, "jump_bids": False}
    assert legal_values(state_of(rules, pot=300), "call") == ["pass", "1"]
    assert legal_values(state_of(rules, "anna call 1", pot=300), "call") == ["pass", "2"]


def test_an_earlier_player_holds_a_later_call() -> None:
    state = state_of(MODERN, "anna call 1", "bert call 2", "carl call pass", pot=300)
    assert legal_values(state, "call") == ["pass", "3", "4", "1h", "2h", "3h", "4h", "hold"]
    state = act(state, "anna call hold")
    # bert sits later than anna: no hold for him
    assert "hold" not in legal_values(state, "call")
    state = act(state, "bert call pass")
    assert state.declarer == "anna" and state.hand.bid == "2" and state.phase == "discard"


def test_rearhand_is_forced_when_the_others_pass_without_a_call() -> None:
    state = state_of(MODERN, "anna call pass", "bert call pass", pot=300)
    assert legal_values(state, "call")[0] == "1" and "pass" not in legal_values(state, "call")
    with pytest.raises(IllegalAction):
        act(state, "carl call pass")
    state = act(state, "carl call 1")
    assert state.declarer == "carl"


def test_with_throw_in_an_all_pass_deal_is_redealt_without_payment() -> None:
    rules = {**MODERN, "forced_player": "throw_in"}
    state = state_of(rules, "anna call pass", "bert call pass", "carl call pass", pot=300)
    assert state.is_over and engine.sheet_entry(state)["game"] is None
    result = engine.settle(engine.to_record(state))
    assert result["transfers"] == [] and result["pot"] == 300


def test_a_hand_call_fixes_its_suit_without_declare() -> None:
    state = state_of(MODERN, "anna call 3h", "bert call pass", "carl call pass", pot=300)
    assert state.phase == "defence" and state.game == engine.rules.rule_set(
        "austria-modern"
    ).family.hand_game("3h")


def test_a_talon_call_declares_a_suit_at_least_the_call() -> None:
    state = state_of(
        MODERN, "anna call 3", "bert call pass", "carl call pass", "anna discard C7 S7", pot=300
    )
    assert legal_values(state, "declare") == [
        {"type": "suit", "level": "D"},
        {"type": "suit", "level": "H"},
    ]


# --- defence, give-up, no-aces -----------------------------------------------------------------


def _declared(rules: dict[str, Any], *more: str) -> Any:
    return state_of(
        rules,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        "anna declare suit D",
        *more,
        pot=300,
    )


def test_the_declarer_is_asked_to_give_up_once_someone_plays() -> None:
    state = _declared(MODERN, "bert defence play", "carl defence home")
    assert state.phase == "give_up"
    assert legal_values(state, "give_up") == [False, True]
    done = act(state, "anna give_up true")
    assert done.is_over and engine.sheet_entry(done)["gave_up"] is True


def test_both_home_asks_nothing_more() -> None:
    state = _declared(MODERN, "bert defence home", "carl defence home")
    assert state.is_over


def test_a_lone_defender_may_invite_with_the_option() -> None:
    state = _declared({**MODERN, "invitation": True}, "bert defence play", "carl defence home")
    assert legal_values(state, "defence") == ["invite", "alone"]
    state = act(state, "bert defence invite")
    assert state.phase == "give_up"
    state = act(state, "anna give_up false")
    assert state.hand.playing == 0b111


def test_no_aces_is_asked_only_with_the_bonus_and_true_only_without_an_ace() -> None:
    rules = {**MODERN, "no_ace_bonus": 10}
    state = _declared(rules, "bert defence play", "carl defence play", "anna give_up false")
    assert state.phase == "no_aces"
    assert legal_values(state, "no_aces") == [False]  # anna holds DA, SA, CA
    with pytest.raises(IllegalAction):
        act(state, "anna no_aces true")
    state = act(state, "anna no_aces false")
    assert state.phase == "play" and state.to_act_seat == "anna"


def test_void_players_must_trump_and_need_not_head() -> None:
    deal = {
        "anna": "SA SK SQ CA CK CQ DA DK DQ S9",
        "bert": "HA HK HQ HJ HT H9 ST S8 CJ CT",
        "carl": "DJ S7 C9 C8 C7 DT D9 D8 D7 H8",
    }
    state = state_of(
        MODERN,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        "anna discard H7 SJ",
        "anna declare suit H",
        "bert defence play",
        "carl defence play",
        "anna give_up false",
        "anna card S9",
        deal=deal,
        talon="H7 SJ",
        pot=300,
    )
    assert legal_values(state, "card") == ["S8", "ST"]  # follow, any spade (no duty to beat)
    state = act(state, "bert card S8")
    assert legal_values(state, "card") == ["S7"]
    state = act(act(state, "carl card S7"), "anna card CA")
    assert legal_values(state, "card") == ["CT", "CJ"]
    state = act(act(state, "bert card CT"), "carl card C7")
    state = act(state, "anna card DA")  # bert has no diamond: he must trump
    assert legal_values(state, "card") == ["H9", "HT", "HJ", "HQ", "HK", "HA"]


def test_must_head_and_no_must_trump() -> None:
    deal = {
        "anna": "SA SK SQ CA CK CQ DA DK DQ S9",
        "bert": "HA HK HQ HJ HT H9 ST S8 CJ CT",
        "carl": "DJ S7 C9 C8 C7 DT D9 D8 D7 H8",
    }
    rules = {**MODERN, "must_head": True, "must_trump": False}
    state = state_of(
        rules,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        "anna discard H7 SJ",
        "anna declare suit C",
        "bert defence play",
        "carl defence play",
        "anna give_up false",
        "anna card S9",
        deal=deal,
        talon="H7 SJ",
        pot=300,
    )
    assert legal_values(state, "card") == ["ST"]  # must beat S9
    state = act(act(state, "bert card ST"), "carl card S7")
    state = act(act(state, "bert card HA"), "carl card H8")
    # anna is void in hearts and holds clubs (trumps): no duty to trump, any card
    assert len(legal_values(state, "card")) == 9


def test_a_played_hand_settles_from_its_record() -> None:
    state = play_first(_declared(MODERN, "bert defence play", "carl defence play"))
    result = engine.settle(engine.to_record(state))
    assert sum(result["tricks"].values()) == 10
    assert result["stake"] is None


def test_options_are_checked() -> None:
    with pytest.raises(EngineError, match="unit is required"):
        engine.parse_rules({"variant": "austria-modern", "ante": 100})
    with pytest.raises(EngineError, match="must be true or false"):
        engine.parse_rules({**MODERN, "invitation": 1})
    with pytest.raises(EngineError, match="non-negative whole number"):
        engine.replay(record(MODERN, pot=-1))


# --- score-sheet entries (austria-variants.md, "Records") ---------------------------------------

BONUS_RULES = {**MODERN, "four_aces_bonus": 10, "no_ace_bonus": 10}


def _walkover(**keys: Any) -> dict[str, Any]:
    return sheet(
        BONUS_RULES,
        suit("D"),
        declarer="anna",
        defence={"bert": "home", "carl": "home"},
        pot=1000,
        **keys,
    )


@pytest.mark.parametrize(
    ("bonuses", "expect"),
    [
        pytest.param({"four_aces": True}, (300, -100, -100), id="four-aces-alone"),
        pytest.param({"no_aces": True}, (300, -100, -100), id="no-aces-alone"),
        pytest.param({"four_aces": False}, (100, 0, 0), id="a-false-key-alone"),
        pytest.param({}, (100, 0, 0), id="nothing-happened"),
    ],
)
def test_bonuses_name_only_what_happened_and_an_absent_key_is_false(
    bonuses: dict[str, bool], expect: tuple[int, int, int]
) -> None:
    result = engine.settle(_walkover(bonuses=bonuses))
    assert deltas(result) == expect
    both = {"four_aces": False, "no_aces": False, **bonuses}
    assert engine.settle(_walkover(bonuses=both)) == result


@pytest.mark.parametrize(
    ("bonuses", "rules", "words"),
    [
        pytest.param({"aces": True}, BONUS_RULES, "four_aces", id="an-unknown-key"),
        pytest.param({"no_aces": 1}, BONUS_RULES, "true or false", id="not-a-boolean"),
        pytest.param(
            {"four_aces": True, "no_aces": True}, BONUS_RULES, "both", id="aces-and-no-aces"
        ),
        pytest.param({"no_aces": True}, MODERN, "no_ace_bonus", id="no-aces-never-asked"),
    ],
)
def test_bonuses_that_cannot_have_happened_are_refused(
    bonuses: dict[str, Any], rules: dict[str, Any], words: str
) -> None:
    entry = {**_walkover(bonuses=bonuses), "rules": rules}
    with pytest.raises(EngineError, match=words) as e:
        engine.settle(entry)
    assert e.value.at.startswith("bonuses")


def test_with_a_forced_rearhand_every_deal_has_a_game() -> None:
    """Rearhand must call when the others passed without one: no deal is thrown in."""
    thrown_in = sheet({**MODERN, "forced_player": "throw_in"}, None, pot=300)
    assert engine.settle(thrown_in)["transfers"] == []
    with pytest.raises(EngineError, match="throw_in") as e:
        engine.settle(sheet(MODERN, None, pot=300))
    assert e.value.at == "game"


def test_an_entry_without_a_declarer_says_so() -> None:
    entry = sheet(MODERN, suit("D"), defence={"bert": "home", "carl": "home"}, pot=300)
    with pytest.raises(EngineError) as e:
        engine.settle(entry)
    assert e.value.at == "declarer"
    assert e.value.message == "declarer is missing: name the seat that played the game"
