"""Seat rotation, exact for small evenings (issue 36): the plan of an evening of at most
``EXACT_MAX_PLAYERS`` players is proven optimal by a search over every seating, and says so
only when it is.

The optima are checked against an exhaustive enumeration written here (every split of the
players into tables, every choice of rounds), with the objective recomputed by the formula in
``test_seating.objective``, not through the package.
"""

from __future__ import annotations

import itertools

import pytest

from clubs.seating import FOUR_ACTIVE_SHAPES, PlanRequest, plan
from clubs.seating.exact import exact_search
from clubs.seating.planner import EXACT_METHOD, compile_request
from clubs.seating.problem import State
from tests.clubs.test_seating import brute_force_optimum, check, names

TINY = {
    "6x3": PlanRequest(players=range(6), rounds=3),
    "6x4": PlanRequest(players=range(6), rounds=4),
    "6x5": PlanRequest(players=range(6), rounds=5),
    "7x2": PlanRequest(players=range(7), rounds=2),
    "7x3": PlanRequest(players=range(7), rounds=3),
    "4x4": PlanRequest(players=range(4), rounds=4),
    "dk8x2": PlanRequest(players=range(8), rounds=2, shapes=FOUR_ACTIVE_SHAPES, preferred=4),
    "7x3-replan": PlanRequest(
        players=range(7),
        rounds=3,
        fixed_rounds=[[(0, 1, 2), (3, 4, 5, 7)]],  # 7 has left, 6 came late
        history={frozenset((0, 3)): 2.0, frozenset((1, 6)): 1.0},
        other_table_counts={0: 2},
    ),
    "7x3-forbidden": PlanRequest(
        players=names(7),
        rounds=3,
        forbidden={frozenset(("p00", "p01")), frozenset(("p01", "p02"))},
        other_table_counts={"p03": 1},
    ),
    "6x4-history": PlanRequest(
        players=range(6),
        rounds=4,
        history={frozenset((0, 1)): 3.0, frozenset((2, 5)): 0.5},
        history_weight=1.0,
    ),
}


OPTIMA: dict[str, tuple[float, float]] = {}


def optimum(name: str) -> tuple[float, float]:
    """``brute_force_optimum`` of ``TINY[name]``, worked out once."""
    if name not in OPTIMA:
        OPTIMA[name] = brute_force_optimum(TINY[name])
    return OPTIMA[name]


@pytest.mark.parametrize("name", TINY)
def test_the_exact_search_finds_the_optimum_of_every_seating(name: str) -> None:
    request_ = TINY[name]
    best = optimum(name)
    problem, _ = compile_request(request_)
    found = exact_search(problem, (float("inf"), float("inf")), nodes=10**6)
    assert found.complete and found.tables is not None
    assert State(problem, found.tables).key == pytest.approx(best)
    # given the optimum to beat, it finds nothing better and says it searched everything
    again = exact_search(problem, State(problem, found.tables).key, nodes=10**6)
    assert again.complete and again.tables is None


@pytest.mark.parametrize("name", TINY)
@pytest.mark.parametrize("seed", [0, 3])
def test_small_plans_are_the_optimum_and_say_it_is_proven(name: str, seed: int) -> None:
    request = PlanRequest(**{**_fields(TINY[name]), "seed": seed})
    result = plan(request)
    check(request, result)
    assert (result.objective, result.parts.balance) == pytest.approx(optimum(name))
    assert result.proven_optimal
    # the bounds a proof reports are the optimum itself
    assert (result.lower_bound, result.balance_lower_bound) == pytest.approx(
        (result.objective, result.parts.balance)
    )


# Club evenings of 6 to 11 players whose optimum the pigeonhole bound does not reach: the local
# search alone found it but could not say so (proven_optimal false at every seed).
SMALL = [(6, 3), (6, 4), (7, 3), (7, 4), (7, 5), (8, 5), (10, 4), (11, 4)]


