"""End-of-game settlement (расчёт, ``spec/next/preferans.md`` §11): a score sheet turned into
whists won or lost per seat, exact with fractions, then rounded by the one rule.

Terms: *pool gap* (недобор пули) the points a seat's pool is short of the highest, turned into
mountain; *amnesty* (амнистия) the smallest mountain taken off every mountain; the *10/n rule*:
each other seat writes ``m·K_M/n`` whists on a seat with mountain ``m``."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import floor
from typing import Any

from engine.rules.preferans.rules import PreferansRules
from engine.rules.preferans.sheet import Sheet


def adjusted_mountains(rules: PreferansRules, seats: Sequence[str], sheet: Sheet) -> dict[str, int]:
    """§11.1: ``M'_i = M_i + (max P − P_i)·K_P/K_M`` (nothing when all pools are closed)."""
    top = max(sheet.pool[s] for s in seats)
    factor = rules.pool_point_whists // rules.mountain_point_whists
    return {s: sheet.mountain[s] + (top - sheet.pool[s]) * factor for s in seats}


def exact_results(rules: PreferansRules, seats: Sequence[str], sheet: Sheet) -> dict[str, Fraction]:
    """§11.5 closed form: ``S_i = Σ_j (W[i→j] − W[j→i]) + K_M·(mean M' − M'_i)``."""
    m = adjusted_mountains(rules, seats, sheet)
    mean = Fraction(sum(m.values()), len(seats))
    out: dict[str, Fraction] = {}
    for i in seats:
        balance = sum(sheet.whist(i, j) - sheet.whist(j, i) for j in seats if j != i)
        out[i] = balance + rules.mountain_point_whists * (mean - m[i])
    return out


def pairwise(
    rules: PreferansRules, seats: Sequence[str], sheet: Sheet
) -> dict[tuple[str, str], Fraction]:
    """§11.2–4: after amnesty, ``V_ij = (W[i→j] + m_j·K_M/n) − (W[j→i] + m_i·K_M/n)`` for
    each pair ``i`` before ``j`` in ``seats``; seat ``i`` gets ``V_ij``, seat ``j`` ``−V_ij``."""
    m_adj = adjusted_mountains(rules, seats, sheet)
    low = min(m_adj.values())
    m = {s: m_adj[s] - low for s in seats}
    n = len(seats)
    k = Fraction(rules.mountain_point_whists, n)
    out: dict[tuple[str, str], Fraction] = {}
    for a, i in enumerate(seats):
        for j in seats[a + 1 :]:
            out[(i, j)] = (sheet.whist(i, j) + m[j] * k) - (sheet.whist(j, i) + m[i] * k)
    return out


def round_results(seats: Sequence[str], exact: dict[str, Fraction]) -> dict[str, int]:
    """§11.6: ``floor(S_i)``, then the whists missing to a zero sum go one each to the seats
    with the largest fractional part, ties to the earlier seat."""
    floors = {s: floor(exact[s]) for s in seats}
    missing = -sum(floors.values())
    order = sorted(range(len(seats)), key=lambda k: (-(exact[seats[k]] - floors[seats[k]]), k))
    for k in order[:missing]:
        floors[seats[k]] += 1
    return floors


def settle_sheet(rules: PreferansRules, seats: Sequence[str], sheet: Sheet) -> dict[str, Any]:
    """§11 and §13 Settlement: ``{"n", "result_n": {seat: n·S_i}, "result": {seat: whists},
    "money": {seat: cents}}`` (``money`` only with ``whist_value``). Exact with fractions;
    results sum to zero."""
    n = len(seats)
    exact = exact_results(rules, seats, sheet)
    result_n: dict[str, int] = {}
    for s in seats:
        scaled = exact[s] * n
        assert scaled.denominator == 1
        result_n[s] = int(scaled)
    result = round_results(seats, exact)
    out: dict[str, Any] = {"n": n, "result_n": result_n, "result": result}
    if rules.whist_value is not None:
        out["money"] = {s: result[s] * rules.whist_value for s in seats}
    return out
