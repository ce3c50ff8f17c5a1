"""Swiss seating (Schweizer System): who sits at which table in a tournament round, from the
current standings, as plain values (no ORM). The services pass the ranking after the previous
round, the table sizes the planner chose and how often each pair has already met, and store
the tables this returns.

Terms:

- *ranking* (Rangliste): every player to seat, best first: the standings after the previous
  round with their ties already broken (the seeding list before round 1). A player's *rank*
  here is their 0-based position in it.
- *sizes*: the table sizes in table order (``[3, 3, 3, 4]``). Where the larger tables go is
  the planner's choice; this module keeps the order it is given.
- *naive grouping*: table 1 takes the first ``sizes[0]`` players of the ranking, table 2 the
  next ``sizes[1]``, and so on: leaders meet leaders. A player's *naive table* is the one
  this grouping gives them.
- *met*: how many times each pair of players (a ``frozenset`` of two) already shared a table
  in earlier rounds; pairs not given never met. Pairs with a player not in the ranking are
  ignored (someone who has left).
- *repeat* (Wiederholung): two players at one table who met before, counted as often as they
  met (``repeats``): a pair that met twice counts 2.
- *rank displacement*: for a player seated away from their naive table, how many places their
  rank lies outside the ranks that table holds in the naive grouping (ranks 0-2 at a first
  three-table: rank 3 seated there is displaced by 1, rank 5 by 3); 0 at the naive table.
  A seating's displacement is the sum of its players' displacements squared, so one long
  move costs more than two short ones (the leader moved down a table to make room costs 9,
  two players moved by 2 cost 8).

Method (``swiss_round``): start from the naive grouping, then exchange players between
neighbouring tables to avoid repeats. The candidates are every seating in which each player
sits at their naive table or at the table just before or after it (what exchanges between
neighbouring tables reach when nobody moves further). Among them the result has, in this
order of importance:

1. the fewest repeats;
2. then the least rank displacement (the last of table 1 and the first of table 2 trade
   places before players further from the boundary do, and many short moves are preferred
   to one long one);
3. then the better-ranked players keep their naive table: of two seatings, the one whose
   best-ranked moved player is ranked lower wins (if the same, the next moved player
   decides, and so on), so the leader stays at table 1 unless moving them saves a repeat or
   displacement;
4. then the smallest sum of a draw per (rank, table) from ``seed`` (``tie_draw``): this
   breaks the exact ties left, and the same seed always gives the same tables.

The search is exact, not greedy: a dynamic programme over the tables in order whose state is
which players cross the boundary to the next table (down from this one, up from the next).
The work grows linearly with the number of tables (at most 2^8 states per boundary at tables
of 4): tens of milliseconds for a hundred players.

Guarantees: the output is a partition of the ranking into tables of the given sizes, in the
given order, each table's players best-ranked first; every player sits at most one table
away from their naive table (table 1 holds only players from the naive tables 1 and 2);
the result never has more repeats than the naive grouping, and no candidate has fewer; with
no repeat to avoid (round 1) the result is the naive grouping.

Not guaranteed: zero repeats. When the players near one another in the ranking have already
met each other, some repeats cannot be avoided without moving players further than one table,
which would break "leaders meet leaders"; the result then keeps the fewest the rule allows,
and ``repeats`` reports them. Nor does it look ahead to later rounds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import TypeAlias, TypeVar

P = TypeVar("P", bound=Hashable)
"""A player: any hashable (user ids on the server, names in tests), one kind per call."""

Cost: TypeAlias = tuple[int, int, int, int]
"""(repeats, rank displacement, players moved, tie draws): compared in this order, smaller
is better; "players moved" has a bit per moved player, the best-ranked highest."""

MIN_TABLE = 2
"""The smallest table this seats (a table needs at least two players to meet)."""


def repeats(tables: Iterable[Sequence[P]], met: Mapping[frozenset[P], int]) -> int:
    """The repeats of a seating: for every two players at the same table, how many times they
    met before (``met``, module text), summed; 0 for a pair not in ``met``."""
    return sum(met.get(frozenset((a, b)), 0) for table in tables for a, b in combinations(table, 2))


def naive_grouping(ranking: Sequence[P], sizes: Sequence[int]) -> list[tuple[P, ...]]:
    """The naive grouping (module text): the ranking cut into tables of ``sizes`` in order."""
    _check(ranking, sizes)
    tables = []
    start = 0
    for size in sizes:
        tables.append(tuple(ranking[start : start + size]))
        start += size
    return tables


def tie_draw(seed: int, rank: int, table: int) -> int:
    """The draw that breaks an exact tie when the player of ``rank`` sits at ``table`` (both
    0-based): the first 4 bytes of the SHA-256 digest of the UTF-8 text
    ``"<seed>:<rank>:<table>"``, read as a big-endian unsigned integer. Of two seatings equal
    on the first three criteria of the module text (rare: it takes many players moved at
    once), the one whose draws sum lower wins."""
    digest = hashlib.sha256(f"{seed}:{rank}:{table}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def swiss_round(
    ranking: Sequence[P],
    sizes: Sequence[int],
    met: Mapping[frozenset[P], int] | None = None,
    *,
    seed: int = 0,
) -> list[tuple[P, ...]]:
    """The tables of a Swiss round: leaders meet leaders, with the fewest repeats reachable by
    moving players at most one table from their naive table (method and guarantees in the
    module text). Returns one tuple per table, in the order of ``sizes``, each table's players
    best-ranked first. ``seed`` only breaks exact ties.

    Raises ``ValueError`` when the sizes do not add up to the players, a table is smaller
    than 2, a player is ranked twice, or ``met`` holds something other than pairs of players
    with counts of 0 or more.
    """
    _check(ranking, sizes)
    players = tuple(ranking)
    rank = {player: i for i, player in enumerate(players)}
    weights = _pair_weights(met or {}, rank)
    bounds = []
    start = 0
    for size in sizes:
        bounds.append((start, start + size))
        start += size
    seated = _search(bounds, weights, seed)
    return [tuple(players[i] for i in table) for table in seated]


# --- checks ------------------------------------------------------------------------------


def _check(ranking: Sequence[P], sizes: Sequence[int]) -> None:
    for size in sizes:
        if isinstance(size, bool) or not isinstance(size, int) or size < MIN_TABLE:
            raise ValueError(f"Every table needs at least {MIN_TABLE} players; {size!r} is given.")
    if sum(sizes) != len(ranking):
        raise ValueError(
            f"The table sizes add up to {sum(sizes)} seats, but {len(ranking)} players are "
            "ranked; give a table size for every player."
        )
    seen: set[P] = set()
    for player in ranking:
        if player in seen:
            raise ValueError(f"{player!r} is ranked twice; rank every player once.")
        seen.add(player)


def _pair_weights(met: Mapping[frozenset[P], int], rank: Mapping[P, int]) -> dict[int, int]:
    """``met`` by pairs of ranks, as ``i * n + j`` for ranks i < j; pairs with a player not
    ranked are left out."""
    n = len(rank)
    weights: dict[int, int] = {}
    for pair, count in met.items():
        if not isinstance(pair, frozenset) or len(pair) != 2:
            raise ValueError(f"{pair!r} is not a pair; met is keyed by frozensets of two players.")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(
                f"{' and '.join(sorted(map(repr, pair)))} met {count!r} times; give a count of 0 "
                "or more."
            )
        if count and all(p in rank for p in pair):
            i, j = sorted(rank[p] for p in pair)
            weights[i * n + j] = count
    return weights


# --- search ------------------------------------------------------------------------------


def _members(mask: int) -> list[int]:
    """The ranks in a bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _displacement(rank: int, start: int, end: int) -> int:
    """How far ``rank`` lies outside the ranks ``start`` to ``end - 1``."""
    return start - rank if rank < start else rank - end + 1 if rank >= end else 0


