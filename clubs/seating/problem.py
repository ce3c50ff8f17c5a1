"""A seating request compiled to small ints, and the search state over it.

Players are numbered 0..count−1, the present ones first (0..n−1), then those seen only in played
rounds. Pair figures live in flat lists indexed ``a * count + b`` (both orders kept equal), in
*units*: a share of deals times ``scale``, the least common denominator of the shapes' shares, so
that a three-table adds ``scale`` units to each of its pairs and a four-table with three active
``scale / 2``. The objective in these terms (``clubs/seating/objective.py`` states it on players) is

    first:    Σ over pairs  penalty[u] + linear[pair] · u      (u = the pair's units)
    then:     μ · Σ over players  Σ_{k<t} (k + prior)²      (t = sittings at non-preferred tables)

compared lexicographically, where ``penalty[u]`` is ``repeat_penalty(u / scale)`` and ``linear``
is λ · history / scale per unit. The search adds ``FORBIDDEN_COST`` per unit to the first part
for pairs that must be kept apart. A :class:`State` keeps the two parts apart (``cost`` and
``spread``); its moves are scored by ``cost + tie · spread`` (``Problem.tie``), where one move
can never shift the balance by as much as half a step of the first part, so the annealing
follows the repeats and uses the balance to choose among moves that leave them equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FORBIDDEN_COST = 1e6
"""Cost per unit of a forbidden pair at one table: more than any seating's objective."""


@dataclass(slots=True)
class Problem:
    """The compiled request. ``table_*`` describe the tables of every planned round (the same
    in each): their sizes, units per pair, and whether the size is not the preferred one;
    ``fixed`` holds the played rounds."""

    n: int
    count: int
    planned: int
    scale: int
    table_sizes: tuple[int, ...]
    table_units: tuple[int, ...]
    table_other: tuple[bool, ...]
    penalty: list[float]
    base_units: list[int]
    base_other: list[int]
    linear: list[float] | None
    forbidden: list[tuple[int, int]]
    prior: list[float]
    mu: float
    fixed: list[list[list[int]]]
    coef: list[float] | None = field(init=False)
    tie: float = field(init=False)
    steps: tuple[tuple[list[float], list[float]], ...] = field(init=False)

    def __post_init__(self) -> None:
        """``coef``: the search's cost per unit of each pair, history plus forbidden pairs;
        ``tie``: the weight of the balance in a move's score. A swap changes one player's
        sittings at non-preferred tables by one, up and another's down, so the balance by at most
        μ·(most sittings + most prior)²; ``tie`` scales that to half the first part's smallest
        step without history (1/scale: repeat penalties are multiples of it)."""
        top: float = self.planned + max(self.base_other[: self.n], default=0)
        top = top + max(self.prior[: self.n], default=0.0)
        most = self.mu * top * top
        self.tie = 0.5 / self.scale / most if most > 0 else 0.0
        self.steps = tuple(self.penalty_steps(u) for u in self.table_units)
        if not self.forbidden:
            self.coef = self.linear
            return
        coef = list(self.linear) if self.linear is not None else [0.0] * self.count**2
        for a, b in self.forbidden:
            coef[a * self.count + b] += FORBIDDEN_COST
            coef[b * self.count + a] += FORBIDDEN_COST
        self.coef = coef

    def penalty_steps(self, units: int) -> tuple[list[float], list[float]]:
        """The change of a pair's penalty when it loses ``units`` (``drop[m]``) or gains them
        (``gain[m]``), at ``m`` units before: ``penalty[m ∓ units] − penalty[m]``, worked out
        once for the moves (the same subtraction :meth:`State.delta` would make)."""
        penalty = self.penalty
        top = len(penalty)
        drop = [0.0] * units + [penalty[m - units] - penalty[m] for m in range(units, top)]
        gain = [penalty[m + units] - penalty[m] for m in range(top - units)]
        return drop, gain

    def pair_cost(self, a: int, b: int, units: int) -> float:
        """The objective's part for the pair (a, b) at ``units`` (no forbidden cost)."""
        cost = self.penalty[units]
        if self.linear is not None:
            cost += self.linear[a * self.count + b] * units
        return cost

    def player_cost(self, player: int, t: int) -> float:
        """The balance part of ``player`` after ``t`` sittings at non-preferred tables."""
        return self.mu * sum((k + self.prior[player]) ** 2 for k in range(t))


def better(a: tuple[float, float], b: tuple[float, float], epsilon: float) -> bool:
    """Whether the objective ``a`` (first part, balance) is lower than ``b`` by more than
    ``epsilon``: the first parts decide, the balances only when those are equal."""
    if a[0] < b[0] - epsilon:
        return True
    return a[0] <= b[0] + epsilon and a[1] < b[1] - epsilon


