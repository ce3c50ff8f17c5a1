"""Seating benchmark: ``clubs.seating.plan`` on the sizes a club meets, against random seatings,
the lower bound and, for small cases, an exact solver.

    .venv/bin/python bench/seating_bench.py [--runs 3] [--cpsat-seconds 30] [--no-write]

For every case: the median wall time of ``--runs`` calls of ``plan`` (pinned to one core; the
design cache cleared before each call), the objective, the lower bound and the mean objective of
random seatings. For cases of at most 21 players the same objective is minimised by OR-Tools
CP-SAT within ``--cpsat-seconds``, so the gap to the optimum (or to the solver's best bound) is
visible. OR-Tools is not a project dependency: without it those cells read "not run" and the
script says how to install it (``.venv/bin/pip install ortools``).

Writes docs/seating-benchmark.md (the commit, ``nproc``, the CPU and this command included).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clubs.seating import (  # noqa: E402
    DOPPELKOPF_PREFERRED,
    DOPPELKOPF_SHAPES,
    WIEN_PREFERRED,
    WIEN_SHAPES,
    Plan,
    PlanRequest,
    TableShape,
    plan,
    table_sizes,
)
from clubs.seating.designs import resolution  # noqa: E402
from clubs.seating.objective import DEFAULT_BALANCE_WEIGHT  # noqa: E402

DOC = ROOT / "docs" / "seating-benchmark.md"
EXACT_MAX_PLAYERS = 21
HEADER = (
    "| players × rounds | game (tables) | seconds | objective | lower bound | proven optimal "
    "| repeats | random | exact (CP-SAT) | method | target |\n"
    "|---|---|---:|---:|---:|---|---:|---:|---|---|---|"
)
NOTES = """
Reading the gaps: 12 × 5 has a lower bound of 0, but no 5 rounds of threes for 12 players
avoid every repeat (there is no nearly Kirkman triple system of order 12), so the pigeonhole
bound cannot be reached there; CP-SAT finds nothing better either. At 10 × 5 each round has a
four-table, and spreading it evenly (the balance part, 2.5, of the bound) costs repeated
meetings. 15, 21, 27 and 33 players at their most rounds and 16 Doppelkopf players at 5 rounds
come straight from a design (`clubs/seating/designs.py`) and are proven optimal; CP-SAT seldom
reaches 0 there within its limit (with 2 workers its figures vary from run to run; it once proved
16 × 5 optimal in 28 s).
"""
INSTALL_HINT = "OR-Tools is not installed: .venv/bin/pip install ortools (for the exact column)"


@dataclass(frozen=True)
class Case:
    players: int
    rounds: int
    shapes: tuple[TableShape, ...] = WIEN_SHAPES
    preferred: int = WIEN_PREFERRED
    target: str = "—"
    game: str = "wien"


CASES = (
    Case(60, 10, target="≤ 1 s"),
    Case(15, 7, target="0 repeats"),
    Case(21, 10, target="0 repeats"),
    Case(27, 13, target="0 repeats"),
    Case(33, 16, target="0 repeats"),
    Case(200, 8, target="≤ 5 s"),
    Case(12, 5),
    Case(18, 5),
    Case(10, 5),
    Case(16, 5, DOPPELKOPF_SHAPES, DOPPELKOPF_PREFERRED, "0 repeats", "doppelkopf"),
)


@dataclass(frozen=True)
class Exact:
    status: str
    objective: float | None
    bound: float | None
    seconds: float


def machine() -> dict[str, str]:
    """Commit, core count, CPU model and Python version of this run."""

    def git(*args: str) -> str:
        try:
            result = subprocess.run(
                ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
            )
        except OSError:
            return ""
        return result.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    if git("status", "--porcelain", "--", "clubs/seating", "bench/seating_bench.py"):
        commit += " (with the seating code not yet committed)"
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        nproc = subprocess.run(["nproc"], capture_output=True, text=True, check=False).stdout
    except OSError:
        nproc = ""
    return {
        "commit": commit,
        "nproc": nproc.strip() or str(os.cpu_count()),
        "cpu": cpu,
        "python": platform.python_version(),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def timed_plan(case: Case, runs: int) -> tuple[Plan, float]:
    """The plan and the median wall time of ``runs`` calls (design cache cleared each time)."""
    times = []
    result = None
    for _ in range(runs):
        resolution.cache_clear()
        request = PlanRequest(
            players=range(case.players),
            rounds=case.rounds,
            shapes=case.shapes,
            preferred=case.preferred,
            seed=1,
        )
        start = time.perf_counter()
        result = plan(request)
        times.append(time.perf_counter() - start)
    assert result is not None
    return result, statistics.median(times)


def exact(case: Case, seconds: float, workers: int) -> Exact:
    """The objective minimised by CP-SAT: one boolean per player, round and table; a pair's
    units of shared deals as a sum of products; the convex penalties as the maximum of their
    linear pieces, everything times 4·scale so that it is integral (μ = 1/4, no history)."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return Exact("not run", None, None, 0.0)
    from fractions import Fraction
    from math import lcm

    if DEFAULT_BALANCE_WEIGHT != 0.25:
        return Exact("not run", None, None, 0.0)
    n, rounds = case.players, case.rounds
    sizes = table_sizes(n, shapes=case.shapes, preferred=case.preferred)
    shape = {s.size: s for s in case.shapes}
    scale = lcm(*(s.share.denominator for s in case.shapes))
    units = [int(shape[s].share * scale) for s in sizes]
    other = [s != case.preferred for s in sizes]
    model = cp_model.CpModel()
    tables = range(len(sizes))
    x = [
        [[model.new_bool_var(f"x{r}_{i}_{t}") for t in tables] for i in range(n)]
        for r in range(rounds)
    ]
    for r in range(rounds):
        for i in range(n):
            model.add_exactly_one(x[r][i])
        for t in tables:
            model.add(sum(x[r][i][t] for i in range(n)) == sizes[t])
        for t in tables:  # round 0 fixed; later rounds: same-size tables ordered by least player
            if r == 0:
                first = sum(sizes[:t])
                for i in range(n):
                    model.add(x[r][i][t] == int(first <= i < first + sizes[t]))
                continue
            previous = [v for v in tables if v < t and sizes[v] == sizes[t]]
            if previous:
                before = previous[-1]
                for i in range(n):
                    model.add(x[r][i][t] <= sum(x[r][k][before] for k in range(i)))
    cost = []
    for i in range(n):
        for j in range(i + 1, n):
            terms = []
            for r in range(rounds):
                for t in tables:
                    z = model.new_bool_var("")
                    model.add_bool_and([x[r][i][t], x[r][j][t]]).only_enforce_if(z)
                    model.add_bool_or([x[r][i][t].Not(), x[r][j][t].Not(), z])
                    terms.append(units[t] * z)
            u = model.new_int_var(0, scale * rounds, "")
            model.add(u == sum(terms))
            c = model.new_int_var(0, scale * rounds * rounds, "")
            for k in range(1, rounds + 1):
                model.add(c >= k * u - scale * k * (k + 1) // 2)
            cost.append(4 * c)
    if any(other):
        for i in range(n):
            t_i = model.new_int_var(0, rounds, "")
            model.add(t_i == sum(x[r][i][t] for r in range(rounds) for t in tables if other[t]))
            # Σ_{k<t} k², as the maximum of its chords between whole t
            b = model.new_int_var(0, rounds**3, "")
            for k in range(1, rounds):
                model.add(b >= sum(j * j for j in range(k)) + k * k * (t_i - k))
            cost.append(scale * b)
    model.minimize(sum(cost))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = workers
    start = time.perf_counter()
    status = solver.solve(model)
    took = time.perf_counter() - start
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Exact(
            "no solution", None, float(Fraction(int(solver.best_objective_bound), 4 * scale)), took
        )
    value = float(Fraction(int(solver.objective_value), 4 * scale))
    bound = float(Fraction(int(round(solver.best_objective_bound)), 4 * scale))
    return Exact("optimal" if status == cp_model.OPTIMAL else "time limit", value, bound, took)


def fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def row(case: Case, result: Plan, seconds: float, ex: Exact | None) -> str:
    sizes = table_sizes(case.players, shapes=case.shapes, preferred=case.preferred)
    tables = "+".join(str(s) for s in sorted(set(sizes)))
    exact_cells = "not run (over 21 players)" if ex is None else _exact_cells(ex)
    return (
        f"| {case.players} × {case.rounds} | {case.game} ({tables}) | {seconds:.3f} | "
        f"{fmt(round(result.objective, 4))} | {fmt(round(result.lower_bound, 4))} | "
        f"{'yes' if result.proven_optimal else 'no'} | {len(result.repeats)} | "
        f"{fmt(round(result.random_objective, 2))} | {exact_cells} | {result.method} | "
        f"{case.target} |"
    )


def _exact_cells(ex: Exact) -> str:
    if ex.status == "not run":
        return "not run (OR-Tools missing)"
    if ex.status == "no solution":
        return f"no solution in {ex.seconds:.0f} s, bound {fmt(ex.bound)}"
    if ex.status == "optimal":
        return f"{fmt(ex.objective)} (optimal, {ex.seconds:.1f} s)"
    return f"{fmt(ex.objective)}, bound {fmt(ex.bound)} ({ex.seconds:.0f} s limit)"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per case (median)")
    parser.add_argument("--cpsat-seconds", type=float, default=30.0, help="CP-SAT time limit")
    parser.add_argument("--cpsat-workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", default="", help="comma-separated 'players x rounds', e.g. 12x5")
    parser.add_argument("--no-write", action="store_true", help="do not write the docs file")
    args = parser.parse_args()
    try:
        import ortools  # noqa: F401
    except ImportError:
        print(INSTALL_HINT)
    wanted = {w.strip() for w in args.only.split(",") if w.strip()}
    cases = [c for c in CASES if not wanted or f"{c.players}x{c.rounds}" in wanted]
    lines = []
    for case in cases:
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
        result, seconds = timed_plan(case, args.runs)
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
        ex = None
        if case.players <= EXACT_MAX_PLAYERS:
            ex = exact(case, args.cpsat_seconds, args.cpsat_workers)
        lines.append(row(case, result, seconds, ex))
        print(lines[-1], flush=True)
    if not args.no_write:
        write(lines, args)


def write(lines: list[str], args: Any) -> None:
    m = machine()
    command = " ".join([".venv/bin/python", *sys.argv])
    body = (
        f"""# Seating benchmark

Written by `bench/seating_bench.py`; run it again to replace the figures.

- commit: `{m["commit"]}`, run {m["date"]}
- machine: nproc {m["nproc"]}, CPU {m["cpu"]}, Python {m["python"]}
- command: `{command}`

`plan` with the default budget and seed 1, pinned to one core; the time is the median of
{args.runs} runs, with the design cache cleared before each. *objective* and *lower bound* are
those the plan reports (`clubs/seating/__init__.py` defines them; 0 means nobody meets anyone
twice and nobody sits at a non-preferred table twice), *repeats* the pairs meeting more than
once, *random* the mean objective of 5 uniformly random seatings. *exact*: OR-Tools CP-SAT on
the same objective (one boolean per player, round and table; the first round fixed and tables of
one size ordered by their least player to break symmetry), {args.cpsat_workers} workers,
{args.cpsat_seconds:g} s limit, for cases of at most {EXACT_MAX_PLAYERS} players: its best
objective, and its bound when it did not prove optimality. CP-SAT is only used here; it is not
a dependency of the project.

{HEADER}
"""
        + "\n".join(lines)
        + "\n"
        + NOTES
    )
    DOC.write_text(body)


if __name__ == "__main__":
    main()