def _submasks(mask: int) -> list[int]:
    """Every subset of ``mask``, itself first and 0 last."""
    out = []
    sub = mask
    while True:
        out.append(sub)
        if sub == 0:
            return out
        sub = (sub - 1) & mask


def _search(bounds: list[tuple[int, int]], weights: dict[int, int], seed: int) -> list[list[int]]:
    """The best seating (``swiss_round``) as ranks per table: a dynamic programme over the
    tables. The state after table t is (down, up): the players of naive table t who sit at
    t + 1, and those of naive table t + 1 who sit at t. Table t then holds its naive players
    minus those leaving up or down, plus those arriving from t - 1 and t + 1; it must hold
    exactly its size. Each table's cost depends only on the states on either side of it, so
    keeping the cheapest way to reach every state is exact."""
    n = bounds[-1][1] if bounds else 0
    naive = [((1 << end) - 1) ^ ((1 << start) - 1) for start, end in bounds]

    draws: dict[tuple[int, int], int] = {}
    costs: dict[tuple[int, int], Cost] = {}

    def cost(mask: int, table: int) -> Cost:
        if (mask, table) not in costs:
            start, end = bounds[table]
            ranks = _members(mask)
            met = sum(weights.get(i * n + j, 0) for i, j in combinations(ranks, 2))
            shifts = [_displacement(r, start, end) for r in ranks]
            moved = sum(1 << (n - 1 - r) for r, d in zip(ranks, shifts, strict=True) if d)
            for r in ranks:
                if (r, table) not in draws:
                    draws[r, table] = tie_draw(seed, r, table)
            drawn = sum(draws[r, table] for r in ranks)
            costs[mask, table] = met, sum(d * d for d in shifts), moved, drawn
        return costs[mask, table]

    # layers[t][(down, up)] = (cost of tables 0..t, state before table t, mask of table t)
    layers: list[dict[tuple[int, int], tuple[Cost, tuple[int, int], int]]] = []
    previous: dict[tuple[int, int], Cost] = {(0, 0): (0, 0, 0, 0)}
    for t, own in enumerate(naive):
        size = bounds[t][1] - bounds[t][0]
        last = t + 1 == len(naive)
        ups = _submasks(0 if last else naive[t + 1])
        layer: dict[tuple[int, int], tuple[Cost, tuple[int, int], int]] = {}
        for state, so_far in previous.items():
            arrived, left_up = state  # from table t - 1; from this table up to t - 1
            stay_or_down = own & ~left_up
            for down in [0] if last else _submasks(stay_or_down):
                kept = (stay_or_down & ~down) | arrived
                need = size - kept.bit_count()
                for up in ups:
                    if up.bit_count() != need:
                        continue
                    mask = kept | up
                    here = cost(mask, t)
                    total = (
                        so_far[0] + here[0],
                        so_far[1] + here[1],
                        so_far[2] + here[2],
                        so_far[3] + here[3],
                    )
                    key = (down, up)
                    if key not in layer or total < layer[key][0]:
                        layer[key] = (total, state, mask)
        layers.append(layer)
        previous = {key: value[0] for key, value in layer.items()}

    tables: list[list[int]] = []
    state = (0, 0)
    for layer in reversed(layers):
        _, state, mask = layer[state]
        tables.append(_members(mask))
    tables.reverse()
    return tables