@pytest.mark.parametrize(("players", "rounds"), SMALL, ids=[f"{n}x{r}" for n, r in SMALL])
def test_small_evenings_are_proven_optimal_at_every_seed(players: int, rounds: int) -> None:
    results = []
    for seed in (1, 2, 5):
        request = PlanRequest(players=range(players), rounds=rounds, seed=seed)
        result = plan(request)
        check(request, result)
        assert result.proven_optimal and result.method == EXACT_METHOD
        results.append((result.objective, result.parts.balance))
    assert len(set(results)) == 1  # an optimum is an optimum, whatever the seed


def test_six_players_in_three_rounds_cannot_do_better_than_six() -> None:
    """Issue 36 quoted 5 as the optimum of 6 × 3. Two different splits of six players into two
    tables of 3 always share exactly two pairs (a table of one split meets the other split's
    tables 2 + 1), so three rounds hold at least 3 × 2 pairs of rounds in which a pair meets
    again: 6 under the documented objective (Σ C(k, 2) for a pair meeting k times). The 5 is
    Σ (k − 1), which counts a pair meeting three times as 2, not 3."""
    splits = [
        (set(t), set(range(6)) - set(t)) for t in itertools.combinations(range(6), 3) if 0 in t
    ]
    for (a, b), (c, d) in itertools.combinations(splits, 2):
        shared = sum(len(x & y) * (len(x & y) - 1) // 2 for x in (a, b) for y in (c, d))
        assert shared == 2
    result = plan(PlanRequest(players=range(6), rounds=3, seed=4))
    assert result.objective == 6 and result.proven_optimal


def test_proven_optimal_is_false_when_the_search_does_not_finish() -> None:
    # 10 players, 5 rounds: the exact search needs about a million seats to prove the 4
    # repeats (docs/seating-benchmark.md), more than the default budget and far more than
    # this one; the plan falls back to the local search and cannot prove its 4 repeats
    request = PlanRequest(
        players=range(10), rounds=5, seed=1, iterations=30_000, exact_nodes=10_000
    )
    result = plan(request)
    check(request, result)
    assert result.lower_bound < result.objective and not result.proven_optimal
    assert result.method != EXACT_METHOD
    # without the exact search, or with too small a budget, a small evening is not proven
    for nodes in (0, 20):
        request = PlanRequest(players=range(7), rounds=5, seed=1, exact_nodes=nodes)
        result = plan(request)
        check(request, result)
        assert not result.proven_optimal and result.method != EXACT_METHOD


def test_the_exact_search_reports_an_unfinished_search() -> None:
    problem, _ = compile_request(PlanRequest(players=range(7), rounds=5))
    found = exact_search(problem, (float("inf"), float("inf")), nodes=50)
    assert not found.complete and found.nodes == 51


@pytest.mark.parametrize(
    "request_",
    [
        PlanRequest(players=names(7), rounds=5, seed=11),
        PlanRequest(players=range(10), rounds=5, seed=11, iterations=30_000, exact_nodes=5_000),
        PlanRequest(players=range(13), rounds=4, seed=11, iterations=30_000),
    ],
    ids=["exact", "exact-then-local", "local"],
)
def test_a_plan_is_the_same_for_the_same_request_and_seed(request_: PlanRequest) -> None:
    first, second = plan(request_), plan(request_)
    assert first.to_json() == second.to_json()


def _fields(request: PlanRequest) -> dict[str, object]:
    return {name: getattr(request, name) for name in PlanRequest.__dataclass_fields__}


def test_a_plan_that_meets_the_lower_bound_needs_no_exact_search() -> None:
    # 7 players in 6 rounds: the local search meets the pigeonhole bounds, which prove it
    request = PlanRequest(players=range(7), rounds=6, seed=1)
    result = plan(request)
    check(request, result)
    assert result.proven_optimal and result.method == "local search"
