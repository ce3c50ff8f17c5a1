"""``illustrated`` (``spec/next/austria-variants.md``): the page's examples as given, and one
test per rule that differs from ``wien`` and ``austria-modern``."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.actions import PlayCard
from engine.errors import EngineError
from tests.engine.family_helpers import act, deltas, legal_values, sheet, state_of

ILL: dict[str, Any] = {"variant": "illustrated", "unit": 10, "ante": 100}
ROW: dict[str, Any] = {**ILL, "illustrated_form": "six_in_row"}


def premium(level: int, hand: bool = False) -> dict[str, Any]:
    return {"type": "premium", "level": level, "hand": hand}


# --- the page's examples (unit 10) --------------------------------------------------------------


def test_example_1_a_slam_made() -> None:
    entry = sheet(
        ILL, premium(6), declarer="anna", tricks={"anna": 10, "bert": 0, "carl": 0}, pot=300
    )
    result = engine.settle(entry)
    assert deltas(result) == (400, -200, -200)
    assert result["pot"] == 300 and result["fallen"] == [] and result["made"] is True
    assert {t["why"] for t in result["transfers"]} == {"premium"}


def test_example_2_a_hand_misere_stops_at_the_declarers_first_trick() -> None:
    entry = sheet(
        ILL,
        premium(5, hand=True),
        declarer="bert",
        tricks={"anna": 1, "bert": 1, "carl": 0},
        pot=300,
    )
    result = engine.settle(entry)
    assert deltas(result) == (200, -400, 200)
    assert result["made"] is False and result["fallen"] == []


def test_example_3_six_in_a_row_made_after_trick_7() -> None:
    entry = sheet(
        ROW,
        premium(6),
        declarer="carl",
        tricks={"anna": 1, "bert": 0, "carl": 6},
        made=True,
        pot=300,
    )
    result = engine.settle(entry)
    assert deltas(result) == (-200, -200, 400)


# --- the ladder and the contracts -----------------------------------------------------------


def test_the_ladder_puts_hand_calls_above_talon_calls_and_7_8_above_the_hand_calls() -> None:
    calls = legal_values(state_of(ILL, pot=300), "call")
    assert calls == [
        "pass",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "1h",
        "2h",
        "3h",
        "4h",
        "5h",
        "6h",
        "7",
        "8",
        "7h",
        "8h",
    ]
    assert legal_values(state_of(ILL, "anna call 6h", pot=300), "call") == [
        "pass",
        "7",
        "8",
        "7h",
        "8h",
    ]


def test_six_in_row_has_no_open_contracts() -> None:
    assert legal_values(state_of(ROW, pot=300), "call")[-1] == "6h"


def test_after_a_talon_call_any_talon_contract_at_least_the_call() -> None:
    state = state_of(
        ILL, "anna call 3", "bert call pass", "carl call pass", "anna discard C7 S7", pot=300
    )
    assert [(d["type"], d["level"]) for d in legal_values(state, "declare")] == [
        ("suit", "D"),
        ("suit", "H"),
        ("premium", 5),
        ("premium", 6),
        ("premium", 7),
        ("premium", 8),
    ]
    state = state_of(
        ILL, "anna call 5", "bert call pass", "carl call pass", "anna discard C7 S7", pot=300
    )
    assert [d["level"] for d in legal_values(state, "declare")] == [5, 6, 7, 8]


def test_a_premium_contract_has_no_defence_give_up_or_no_aces() -> None:
    state = state_of(
        {**ILL, "no_ace_bonus": 10},
        "anna call 6",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        "anna declare premium 6",
        pot=300,
    )
    assert state.phase == "play" and state.to_act_seat == "anna"
    assert state.hand.playing == 0b111 and state.game.trump is None


def test_a_misere_stops_when_the_declarer_takes_a_trick() -> None:
    state = state_of(
        ILL,
        "anna call 5",
        "bert call pass",
        "carl call pass",
        "anna discard C7 S7",
        "anna declare premium 5",
        "anna card DA",
        "bert card C8",
        pot=300,
    )
    state = act(state, "carl card D8")
    assert state.is_over
    result = engine.settle(engine.to_record(state))
    assert result["tricks"] == {"anna": 1, "bert": 0, "carl": 0} and result["made"] is False
    assert deltas(result) == (-200, 100, 100)


def test_open_contracts_show_the_declarers_hand_after_the_discard() -> None:
    state = state_of(
        ILL, "anna call 7", "bert call pass", "carl call pass", "anna discard C7 S7", pot=300
    )
    assert engine.view(state, "bert")["open_hands"] == {}
    state = act(state, "anna declare premium 7")
    shown = engine.view(state, "bert")["open_hands"]
    assert sorted(shown["anna"]) == sorted(
        ["CA", "SK", "SA", "D7", "D9", "DT", "DJ", "DQ", "DK", "DA"]
    )
    assert engine.view(state, None)["open_hands"] == shown


def test_a_hand_open_contract_is_shown_right_after_the_auction() -> None:
    state = state_of(ILL, "anna call 8h", "bert call pass", "carl call pass", pot=300)
    assert state.game == engine.rule_set("illustrated").family.hand_game("8h")
    assert set(engine.view(state, "carl")["open_hands"]) == {"anna"}
    assert engine.view(state, "carl")["talon"] is None  # a hand game never shows the talon


def test_six_in_row_stops_once_made_or_once_it_cannot_be_made() -> None:
    """Over random hands: a six-in-a-row slam ends at the sixth trick of a run of six won by
    the declarer (made), or at the first lost trick after which fewer than six are left."""
    rs = engine.rule_set("illustrated")
    seen = {True: 0, False: 0}
    for seed in range(400):
        rng = random.Random(seed)
        order, _ = rs.shuffled_deck(rng)
        deal = rs.deal_from_deck(order, ["anna", "bert", "carl"])
        actions = [
            {"seat": "anna", "call": "6"},
            {"seat": "bert", "call": "pass"},
            {"seat": "carl", "call": "pass"},
        ]
        state = engine.replay(
            {
                "rules": ROW,
                "seats": ["anna", "bert", "carl"],
                "dealer": "carl",
                "pot": 300,
                "deal": deal,
                "actions": actions,
            }
        )
        state = act(state, "anna discard " + " ".join(deal["talon"]))
        state = act(state, "anna declare premium 6")
        while not state.is_over:
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        cards = [a for a in state.history if isinstance(a, PlayCard)]
        winners = []
        record = {
            "rules": ROW,
            "seats": ["anna", "bert", "carl"],
            "dealer": "carl",
            "pot": 300,
            "deal": deal,
            "actions": engine.to_record(state)["actions"],
        }
        for n in range(3, len(cards) + 1, 3):
            partial = engine.replay({**record, "actions": record["actions"][: 5 + n]})
            winners.append(engine.view(partial, None)["tricks"]["anna"])
        won = [b - a for a, b in zip([0, *winners], winners, strict=False)]
        run = best = 0
        for w in won:
            run = run + 1 if w else 0
            best = max(best, run)
        made = engine.sheet_entry(state)["made"]
        seen[made] += 1
        assert made == (best >= 6)
        if made:
            assert won[-6:] == [1] * 6
        else:
            assert won[-1] == 0 and 10 - len(won) < 6
            assert all(10 - i - 1 >= 6 for i, w in enumerate(won[:-1]) if not w)
    assert seen[True] and seen[False]


def test_a_six_in_row_entry_needs_made() -> None:
    entry = sheet(
        ROW, premium(6), declarer="carl", tricks={"anna": 1, "bert": 0, "carl": 6}, pot=300
    )
    with pytest.raises(EngineError, match="needs made") as e:
        engine.settle(entry)
    assert e.value.at == "made"
    with pytest.raises(EngineError, match="only for a slam of six in a row"):
        engine.settle(
            sheet(
                ILL,
                premium(6),
                declarer="carl",
                tricks={"anna": 0, "bert": 0, "carl": 10},
                made=True,
                pot=300,
            )
        )


def test_suit_games_settle_as_modern() -> None:
    entry = sheet(
        ILL,
        {"type": "suit", "level": "S", "talon": True},
        declarer="anna",
        defence={"bert": "play", "carl": "play"},
        tricks={"anna": 7, "bert": 2, "carl": 1},
        pot=300,
    )
    assert deltas(engine.settle(entry)) == (90, 10, -100)


def test_premium_contracts_need_no_pot_and_take_no_antes() -> None:
    entry = sheet(
        ILL,
        premium(8, hand=True),
        declarer="anna",
        tricks={"anna": 10, "bert": 0, "carl": 0},
        pot=0,
    )
    result = engine.settle(entry)
    assert deltas(result) == (1600, -800, -800) and result["pot"] == 0
