"""``austria-1829`` (``spec/next/austria-variants.md``): the seed's own examples as the page
gives them, and one test per rule that differs from ``wien``."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.errors import EngineError
from tests.engine.family_helpers import act, deltas, legal_values, play_first, sheet, state_of, suit

OLD: dict[str, Any] = {"variant": "austria-1829", "unit": 1, "ante": 240}


def played(level: str, tricks: tuple[int, int, int], **kw: Any) -> dict[str, Any]:
    anna, bert, carl = tricks
    return sheet(
        {**OLD, **kw.pop("rules", {})},
        suit(level, kw.pop("talon", True)),
        declarer="anna",
        defence={"bert": "play", "carl": "play"},
        tricks={"anna": anna, "bert": bert, "carl": carl},
        pot=kw.pop("pot", 720),
        **kw,
    )


# --- the seed's examples (unit 1, 1 kr = 1 cent; pot 720 before) ------------------------------


@pytest.mark.parametrize(
    ("level", "tricks", "expect", "pot", "fallen"),
    [
        pytest.param("D", (6, 2, 2), (18, 6, 6), 690, [], id="1-made-defenders-share"),
        pytest.param("D", (7, 2, 1), (21, 6, -27), 720, ["carl"], id="2-a-defender-fails"),
        pytest.param("H", (5, 4, 1), (-60, 16, -36), 800, ["anna", "carl"], id="3-both-fail"),
        pytest.param("D", (5, 3, 2), (-45, 9, 6), 750, ["anna"], id="4-the-declarer-fails"),
    ],
)
def test_the_seeds_examples(
    level: str,
    tricks: tuple[int, int, int],
    expect: tuple[int, int, int],
    pot: int,
    fallen: list[str],
) -> None:
    result = engine.settle(played(level, tricks))
    assert deltas(result) == expect
    assert result["pot"] == pot and result["fallen"] == fallen


def test_example_2_pays_the_others_directly() -> None:
    result = engine.settle(played("D", (7, 2, 1)))
    assert [(t["from"], t["to"], t["amount"], t["why"]) for t in result["transfers"]] == [
        ("carl", "anna", 21, "fall"),
        ("carl", "bert", 6, "fall"),
    ]


def test_example_5_all_pass_twice_and_the_forced_player_passes() -> None:
    state = state_of(
        OLD,
        "anna call pass",
        "bert call pass",
        "carl call pass",
        "anna second pass",
        pot=720,
    )
    assert state.phase == "forced" and state.to_act_seat == "carl"
    assert engine.view(state, "carl")["dealt_talon"] == ["S7", "D7"]  # he picked it up
    state = act(state, "carl forced pass")
    assert engine.sheet_entry(state)["forced"] == "pass"
    result = engine.settle(engine.to_record(state))
    assert deltas(result) == (0, 0, -10) and result["pot"] == 730
    assert result["fallen"] == ["carl"] and result["game"] is None
    entry = sheet(OLD, None, forced="pass", declarer="carl", pot=720)
    assert engine.settle(entry) == result


# --- the auction -------------------------------------------------------------------------------


def test_bids_are_suits_and_an_earlier_bidder_may_hold() -> None:
    state = state_of(OLD, "anna call C", "bert call S", "carl call pass", pot=720)
    assert legal_values(state, "call") == ["pass", "D", "H", "hold"]
    state = act(state, "anna call hold")
    assert "hold" not in legal_values(state, "call")
    state = act(state, "bert call pass")
    assert state.declarer == "anna" and state.hand.bid == "S" and state.phase == "talon"


def test_hearts_as_the_very_first_bid_is_preference_and_ends_the_auction() -> None:
    state = state_of(OLD, "anna call pass", "bert call H", pot=720)
    assert state.declarer == "bert" and state.phase == "talon"
    state = act(state, "bert talon true")
    state = act(state, "bert discard CK CQ")
    assert legal_values(state, "declare") == [{"type": "suit", "level": "H"}]


def test_without_jumps_each_bid_is_the_next_suit_but_preference_stays() -> None:
    rules = {**OLD, "jump_bids": False}
    assert legal_values(state_of(rules, pot=720), "call") == ["pass", "C", "H"]
    assert legal_values(state_of(rules, "anna call C", pot=720), "call") == ["pass", "S"]


def test_the_winner_may_play_from_the_hand() -> None:
    state = state_of(OLD, "anna call D", "bert call pass", "carl call pass", pot=720)
    assert legal_values(state, "talon") == [True, False]
    state = act(state, "anna talon false")
    assert state.phase == "declare"
    state = act(state, "anna declare suit H")
    assert state.game.talon is False
    assert engine.view(state, "anna")["talon"] is None


def test_a_hand_game_is_worth_double_with_the_option() -> None:
    result = engine.settle(played("D", (6, 2, 2), talon=False, rules={"hand_value": "double"}))
    assert deltas(result) == (36, 12, 12)


def test_the_second_chance_lets_forehand_play_any_suit() -> None:
    state = state_of(
        OLD, "anna call pass", "bert call pass", "carl call pass", "anna second play", pot=720
    )
    assert state.declarer == "anna" and state.phase == "discard"
    state = act(state, "anna discard C7 S7")
    assert len(legal_values(state, "declare")) == 4


def test_the_forced_player_may_play_and_pays_the_bete_always_with_the_option() -> None:
    rules = {**OLD, "forced_bete": "always"}
    state = state_of(
        rules,
        "anna call pass",
        "bert call pass",
        "carl call pass",
        "anna second pass",
        "carl forced play",
        "carl discard D8 S8",
        "carl declare suit H",
        "anna defence home",
        "bert defence home",
        pot=720,
    )
    entry = engine.sheet_entry(state)
    assert entry["forced"] == "play"
    result = engine.settle(engine.to_record(state))
    assert [(t["from"], t["amount"], t["why"]) for t in result["transfers"]] == [
        ("carl", 10, "bete"),
        ("pot", 40, "game"),
    ]


def test_with_throw_in_forehands_second_pass_ends_the_deal() -> None:
    state = state_of(
        {**OLD, "forced_player": "throw_in"},
        "anna call pass",
        "bert call pass",
        "carl call pass",
        "anna second pass",
        pot=720,
    )
    assert state.is_over and engine.sheet_entry(state) == {
        **{k: v for k, v in engine.sheet_entry(state).items() if k != "game"},
        "game": None,
    }
    assert engine.settle(engine.to_record(state))["transfers"] == []


def test_the_walkover_value_may_be_the_winning_bid() -> None:
    rules = {**OLD, "walkover_value": "bid"}
    state = state_of(
        rules,
        "anna call C",
        "bert call pass",
        "carl call pass",
        "anna talon true",
        "anna discard C7 S7",
        "anna declare suit D",
        "bert defence home",
        "carl defence home",
        pot=720,
    )
    entry = engine.sheet_entry(state)
    assert entry["bid"] == "C"
    assert deltas(engine.settle(entry)) == (10, 0, 0)
    del entry["bid"]
    with pytest.raises(EngineError, match="bid is given exactly when") as e:
        engine.settle(entry)
    assert e.value.at == "bid"


def test_no_invitation_no_give_up_and_home_is_free() -> None:
    state = state_of(
        OLD,
        "anna call C",
        "bert call pass",
        "carl call pass",
        "anna talon true",
        "anna discard C7 S7",
        "anna declare suit D",
        "bert defence play",
        "carl defence home",
        pot=0,
    )
    assert state.phase == "play"
    state = play_first(state)
    result = engine.settle(engine.to_record(state))
    assert set(result["tricks"]) == {"anna", "bert"}


def test_a_short_pot_is_refilled_by_antes_before_it_pays() -> None:
    result = engine.settle(played("H", (6, 2, 2), pot=0, rules={"ante": 10}))
    # owes 40: 2 rounds of 3 × 10 = 60
    assert [t["amount"] for t in result["transfers"] if t["why"] == "ante"] == [20, 20, 20]
    assert result["pot"] == 20


# --- score-sheet entries the page refuses (austria-variants.md, "austria-1829", "Score-sheet") --

THROW_IN = {**OLD, "forced_player": "throw_in"}


def test_a_bare_null_game_is_only_a_thrown_in_deal() -> None:
    """With a forced rearhand nobody gets away with an all-pass deal: a bare ``"game": null``
    would settle the forced player's pass as if nothing happened, so it is refused."""
    assert engine.settle(sheet(THROW_IN, None, pot=720))["transfers"] == []
    with pytest.raises(EngineError, match="forced") as e:
        engine.settle(sheet(OLD, None, pot=720))
    assert e.value.at == "forced"


