"""``preferans`` options (``spec/next/preferans.md`` §12): the three conventions, explicit
overrides, and every refusal naming its option; the streak prices (§8.3) and exit minimum
(§8.4)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import EngineError
from engine.rules.preferans.rules import (
    CONVENTIONS,
    EXAMPLES,
    OPTIONS,
    PreferansRules,
    parse_rules,
)
from engine.rules.preferans.sheet import Sheet, game_over, parse_sheet

BASE = {"variant": "preferans", "pool_target": 20}


def rules(**kw: Any) -> PreferansRules:
    return parse_rules({**BASE, **kw})


def refused(data: dict[str, Any]) -> EngineError:
    with pytest.raises(EngineError) as e:
        parse_rules(data)
    return e.value


def test_a_table_without_a_whist_price_leaves_whist_value_out() -> None:
    """§12: numeric options are positive integers and ``whist_value`` is required only for
    money, so a table without one exports no ``whist_value`` (not ``null``); a stored
    ``null`` still reads as none."""
    assert "whist_value" not in rules().to_json()
    assert rules(whist_value=None) == rules()
    assert rules(whist_value=5).to_json()["whist_value"] == 5


def test_the_default_convention_is_sochi() -> None:
    r = rules()
    assert r.convention == "sochi"
    assert r.to_json() == {
        "variant": "preferans",
        "convention": "sochi",
        "pool_target": 20,
        **{k: list(v) if isinstance(v, tuple) else v for k, v in CONVENTIONS["sochi"].items()},
    }


@pytest.mark.parametrize(
    ("convention", "option", "value"),
    [
        # §12 table, one row per option that differs from Sochi
        ("leningrad", "mountain_mult", 2),
        ("leningrad", "whist_mult", 2),
        ("leningrad", "pool_point_whists", 20),
        ("leningrad", "whist_liability", "half"),
        ("leningrad", "whist_split", "gentleman_remise"),
        ("leningrad", "raspasy_exit", (7,)),
        ("leningrad", "game_end", "sum"),
        ("leningrad", "raspasy_progression", (1, 2, 3)),
        ("rostov", "whist_liability", "half"),
        ("rostov", "whist_split", "gentleman_remise"),
        ("rostov", "consolation", "fixed10"),
        ("rostov", "misere_consolation", True),
        ("rostov", "raspasy_scoring", "whists"),
        ("rostov", "raspasy_progression", (1,)),
        ("rostov", "raspasy_talon", "closed"),
        ("rostov", "game_end", "all_closed"),
        ("sochi", "whist_split", "greedy"),
        ("sochi", "whist_liability", "full"),
        ("sochi", "raspasy_exit", (6,)),
    ],
)
def test_a_convention_picks_its_column(convention: str, option: str, value: object) -> None:
    assert getattr(rules(convention=convention), option) == value


def test_every_option_is_in_every_convention_and_on_the_rules() -> None:
    names = {o.name for o in OPTIONS}
    for column in CONVENTIONS.values():
        assert set(column) == names - {"convention", "pool_target", "whist_value"}
    assert set(rules(whist_value=10).to_json()) == names | {"variant"}


def test_an_explicit_option_overrides_the_convention() -> None:
    r = rules(convention="leningrad", whist_split="greedy", raspasy_exit=[6, 7, 8])
    assert r.whist_split == "greedy"
    assert r.raspasy_exit == (6, 7, 8)
    assert r.mountain_mult == 2
    assert r.to_json()["raspasy_exit"] == [6, 7, 8]


def test_parsing_the_full_json_again_gives_the_same_rules() -> None:
    for data in EXAMPLES:
        r = parse_rules(data)
        assert parse_rules(r.to_json()) == r


def test_the_first_example_is_sochi_at_20() -> None:
    assert EXAMPLES[0] == {"variant": "preferans", "convention": "sochi", "pool_target": 20}
    assert any("whist_value" in e for e in EXAMPLES)
    assert {e["convention"] for e in EXAMPLES} == {"sochi", "leningrad", "rostov"}


@pytest.mark.parametrize(
    ("data", "at"),
    [
        ({"variant": "preferans"}, "rules.pool_target"),  # §12: pool_target required
        ({**BASE, "variant": "wien"}, "rules.variant"),
        ({"pool_target": 20}, "rules.variant"),
        ({**BASE, "pot": 3}, "rules.pot"),  # unknown keys are errors
        ({**BASE, "convention": "moscow"}, "rules.convention"),
        ({**BASE, "pool_target": 0}, "rules.pool_target"),
        ({**BASE, "pool_target": True}, "rules.pool_target"),  # JSON true is not a number
        ({**BASE, "pool_target": 20.0}, "rules.pool_target"),
        ({**BASE, "pool_mult": False}, "rules.pool_mult"),
        ({**BASE, "mountain_mult": 0}, "rules.mountain_mult"),
        ({**BASE, "whist_mult": -1}, "rules.whist_mult"),
        ({**BASE, "whist_value": 0}, "rules.whist_value"),
        ({**BASE, "whist_value": True}, "rules.whist_value"),
        ({**BASE, "raspasy_whists": "5"}, "rules.raspasy_whists"),
        ({**BASE, "ten_whisted": 1}, "rules.ten_whisted"),  # booleans are true/false
        ({**BASE, "half_whist": "yes"}, "rules.half_whist"),
        ({**BASE, "whist_split": "fair"}, "rules.whist_split"),
        ({**BASE, "raspasy_progression": []}, "rules.raspasy_progression"),  # non-empty
        ({**BASE, "raspasy_progression": [1, 0]}, "rules.raspasy_progression"),
        ({**BASE, "raspasy_progression": [1, True]}, "rules.raspasy_progression"),
        ({**BASE, "raspasy_progression": 1}, "rules.raspasy_progression"),
        ({**BASE, "raspasy_exit": []}, "rules.raspasy_exit"),
        ({**BASE, "raspasy_exit": [5]}, "rules.raspasy_exit"),  # entries 6–10
        ({**BASE, "raspasy_exit": [6, 11]}, "rules.raspasy_exit"),
        ({**BASE, "pool_point_whists": 15}, "rules.pool_point_whists"),  # multiple of K_M
        ({**BASE, "mountain_point_whists": 20}, "rules.pool_point_whists"),
        ({**BASE, "hold": "always"}, "rules.hold"),
        ({**BASE, "open_timing": "never"}, "rules.open_timing"),
    ],
)
def test_a_bad_option_is_refused_naming_it(data: dict[str, Any], at: str) -> None:
    e = refused(data)
    assert e.at == at
    assert e.message


def test_rules_must_be_an_object() -> None:
    with pytest.raises(EngineError) as e:
        parse_rules([1])
    assert e.value.at == "rules"


def test_pool_point_whists_may_be_any_multiple() -> None:
    r = rules(pool_point_whists=30, mountain_point_whists=15)
    assert (r.pool_point_whists, r.mountain_point_whists) == (30, 15)


@pytest.mark.parametrize(
    ("progression", "prices"),
    [
        ([1, 2, 3], [1, 2, 3, 3, 3]),  # §8.3 Sochi: 1, 2, 3, 3, …
        ([1, 2, 4], [1, 2, 4, 4, 4]),  # the seed's geometric form
        ([1], [1, 1, 1, 1, 1]),  # Rostov
        ([1, 3], [1, 3, 3, 3, 3]),
    ],
)
def test_base_price_follows_the_progression(progression: list[int], prices: list[int]) -> None:
    r = rules(raspasy_progression=progression)
    assert [r.base_price(k) for k in range(5)] == prices


@pytest.mark.parametrize(
    ("exit", "minimums"),
    [
        # §8.4: entry j after exactly j raspasy, the last after more; 6 with streak 0
        ([6], [6, 6, 6, 6]),
        ([6, 7], [6, 6, 7, 7]),  # "6-7-7"
        ([6, 7, 8], [6, 6, 7, 8]),  # "6-7-8-8"
        ([7], [6, 7, 7, 7]),  # "7-7-7"
        ([7, 8], [6, 7, 8, 8]),  # DmytroGusev's strict "6-7-8"
    ],
)
def test_exit_minimum_after_a_streak(exit: list[int], minimums: list[int]) -> None:
    r = rules(raspasy_exit=exit)
    assert [r.exit_minimum(k) for k in range(4)] == minimums


# --- the sheet (§10 validity) --------------------------------------------------------------

SEATS = ("A", "B", "C")


def sheet_json(**kw: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "pool": {"A": 3, "B": 0, "C": 20},
        "mountain": {"A": -4, "B": 12, "C": 0},
        "whists": {"A": {"B": 10, "C": 0}},
    }
    data.update(kw)
    return data


def test_a_sheet_round_trips_without_zero_whists() -> None:
    s = parse_sheet(sheet_json(), rules(), SEATS)
    assert s.to_json() == {
        "pool": {"A": 3, "B": 0, "C": 20},
        "mountain": {"A": -4, "B": 12, "C": 0},
        "whists": {"A": {"B": 10}},
    }
    assert s.whist("A", "B") == 10 and s.whist("B", "A") == 0


def test_the_empty_sheet_is_all_zero() -> None:
    assert Sheet.empty(SEATS).to_json() == {
        "pool": {"A": 0, "B": 0, "C": 0},
        "mountain": {"A": 0, "B": 0, "C": 0},
        "whists": {},
    }


@pytest.mark.parametrize(
    ("kw", "at"),
    [
        ({"pool": {"A": 3, "B": 0}}, "sheet.pool.C"),  # every seat named
        ({"pool": {"A": 3, "B": 0, "C": 0, "D": 0}}, "sheet.pool.D"),
        ({"pool": {"A": -1, "B": 0, "C": 0}}, "sheet.pool.A"),  # pools ≥ 0
        ({"pool": {"A": 21, "B": 0, "C": 0}}, "sheet.pool.A"),  # ≤ T with all_closed
        ({"pool": {"A": 1.5, "B": 0, "C": 0}}, "sheet.pool.A"),
        ({"mountain": {"A": 0, "B": True, "C": 0}}, "sheet.mountain.B"),
        ({"whists": {"A": {"A": 1}}}, "sheet.whists.A.A"),  # never on oneself
        ({"whists": {"A": {"B": -1}}}, "sheet.whists.A.B"),
        ({"whists": {"E": {"B": 1}}}, "sheet.whists.E"),
        ({"whists": {"A": {"B": "1"}}}, "sheet.whists.A.B"),
        ({"pot": 1}, "sheet.pot"),
    ],
)
def test_a_bad_sheet_is_refused_naming_the_place(kw: dict[str, Any], at: str) -> None:
    with pytest.raises(EngineError) as e:
        parse_sheet(sheet_json(**kw), rules(), SEATS)
    assert e.value.at == at


def test_pools_above_target_are_fine_with_sum_game_end() -> None:
    s = parse_sheet(sheet_json(pool={"A": 56, "B": 0, "C": 0}), rules(game_end="sum"), SEATS)
    assert s.pool["A"] == 56


def test_game_over_all_closed_and_sum() -> None:
    closed = Sheet({"A": 20, "B": 20, "C": 20}, {"A": 0, "B": 0, "C": 0}, {})
    open_ = Sheet({"A": 20, "B": 19, "C": 20}, {"A": 0, "B": 0, "C": 0}, {})
    assert game_over(rules(), closed)
    assert not game_over(rules(), open_)
    summed = Sheet({"A": 40, "B": 19, "C": 1}, {"A": 0, "B": 0, "C": 0}, {})
    assert game_over(rules(game_end="sum"), summed)
    assert not game_over(rules(game_end="sum"), open_)
