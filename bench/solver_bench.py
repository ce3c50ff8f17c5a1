"""The double-dummy solver: time to solve random deals, compiled and pure-Python search beside
the plain minimax reference on the same deals.

    .venv/bin/python bench/solver_bench.py [--deals 1000] [--endgames 200] [--seed 1] [--no-write]

A deal here is a random 32-card deal of ``--cards`` cards to each of three players (the rest
left out, as the talon is), a suit game with a random trump suit, a random declarer leading
to the first trick; the declarer wants the most tricks, both defenders play. Two sets of
obligations: ``wien`` (follow, trump and beat the trick; the defender after the declarer with
Largierpflicht) and ``preferans`` (follow, else trump). To solve is what ``python -m engine
solve`` does: the declarer's tricks under best play and every optimal first card
(``engine.solver.solve``: the compiled search, ``engine/solver/_dd.c``; ``python_solve``: the
pure-Python search it is tested against; ``reference_solve``: the plain minimax, every legal
card tried, no table, no pruning).

The reference needs minutes for one deal of 7 cards (and longer than anyone waits for 10), so
it runs on ``--endgames`` endgames of 5 cards a hand (and, with ``--six``, on that many of 6),
beside both searches on the same positions: the speedup on those is the figure to watch, the
times of whole deals the target (mean ≤ 40 ms, p99 ≤ 400 ms; 7 cards ≤ 1 ms mean). One process,
one core; times from ``time.perf_counter``. Writes its section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report import write_section  # noqa: E402
from engine.cards import PIQUET  # noqa: E402
from engine.solver import MOST, Position, python_solve, reference_solve, solve  # noqa: E402
from engine.solver.native import available  # noqa: E402
from engine.tricks import FOLLOW_TRUMP, HEAD, HEAD_LOW, Obligations, suit_order  # noqa: E402

SEATS = ("anna", "bert", "carl")


def duties(kind: str, declarer: int) -> tuple[Obligations, ...]:
    if kind == "wien":
        return tuple(HEAD_LOW if q == (declarer + 1) % 3 else HEAD for q in range(3))
    return (FOLLOW_TRUMP,) * 3


def deals(rng: random.Random, count: int, cards: int, kind: str) -> list[Position]:
    out = []
    for _ in range(count):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = tuple(sum(1 << c for c in deck[i * cards : (i + 1) * cards]) for i in range(3))
        d = rng.randrange(3)
        order = suit_order(PIQUET, rng.randrange(4))
        out.append(
            Position(PIQUET, SEATS, hands, (), d, 0b111, order, duties(kind, d), 1 << d, 0, MOST)
        )
    return out


def timed(
    fn: Callable[[Position], tuple[int, int]], positions: list[Position]
) -> tuple[list[float], list[tuple[int, int]]]:
    times, answers = [], []
    for pos in positions:
        t = time.perf_counter()
        answers.append(fn(pos))
        times.append((time.perf_counter() - t) * 1000)
    return times, answers


def row(label: str, times: list[float], reference: list[float] | None) -> str:
    s = sorted(times)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    speed = f"{statistics.fmean(reference) / statistics.fmean(times):,.0f}×" if reference else ""
    return (
        f"| {label} | {len(times):,} | {statistics.fmean(times):.3f} | {s[len(s) // 2]:.3f} "
        f"| {p99:.3f} | {s[-1]:.3f} | {speed} |\n"
    )


def against_reference(positions: list[Position], label: str) -> str:
    """Rows of both searches and the reference on the same positions (checking they agree)."""
    ref, want = timed(reference_solve, positions)
    rows = ""
    for name, fn in (("compiled", solve), ("Python", python_solve)):
        times, got = timed(fn, positions)
        assert got == want, f"{name} disagrees with the reference"
        rows += row(f"{name}, {label}", times, ref)
    return rows + row(f"reference, {label}", ref, ref)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=1000, help="whole deals per set (10 and 7 cards)"
    )
    parser.add_argument(
        "--endgames", type=int, default=200, help="5-card endgames for the reference"
    )
    parser.add_argument("--six", type=int, default=3, help="6-card endgames for the reference")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args()
    if not available:
        print("the compiled search is not built here (pip install -e .): timing Python only")
    rng = random.Random(args.seed)
    body = (
        "Random deals (see the script's docstring): suit games, the declarer leading and "
        "wanting the most tricks; to solve = his tricks under best play and every optimal "
        "first card. Times in ms per deal; speedup = the reference's mean over the row's, on "
        "the same positions. `compiled` is `engine.solver.solve` (`engine/solver/_dd.c`), "
        "`Python` the pure-Python search (`python_solve`), `reference` the plain minimax.\n\n"
        f"Compiled search built: {'yes' if available else 'no'}.\n\n"
        "| solver, deals | positions | mean | p50 | p99 | max | speedup |\n"
        "|---|---|---|---|---|---|---|\n"
    )
    verdicts = []
    for kind in ("wien", "preferans"):
        for cards, count in ((5, args.endgames), (6, args.six)):
            if count:
                body += against_reference(deals(rng, count, cards, kind), f"{cards} cards, {kind}")
        for cards in (7, 10):
            whole = deals(rng, args.deals, cards, kind)
            fast, a = timed(solve, whole)
            slow, b = timed(python_solve, whole)
            assert a == b, "the compiled and the Python search disagree"
            s = sorted(fast)
            mean, p99 = statistics.fmean(fast), s[min(len(s) - 1, int(len(s) * 0.99))]
            met = mean <= 40 and p99 <= 400 if cards == 10 else mean <= 1
            verdicts.append(f"{kind} {cards} cards {'met' if met else 'NOT met'}")
            body += row(f"compiled, {cards} cards, {kind}", fast, None)
            body += row(f"Python, {cards} cards, {kind}", slow, None)
            print(
                f"{kind} {cards} cards: compiled mean {statistics.fmean(fast):.3f} ms, "
                f"Python mean {statistics.fmean(slow):.3f} ms"
            )
    body += (
        "\nTargets (whole deals of 10 cards mean ≤ 40 ms and p99 ≤ 400 ms, 7 cards ≤ 1 ms "
        f"mean), by `engine.solver.solve`: {'; '.join(verdicts)}. The pure-Python search is "
        "kept as the reference the compiled one is tested against (`tests/engine/"
        "test_solver_native.py`) and as the engine's fallback where no C compiler is found.\n"
    )
    print(body)
    if not args.no_write:
        write_section("solver", "Double-dummy solver", body)


if __name__ == "__main__":
    main()
