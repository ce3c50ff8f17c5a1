"""End-of-game settlement (``spec/next/preferans.md`` §11): the worked settlements S1–S3 of §14,
exact with fractions, and the invariants (zero sum, ``n·S_i`` whole, the rounding rule, the
pairwise form equal to the closed form) over random sheets."""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules.preferans.rules import PreferansRules, parse_rules
from engine.rules.preferans.settlement import (
    adjusted_mountains,
    exact_results,
    pairwise,
    settle_sheet,
)
from engine.rules.preferans.sheet import Sheet, parse_sheet


def rules(convention: str = "sochi", **kw: Any) -> PreferansRules:
    return parse_rules({"variant": "preferans", "convention": convention, "pool_target": 20, **kw})


def sheet(
    pool: dict[str, int], mountain: dict[str, int], whists: dict[str, dict[str, int]]
) -> Sheet:
    return Sheet(pool, mountain, whists)


S1 = sheet(
    {"A": 20, "B": 20, "C": 20},
    {"A": 42, "B": 96, "C": 132},
    {"A": {"B": 170, "C": 60}, "B": {"A": 64, "C": 178}, "C": {"A": 88, "B": 95}},
)


def test_s1_sochi_three_players_all_pools_closed() -> None:
    """§14 S1: A +558, B −83, C −475; pairs +286, +272, +203."""
    seats = ("A", "B", "C")
    r = rules()
    assert settle_sheet(r, seats, S1) == {
        "n": 3,
        "result_n": {"A": 1674, "B": -249, "C": -1425},
        "result": {"A": 558, "B": -83, "C": -475},
    }
    assert pairwise(r, seats, S1) == {("A", "B"): 286, ("A", "C"): 272, ("B", "C"): 203}


def test_s1_with_the_seats_renamed_and_reordered() -> None:
    names = {"A": "zoe", "B": "max", "C": "ivo"}
    renamed = Sheet(
        {names[s]: v for s, v in S1.pool.items()},
        {names[s]: v for s, v in S1.mountain.items()},
        {names[w]: {names[t]: v for t, v in row.items()} for w, row in S1.whists.items()},
    )
    out = settle_sheet(rules(), ("ivo", "zoe", "max"), renamed)
    assert out["result"] == {"ivo": -475, "zoe": 558, "max": -83}


S2 = sheet(
    {"E": 56, "S": 22, "W": 12},
    {"E": 22, "S": 22, "W": 34},
    {"E": {"S": 24, "W": 32}, "S": {"E": 100, "W": 32}, "W": {"E": 72, "S": 56}},
)


def test_s2_leningrad_game_stopped_with_unequal_pools() -> None:
    """§14 S2: pool gap ×20/10: M' 22, 90, 122; E +444, S −68, W −376."""
    seats = ("E", "S", "W")
    r = rules("leningrad")
    assert adjusted_mountains(r, seats, S2) == {"E": 22, "S": 90, "W": 122}
    out = settle_sheet(r, seats, S2)
    assert out["result"] == {"E": 444, "S": -68, "W": -376}
    assert out["result_n"] == {"E": 1332, "S": -204, "W": -1128}


def test_s2_the_same_sheet_under_sochi() -> None:
    """§14 S2 under Sochi (K_P = 10, T ≥ 56): M' 22, 56, 78; E +184, S +12, W −196."""
    seats = ("E", "S", "W")
    r = rules(pool_target=60)
    parsed = parse_sheet(S2.to_json(), r, seats)
    assert adjusted_mountains(r, seats, parsed) == {"E": 22, "S": 56, "W": 78}
    assert settle_sheet(r, seats, parsed)["result"] == {"E": 184, "S": 12, "W": -196}


S3 = sheet(
    {"A": 20, "B": 20, "C": 20, "D": 20},
    {"A": 7, "B": 0, "C": 13, "D": 3},
    {"A": {"B": 12}, "B": {"A": 30}, "C": {"A": 36}, "D": {"C": 8}},
)


def test_s3_sochi_four_players_rounding() -> None:
    """§14 S3: S = −66.5, 75.5, −44.5, 35.5; A and B get the two missing whists."""
    seats = ("A", "B", "C", "D")
    r = rules(whist_value=10)
    assert exact_results(r, seats, S3) == {
        "A": Fraction(-133, 2),
        "B": Fraction(151, 2),
        "C": Fraction(-89, 2),
        "D": Fraction(71, 2),
    }
    assert pairwise(r, seats, S3)[("A", "B")] == Fraction(-71, 2)
    assert settle_sheet(r, seats, S3) == {
        "n": 4,
        "result_n": {"A": -266, "B": 302, "C": -178, "D": 142},
        "result": {"A": -66, "B": 76, "C": -45, "D": 35},
        "money": {"A": -660, "B": 760, "C": -450, "D": 350},
    }


