"""The objective a seating plan minimises, computed directly from the players' rounds.

This is the reference: the search keeps the same value incrementally on small ints
(``clubs/seating/problem.py``) and tests check the two agree. The rule is stated in the package
docstring (``clubs/seating/__init__.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias

from clubs.seating.tables import SeatingError, TableShape

Player: TypeAlias = Hashable
"""A player's id as the caller gives it: user ids (int) on the server, names (str) in tests."""

Table: TypeAlias = tuple[Player, ...]
Round: TypeAlias = tuple[Table, ...]

DEFAULT_HISTORY_WEIGHT = 0.5
"""One unit of season history counts half as much as one unit met this evening."""
DEFAULT_BALANCE_WEIGHT = 0.25
"""The scale of the balance part: a player's second sitting at a non-preferred table shows as
0.25. The balance only ever decides between seatings with equal repeats (the objective is
lexicographic), so the weight does not trade it against repeats; 0 switches balancing off."""


@dataclass(frozen=True, slots=True)
class Score:
    """The objective in its three parts, compared lexicographically: first ``repeats`` plus
    ``history`` (:attr:`first`), then ``balance`` (:attr:`key`).

    ``repeats``: Σ over pairs of ``repeat_penalty(w)``; ``history``: λ·Σ over pairs of
    ``history × w``; ``balance``: μ·Σ over players of ``Σ_{k<t} (k + λ·prior)²``.
    """

    repeats: float
    history: float
    balance: float

    @property
    def first(self) -> float:
        """The part compared first: weighted repeats tonight plus the season's history."""
        return self.repeats + self.history

    @property
    def key(self) -> tuple[float, float]:
        """The objective as a pair to compare: a lower ``first`` wins, whatever the balance;
        the balance decides between equal ``first`` parts."""
        return (self.first, self.balance)

    def to_json(self) -> dict[str, Any]:
        return {
            "repeats": round(self.repeats, 6),
            "history": round(self.history, 6),
            "balance": round(self.balance, 6),
        }


def repeat_penalty(w: Fraction) -> Fraction:
    """The convex penalty for a pair that shared ``w`` tables' worth of deals this evening:
    the straight-line interpolation of C(k, 2) between whole k, so 0 up to w = 1, then
    w − 1 up to 2, then 1 + 2(w − 2) up to 3, and so on. For tables where everyone plays every
    deal it counts, per pair, the pairs of evening rounds the two spent together."""
    k = w.numerator // w.denominator
    return Fraction(k * (k - 1), 2) + k * (w - k)


def shape_by_size(shapes: Sequence[TableShape]) -> dict[int, TableShape]:
    """Each shape under its size (sizes are distinct, ``tables.check_shapes``)."""
    return {shape.size: shape for shape in shapes}


def pair_weights(
    rounds: Sequence[Sequence[Sequence[Player]]], shapes: Sequence[TableShape]
) -> dict[frozenset[Player], Fraction]:
    """``w`` of every pair that shared a table: the sum of the tables' shares over ``rounds``."""
    by_size = shape_by_size(shapes)
    weights: dict[frozenset[Player], Fraction] = {}
    for round_ in rounds:
        for table in round_:
            if len(table) not in by_size:
                raise SeatingError(f"No table shape seats {len(table)} players.", code="invalid")
            share = by_size[len(table)].share
            for a, b in itertools.combinations(table, 2):
                key = frozenset((a, b))
                weights[key] = weights.get(key, Fraction(0)) + share
    return weights


def other_table_sittings(
    rounds: Sequence[Sequence[Sequence[Player]]], preferred: int
) -> dict[Player, int]:
    """How often each seated player sat at a table whose size is not ``preferred``."""
    counts: dict[Player, int] = {}
    for round_ in rounds:
        for table in round_:
            for player in table:
                counts[player] = counts.get(player, 0) + (len(table) != preferred)
    return counts


def score(
    rounds: Sequence[Sequence[Sequence[Player]]],
    *,
    shapes: Sequence[TableShape],
    preferred: int,
    history: Mapping[frozenset[Any], float] | None = None,
    other_table_counts: Mapping[Any, int] | None = None,
    history_weight: float = DEFAULT_HISTORY_WEIGHT,
    balance_weight: float = DEFAULT_BALANCE_WEIGHT,
) -> Score:
    """The objective of an evening's ``rounds`` (played and planned alike).

    For every pair, ``w`` = Σ over rounds where the two share a table of that table's share of
    deals; ``t`` = a player's sittings at tables not of the ``preferred`` size this evening;
    ``prior`` = ``other_table_counts``, such sittings earlier in the season.
    """
    history = history or {}
    prior = other_table_counts or {}
    repeats = Fraction(0)
    linear = 0.0
    for pair, w in pair_weights(rounds, shapes).items():
        repeats += repeat_penalty(w)
        linear += history.get(pair, 0.0) * float(w)
    balance = 0.0
    for player, t in other_table_sittings(rounds, preferred).items():
        offset = history_weight * prior.get(player, 0)
        balance += sum((k + offset) ** 2 for k in range(t))
    return Score(float(repeats), history_weight * linear, balance_weight * balance)
