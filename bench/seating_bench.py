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
    "| players × rounds | game (tables) | seconds | objective / balance | lower bounds "
    "| proven optimal | repeats | random | exact (CP-SAT): repeats / balance | method | target |\n"
    "|---|---|---:|---:|---:|---|---:|---:|---|---|---|"
)
NOTES = """
Reading the gaps: 12 × 5 has a lower bound of 0, but no 5 rounds of threes for 12 players
avoid every repeat (there is no nearly Kirkman triple system of order 12), so the pigeonhole
bound cannot be reached there; CP-SAT finds nothing better either. 15, 21, 27 and 33 players at
their most rounds and 16 Doppelkopf players at 5 rounds come straight from a design
(`clubs/seating/designs.py`) and are proven optimal; CP-SAT seldom reaches 0 there within its
limit (with 2 workers its figures vary from run to run).

Mixed tables (issue 22, "Tables of four"). 10 × 4, 10 × 5, 13 × 5, 14 × 5, 16 × 5 and 16 × 6
seat one or two four-tables a round. The objective used to be a weighted sum, repeats + history
+ 0.25 × balance, so the plan kept repeats to even out the four-table sittings. It is now
lexicographic, as documented: the weighted repeats (with the season's history) first, the
balance only between equal repeats. The search was changed with it: moves are scored by the
repeats with the balance as a tie-break, the first of the four annealing runs starts from a
seating whose four-tables go round evenly and keeps them so, a last run (a fifth of the budget)
weighs the balance more, the annealing starts cooler (0.3 instead of 0.6) and the least default
budget is 450 000 moves instead of 150 000 (60 × 10 and 200 × 8 are above it anyway).

Weighted repeats for seed 1, before (weighted sum, the previous run of this file) → after, and
the optimum CP-SAT proves (first stage, 30 s, 2 workers):

| players × rounds | before | after | CP-SAT optimum of the repeats |
|---|---:|---:|---|
| 10 × 4 | 1 | 0.5 | 0.5 (proven; with it, balance 5.5, proven) |
| 10 × 5 | 6 | 4 | 4 found, not proven (bound 0) |
| 13 × 5 | 2.5 | 0 | 0 |
| 14 × 5 | 2 | 0 | 0 |
| 16 × 5 | 0 | 0 | 0 (with it, balance 1, proven) |
| 16 × 6 | 0 | 0 | 0 |

What moved: the balance. With repeats first, 10 × 4 and 10 × 5 must send some players to the
four-table three or four times (10 × 4: 5.5 is the proven least balance at 0.5 repeats, where
the weighted sum kept 1 for a balance of 4.25). 16 × 6 reaches no repeat for 5 seeds in 6 (seed
2: 0.5), but its balance (9 to 11) is far above the 5 to 5.25 CP-SAT finds with no repeat and
the bound of 2: the gap that is left. 13 × 5 and 14 × 5 sit at CP-SAT's best balance for most
seeds (7, 18; not proven). OR-Tools for
the exact column was installed outside the project (`python -m venv /tmp/ortvenv`, then
`/tmp/ortvenv/bin/pip install ortools`); the times were taken while other jobs shared the two
cores.
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
    Case(10, 4),
    Case(13, 5),
    Case(14, 5),
    Case(16, 5),
    Case(16, 6),
    Case(16, 5, DOPPELKOPF_SHAPES, DOPPELKOPF_PREFERRED, "0 repeats", "doppelkopf"),
)
MIXED = tuple(c for c in CASES if c.players <= EXACT_MAX_PLAYERS and c.players % 3)
"""The small cases with four-tables (issue 22): also planned for seeds 1 to 6."""


@dataclass(frozen=True)
class Stage:
    """One CP-SAT solve: its status, best value and proven bound (``None`` when it found
    nothing), in the objective's units."""

    status: str
    value: float | None
    bound: float | None
    seconds: float


