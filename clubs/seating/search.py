"""Finding a good plan: starting seatings and simulated annealing over swaps.

A *move* swaps two players at different tables of one planned round; its change of the cost is
computed from the two tables only (``State.delta``). Annealing accepts a move that does not
raise the cost, and one that raises it by d with probability exp(−d/T), the temperature T
falling geometrically over the iteration budget; the best seating seen is kept, best in the
objective's lexicographic order (first part, then balance: ``problem.better``). Moves are
scored by the first part with the balance as a small tie-break (``State.tie``); a last run
weighs the balance more (``BALANCE_TIE``) to even out the non-preferred tables. The budget
counts moves, so the result depends only on the request and the seed; a time limit, when given,
may stop the search earlier (and then depends on the machine).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import TypeVar

from clubs.seating.designs import embedding, resolution
from clubs.seating.problem import Problem, State, better

T = TypeVar("T")

TEMPERATURE_START = 0.3
TEMPERATURE_END = 0.02
"""The annealing runs from about half a four-table repeat (0.3 of a three-table one) down to a
fiftieth of a repeated meeting. Starting at 0.6 reached no repeat at 13 × 5 and 16 × 6 for
fewer seeds (``docs/seating-benchmark.md``)."""
BALANCE_TIE = 0.125
"""In the balancing run (``tie`` = ``BALANCE_TIE / μ``) a player's second sitting at a
non-preferred table weighs an eighth of a repeated meeting in a move's score: the walk may then
cross a repeat to even out the sittings, while the best seating kept is still the
lexicographically best one."""
FEASIBILITY_NODES = 200_000
"""Nodes the search for a seating without forbidden pairs may visit before giving up."""
EPSILON = 1e-9


def random_round(players: Sequence[T], sizes: Sequence[int], rng: random.Random) -> list[list[T]]:
    """``players`` shuffled and cut into tables of ``sizes``."""
    order = list(players)
    rng.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


def apart_round(
    n: int, sizes: Sequence[int], forbidden: Sequence[tuple[int, int]], rng: random.Random
) -> list[list[int]] | None:
    """A round seating players 0..n−1 at tables of ``sizes`` with no forbidden pair at one
    table, in an order shuffled by ``rng``; ``None`` when there is none. Raises
    ``TimeoutError`` when the search gives up after ``FEASIBILITY_NODES`` nodes.

    Players with the most forbidden partners are seated first; each goes to a table with room
    and no forbidden partner, trying only one empty table of each size (empty tables of one size
    are interchangeable).
    """
    apart: list[set[int]] = [set() for _ in range(n)]
    for a, b in forbidden:
        apart[a].add(b)
        apart[b].add(a)
    order = list(range(n))
    rng.shuffle(order)
    order.sort(key=lambda a: -len(apart[a]))
    tables: list[list[int]] = [[] for _ in sizes]
    nodes = 0

    def place(k: int) -> bool:
        nonlocal nodes
        if k == n:
            return True
        nodes += 1
        if nodes > FEASIBILITY_NODES:
            raise TimeoutError
        a = order[k]
        tried_empty: set[int] = set()
        for i, table in enumerate(tables):
            if len(table) == sizes[i] or any(b in apart[a] for b in table):
                continue
            if not table:
                if sizes[i] in tried_empty:
                    continue
                tried_empty.add(sizes[i])
            table.append(a)
            if place(k + 1):
                return True
            table.pop()
        return False

    return tables if place(0) else None


def balanced_rounds(problem: Problem, rng: random.Random) -> list[list[list[int]]]:
    """Planned rounds whose non-preferred tables go round as evenly as the balance's lower
    bound asks: each round seats there those with the fewest such sittings so far (played
    rounds and the season's prior included; ties in a shuffled order), the others at random."""
    p = problem
    sittings = [p.base_other[a] + p.prior[a] for a in range(p.n)]
    seats = sum(s for s, other in zip(p.table_sizes, p.table_other, strict=True) if other)
    rounds = []
    for _ in range(p.planned):
        order = list(range(p.n))
        rng.shuffle(order)
        order.sort(key=sittings.__getitem__)
        away, rest = order[:seats], order[seats:]
        for a in away:
            sittings[a] += 1
        rng.shuffle(away)
        rng.shuffle(rest)
        tables = []
        for size, other in zip(p.table_sizes, p.table_other, strict=True):
            source = away if other else rest
            tables.append(source[:size])
            del source[:size]
        rounds.append(tables)
    return rounds


def design_rounds(problem: Problem, rng: random.Random) -> tuple[str, list[list[list[int]]]] | None:
    """Planned rounds from a resolvable design (``clubs/seating/designs.py``) when every
    table of a planned round has one size and a design for the present players exists: its
    classes in a shuffled order with the players in a shuffled order (rounds beyond the
    design's classes are random), with the design's name. ``None`` otherwise.

    When the played rounds seat exactly the present players and can be read as classes of the
    design (:func:`embedding`), the players take their points from there and the planned rounds
    are the design's other classes, so the evening still has no repeat."""
    sizes = set(problem.table_sizes)
    if len(sizes) != 1 or problem.planned == 0:
        return None
    design = resolution(problem.n, sizes.pop())
    if design is None:
        return None
    label = list(range(problem.n))
    rng.shuffle(label)
    classes = list(design.classes)
    everyone = list(range(problem.n))
    played = problem.fixed
    if played and all(sorted(p for t in r for p in t) == everyone for r in played):
        found = embedding(design.classes, played, problem.n)
        if found is not None:
            point, taken = found
            for player, p in enumerate(point):
                label[p] = player
            classes = [c for i, c in enumerate(classes) if i not in taken]
    rng.shuffle(classes)
    rounds = [[[label[p] for p in block] for block in blocks] for blocks in classes]
    rounds = rounds[: problem.planned]
    while len(rounds) < problem.planned:
        rounds.append(random_round(range(problem.n), problem.table_sizes, rng))
    return design.name, rounds


def relabel(state: State, rng: random.Random, moves: int, target: tuple[float, float]) -> None:
    """Hill climbing over exchanges of two players in every planned round at once, which keeps
    the meetings of a design and moves them to other pairs (for history, forbidden pairs and
    played rounds)."""
    p = state.problem
    if p.n < 2:
        return
    for _ in range(moves):
        if not better(target, state.key, EPSILON):
            return
        a, b = rng.sample(range(p.n), 2)
        done: list[tuple[int, float]] = []
        before = state.key
        for r in range(p.planned):
            if state.where[r][a] != state.where[r][b]:
                d = state.delta(r, a, b)
                state.swap(r, a, b, d)
                done.append((r, d))
        if not better(state.key, before, EPSILON):
            for r, _ in reversed(done):
                state.swap(r, a, b, state.delta(r, a, b))


def anneal(
    state: State,
    rng: random.Random,
    *,
    iterations: int,
    target: tuple[float, float],
    deadline: float | None = None,
    tie: float | None = None,
    keep_balance: bool = False,
) -> int:
    """Simulated annealing over swaps within a round, moves scored by ``State.delta`` (with
    ``tie`` as the balance's weight when given); leaves ``state`` at the best seating seen and
    returns the moves tried. Stops early at ``target`` (the lower bound). ``keep_balance``
    allows only swaps between two preferred or two non-preferred tables, so who sits at the
    non-preferred tables in each round stays as it is."""
    p = state.problem
    if p.planned == 0 or len(p.table_sizes) < 2 or iterations <= 0:
        return 0
    if tie is not None:
        state.tie = tie
        try:
            return anneal(
                state,
                rng,
                iterations=iterations,
                target=target,
                deadline=deadline,
                keep_balance=keep_balance,
            )
        finally:
            state.tie = p.tie
    other = p.table_other
    n, planned = p.n, p.planned
    where, tables, steps = state.where, state.tables, p.steps
    units, count, coef, table_units = state.units, p.count, p.coef, p.table_units
    sittings, prior, mu = state.other, p.prior, p.mu
    swap, balance_delta = state.swap, state.balance_delta
    tie = state.tie
    draw, exp = rng.random, math.exp
    temperature = TEMPERATURE_START
    cooling = (TEMPERATURE_END / TEMPERATURE_START) ** (1 / iterations)
    best_cost, best_spread = state.key
    goal_cost, goal_spread = target[0] + EPSILON, target[1] + EPSILON
    best: list[list[list[int]]] | None = None  # None: the current seating is the best
    done = 0
    for done in range(1, iterations + 1):
        temperature *= cooling
        if deadline is not None and done & 4095 == 0 and time.perf_counter() > deadline:
            break
        r = int(draw() * planned)
        a = int(draw() * n)
        b = int(draw() * n)
        seats = where[r]
        ta, tb = seats[a], seats[b]
        if ta == tb or (keep_balance and other[ta] != other[tb]):
            continue
        # d = state.delta(r, a, b), written out here (the call took a tenth of the search):
        # the same sums in the same order, so the same moves are taken
        round_ = tables[r]
        drop, gain = steps[ta]
        an, bn = a * count, b * count
        d = 0.0
        if coef is None:
            for x in round_[ta]:
                if x != a:
                    d += drop[units[an + x]]
                    d += gain[units[bn + x]]
            drop, gain = steps[tb]
            for y in round_[tb]:
                if y != b:
                    d += drop[units[bn + y]]
                    d += gain[units[an + y]]
        else:
            ua, ub = table_units[ta], table_units[tb]
            for x in round_[ta]:
                if x != a:
                    d += drop[units[an + x]]
                    d += gain[units[bn + x]]
                    d += (coef[bn + x] - coef[an + x]) * ua
            drop, gain = steps[tb]
            for y in round_[tb]:
                if y != b:
                    d += drop[units[bn + y]]
                    d += gain[units[an + y]]
                    d += (coef[an + y] - coef[bn + y]) * ub
        if other[ta] != other[tb] and tie:
            out, into = (a, b) if other[ta] else (b, a)
            d += tie * (
                mu * ((sittings[into] + prior[into]) ** 2 - (sittings[out] - 1 + prior[out]) ** 2)
            )
        if d > EPSILON and draw() >= exp(-d / temperature):
            continue
        if best is None:  # about to leave the best seating seen: keep it if this is worse
            spread = balance_delta(r, a, b)
            first = d - tie * spread
            if first > EPSILON or (first >= -EPSILON and spread > EPSILON):
                best = state.snapshot()
        swap(r, a, b, d)
        cost = state.cost
        if cost < best_cost - EPSILON or (
            cost <= best_cost + EPSILON and state.spread < best_spread - EPSILON
        ):
            best_cost, best_spread = cost, state.spread
            best = None
            if best_cost <= goal_cost and best_spread <= goal_spread:
                break
    if best is not None:
        state.tables = best
        state.rebuild()
    return done
