"""A lower bound on the objective of any plan for a request.

Every plan hands out the same amounts, whoever sits where: each planned round gives its
tables' pairs ``U`` units of shared deals in all, each player at least ``S`` units (at the
table that gives a player the fewest), and seats ``T`` players at non-preferred tables. Each
part of the objective is convex in what a pair or a player receives, so the cheapest way to
hand out a fixed amount, ignoring who can actually sit together, is *water filling*: give
each next unit to whoever it costs least (exact for separable convex costs). Three bounds
follow, each below every plan's value:

- *pairs*: ``U`` units spread over all present pairs (a pair gets at most one table's units a
  round, forbidden pairs none);
- *players*: each player's ``S`` units spread over their partners, each pair's cost split
  half to each of its two players;
- *balance*: ``T`` sittings spread over the players (at most one a round).

The objective is lexicographic (first the repeats and history, then the balance), so the bound
is a pair: max(pairs, players) for the first part and the balance bound for the second. Every
plan's first part is at least the first bound, and a plan whose first part equals it has a
balance of at least the second (which holds for every plan), so no plan is lexicographically
below the pair; a plan that meets both is optimal. With tables of 3 only its repeat part is
positive
exactly when the rounds ask for more pair meetings than there are pairs, or a player for more
partners than there are other players (pigeonhole). It knows nothing of designs: 12 players
cannot play 5 rounds of threes without a repeat (there is no nearly Kirkman triple system of
order 12), yet the bound there is 0.
"""

from __future__ import annotations

import heapq
from collections import Counter

from clubs.seating.problem import Problem

Group = tuple[int, float]
"""Pairs that cost alike: their units from played rounds and their history cost per unit."""


def _water_fill(
    problem: Problem, groups: Counter[Group], units: int, cap: int, factor: float
) -> float:
    """The least total of ``factor`` × pair cost when ``units`` more units go to the pairs in
    ``groups`` (each pair at most ``cap`` more), played units included. All pairs of a group
    rise together: their next units cost the same, so the greedy order gives them out in a
    row."""
    penalty = problem.penalty
    total = 0.0
    heap: list[tuple[float, int, int, int, int, float]] = []
    for gid, ((base, linear), size) in enumerate(sorted(groups.items())):
        total += size * factor * (penalty[base] + linear * base)
        if cap > 0:
            step = factor * (penalty[base + 1] - penalty[base] + linear)
            heap.append((step, gid, size, base, base, linear))
    heapq.heapify(heap)
    left = units
    while left > 0 and heap:
        step, gid, size, level, base, linear = heapq.heappop(heap)
        if size >= left:
            return total + left * step
        total += size * step
        left -= size
        level += 1
        if level - base < cap:
            step = factor * (penalty[level + 1] - penalty[level] + linear)
            heapq.heappush(heap, (step, gid, size, level, base, linear))
    return total


def lower_bound(problem: Problem) -> tuple[float, float]:
    """The bound described in the module docstring: (first part, balance)."""
    p = problem
    count, n, units = p.count, p.n, p.base_units
    linear = p.linear
    forbidden = {(a, b) for a, b in p.forbidden} | {(b, a) for a, b in p.forbidden}
    cap = p.planned * max(p.table_units, default=0)
    per_round = sum(s * (s - 1) // 2 * u for s, u in zip(p.table_sizes, p.table_units, strict=True))
    fixed = 0.0
    pairs: Counter[Group] = Counter()
    rows: list[Counter[Group]] = [Counter() for _ in range(n)]
    for a in range(count):
        for b in range(a + 1, count):
            k = a * count + b
            group = (units[k], linear[k] if linear is not None else 0.0)
            if b >= n or (a, b) in forbidden:
                fixed += p.pair_cost(a, b, units[k])
            else:
                pairs[group] += 1
                rows[a][group] += 1
                rows[b][group] += 1
    pair_bound = fixed + _water_fill(p, pairs, p.planned * per_round, cap, 1.0)
    row_units = p.planned * min(
        ((s - 1) * u for s, u in zip(p.table_sizes, p.table_units, strict=True)), default=0
    )
    row_bound = fixed + sum(_water_fill(p, row, row_units, cap, 0.5) for row in rows)
    return (max(pair_bound, row_bound), _balance_bound(p))


def _balance_bound(p: Problem) -> float:
    """The least balance part when the planned rounds' non-preferred seats go to the present
    players, at most one a round each."""
    seats = p.planned * sum(
        s for s, other in zip(p.table_sizes, p.table_other, strict=True) if other
    )
    total = sum(p.player_cost(a, t) for a, t in enumerate(p.base_other))
    heap = [(p.mu * (p.base_other[a] + p.prior[a]) ** 2, a, 0) for a in range(p.n)]
    heapq.heapify(heap)
    while seats > 0 and heap:
        step, a, taken = heapq.heappop(heap)
        total += step
        seats -= 1
        if taken + 1 < p.planned:
            level = p.base_other[a] + taken + 1 + p.prior[a]
            heapq.heappush(heap, (p.mu * level**2, a, taken + 1))
    return total
