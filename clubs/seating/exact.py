"""Exact search: the best plan of a small evening, proven by branch and bound.

The planned rounds are built one after another, and each round seat by seat: players in
their order 0, 1, 2 … each join a table of the round that has room or open the next table of
a size the round still needs. Tables are sets (a table's seat order is chosen afterwards), so
tables of one size are told apart only by their least player: every partition of the players
into the round's tables is built exactly once. Symmetry breaking:

- *rounds*: the planned rounds are interchangeable (the objective sums over them), so each
  round's sequence of choices (which table each player joins, and the size of a table opened)
  is at least the previous round's, compared lexicographically;
- *players*: when the present players are interchangeable (no played rounds, history,
  forbidden pairs, and the same prior sittings at non-preferred tables), any plan can be
  relabelled so that one of its rounds seats 0, 1, 2 at the first table, 3, 4, 5 at the next
  and so on (smallest tables first), and that round is the least of all; the first planned
  round is fixed so. Among such plans the search keeps only those whose second round is not
  lowered by a relabelling that keeps the first round (two players of one table exchanged, or
  two tables of one size), nor any later round below it: every plan has a relabelling, the
  lexicographically least sequence of sorted rounds, that passes, since the relabelled plan
  would start with the first round and then the least image of the others.

A branch is cut when its lower bound is not below the best plan known, in the objective's
lexicographic order (``problem.better``). The bound of the first part is the cost so far plus
what the remaining rounds must add at least: each player still receives a known number of
units of shared deals (a table's seats less one, times its units, in each remaining round at
the table that gives the fewest), and the cheapest way to spread them over his partners is
water filling on the convex penalty; a pair's cost is split half to each of its players, as
in :mod:`clubs.seating.bound` (history and the round limit of one table a pair are left out:
the bound stays below). The balance is bounded alike: the remaining rounds' seats at
non-preferred tables go to whoever they cost least.

The search counts the seats it places (*nodes*) and gives up after a budget, so its answer
depends on the request alone, never on the machine. When it finishes, the best plan it knows
(the one it was given to beat, or a better one it found) is optimal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from clubs.seating.problem import Problem, State

EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class Exact:
    """What the exact search found: ``tables`` (planned rounds, tables in the order of
    ``Problem.table_sizes``) when it found a plan better than the one it was given, else
    ``None``; ``complete`` when it searched everything, so the best plan known is optimal;
    ``nodes`` the seats it placed."""

    tables: list[list[list[int]]] | None
    complete: bool
    nodes: int


class _Budget(Exception):
    """The node budget is spent."""


def interchangeable(problem: Problem) -> bool:
    """Whether every present player stands alike in the objective, so that the first planned
    round may be fixed: no played rounds, no history, no forbidden pairs, one prior."""
    p = problem
    return (
        not p.fixed
        and p.count == p.n
        and p.linear is None
        and not p.forbidden
        and len({p.prior[a] for a in range(p.n)}) <= 1
        and len({p.base_other[a] for a in range(p.n)}) <= 1
    )


def exact_search(problem: Problem, best: tuple[float, float], *, nodes: int) -> Exact:
    """Search every plan of ``problem`` (up to symmetry) for one lexicographically better than
    ``best`` (the objective's two parts of the plan known, forbidden pairs excluded), visiting
    at most ``nodes`` seats."""
    p = problem
    n, planned = p.n, p.planned
    if planned == 0 or n == 0:
        return Exact(None, True, 0)
    scale = p.scale
    penalty = p.penalty
    sizes = sorted(set(p.table_sizes))
    needed = {s: p.table_sizes.count(s) for s in sizes}
    units_of = {s: p.table_units[p.table_sizes.index(s)] for s in sizes}
    other_of = {s: p.table_other[p.table_sizes.index(s)] for s in sizes}
    least = min((s - 1) * units_of[s] for s in sizes)
    away_seats = sum(s for s, o in zip(p.table_sizes, p.table_other, strict=True) if o)
    mu, prior = p.mu, p.prior
    linear = p.linear
    forbidden = [[False] * n for _ in range(n)]
    for a, b in p.forbidden:
        forbidden[a][b] = forbidden[b][a] = True
    units = [[p.base_units[a * p.count + b] for b in range(n)] for a in range(n)]
    other = [p.base_other[a] for a in range(n)]
    lin = (
        [[linear[a * p.count + b] for b in range(n)] for a in range(n)]
        if linear is not None
        else None
    )

    def first_bounds(rounds_left: int) -> tuple[float, float]:
        """The least the first part grows in ``rounds_left`` − 1 and in ``rounds_left`` more
        full rounds (``inf`` when a player has no partner left to sit with)."""
        if rounds_left <= 0:
            return 0.0, 0.0
        wants = ((rounds_left - 1) * least, rounds_left * least)
        totals = [0.0, 0.0]
        for a in range(n):
            row, apart = units[a], forbidden[a]
            levels = sorted(row[b] for b in range(n) if b != a and not apart[b])
            if not levels:
                return math.inf, math.inf
            for w, want in enumerate(wants):
                left, k, cost = want, 0, 0.0
                while left > 0:
                    top = (k + 1) * scale
                    bottom = k * scale
                    room = 0
                    for u in levels:
                        if u >= top:
                            break
                        room += top - (u if u > bottom else bottom)
                    if room:
                        take = room if room < left else left
                        cost += take * (penalty[top] - penalty[top - 1])
                        left -= take
                    k += 1
                totals[w] += cost
        return totals[0] / 2, totals[1] / 2

    def balance_bound(rounds_left: int) -> float:
        """The least the balance grows in ``rounds_left`` more full rounds."""
        if rounds_left <= 0 or not away_seats or not mu:
            return 0.0
        marks: list[float] = []
        for a in range(n):
            level = other[a] + prior[a]
            marks.extend(mu * (level + j) ** 2 for j in range(rounds_left))
        marks.sort()
        return sum(marks[: away_seats * rounds_left])

    base_first, base_balance = State(p, []).key  # the played rounds alone
    goal = [best[0] - base_first, best[1] - base_balance]
    found: list[list[list[int]]] | None = None
    count = 0
    # each round's tables (members, sizes) and choices
    members: list[list[list[int]]] = [[] for _ in range(planned)]
    table_size: list[list[int]] = [[] for _ in range(planned)]
    codes: list[list[tuple[int, int]]] = [[] for _ in range(planned)]
    cost = [0.0, 0.0]

    def beaten(first: float, balance: float) -> bool:
        """Whether a plan with at least these parts cannot beat the goal."""
        if first > goal[0] + EPSILON:
            return True
        return first >= goal[0] - EPSILON and balance >= goal[1] - EPSILON

    def place_round(r: int) -> None:
        nonlocal found
        if r >= 2 and swaps:  # the lex-least plan of its kind: no relabelling lowers round 1
            done = members[r - 1], table_size[r - 1]
            if any(code(*done, n, image) < codes[1] for image in swaps):
                return
        if r == planned:
            if not beaten(cost[0], cost[1]):
                goal[0], goal[1] = cost[0], cost[1]
                found = [
                    [list(t) for t in _in_order(members[q], table_size[q], p.table_sizes)]
                    for q in range(planned)
                ]
            return
        left = planned - r
        start_first, start_balance = cost[0], cost[1]
        future_first, all_first = first_bounds(left)
        all_balance = balance_bound(left)
        if beaten(start_first + all_first, start_balance + all_balance):
            return
        future_balance = balance_bound(left - 1)
        members[r] = []
        table_size[r] = []
        codes[r] = []
        opened = dict.fromkeys(sizes, 0)
        previous = codes[r - 1] if r > 0 else None

        def place(a: int, tied: bool) -> None:
            nonlocal count
            if a == n:
                place_round(r + 1)
                return
            count += 1
            if count > nodes:
                raise _Budget
            tables, kinds = members[r], table_size[r]
            bound = previous[a] if tied and previous is not None else None
            options: list[tuple[float, float, int, int]] = []
            for i, table in enumerate(tables):
                size = kinds[i]
                if len(table) == size or (bound is not None and (i, size) < bound):
                    continue
                us = units_of[size]
                row = units[a]
                d = 0.0
                bad = False
                for b in table:
                    if forbidden[a][b]:
                        bad = True
                        break
                    u = row[b]
                    d += penalty[u + us] - penalty[u]
                    if lin is not None:
                        d += lin[a][b] * us
                if bad:
                    continue
                e = mu * (other[a] + prior[a]) ** 2 if other_of[size] else 0.0
                options.append((d, e, i, size))
            i = len(tables)
            for size in sizes:
                if opened[size] < needed[size] and (bound is None or (i, size) >= bound):
                    e = mu * (other[a] + prior[a]) ** 2 if other_of[size] else 0.0
                    options.append((0.0, e, i, size))
            options.sort()
            was_first, was_balance = cost[0], cost[1]
            for d, e, i, size in options:
                first = was_first + d
                balance = was_balance + e
                lower_first = max(first + future_first, start_first + all_first)
                lower_balance = max(balance + future_balance, start_balance + all_balance)
                if beaten(lower_first, lower_balance):
                    continue
                new = i == len(tables)
                if new:
                    tables.append([])
                    kinds.append(size)
                    opened[size] += 1
                us = units_of[size]
                for b in tables[i]:
                    units[a][b] += us
                    units[b][a] += us
                other[a] += other_of[size]
                tables[i].append(a)
                codes[r].append((i, size))
                cost[0], cost[1] = first, balance
                place(a + 1, tied and bound is not None and (i, size) == bound)
                cost[0], cost[1] = was_first, was_balance
                codes[r].pop()
                tables[i].pop()
                other[a] -= other_of[size]
                for b in tables[i]:
                    units[a][b] -= us
                    units[b][a] -= us
                if new:
                    tables.pop()
                    kinds.pop()
                    opened[size] -= 1

        place(0, previous is not None)

    swaps: list[list[int]] = []
    try:
        if interchangeable(p):
            swaps = _swaps(sorted(p.table_sizes))
            _fix_first_round(p, sorted(p.table_sizes), units_of, other_of, units, other, cost)
            members[0] = _blocks(sorted(p.table_sizes))
            table_size[0] = sorted(p.table_sizes)
            codes[0] = [(i, s) for i, s in enumerate(table_size[0]) for _ in range(s)]
            place_round(1)
        else:
            place_round(0)
    except _Budget:
        return Exact(found, False, count)
    return Exact(found, True, count)


def _swaps(sizes: list[int]) -> list[list[int]]:
    """Relabellings that keep the fixed first round (:func:`_blocks`) as it is, each as the
    image of every player: two players of one table exchanged, or two tables of one size
    exchanged player by player."""
    blocks = _blocks(sizes)
    n = sum(sizes)
    found = []
    for table in blocks:
        for a, b in zip(table, table[1:], strict=False):
            image = list(range(n))
            image[a], image[b] = b, a
            found.append(image)
    for one, two in zip(blocks, blocks[1:], strict=False):
        if len(one) == len(two):
            image = list(range(n))
            for a, b in zip(one, two, strict=True):
                image[a], image[b] = b, a
            found.append(image)
    return found


def code(
    tables: list[list[int]], kinds: list[int], n: int, image: list[int] | None = None
) -> list[tuple[int, int]]:
    """The sequence of choices that builds the round ``tables`` (of sizes ``kinds``), after
    relabelling each player ``a`` as ``image[a]`` when given: for each player in order, the
    number of his table in the order the tables are opened, and its size."""
    where = [0] * n
    for i, table in enumerate(tables):
        for a in table:
            where[a if image is None else image[a]] = i
    number: dict[int, int] = {}
    result = []
    for a in range(n):
        i = where[a]
        if i not in number:
            number[i] = len(number)
        result.append((number[i], kinds[i]))
    return result


def _blocks(sizes: list[int]) -> list[list[int]]:
    """Players 0, 1, 2 … cut into tables of ``sizes`` in that order."""
    tables, start = [], 0
    for s in sizes:
        tables.append(list(range(start, start + s)))
        start += s
    return tables


def _fix_first_round(
    p: Problem,
    sizes: list[int],
    units_of: dict[int, int],
    other_of: dict[int, bool],
    units: list[list[int]],
    other: list[int],
    cost: list[float],
) -> None:
    """Seat the first planned round as :func:`_blocks` and add its cost to ``cost``."""
    for size, table in zip(sizes, _blocks(sizes), strict=True):
        us = units_of[size]
        for i, a in enumerate(table):
            if other_of[size]:
                cost[1] += p.mu * (other[a] + p.prior[a]) ** 2
                other[a] += 1
            for b in table[:i]:
                u = units[a][b]
                cost[0] += p.penalty[u + us] - p.penalty[u]
                units[a][b] += us
                units[b][a] += us


def _in_order(tables: list[list[int]], kinds: list[int], order: tuple[int, ...]) -> list[list[int]]:
    """``tables`` (of sizes ``kinds``) rearranged to the order of sizes ``order``."""
    left = list(zip(kinds, tables, strict=True))
    result = []
    for size in order:
        k = next(j for j, (s, _) in enumerate(left) if s == size)
        result.append(left.pop(k)[1])
    return result