@dataclass(frozen=True)
class Exact:
    """CP-SAT on the lexicographic objective: first the weighted repeats (``repeats``), then,
    with them held at the best found, the balance of non-preferred tables (``balance``)."""

    status: str
    repeats: Stage | None = None
    balance: Stage | None = None


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
    """The objective minimised by CP-SAT, lexicographically as the planner does: one boolean
    per player, round and table; a pair's units of shared deals as a sum of products; the
    convex repeat penalty as the maximum of its linear pieces (integral in units of
    1/scale). First the weighted repeats are minimised; then they are held at the value found
    (equal when proven optimal, else at most) and Σ_{k<t} k² over the players' sittings at
    non-preferred tables is minimised (reported times μ). No history. Each stage gets
    ``seconds``; the second starts from the first's seating."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return Exact("not run")
    from fractions import Fraction
    from math import lcm

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
    repeats = []
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
            repeats.append(c)
    balance = []
    if any(other):
        for i in range(n):
            t_i = model.new_int_var(0, rounds, "")
            model.add(t_i == sum(x[r][i][t] for r in range(rounds) for t in tables if other[t]))
            # Σ_{k<t} k², as the maximum of its chords between whole t
            b = model.new_int_var(0, rounds**3, "")
            for k in range(1, rounds):
                model.add(b >= sum(j * j for j in range(k)) + k * k * (t_i - k))
            balance.append(b)

    def solve(objective: Any, unit: Fraction) -> tuple[Stage, Any]:
        model.minimize(objective)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = seconds
        solver.parameters.num_workers = workers
        start = time.perf_counter()
        status = solver.solve(model)
        took = time.perf_counter() - start
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            bound = float(unit * int(round(solver.best_objective_bound)))
            return Stage("no solution", None, bound, took), None
        value = int(round(solver.objective_value))
        bound = int(round(solver.best_objective_bound))
        label = "optimal" if status == cp_model.OPTIMAL else "time limit"
        return Stage(label, float(unit * value), float(unit * bound), took), (solver, value)

    first, found = solve(sum(repeats), Fraction(1, scale))
    if found is None or not balance:
        return Exact("solved", first, None)
    solver, value = found
    if first.status == "optimal":
        model.add(sum(repeats) == value)
    else:
        model.add(sum(repeats) <= value)
    model.clear_hints()
    for r in range(rounds):
        for i in range(n):
            for t in tables:
                model.add_hint(x[r][i][t], solver.boolean_value(x[r][i][t]))
    second, _ = solve(sum(balance), Fraction(DEFAULT_BALANCE_WEIGHT).limit_denominator(1000))
    return Exact("solved", first, second)


def fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def row(case: Case, result: Plan, seconds: float, ex: Exact | None) -> str:
    sizes = table_sizes(case.players, shapes=case.shapes, preferred=case.preferred)
    tables = "+".join(str(s) for s in sorted(set(sizes)))
    exact_cells = "not run (over 21 players)" if ex is None else _exact_cells(ex)
    return (
        f"| {case.players} × {case.rounds} | {case.game} ({tables}) | {seconds:.3f} | "
        f"{fmt(round(result.objective, 4))} / {fmt(round(result.parts.balance, 4))} | "
        f"{fmt(round(result.lower_bound, 4))} / {fmt(round(result.balance_lower_bound, 4))} | "
        f"{'yes' if result.proven_optimal else 'no'} | "
        f"{sum(r.repeats for r in result.repeats)} | "
        f"{fmt(round(result.random_objective, 2))} | {exact_cells} | {result.method} | "
        f"{case.target} |"
    )


def _stage(stage: Stage | None) -> str:
    if stage is None:
        return "—"
    if stage.status == "no solution":
        return f"none in {stage.seconds:.0f} s (bound {fmt(stage.bound)})"
    if stage.status == "optimal":
        return f"{fmt(stage.value)} (optimal, {stage.seconds:.1f} s)"
    return f"{fmt(stage.value)} (bound {fmt(stage.bound)}, {stage.seconds:.0f} s limit)"


def _exact_cells(ex: Exact) -> str:
    if ex.status == "not run":
        return "not run (OR-Tools missing)"
    return f"{_stage(ex.repeats)} / {_stage(ex.balance)}"


def seeds_summary(case: Case, seeds: range) -> str:
    """The plan's (objective, balance) for each seed, default budget."""
    found = []
    for seed in seeds:
        request = PlanRequest(
            players=range(case.players),
            rounds=case.rounds,
            shapes=case.shapes,
            preferred=case.preferred,
            seed=seed,
        )
        result = plan(request)
        found.append(f"{fmt(result.objective)} / {fmt(result.parts.balance)}")
    return f"| {case.players} × {case.rounds} | " + "; ".join(found) + " |"


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
    seeds = []
    for case in cases:
        if case.game == "wien" and case in MIXED:
            seeds.append(seeds_summary(case, range(1, 7)))
            print(seeds[-1], flush=True)
    if not args.no_write:
        write(lines, seeds, args)


def write(lines: list[str], seeds: list[str], args: Any) -> None:
    m = machine()
    python = Path(sys.executable)
    shown = python.relative_to(ROOT) if python.is_relative_to(ROOT) else python
    command = " ".join([str(shown), *sys.argv])
    body = (
        f"""# Seating benchmark

Written by `bench/seating_bench.py`; run it again to replace the figures.

- commit: `{m["commit"]}`, run {m["date"]}
- machine: nproc {m["nproc"]}, CPU {m["cpu"]}, Python {m["python"]}
- command: `{command}`

`plan` with the default budget and seed 1, pinned to one core; the time is the median of
{args.runs} runs, with the design cache cleared before each. The objective
(`clubs/seating/__init__.py`) is lexicographic: *objective* is its first part, the weighted
repeats (a pair meeting twice at four-tables shares one table's worth of deals: no cost; no
history here), then *balance*, the spread of four-table sittings (0.25 for a player's second,
1 for a third, 2.25 for a fourth). *lower bounds* are the plan's bounds of both parts; *proven
optimal* means both are met. *repeats* counts the meetings beyond the first (a pair that met
three times counts 2), *random* the mean first part of 5 uniformly random seatings. *exact*:
OR-Tools CP-SAT on the same objective, lexicographically (first the weighted repeats; then,
with them held at the best found, the balance, starting from the first stage's seating); one
boolean per player, round and table, the first round fixed and tables of one size ordered by
their least player; {args.cpsat_workers} workers, {args.cpsat_seconds:g} s a stage, for cases
of at most {EXACT_MAX_PLAYERS} players: each stage's best value and, when not proven, its bound.
CP-SAT is only used here; it is not a dependency of the project.

{HEADER}
"""
        + "\n".join(lines)
        + "\n"
        + NOTES
        + "\nThis run, seeds 1 to 6 (objective / balance):\n\n| players × rounds | seeds 1–6 |\n"
        + "|---|---|\n"
        + "\n".join(seeds)
        + "\n"
    )
    DOC.write_text(body)


if __name__ == "__main__":
    main()