def test_the_mountain_rule_divides_by_n_not_n_minus_1() -> None:
    """§11.3: at 4 a mountain of 6 makes each other seat write 15 whists, not 20."""
    seats = ("A", "B", "C", "D")
    s = sheet({x: 0 for x in seats}, {"A": 6, "B": 0, "C": 0, "D": 0}, {})
    assert pairwise(rules(), seats, s)[("A", "B")] == -15
    assert settle_sheet(rules(), seats, s)["result"] == {"A": -45, "B": 15, "C": 15, "D": 15}


def test_rounding_ties_go_to_the_earlier_seat() -> None:
    """§11.6: S = −8/3, 1/3, 7/3 (K_M = 1): floors −3, 0, 2 miss one whist; every remainder
    is 1/3, so the first seat gets it."""
    seats = ("A", "B", "C")
    s = sheet({x: 0 for x in seats}, {"A": 0, "B": 0, "C": 1}, {"C": {"A": 3}})
    exact = exact_results(rules(mountain_point_whists=1, pool_point_whists=1), seats, s)
    assert exact == {"A": Fraction(-8, 3), "B": Fraction(1, 3), "C": Fraction(7, 3)}
    out = settle_sheet(rules(mountain_point_whists=1, pool_point_whists=1), seats, s)
    assert out["result"] == {"A": -2, "B": 0, "C": 2}


# --- invariants ------------------------------------------------------------------------------

point_values = st.sampled_from([(10, 10), (20, 10), (30, 15), (4, 1), (10, 5)])


@st.composite
def sheets(draw: st.DrawFn) -> tuple[PreferansRules, tuple[str, ...], Sheet]:
    n = draw(st.sampled_from([3, 4]))
    seats = ("A", "B", "C", "D")[:n]
    kp, km = draw(point_values)
    game_end = draw(st.sampled_from(["all_closed", "sum"]))
    target = draw(st.integers(1, 50))
    r = rules(pool_target=target, pool_point_whists=kp, mountain_point_whists=km, game_end=game_end)
    top = target if game_end == "all_closed" else 200
    pool = {s: draw(st.integers(0, top)) for s in seats}
    mountain = {s: draw(st.integers(-50, 500)) for s in seats}
    whists = {w: {t: draw(st.integers(0, 400)) for t in seats if t != w} for w in seats}
    return r, seats, parse_sheet({"pool": pool, "mountain": mountain, "whists": whists}, r, seats)


@given(sheets())
def test_results_sum_to_zero_and_n_times_s_is_whole(
    case: tuple[PreferansRules, tuple[str, ...], Sheet],
) -> None:
    r, seats, s = case
    exact = exact_results(r, seats, s)
    assert sum(exact.values()) == 0
    out = settle_sheet(r, seats, s)
    assert sum(out["result"].values()) == 0
    assert sum(out["result_n"].values()) == 0
    for seat in seats:
        assert out["result_n"][seat] == exact[seat] * len(seats)


@given(sheets())
def test_rounding_moves_each_result_by_less_than_one(
    case: tuple[PreferansRules, tuple[str, ...], Sheet],
) -> None:
    """§11.6: each result is floor(S_i) or one more; the ones raised have the largest
    remainders (earlier seats first on ties)."""
    r, seats, s = case
    exact = exact_results(r, seats, s)
    result = settle_sheet(r, seats, s)["result"]
    raised = [x for x in seats if result[x] == floor(exact[x]) + 1]
    kept = [x for x in seats if result[x] == floor(exact[x])]
    assert len(raised) + len(kept) == len(seats)
    for a in raised:
        for b in kept:
            ra, rb = exact[a] - floor(exact[a]), exact[b] - floor(exact[b])
            assert ra > rb or (ra == rb and seats.index(a) < seats.index(b))


@given(sheets())
def test_the_pairwise_form_equals_the_closed_form(
    case: tuple[PreferansRules, tuple[str, ...], Sheet],
) -> None:
    r, seats, s = case
    pairs = pairwise(r, seats, s)
    totals = {x: Fraction(0) for x in seats}
    for (i, j), v in pairs.items():
        totals[i] += v
        totals[j] -= v
    assert totals == exact_results(r, seats, s)


@pytest.mark.parametrize("value", [1, 25])
def test_money_is_the_rounded_result_times_the_whist_value(value: int) -> None:
    out = settle_sheet(rules(whist_value=value), ("A", "B", "C"), S1)
    assert out["money"] == {s: v * value for s, v in out["result"].items()}


def test_no_money_without_a_whist_value() -> None:
    assert "money" not in settle_sheet(rules(), ("A", "B", "C"), S1)
