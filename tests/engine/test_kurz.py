"""``kurz`` (``spec/next/kurz.md``): the page's examples as given, and one test per rule that
differs from ``wien``. Positions are written as card strings; states come from
``engine.replay`` on full records."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.errors import EngineError, IllegalAction
from tests.engine.family_helpers import (
    DEAL,
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

KURZ: dict[str, Any] = {"variant": "kurz"}
OPPONENTS = {**KURZ, "hand_premium_from": "opponents"}


# --- the page's examples (kurz.md, "Examples"; seats anna, bert, carl; carl deals) ------------


@pytest.mark.parametrize(
    ("rules", "entry", "expect", "pot_after", "fallen"),
    [
        pytest.param(
            KURZ,
            {
                "game": suit("D"),
                "declarer": "anna",
                "defence": {"bert": "play", "carl": "home"},
                "tricks": {"anna": 8, "bert": 2},
                "pot": 0,
            },
            (8, 2, -10),
            0,
            [],
            id="1-the-seeds-eight-and-two",
        ),
        pytest.param(
            KURZ,
            {
                "game": suit("S"),
                "declarer": "bert",
                "defence": {"anna": "play", "carl": "play"},
                "tricks": {"anna": 3, "bert": 5, "carl": 2},
                "pot": 30,
            },
            (3, -20, -8),
            55,
            ["bert"],
            id="2-declarer-short-of-six",
        ),
        pytest.param(
            KURZ,
            {
                "game": suit("C", talon=False),
                "declarer": "anna",
                "defence": {"bert": "play", "carl": "home"},
                "tricks": {"anna": 7, "bert": 3},
                "pot": 20,
            },
            (12, -2, -10),
            20,
            [],
            id="3-hand-game-won",
        ),
        pytest.param(
            OPPONENTS,
            {
                "game": suit("C", talon=False),
                "declarer": "anna",
                "defence": {"bert": "play", "carl": "home"},
                "tricks": {"anna": 7, "bert": 3},
                "pot": 20,
            },
            (17, -2, -15),
            20,
            [],
            id="3-hand-game-won-premium-from-opponents",
        ),
        pytest.param(
            KURZ,
            {
                "game": suit("H"),
                "declarer": "carl",
                "defence": {"anna": "home", "bert": "home"},
                "tricks": {},
                "pot": 40,
            },
            (0, 0, 40),
            0,
            [],
            id="4-both-home-the-dealer-takes-the-pot",
        ),
        pytest.param(KURZ, {"game": None, "pot": 40}, (0, 0, -10), 50, [], id="5-all-pass"),
    ],
)
def test_the_pages_examples(
    rules: dict[str, Any],
    entry: dict[str, Any],
    expect: tuple[int, int, int],
    pot_after: int,
    fallen: list[str],
) -> None:
    result = engine.settle(sheet(rules, **entry))
    assert deltas(result) == expect
    assert result["pot"] == pot_after
    assert result["fallen"] == fallen
    assert result["stake"] is None


def test_a_thrown_in_deal_has_no_declarer_game_or_tricks() -> None:
    result = engine.settle(sheet(KURZ, None, pot=40))
    assert (result["declarer"], result["game"], result["made"], result["tricks"]) == (
        None,
        None,
        None,
        {},
    )
    assert result["transfers"] == [{"from": "carl", "to": "pot", "amount": 10, "why": "dealer"}]


def test_a_premium_of_nothing_is_not_listed() -> None:
    entry = sheet(
        {**KURZ, "hand_premium": 0},
        suit("C", talon=False),
        declarer="anna",
        defence={"bert": "play", "carl": "home"},
        tricks={"anna": 7, "bert": 3},
        pot=20,
    )
    assert [t["why"] for t in engine.settle(entry)["transfers"]] == ["dealer", "tricks", "tricks"]


def test_a_lost_hand_game_pays_each_payer() -> None:
    entry = sheet(
        OPPONENTS,
        suit("H", talon=False),
        declarer="anna",
        defence={"bert": "play", "carl": "home"},
        tricks={"anna": 4, "bert": 6},
        pot=0,
    )
    result = engine.settle(entry)
    # dealer 10 in; bert 6 from the pot; anna 20 into the pot (fall) and 5 to bert and carl
    assert deltas(result) == (-30, 11, -5)
    assert result["pot"] == 24 and result["fallen"] == ["anna"]


# --- options -----------------------------------------------------------------------------------


def test_the_dealer_contribution_must_pay_ten_tricks() -> None:
    with pytest.raises(EngineError, match="at least 10 × trick_value") as e:
        engine.parse_rules({"variant": "kurz", "dealer_contribution": 15, "trick_value": 2})
    assert e.value.at == "rules.dealer_contribution"
    with pytest.raises(EngineError, match="unknown rule option 'pot_cap'"):
        engine.parse_rules({"variant": "kurz", "pot_cap": 100})


def test_the_pot_may_be_any_non_negative_number_of_cents() -> None:
    engine.replay(record(KURZ, pot=35))
    with pytest.raises(EngineError, match="non-negative whole number"):
        engine.replay(record(KURZ, pot=-5))


# --- the auction (kurz.md, "Deal and auction") -------------------------------------------------


def test_forehand_may_open_with_any_call_of_the_ladder() -> None:
    assert legal_values(state_of(KURZ, pot=0), "call") == ["pass", "1", "1h", "2", "2h", "3", "3h"]


def test_a_call_must_be_strictly_higher_and_may_jump_and_there_is_no_hold() -> None:
    state = state_of(KURZ, "anna call 1h", pot=0)
    assert legal_values(state, "call") == ["pass", "2", "2h", "3", "3h"]
    state = act(state, "bert call 3")
    assert legal_values(state, "call") == ["pass", "3h"]
    with pytest.raises(EngineError, match="'hold' is not a call"):
        act(state, "carl call hold")
    with pytest.raises(IllegalAction, match="2h is not higher than the highest call so far, 3"):
        act(state, "carl call 2h")


def test_the_hand_version_beats_the_plain_bid_of_the_same_number() -> None:
    state = state_of(KURZ, "anna call 2", pot=0)
    assert "2h" in legal_values(state, "call")


def test_all_pass_throws_the_cards_in() -> None:
    state = state_of(KURZ, "anna call pass", "bert call pass", "carl call pass", pot=40)
    assert state.is_over
    assert engine.sheet_entry(state)["game"] is None
    assert deltas(engine.settle(engine.to_record(state))) == (0, 0, -10)


def test_rearhand_still_calls_after_two_passes() -> None:
    state = state_of(KURZ, "anna call pass", "bert call pass", pot=0)
    assert state.to_act_seat == "carl"
    assert legal_values(state, "call")[0] == "pass"
    state = act(state, "carl call 1")
    assert state.declarer == "carl" and state.phase == "discard"


# --- talon and trumps --------------------------------------------------------------------------


def test_a_plain_bid_takes_the_talon_and_names_a_suit_at_least_the_bid() -> None:
    state = state_of(
        KURZ, "anna call 2", "bert call pass", "carl call pass", "anna discard C7 S7", pot=0
    )
    assert state.phase == "declare"
    assert legal_values(state, "declare") == [
        {"type": "suit", "level": level} for level in ("S", "D", "H")
    ]


def test_a_hand_game_names_trumps_at_once_and_the_talon_stays_hidden_to_the_end() -> None:
    state = state_of(KURZ, "anna call 3h", "bert call pass", "carl call pass", pot=0)
    assert state.phase == "declare"
    assert legal_values(state, "declare") == [
        {"type": "suit", "level": "D"},
        {"type": "suit", "level": "H"},
    ]
    state = act(state, "anna declare suit D")
    for seat in ("anna", "bert", "carl", None):
        assert engine.view(state, seat)["talon"] is None
        assert not engine.known(state, seat) & engine.PIQUET.parse_hand(["D7", "S7"])
    assert engine.sheet_entry(
        play_first(act(act(state, "bert defence play"), "carl defence home"))
    )["game"] == suit("D", talon=False)


def test_only_the_declarer_sees_the_talon_he_takes() -> None:
    state = state_of(KURZ, "anna call 1", "bert call pass", "carl call pass", pot=0)
    assert engine.view(state, "anna")["dealt_talon"] == ["S7", "D7"]
    assert engine.view(state, "bert")["dealt_talon"] is None


# --- defence -----------------------------------------------------------------------------------


def test_no_forced_play_and_no_invitation() -> None:
    state = state_of(
        KURZ,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        "anna declare suit D",
        pot=0,  # the pot holds only this deal's contribution: in wien both would have to play
    )
    assert legal_values(state, "defence") == ["play", "home"]
    state = act(act(state, "bert defence play"), "carl defence home")
    assert state.phase == "play" and state.to_act_seat == "anna"  # no invite step


def test_both_home_wins_without_play() -> None:
    state = state_of(
        KURZ,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        "anna declare suit D",
        "bert defence home",
        "carl defence home",
        pot=40,
    )
    assert state.is_over
    result = engine.settle(engine.to_record(state))
    assert result["made"] is True and result["tricks"] == {}
    assert deltas(result) == (50, 0, -10)


# --- card play (kurz.md, "Card play") ----------------------------------------------------------


def _to_play(deal: dict[str, str], talon: str, trump: str) -> Any:
    return state_of(
        KURZ,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        f"anna discard {talon}",
        f"anna declare suit {trump}",
        "bert defence play",
        "carl defence play",
        deal=deal,
        talon=talon,
        pot=0,
    )


def test_a_void_player_may_trump_but_need_not() -> None:
    deal = {
        "anna": "SA SK SQ CA CK CQ DA DK DQ DJ",
        "bert": "HA HK HQ HJ HT H9 H8 CJ CT C9",
        "carl": "ST S9 S8 S7 C8 C7 DT D9 D8 D7",
    }
    state = _to_play(deal, "H7 SJ", "H")  # anna's trumps: none; bert holds hearts
    state = act(state, "anna card SA")
    # bert has no spade: any card, trump or not
    assert sorted(legal_values(state, "card")) == sorted(deal["bert"].split())


def test_a_player_must_follow_suit_but_need_not_head_the_trick() -> None:
    deal = {
        "anna": "SA SK SQ CA CK CQ DA DK DQ S9",
        "bert": "HA HK HQ HJ HT H9 ST S8 CJ CT",
        "carl": "DJ S7 C9 C8 C7 DT D9 D8 D7 H8",
    }
    state = _to_play(deal, "H7 SJ", "D")
    state = act(state, "anna card S9")
    assert legal_values(state, "card") == ["S8", "ST"]
    with pytest.raises(IllegalAction, match="must follow suit S"):
        act(state, "bert card HA")


def test_with_one_defender_home_tricks_have_two_cards() -> None:
    state = state_of(
        KURZ,
        "anna call 1",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        "anna declare suit D",
        "bert defence play",
        "carl defence home",
        "anna card DA",
        "bert card C8",
        pot=0,
    )
    assert state.to_act_seat == "anna"
    assert engine.view(state, "bert")["last_trick"] == [
        {"seat": "anna", "card": "DA"},
        {"seat": "bert", "card": "C8"},
    ]


def test_a_played_hand_pays_tricks_from_the_pot() -> None:
    state = play_first(
        state_of(
            KURZ,
            "anna call 3",
            "bert call pass",
            "carl call pass",
            "anna discard C7 S7",
            "anna declare suit D",
            "bert defence play",
            "carl defence play",
            pot=0,
        )
    )
    result = engine.settle(engine.to_record(state))
    tricks = result["tricks"]
    assert sum(tricks.values()) == 10 and tricks["anna"] >= 6
    assert result["delta"] == {
        "anna": tricks["anna"],
        "bert": tricks["bert"],
        "carl": tricks["carl"] - 10,
    }


def test_the_legal_list_of_a_finished_deal_is_empty() -> None:
    state = state_of(KURZ, "anna call pass", "bert call pass", "carl call pass", pot=0)
    assert legal(state) == [] and engine.to_act(state) == frozenset()


def test_the_cli_plays_a_kurz_hand(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.__main__ import main

    assert main(["play", "--seed", "5", "--rules", '{"variant": "kurz"}', "--pot", "35"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["rules"]["variant"] == "kurz" and out["pot"] == 35
    assert engine.replay(out).is_over
    assert engine.verify(out)["verified"] is True


def test_the_deal_of_the_standard_test_position_is_valid() -> None:
    assert engine.replay(record(KURZ, DEAL, pot=0)).to_act_seat == "anna"
