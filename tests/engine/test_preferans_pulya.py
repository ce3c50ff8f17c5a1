"""A whole ``preferans`` game (pulya) and the bare settlement (``spec/next/preferans.md`` §13):
deals scored one after another with the sheet, streak and dealer the previous one left; game
end; errors naming the deal; the golden pulyas of ``tests/data/preferans/``."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, IllegalAction
from engine.rules.preferans.outcome import DealOutcome
from engine.rules.preferans.pulya import settle_bare, settle_pulya
from engine.rules.preferans.rules import PreferansRules, parse_rules
from engine.rules.preferans.sheet import Sheet, parse_sheet

DATA = Path(__file__).resolve().parent.parent / "data" / "preferans"
SOCHI = {"variant": "preferans", "convention": "sochi", "pool_target": 4}


def no_full_records(*args: Any) -> DealOutcome:
    raise AssertionError("this pulya has score-sheet entries only")


def pulya(deals: list[Any], **kw: Any) -> dict[str, Any]:
    record = {"rules": SOCHI, "seats": ["A", "B", "C"], "dealer": "C", "deals": deals, **kw}
    return settle_pulya(record, no_full_records)


def raspasy(**tricks: int) -> dict[str, Any]:
    return {"game": {"type": "raspasy"}, "tricks": tricks}


def passed(declarer: str, level: int, strain: str, *defenders: str) -> dict[str, Any]:
    return {
        "game": {"type": "contract", "level": level, "strain": strain},
        "declarer": declarer,
        "defence": {d: "pass" for d in defenders},
    }


def test_the_streak_and_the_dealer_carry_from_deal_to_deal() -> None:
    """§8.3: b = 1 then 2 then 3; §1: the next seat deals after every deal."""
    out = pulya([raspasy(A=0, B=4, C=6), raspasy(B=3, C=3, A=4), raspasy(C=2, A=3, B=5)])
    assert [d["dealer"] for d in out["deals"]] == ["C", "A", "B"]
    assert [d["streak"] for d in out["deals"]] == [1, 2, 3]
    assert [d["entry"]["mountain"] for d in out["deals"]] == [
        {"A": 0, "B": 4, "C": 6},
        {"A": 8, "B": 6, "C": 6},
        {"A": 9, "B": 15, "C": 6},
    ]
    assert out["sheet"]["mountain"] == {"A": 17, "B": 25, "C": 18}
    assert out["sheet"]["pool"] == {"A": 1, "B": 0, "C": 0}
    assert out["streak"] == 3
    assert out["dealer"] == "C"
    assert out["game_over"] is False


def test_the_settlement_is_on_the_last_sheet_finished_or_not() -> None:
    out = pulya([raspasy(A=0, B=4, C=6)])
    # M' with pool gap: A 0, B 4 + 10·1/10 = 5, C 7; mean 4
    assert out["settlement"]["result"] == {"A": 40, "B": -10, "C": -30}


def test_a_deal_below_the_exit_minimum_after_raspasy_is_refused() -> None:
    with pytest.raises(EngineError) as e:
        pulya(
            [raspasy(A=0, B=4, C=6), passed("B", 6, "S", "C", "A")],
            rules={**SOCHI, "raspasy_exit": [7]},
        )
    assert e.value.at == "deals[1].game.level"


def test_the_game_ends_and_a_deal_after_it_is_an_error() -> None:
    """§10: A 8H (A 4, B helped to 2), B 6S (B 4), C 8H (C 4, 2 written off): all closed."""
    deals = [
        passed("A", 8, "H", "B", "C"),
        passed("B", 6, "S", "C", "A"),
        passed("C", 8, "H", "A", "B"),
    ]
    out = pulya(deals)
    assert [d["game_over"] for d in out["deals"]] == [False, False, True]
    assert out["game_over"] is True
    assert out["sheet"]["pool"] == {"A": 4, "B": 4, "C": 4}
    assert out["sheet"]["mountain"] == {"A": 0, "B": 0, "C": -2}
    with pytest.raises(EngineError) as e:
        pulya([*deals, raspasy(A=0, B=4, C=6)])
    assert e.value.at == "deals[3]"


def test_help_in_a_pulya() -> None:
    """§10: A makes 8H (6 points) at T = 4: A stops at 4; the excess 2 goes to B and C, both
    at 0: B, the first after A, gets both (20 whists)."""
    out = pulya([passed("A", 8, "H", "B", "C")])
    assert out["deals"][0]["help"] == [{"from": "A", "to": "B", "points": 2, "whists": 20}]
    assert out["sheet"]["pool"] == {"A": 4, "B": 2, "C": 0}
    assert out["sheet"]["whists"] == {"A": {"B": 20}}


def test_a_pulya_may_start_from_a_sheet_and_a_streak() -> None:
    sheet = {"pool": {"A": 3, "B": 0, "C": 0}, "mountain": {"A": 5, "B": 0, "C": 1}}
    out = pulya([raspasy(A=1, B=4, C=5)], sheet=sheet, streak=2)
    assert out["deals"][0]["entry"]["mountain"] == {"A": 3, "B": 12, "C": 15}
    assert out["sheet"]["mountain"] == {"A": 8, "B": 12, "C": 16}
    assert out["streak"] == 3


def test_an_empty_pulya_settles_its_start() -> None:
    out = pulya([])
    assert out["deals"] == [] and out["dealer"] == "C" and out["game_over"] is False
    assert out["settlement"]["result"] == {"A": 0, "B": 0, "C": 0}


@pytest.mark.parametrize(
    ("deals", "kw", "at"),
    [
        ([raspasy(A=0, B=4, C=6), raspasy(A=0, B=4, C=5)], {}, "deals[1].tricks"),
        ([{"dealer": "A", **raspasy(A=0, B=4, C=6)}], {}, "deals[0].dealer"),
        ([{"rules": SOCHI, **raspasy(A=0, B=4, C=6)}], {}, "deals[0].rules"),
        ([{"streak": 0, **raspasy(A=0, B=4, C=6)}], {}, "deals[0].streak"),
        ([{"sheet": {}, **raspasy(A=0, B=4, C=6)}], {}, "deals[0].sheet"),
        ([{"pot": 0, **raspasy(A=0, B=4, C=6)}], {}, "deals[0].pot"),
        ([{"tricks": {}}], {}, "deals[0]"),
        ([7], {}, "deals[0]"),
        ([], {"pot": 0}, "pot"),
        ([], {"extra": 1}, "extra"),
        ([], {"streak": -1}, "streak"),
        ([], {"dealer": "Z"}, "dealer"),
        ([], {"rules": {"variant": "preferans"}}, "rules.pool_target"),
        (
            [],
            {"sheet": {"pool": {"A": 4, "B": 4, "C": 4}, "mountain": {"A": 0, "B": 0, "C": 0}}},
            "sheet",
        ),
        (
            [],
            {"sheet": {"pool": {"A": 5, "B": 4, "C": 4}, "mountain": {"A": 0, "B": 0, "C": 0}}},
            "sheet.pool.A",
        ),
    ],
)
def test_a_bad_pulya_is_refused_naming_the_place(
    deals: list[Any], kw: dict[str, Any], at: str
) -> None:
    with pytest.raises(EngineError) as e:
        pulya(deals, **kw)
    assert e.value.at == at


def test_deals_must_be_a_list() -> None:
    with pytest.raises(EngineError) as e:
        settle_pulya({"rules": SOCHI, "seats": ["A", "B", "C"], "dealer": "C"}, no_full_records)
    assert e.value.at == "deals"


# --- full records through the driver --------------------------------------------------------


def test_full_records_are_replayed_by_the_callable_with_the_running_envelope() -> None:
    """A stand-in for HAND's replay: it records what the driver hands it and returns a fixed
    raspasy outcome; the driver scores it under the pulya's own envelope."""
    calls: list[tuple[Any, ...]] = []

    def stand_in(
        record: Mapping[str, Any],
        rules: PreferansRules,
        seats: tuple[str, ...],
        dealer: str,
        streak: int,
        sheet: Sheet,
    ) -> DealOutcome:
        calls.append((dict(record), rules.convention, seats, dealer, streak, sheet.to_json()))
        tricks = dict(zip(("A", "B", "C"), (2, 3, 5), strict=True))
        return DealOutcome(
            rules, seats, "C", 0, None, "raspasy", None, None, None, None, None, tricks
        )

    full = {"deal": {"A": [], "B": [], "C": [], "talon": []}, "actions": []}
    out = settle_pulya(
        {
            "rules": SOCHI,
            "seats": ["A", "B", "C"],
            "dealer": "C",
            "deals": [raspasy(A=0, B=4, C=6), full, {**full, "dealer": "B"}],
        },
        stand_in,
    )
    assert [c[3] for c in calls] == ["A", "B"]  # the rotation's dealers
    assert [c[4] for c in calls] == [1, 2]  # the running streak
    assert calls[0][5]["mountain"] == {"A": 0, "B": 4, "C": 6}  # the sheet the previous left
    assert calls[1][5]["mountain"] == {"A": 4, "B": 10, "C": 16}
    assert calls[0][2] == ("A", "B", "C") and calls[0][1] == "sochi"
    # scored at the pulya's streak (b = 2, then 3), not the stand-in's 0
    assert out["deals"][1]["entry"]["mountain"] == {"A": 4, "B": 6, "C": 10}
    assert out["deals"][2]["entry"]["mountain"] == {"A": 6, "B": 9, "C": 15}
    assert out["streak"] == 3


