"""Planning an evening: the request, the plan and its explanation."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from clubs.seating.bound import lower_bound
from clubs.seating.exact import exact_search
from clubs.seating.objective import (
    DEFAULT_BALANCE_WEIGHT,
    DEFAULT_HISTORY_WEIGHT,
    Player,
    Round,
    Score,
    other_table_sittings,
    pair_weights,
    repeat_penalty,
    score,
)
from clubs.seating.problem import Problem, State, better
from clubs.seating.search import (
    BALANCE_TIE,
    EPSILON,
    anneal,
    apart_round,
    balanced_rounds,
    design_rounds,
    random_round,
    relabel,
)
from clubs.seating.tables import (
    THREE_ACTIVE_PREFERRED,
    THREE_ACTIVE_SHAPES,
    SeatingError,
    TableShape,
    check_shapes,
    describe_tables,
    table_sizes,
)

RANDOM_SAMPLES = 5
"""Random seatings whose mean objective is reported beside the plan's."""
ITERATIONS_PER_SEAT = 600
"""Default budget: moves per player and planned round (``PlanRequest.iterations``)."""
MIN_ITERATIONS = 450_000
"""The least default budget: small mixed-table evenings (13 × 5, 16 × 6) reached no repeat for
two seeds in three with 150 000 moves, for 23 in 24 with 450 000 (about half a second)."""
MAX_ITERATIONS = 2_000_000
RESTARTS = 4
"""The budget is spent in this many annealing runs, each starting hot again from the best
seating found so far; small mixed-table evenings (16 players, 5 rounds) reach their optimum
where one long run stayed in a worse valley (``docs/seating-benchmark.md``)."""
BALANCE_SHARE = 5
"""When the evening has non-preferred tables, one part in ``BALANCE_SHARE`` of the budget goes
to a last run that weighs their balance more (``search.BALANCE_TIE``), and so does what the
first runs leave when they meet the lower bound of the repeats; the rest to the first runs."""
RELABEL_MOVES_PER_PLAYER = 40
EXACT_MAX_PLAYERS = 12
"""Evenings of at most this many present players are searched exactly first
(``clubs/seating/exact.py``), within ``EXACT_NODES``."""
EXACT_NODES = 60_000
"""Seats the exact search may place (about a second in CPython) before the plan falls back
to the local search; a count, not a time, so the plan does not depend on the machine."""
EXACT_WARMUP = 100_000
"""Moves of the local search (its annealing runs and balancing run, ``_search``) spent before
the exact search, to give it a good plan to beat: with 20 000 moves of one annealing run,
11 × 5 started from a worse plan at 7 seeds in 10 and needed 174 000 seats instead of 15 000."""
EXACT_METHOD = "exact search"
"""``Plan.method`` when the exact search proved the plan optimal."""
CURRENT_PLAN = "the current plan's remaining rounds"
"""``Plan.method`` when a re-plan keeps ``PlanRequest.current_plan`` (nothing better found)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanRequest:
    """What to plan.

    ``players`` are those present now (order irrelevant); ``rounds`` is the number of rounds of
    the evening, the ``fixed_rounds`` already played included: those are kept as they are, count
    as meetings, and may seat players who have left (a late arrival or an early leaver re-plans
    the rest). Each round is a sequence of tables, each a sequence of players in seat order.

    ``history`` maps a pair (``frozenset({a, b})``) to the share of deals it played together
    earlier in the season; ``other_table_counts`` how often each player sat at a table not of the
    ``preferred`` size earlier in the season; ``history_weight`` (λ) how much one unit of either
    counts against one unit this evening, ``balance_weight`` (μ) the scale of the balance of
    non-preferred tables (it never trades against repeats: the objective is lexicographic; 0
    switches balancing off). ``forbidden`` pairs never share a table in a planned round.

    ``current_plan`` is the rest of the plan being re-planned (the rounds it planned after those
    played since, the next one first): when its rounds seat exactly ``players`` at this
    request's tables and keep the forbidden pairs apart, it is a candidate and the plan returned
    is never worse than it (on a tie it is kept, so announced seats do not move); otherwise it
    is ignored. Only its first rounds are used when it has more than are to be planned; random
    rounds fill up when it has fewer.

    The answer depends only on the request and ``seed``: the search tries ``iterations`` moves
    (default: ``ITERATIONS_PER_SEAT`` per player and planned round, within ``MIN_ITERATIONS``
    and ``MAX_ITERATIONS``) and stops early when it reaches the lower bound. ``time_limit``
    (seconds) stops it earlier, at the price of a machine-dependent answer. Evenings of at
    most ``EXACT_MAX_PLAYERS`` present players are first searched exactly, placing at most
    ``exact_nodes`` seats (default ``EXACT_NODES``; 0 skips it): when that search finishes,
    the plan is proven optimal.
    """

    players: Sequence[Player]
    rounds: int
    shapes: tuple[TableShape, ...] = THREE_ACTIVE_SHAPES
    preferred: int = THREE_ACTIVE_PREFERRED
    fixed_rounds: Sequence[Sequence[Sequence[Player]]] = ()
    history: Mapping[frozenset[Any], float] = field(default_factory=dict)
    history_weight: float = DEFAULT_HISTORY_WEIGHT
    other_table_counts: Mapping[Any, int] = field(default_factory=dict)
    balance_weight: float = DEFAULT_BALANCE_WEIGHT
    forbidden: AbstractSet[frozenset[Any]] = frozenset()
    current_plan: Sequence[Sequence[Sequence[Player]]] = ()
    seed: int = 0
    iterations: int | None = None
    time_limit: float | None = None
    exact_nodes: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        fixed = tuple(tuple(tuple(t) for t in round_) for round_ in self.fixed_rounds)
        object.__setattr__(self, "fixed_rounds", fixed)
        current = tuple(tuple(tuple(t) for t in round_) for round_ in self.current_plan)
        object.__setattr__(self, "current_plan", current)
        object.__setattr__(self, "shapes", tuple(self.shapes))
        object.__setattr__(self, "forbidden", frozenset(frozenset(p) for p in self.forbidden))


@dataclass(frozen=True, slots=True)
class Repeat:
    """Two players who share a table in more than one round of the evening: how often
    (``meetings``), how many of those meetings are repeats (``repeats``: the meetings beyond
    the first, so 2 for a pair that met three times), and the share of deals they play together
    in all (``weight``, 1 = one three-table)."""

    players: tuple[Player, Player]
    meetings: int
    weight: Fraction

    @property
    def repeats(self) -> int:
        """The meetings beyond the first."""
        return self.meetings - 1

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "meetings": self.meetings,
            "repeats": self.repeats,
            "weight": round(float(self.weight), 6),
        }


@dataclass(frozen=True, slots=True)
class Plan:
    """The evening's rounds (played ones first, unchanged, then the planned ones; tables in
    seat order) and why they are good.

    ``parts`` is the request's objective in its parts, compared lexicographically (repeats and
    history first, then balance: ``Score.key``); ``objective`` is its first part, the weighted
    repeats plus the history term. ``lower_bound`` is a value no plan's first part can go below
    and ``balance_lower_bound`` one no plan's balance can when its first part is at that bound
    (``clubs/seating/bound.py``; the optimum itself when the exact search finished,
    ``clubs/seating/exact.py``); ``proven_optimal`` says the plan meets both, so no plan is
    better. ``random_objective`` is
    the mean first part of ``RANDOM_SAMPLES`` random seatings of the planned rounds (same
    seed). ``repeats`` lists the pairs that meet more than once this evening and
    ``other_table_counts`` every seated player's sittings at non-preferred tables this evening.
    ``method`` names the design the search started from, if any, or ``EXACT_METHOD`` when the
    exact search proved the plan optimal.
    """

    rounds: tuple[Round, ...]
    fixed: int
    objective: float
    parts: Score
    lower_bound: float
    balance_lower_bound: float
    proven_optimal: bool
    random_objective: float
    repeats: tuple[Repeat, ...]
    other_table_counts: Mapping[Player, int]
    method: str
    iterations: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        """Plain JSON with the players as given (ids must be JSON values)."""
        return {
            "rounds": [[list(table) for table in round_] for round_ in self.rounds],
            "fixed_rounds": self.fixed,
            "objective": round(self.objective, 6),
            "objective_parts": self.parts.to_json(),
            "lower_bound": round(self.lower_bound, 6),
            "balance_lower_bound": round(self.balance_lower_bound, 6),
            "proven_optimal": self.proven_optimal,
            "random_objective": round(self.random_objective, 6),
            "repeats": [repeat.to_json() for repeat in self.repeats],
            "other_table_counts": [
                {"player": player, "count": count}
                for player, count in self.other_table_counts.items()
            ],
            "method": self.method,
            "iterations": self.iterations,
            "seed": self.seed,
        }


def _invalid(message: str) -> SeatingError:
    return SeatingError(message, code="invalid")


def _validate(request: PlanRequest) -> None:
    try:
        check_shapes(request.shapes, request.preferred)
    except ValueError as error:
        raise _invalid(f"{error}.") from None
    if len(set(request.players)) != len(request.players):
        raise _invalid("A player is listed twice.")
    if request.rounds < len(request.fixed_rounds):
        raise _invalid(
            f"The evening has {request.rounds} rounds, but {len(request.fixed_rounds)} "
            "are already played."
        )
    sizes = {shape.size for shape in request.shapes}
    for number, round_ in enumerate(request.fixed_rounds, 1):
        seated = [p for table in round_ for p in table]
        if len(set(seated)) != len(seated):
            raise _invalid(f"Played round {number} seats a player twice.")
        if any(len(table) not in sizes for table in round_):
            raise _invalid(f"Played round {number} has a table size no shape allows.")
    if any(len(pair) != 2 for pair in itertools.chain(request.history, request.forbidden)):
        raise _invalid("History and forbidden pairs name two different players.")
    if any(v < 0 for v in request.history.values()) or any(
        v < 0 for v in request.other_table_counts.values()
    ):
        raise _invalid("History and table counts cannot be negative.")
    if request.history_weight < 0 or request.balance_weight < 0:
        raise _invalid("Weights cannot be negative.")


def compile_request(request: PlanRequest) -> tuple[Problem, list[Player]]:
    """The request in small ints (``clubs/seating/problem.py``) and the players by number:
    the present ones in the request's order, then those seen only in played rounds. Raises
    :class:`SeatingError` (``unsplittable``) when rounds are to be planned for players who do
    not fill tables."""
    sizes: list[int] = []
    if request.rounds > len(request.fixed_rounds):
        sizes = table_sizes(
            len(request.players), shapes=request.shapes, preferred=request.preferred
        )
    everyone = list(dict.fromkeys([*request.players, *_seated(request.fixed_rounds)]))
    index = {player: i for i, player in enumerate(everyone)}
    count, n = len(everyone), len(request.players)
    shape = {s.size: s for s in request.shapes}
    scale = math.lcm(*(s.share.denominator for s in request.shapes))
    units = {size: int(s.share * scale) for size, s in shape.items()}
    fixed = request.fixed_rounds
    planned = request.rounds - len(fixed)
    longest = scale * request.rounds + scale + 2
    penalty = [float(repeat_penalty(Fraction(u, scale))) for u in range(longest + 1)]
    base_units = [0] * count * count
    base_other = [0] * count
    for round_ in fixed:
        for table in round_:
            for a, b in itertools.permutations((index[p] for p in table), 2):
                base_units[a * count + b] += units[len(table)]
            for p in table:
                base_other[index[p]] += len(table) != request.preferred
    linear: list[float] | None = None
    known = [(pair, v) for pair, v in request.history.items() if v and pair <= index.keys()]
    if known and request.history_weight:
        linear = [0.0] * count * count
        for pair, value in known:
            a, b = (index[p] for p in pair)
            linear[a * count + b] = linear[b * count + a] = request.history_weight * value / scale
    forbidden = sorted(
        tuple(sorted(index[p] for p in pair))
        for pair in request.forbidden
        if all(p in index and index[p] < n for p in pair)
    )
    problem = Problem(
        n=n,
        count=count,
        planned=planned,
        scale=scale,
        table_sizes=tuple(sizes),
        table_units=tuple(units[s] for s in sizes),
        table_other=tuple(s != request.preferred for s in sizes),
        penalty=penalty,
        base_units=base_units,
        base_other=base_other,
        linear=linear,
        forbidden=[(a, b) for a, b in forbidden],
        prior=[request.history_weight * request.other_table_counts.get(p, 0) for p in everyone],
        mu=request.balance_weight,
        fixed=[[[index[p] for p in table] for table in round_] for round_ in fixed],
    )
    return problem, everyone


def _played(request: PlanRequest) -> tuple[Round, ...]:
    """The played rounds as tuples (``PlanRequest`` stores them so)."""
    return tuple(tuple(tuple(table) for table in round_) for round_ in request.fixed_rounds)


def _seated(rounds: Sequence[Sequence[Sequence[Player]]]) -> list[Player]:
    return [p for round_ in rounds for table in round_ for p in table]


def _names(players: Sequence[Player]) -> str:
    words = [str(p) for p in players]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _largest_clique(pairs: list[tuple[int, int]]) -> list[int]:
    """The most players who are all forbidden with each other (small graphs: plain search)."""
    apart: dict[int, set[int]] = {}
    for a, b in pairs:
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)
    best: list[int] = []

    def grow(clique: list[int], candidates: list[int]) -> None:
        nonlocal best
        if len(clique) > len(best):
            best = list(clique)
        for i, v in enumerate(candidates):
            if len(clique) + len(candidates) - i <= len(best):
                return
            grow([*clique, v], [w for w in candidates[i + 1 :] if w in apart[v]])

    if len(apart) <= 40:
        grow([], sorted(apart))
    return best


def _apart_error(
    request: PlanRequest, problem: Problem, sizes: list[int], stopped_early: bool
) -> SeatingError:
    players = request.players
    present = set(players)
    involved = sorted({p for pair in request.forbidden for p in pair} & present, key=players.index)
    inside = sorted(
        (sorted(pair, key=players.index) for pair in request.forbidden if pair <= present),
        key=lambda pair: [players.index(p) for p in pair],
    )
    pairs = "; ".join(_names(pair) for pair in inside)
    tables = describe_tables(tuple(sizes))
    clique = _largest_clique(problem.forbidden)
    if len(clique) > len(sizes):
        names = _names([players[i] for i in clique])
        return SeatingError(
            f"{names} must all sit at different tables, but {len(players)} players make only "
            f"{tables}. Allow one of these pairs to meet, or change who plays.",
            code="forbidden_unsatisfiable",
            players=tuple(players[i] for i in clique),
            reason="forbidden_clique",
            details={
                "players": len(players),
                "tables": tuple(sizes),
                "names": [str(players[i]) for i in clique],
            },
        )
    if stopped_early:
        message = (
            f"No seating of {len(players)} players at {tables} was found that keeps these "
            f"pairs apart: {pairs}. Allow one of them to meet."
        )
    else:
        message = (
            f"{len(players)} players cannot sit at {tables} and keep these pairs apart: "
            f"{pairs}. Allow one of them to meet, or change who plays."
        )
    return SeatingError(
        message,
        code="forbidden_unsatisfiable",
        players=tuple(involved),
        reason="forbidden_not_found" if stopped_early else "forbidden_impossible",
        details={
            "players": len(players),
            "tables": tuple(sizes),
            "pairs": [[str(p) for p in pair] for pair in inside],
        },
    )


def plan(request: PlanRequest) -> Plan:
    """Seat ``request.players`` for the rounds not yet played so that pairs meet as evenly as
    the objective (``clubs/seating/__init__.py``) asks, every player exactly once a round at
    tables of ``table_sizes``, forbidden pairs apart.

    Where the present players fit a resolvable design (``clubs/seating/designs.py``) the search
    starts from it, relabelled to suit played rounds, history and forbidden pairs; otherwise from
    a random seating (one that keeps forbidden pairs apart when there are any). With at most
    ``EXACT_MAX_PLAYERS`` present players, a short local search (``EXACT_WARMUP`` moves) gives
    the exact search (``clubs/seating/exact.py``) a plan to beat; when it searches everything
    within ``exact_nodes`` seats, its best plan is proven optimal and no more moves are spent.
    Otherwise simulated annealing (``clubs/seating/search.py``), in ``RESTARTS`` runs each
    reheated from the best seating so far and scored by the repeats with the balance as a
    tie-break, then one that weighs the balance more (``search.BALANCE_TIE``), until the budget
    is spent or the lower bound is met; the lexicographically best seating seen is kept.
    A re-plan's ``current_plan``, when it applies, is kept unless the search finds better (and
    then no search runs when it already meets the lower bound).

    Raises :class:`SeatingError`: ``unsplittable`` (the players do not fill tables),
    ``forbidden_unsatisfiable`` (no seating keeps the forbidden pairs apart), ``invalid``.
    """
    _validate(request)
    started = time.perf_counter()
    deadline = None if request.time_limit is None else started + request.time_limit
    planned = request.rounds - len(request.fixed_rounds)
    problem, everyone = compile_request(request)
    sizes = list(problem.table_sizes)
    rng = random.Random(request.seed)
    bound = lower_bound(problem)
    n = problem.n

    def start() -> list[list[list[int]]]:
        rounds = []
        for _ in range(planned):
            if not problem.forbidden:
                rounds.append(random_round(range(n), sizes, rng))
                continue
            try:
                apart = apart_round(n, sizes, problem.forbidden, rng)
            except TimeoutError:
                apart = random_round(range(n), sizes, rng)
            if apart is None:
                raise _apart_error(request, problem, sizes, stopped_early=False)
            rounds.append(apart)
        return rounds

    state = State(problem, start())
    method = "local search"
    designed = design_rounds(problem, rng)
    if designed is not None:
        name, rounds = designed
        candidate = State(problem, rounds)
        relabel(candidate, rng, RELABEL_MOVES_PER_PLAYER * n, bound)
        if better(candidate.key, state.key, EPSILON):
            state, method = candidate, f"{name}, then local search"
    current = _current_plan(request, problem, everyone, rng)
    budget = request.iterations
    if budget is None:
        budget = min(max(ITERATIONS_PER_SEAT * n * planned, MIN_ITERATIONS), MAX_ITERATIONS)
    used = 0
    proven = False
    if current is not None and not better(bound, current.key, EPSILON):
        state, method = current, CURRENT_PLAN
    elif better(bound, state.key, EPSILON):
        nodes = EXACT_NODES if request.exact_nodes is None else request.exact_nodes
        if n <= EXACT_MAX_PLAYERS and nodes > 0:
            used, proven, searched = _exact(state, rng, budget, bound, current, nodes, deadline)
            if searched and proven:
                method = EXACT_METHOD
        if not proven:
            used += _search(state, rng, budget - used, bound, deadline)
    elif method != "local search":
        method = method.removesuffix(", then local search")
    if current is not None and not better(state.key, current.key, EPSILON):
        state, method = current, CURRENT_PLAN
    if state.forbidden_meetings():
        raise _apart_error(request, problem, sizes, stopped_early=not proven)
    planned_rounds = _finish(state, everyone, rng)
    if method == CURRENT_PLAN:  # as announced: same tables, same seat order
        kept = tuple(tuple(tuple(t) for t in r) for r in request.current_plan[:planned])
        planned_rounds = kept + planned_rounds[len(kept) :]
    all_rounds = _played(request) + planned_rounds
    parts = _score(request, all_rounds)
    if proven:  # no plan is lexicographically below this one: its value is the bound
        bound = (max(bound[0], parts.first), max(bound[1], parts.balance))
    return Plan(
        rounds=all_rounds,
        fixed=len(request.fixed_rounds),
        objective=parts.first,
        parts=parts,
        lower_bound=bound[0],
        balance_lower_bound=bound[1],
        proven_optimal=parts.first <= bound[0] + 1e-6 and parts.balance <= bound[1] + 1e-6,
        random_objective=_random_objective(request, problem, sizes, rng),
        repeats=_repeats(all_rounds, request),
        other_table_counts=MappingProxyType(other_table_sittings(all_rounds, request.preferred)),
        method=method,
        iterations=used,
        seed=request.seed,
    )


def _search(
    state: State,
    rng: random.Random,
    budget: int,
    bound: tuple[float, float],
    deadline: float | None,
) -> int:
    """Spend ``budget`` moves on ``state``: ``RESTARTS`` annealing runs, then, when the evening
    has non-preferred tables, a balancing run (one part in ``BALANCE_SHARE``, and whatever the
    first runs left when they met the first part's bound). Returns the moves tried."""
    p = state.problem
    balancing = p.mu > 0 and any(p.table_other) and p.planned > 0
    runs_budget = budget - budget // BALANCE_SHARE if balancing else budget
    used = 0
    for run in range(RESTARTS):
        share = runs_budget // RESTARTS + (runs_budget % RESTARTS if run == 0 else 0)
        if run == 0 and balancing and not p.forbidden:
            even = State(p, balanced_rounds(p, rng))
            used += anneal(
                even, rng, iterations=share, target=bound, deadline=deadline, keep_balance=True
            )
            if even.cost <= bound[0] + EPSILON and better(even.key, state.key, EPSILON):
                state.tables = even.tables
                state.rebuild()
        else:
            used += anneal(state, rng, iterations=share, target=bound, deadline=deadline)
        if not better(bound, state.key, EPSILON):
            return used
        if state.cost <= bound[0] + EPSILON:
            break
        if deadline is not None and time.perf_counter() > deadline:
            return used
    if balancing:
        tie = BALANCE_TIE / p.mu
        used += anneal(
            state, rng, iterations=budget - used, target=bound, deadline=deadline, tie=tie
        )
    return used


def _exact(
    state: State,
    rng: random.Random,
    budget: int,
    bound: tuple[float, float],
    current: State | None,
    nodes: int,
    deadline: float | None,
) -> tuple[int, bool, bool]:
    """A short local search (``EXACT_WARMUP`` moves), then the exact search for a plan better
    than the best known (``current`` included), placing at most ``nodes`` seats. Leaves ``state``
    at the best plan found; returns the moves tried, whether the plan is proven optimal (it met
    the lower bound, or the search finished: no plan is better than the best known) and whether
    the exact search ran."""
    used = _search(state, rng, min(EXACT_WARMUP, budget), bound, deadline)
    if not better(bound, state.key, EPSILON):
        return used, True, False
    known = state.key
    if current is not None and better(current.key, known, EPSILON):
        known = current.key
    found = exact_search(state.problem, known, nodes=nodes)
    if found.tables is not None:
        state.tables = found.tables
        state.rebuild()
    return used, found.complete, True


def _current_plan(
    request: PlanRequest, problem: Problem, everyone: list[Player], rng: random.Random
) -> State | None:
    """``request.current_plan`` as a search state over the rounds to plan, its tables in the
    order of ``problem.table_sizes``; ``None`` when there is none or it does not seat exactly
    the present players at those tables, or seats a forbidden pair together."""
    if not request.current_plan or problem.planned == 0:
        return None
    index = {player: i for i, player in enumerate(everyone[: problem.n])}
    sizes = problem.table_sizes
    rounds: list[list[list[int]]] = []
    for round_ in request.current_plan[: problem.planned]:
        seated = [p for table in round_ for p in table]
        if len(seated) != problem.n or set(seated) != index.keys():
            return None
        if sorted(len(table) for table in round_) != sorted(sizes):
            return None
        left = [[index[p] for p in table] for table in round_]
        ordered = []
        for size in sizes:
            table = next(t for t in left if len(t) == size)
            left.remove(table)
            ordered.append(table)
        rounds.append(ordered)
    while len(rounds) < problem.planned:
        rounds.append(random_round(range(problem.n), sizes, rng))
    state = State(problem, rounds)
    return None if state.forbidden_meetings() else state


def _finish(state: State, everyone: list[Player], rng: random.Random) -> tuple[Round, ...]:
    """The planned rounds in players: tables of one size in a random order, preferred size
    first, and seats in a random order."""
    sizes = state.problem.table_sizes
    rounds = []
    for round_ in state.tables:
        order = list(range(len(round_)))
        for size in dict.fromkeys(sizes):
            same = [i for i in order if sizes[i] == size]
            shuffled = list(same)
            rng.shuffle(shuffled)
            for i, j in zip(same, shuffled, strict=True):
                order[i] = j
        tables = []
        for i in order:
            seats = list(round_[i])
            rng.shuffle(seats)
            tables.append(tuple(everyone[p] for p in seats))
        rounds.append(tuple(tables))
    return tuple(rounds)


def _score(request: PlanRequest, rounds: Sequence[Round]) -> Score:
    return score(
        rounds,
        shapes=request.shapes,
        preferred=request.preferred,
        history=request.history,
        other_table_counts=request.other_table_counts,
        history_weight=request.history_weight,
        balance_weight=request.balance_weight,
    )


def _random_objective(
    request: PlanRequest, problem: Problem, sizes: list[int], rng: random.Random
) -> float:
    """The mean first part of the objective of ``RANDOM_SAMPLES`` uniformly random seatings of
    the planned rounds (played rounds as they are; forbidden pairs not kept apart)."""
    players = list(request.players)
    total = 0.0
    for _ in range(RANDOM_SAMPLES):
        planned = tuple(
            tuple(tuple(t) for t in random_round(players, sizes, rng))
            for _ in range(problem.planned)
        )
        total += _score(request, _played(request) + planned).first
    return total / RANDOM_SAMPLES


def _repeats(rounds: Sequence[Round], request: PlanRequest) -> tuple[Repeat, ...]:
    """Pairs at one table in more than one round, most meetings first."""
    order = {p: i for i, p in enumerate(request.players)}
    for round_ in rounds:
        for table in round_:
            for p in table:
                order.setdefault(p, len(order))
    meetings: dict[frozenset[Player], int] = {}
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                key = frozenset((a, b))
                meetings[key] = meetings.get(key, 0) + 1
    weights = pair_weights(rounds, request.shapes)
    found = []
    for pair, count in meetings.items():
        if count > 1:
            a, b = sorted(pair, key=order.__getitem__)
            found.append(Repeat((a, b), count, weights[pair]))
    found.sort(key=lambda r: (-r.meetings, order[r.players[0]], order[r.players[1]]))
    return tuple(found)