class State:
    """Planned rounds (``tables[r][i]``: the players at table i of planned round r), where
    each player sits (``where[r][player]``), pair units and sittings at non-preferred tables
    over all rounds, and the search cost in two parts: ``cost``, the first part of the
    objective plus the forbidden cost, and ``spread``, the balance. ``tie`` weighs the balance
    in :meth:`delta` (``Problem.tie`` unless the search sets another)."""

    __slots__ = ("problem", "tables", "where", "units", "other", "cost", "spread", "tie")

    def __init__(self, problem: Problem, tables: list[list[list[int]]]) -> None:
        self.problem = problem
        self.tables = tables
        self.where: list[list[int]] = []
        self.units: list[int] = []
        self.other: list[int] = []
        self.cost = 0.0
        self.spread = 0.0
        self.tie = problem.tie
        self.rebuild()

    @property
    def key(self) -> tuple[float, float]:
        """``(cost, spread)``: compare with :func:`better`."""
        return (self.cost, self.spread)

    def rebuild(self) -> None:
        """Recompute ``where``, the pair units, the sittings and the cost from ``tables``."""
        p = self.problem
        units = list(p.base_units)
        other = list(p.base_other)
        self.where = []
        for round_ in self.tables:
            where = [-1] * p.n
            for i, table in enumerate(round_):
                share = p.table_units[i]
                for a in table:
                    where[a] = i
                    other[a] += p.table_other[i]
                    for b in table:
                        if a != b:
                            units[a * p.count + b] += share
            self.where.append(where)
        self.units, self.other = units, other
        self.cost = self.total(forbidden=True)
        self.spread = self.balance()

    def total(self, *, forbidden: bool) -> float:
        """``cost`` recomputed from scratch; the objective's first part when ``forbidden`` is
        false."""
        p = self.problem
        coef = p.coef if forbidden else p.linear
        cost = 0.0
        for a in range(p.count):
            row = a * p.count
            for b in range(a + 1, p.count):
                u = self.units[row + b]
                cost += p.penalty[u]
                if coef is not None:
                    cost += coef[row + b] * u
        return cost

    def balance(self) -> float:
        """``spread`` recomputed from scratch: the objective's balance part."""
        p = self.problem
        return sum(p.player_cost(a, t) for a, t in enumerate(self.other))

    def balance_delta(self, r: int, a: int, b: int) -> float:
        """The change of ``spread`` if ``a`` and ``b`` swap seats in planned round ``r``."""
        p = self.problem
        ta, tb = self.where[r][a], self.where[r][b]
        if p.table_other[ta] == p.table_other[tb]:
            return 0.0
        out, into = (a, b) if p.table_other[ta] else (b, a)
        other, prior = self.other, p.prior
        return p.mu * ((other[into] + prior[into]) ** 2 - (other[out] - 1 + prior[out]) ** 2)

    def delta(self, r: int, a: int, b: int) -> float:
        """The change of ``cost + tie · spread`` if ``a`` and ``b`` (at different tables) swap
        seats in planned round ``r``."""
        p = self.problem
        units, coef, count = self.units, p.coef, p.count
        where = self.where[r]
        ta, tb = where[a], where[b]
        drop, gain = p.steps[ta]
        an, bn = a * count, b * count
        d = 0.0
        if coef is None:
            for x in self.tables[r][ta]:
                if x != a:
                    d += drop[units[an + x]]
                    d += gain[units[bn + x]]
            drop, gain = p.steps[tb]
            for y in self.tables[r][tb]:
                if y != b:
                    d += drop[units[bn + y]]
                    d += gain[units[an + y]]
        else:
            ua, ub = p.table_units[ta], p.table_units[tb]
            for x in self.tables[r][ta]:
                if x != a:
                    d += drop[units[an + x]]
                    d += gain[units[bn + x]]
                    d += (coef[bn + x] - coef[an + x]) * ua
            drop, gain = p.steps[tb]
            for y in self.tables[r][tb]:
                if y != b:
                    d += drop[units[bn + y]]
                    d += gain[units[an + y]]
                    d += (coef[an + y] - coef[bn + y]) * ub
        if p.table_other[ta] != p.table_other[tb] and self.tie:
            out, into = (a, b) if p.table_other[ta] else (b, a)
            other, prior = self.other, p.prior
            d += self.tie * (
                p.mu * ((other[into] + prior[into]) ** 2 - (other[out] - 1 + prior[out]) ** 2)
            )
        return d

    def swap(self, r: int, a: int, b: int, d: float) -> None:
        """Swap ``a`` and ``b`` in planned round ``r``; ``d`` is the change :meth:`delta`
        computed (with the same ``tie``)."""
        p = self.problem
        units, count, other = self.units, p.count, self.other
        where = self.where[r]
        ta, tb = where[a], where[b]
        ua, ub = p.table_units[ta], p.table_units[tb]
        table_a, table_b = self.tables[r][ta], self.tables[r][tb]
        an, bn = a * count, b * count
        spread = 0.0  # balance_delta(r, a, b), worked out here
        away_a, away_b = p.table_other[ta], p.table_other[tb]
        if away_a != away_b:
            out, into = (a, b) if away_a else (b, a)
            prior = p.prior
            spread = p.mu * ((other[into] + prior[into]) ** 2 - (other[out] - 1 + prior[out]) ** 2)
            step = 1 if away_b else -1
            other[a] += step
            other[b] -= step
        for x in table_a:
            if x != a:
                xn = x * count
                units[an + x] -= ua
                units[xn + a] -= ua
                units[bn + x] += ua
                units[xn + b] += ua
        for y in table_b:
            if y != b:
                yn = y * count
                units[bn + y] -= ub
                units[yn + b] -= ub
                units[an + y] += ub
                units[yn + a] += ub
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta
        self.spread += spread
        self.cost += d - self.tie * spread

    def snapshot(self) -> list[list[list[int]]]:
        """A copy of the planned tables, to come back to with ``tables = …; rebuild()``."""
        return [[list(table) for table in round_] for round_ in self.tables]

    def forbidden_meetings(self) -> list[tuple[int, int]]:
        """Forbidden pairs that share a table in a planned round."""
        return [
            (a, b)
            for a, b in self.problem.forbidden
            if any(where[a] == where[b] for where in self.where)
        ]