def test_errors_of_a_full_record_are_prefixed_with_the_deal() -> None:
    def failing(*args: Any) -> DealOutcome:
        raise IllegalAction("actions[9]", "carl cannot call half (the first defender whisted)")

    with pytest.raises(IllegalAction) as e:
        settle_pulya(
            {
                "rules": SOCHI,
                "seats": ["A", "B", "C"],
                "dealer": "C",
                "deals": [raspasy(A=0, B=4, C=6), {"deal": {}, "actions": []}],
            },
            failing,
        )
    assert e.value.at == "deals[1].actions[9]"
    assert e.value.message == "carl cannot call half (the first defender whisted)"


# --- one go equals deal by deal -------------------------------------------------------------


@st.composite
def entries(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Random score-sheet entries for seats A B C (C deals first), legal at any streak under
    Sochi (exit [6])."""
    seats = ("A", "B", "C")
    out: list[dict[str, Any]] = []
    for k in range(draw(st.integers(1, 8))):
        dealer = seats[(2 + k) % 3]
        active = tuple(seats[(seats.index(dealer) + i) % 3] for i in (1, 2, 3))
        kind = draw(st.sampled_from(["raspasy", "contract", "misere", "passed"]))
        cut = sorted(draw(st.lists(st.integers(0, 10), min_size=2, max_size=2)))
        split = (cut[0], cut[1] - cut[0], 10 - cut[1])
        tricks = dict(zip(active, split, strict=True))
        decl = draw(st.sampled_from(active))
        i = active.index(decl)
        first, second = active[(i + 1) % 3], active[(i + 2) % 3]
        if kind == "raspasy":
            out.append({"game": {"type": "raspasy"}, "tricks": tricks})
        elif kind == "misere":
            out.append({"game": {"type": "misere"}, "declarer": decl, "tricks": tricks})
        else:
            level = draw(st.integers(6, 10))
            game = {"type": "contract", "level": level, "strain": draw(st.sampled_from("SCDH"))}
            if kind == "passed":
                defence = {first: "pass", second: "pass"}
                out.append({"game": game, "declarer": decl, "defence": defence})
            else:
                calls = draw(
                    st.sampled_from([("whist", "whist"), ("whist", "pass"), ("pass", "whist")])
                )
                defence = {first: calls[0], second: calls[1]}
                out.append({"game": game, "declarer": decl, "defence": defence, "tricks": tricks})
    return out


@settings(max_examples=60, deadline=None)
@given(entries(), st.sampled_from(["sochi", "leningrad", "rostov"]), st.integers(3, 30))
def test_a_pulya_settled_in_one_go_equals_deal_by_deal(
    deals: list[dict[str, Any]], convention: str, target: int
) -> None:
    rules = {"variant": "preferans", "convention": convention, "pool_target": target}
    if convention == "leningrad":
        rules["raspasy_exit"] = [6]
    seats = ["A", "B", "C"]
    state: dict[str, Any] = {"dealer": "C", "streak": 0}
    played: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for deal in deals:
        one = settle_pulya(
            {"rules": rules, "seats": seats, "deals": [deal], **state}, no_full_records
        )
        played.append(deal)
        results.append(one["deals"][0])
        state = {"dealer": one["dealer"], "streak": one["streak"], "sheet": one["sheet"]}
        if one["game_over"]:
            break
    whole = settle_pulya(
        {"rules": rules, "seats": seats, "dealer": "C", "deals": played}, no_full_records
    )
    assert whole["deals"] == results
    # every sheet a pulya leaves is a valid sheet (§10)
    parse_sheet(whole["sheet"], parse_rules(rules), seats)
    assert whole["sheet"] == one["sheet"]
    assert whole["settlement"] == one["settlement"]
    assert (whole["dealer"], whole["streak"], whole["game_over"]) == (
        one["dealer"],
        one["streak"],
        one["game_over"],
    )


# --- the bare settlement --------------------------------------------------------------------


def test_the_bare_settlement_settles_the_sheet() -> None:
    """§14 S1 through the §13 Settlement form."""
    record = {
        "rules": {**SOCHI, "pool_target": 20, "whist_value": 2},
        "seats": ["A", "B", "C"],
        "sheet": {
            "pool": {"A": 20, "B": 20, "C": 20},
            "mountain": {"A": 42, "B": 96, "C": 132},
            "whists": {
                "A": {"B": 170, "C": 60},
                "B": {"A": 64, "C": 178},
                "C": {"A": 88, "B": 95},
            },
        },
    }
    out = settle_bare(record)
    assert out["result"] == {"A": 558, "B": -83, "C": -475}
    assert out["money"] == {"A": 1116, "B": -166, "C": -950}
    assert settle_bare({**record, "dealer": "B"}) == out


@pytest.mark.parametrize(
    ("change", "at"),
    [
        ({"sheet": None}, "sheet"),
        ({"dealer": "Z"}, "dealer"),
        ({"seats": ["A", "B"]}, "seats"),
        ({"pot": 1}, "pot"),
        ({"deals_": []}, "deals_"),
    ],
)
def test_a_bad_bare_settlement_is_refused(change: dict[str, Any], at: str) -> None:
    record: dict[str, Any] = {
        "rules": SOCHI,
        "seats": ["A", "B", "C"],
        "sheet": {"pool": {"A": 0, "B": 0, "C": 0}, "mountain": {"A": 0, "B": 0, "C": 0}},
    }
    record.update(change)
    if change.get("sheet", 0) is None:
        del record["sheet"]
    with pytest.raises(EngineError) as e:
        settle_bare(record)
    assert e.value.at == at


# --- golden pulyas --------------------------------------------------------------------------

GOLDEN = sorted(DATA.glob("pulya-*.json"))


def test_there_are_three_golden_pulyas() -> None:
    assert [p.name for p in GOLDEN] == [
        "pulya-leningrad.json",
        "pulya-rostov.json",
        "pulya-sochi.json",
    ]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_pulya(path: Path) -> None:
    data = json.loads(path.read_text())
    record = copy.deepcopy(data["record"])
    out = settle_pulya(record, no_full_records)
    expected = data["expect"]
    assert len(out["deals"]) == len(expected["deals"])
    for got, want in zip(out["deals"], expected["deals"], strict=True):
        assert {k: got[k] for k in want} == want
    for key in ("sheet", "streak", "game_over", "dealer", "settlement"):
        assert out[key] == expected[key], key
    # a deal after the game's end is refused
    record["deals"].append({"game": {"type": "raspasy"}, "tricks": {}})
    with pytest.raises(EngineError) as e:
        settle_pulya(record, no_full_records)
    assert e.value.at == f"deals[{len(expected['deals'])}]"