def test_under_throw_in_nobody_is_forced() -> None:
    with pytest.raises(EngineError, match="throw_in") as e:
        engine.settle(sheet(THROW_IN, None, forced="pass", declarer="carl", pot=720))
    assert e.value.at == "forced"
    forced_game = sheet(
        THROW_IN,
        suit("H"),
        declarer="carl",
        defence={"anna": "home", "bert": "home"},
        forced="play",
        pot=720,
    )
    with pytest.raises(EngineError, match="throw_in") as e:
        engine.settle(forced_game)
    assert e.value.at == "forced"


def _walkover(level: str, bid: str, **kw: Any) -> dict[str, Any]:
    return sheet(
        {**OLD, "walkover_value": "bid"},
        suit(level),
        declarer=kw.pop("declarer", "anna"),
        defence=kw.pop("defence", {"bert": "home", "carl": "home"}),
        bid=bid,
        pot=720,
        **kw,
    )


def test_a_walkover_below_the_winning_bid_is_refused() -> None:
    """A declarer declares a suit at least his winning bid, so a walkover paid by the bid never
    names a game below it."""
    assert deltas(engine.settle(_walkover("H", "D"))) == (30, 0, 0)
    with pytest.raises(EngineError, match="below") as e:
        engine.settle(_walkover("S", "D"))
    assert e.value.at == "bid"


def test_after_a_forced_game_the_winning_bid_is_clubs() -> None:
    forced = {"declarer": "carl", "defence": {"anna": "home", "bert": "home"}, "forced": "play"}
    assert deltas(engine.settle(_walkover("H", "C", **forced))) == (0, 0, 10)
    with pytest.raises(EngineError, match="C") as e:
        engine.settle(_walkover("H", "D", **forced))
    assert e.value.at == "bid"
