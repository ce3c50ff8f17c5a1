"""Resolvable designs: seatings where no two players ever share a table twice.

Terms: a *block* is a table (a set of points, one point per player); a *parallel class* is a
round, blocks that seat every point exactly once; a *resolution* is a list of parallel classes
in which every pair of points shares at most one block. A resolution with blocks of 3 in which
every pair meets exactly once is a *Kirkman triple system* KTS(n): it exists exactly when
n ≡ 3 (mod 6) and has (n−1)/2 classes (Ray-Chaudhuri and Wilson, 1971).

Constructions, each checked by :func:`is_resolution` before it is returned:

- *Affine geometry* AG(m, q) over the field of q elements (q prime or a power of 2): points are
  the vectors of length m, blocks the lines, one class per direction: q^m points in blocks of q,
  (q^m−1)/(q−1) classes. 9, 27, 81 players in threes; 16 and 64 in fours; 25 in fives.
- *Two orbits and a fixed point* (n = 2q+1, q odd): points ∞ and (x, i) for x in Z_q, i in
  {0, 1}. One base class is developed by adding each x of Z_q, giving q classes; it works when
  every difference between points of one orbit (±d) and between the two orbits (d) occurs
  exactly once in the base class. 15 players (q = 7) are Kirkman's fifteen schoolgirls; 27
  and 39 work too.
- *Three orbits* (n = 3p, p odd): points (x, i) for x in Z_p, i in {0, 1, 2}. A base class
  developed by Z_p gives p classes, and (p−1)/2 transversal blocks {(0,0), (a,1), (b,2)}
  developed by Z_p give one class each; again every difference must occur exactly once.
  21, 33 and 45 players (15 has no such base class).

The base classes of the last two are found by an exact-cover search (Knuth's Algorithm X)
over the difference conditions, with a fixed sequence of seeds and a node limit, so the same
design comes out on every machine; sizes where the search gives up fall back to local search.

:func:`embedding` reads played rounds as classes of a design, so that an evening re-planned
without a change of players can continue the design.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

Resolution = tuple[tuple[tuple[int, ...], ...], ...]
"""Classes of blocks of points 0..n−1."""


@dataclass(frozen=True, slots=True)
class Design:
    """A checked resolution and the name of its construction."""

    name: str
    classes: Resolution


IRREDUCIBLE = {4: 0b111, 8: 0b1011, 16: 0b10011}
"""Polynomials over GF(2) that define the fields of 4, 8 and 16 elements."""

SEARCH_NODES = 4000
"""Nodes one exact-cover attempt may visit before the next seed is tried."""
SEARCH_ATTEMPTS = 12
"""Seeds tried per construction before giving up."""
SEARCH_MAX_POINTS = 45
"""Largest player count for which the difference searches run (larger ones take seconds)."""
EMBEDDING_NODES = 50_000
"""Search nodes :func:`embedding` may visit (about a second)."""


def is_resolution(classes: Sequence[Sequence[Sequence[int]]], n: int, k: int) -> bool:
    """Whether every class splits points 0..n−1 into blocks of ``k`` and no pair of points
    shares a block twice."""
    seen: set[tuple[int, int]] = set()
    for blocks in classes:
        if sorted(p for block in blocks for p in block) != list(range(n)):
            return False
        for block in blocks:
            if len(block) != k:
                return False
            for a, b in itertools.combinations(sorted(block), 2):
                if (a, b) in seen:
                    return False
                seen.add((a, b))
    return True


def _checked(classes: list[list[tuple[int, ...]]], n: int, k: int) -> Resolution:
    if not is_resolution(classes, n, k):
        raise RuntimeError(f"the construction for {n} players in tables of {k} is wrong")
    return tuple(tuple(tuple(sorted(block)) for block in blocks) for blocks in classes)


def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of the field of ``q`` elements (prime or 2^k)."""
    if q in IRREDUCIBLE:
        poly, bits = IRREDUCIBLE[q], q.bit_length() - 1
        add = [[a ^ b for b in range(q)] for a in range(q)]

        def times(a: int, b: int) -> int:
            product = 0
            for i in range(bits):
                if b >> i & 1:
                    product ^= a << i
            for i in range(2 * bits - 2, bits - 1, -1):
                if product >> i & 1:
                    product ^= poly << (i - bits)
            return product

        return add, [[times(a, b) for b in range(q)] for a in range(q)]
    if q < 2 or any(q % d == 0 for d in range(2, int(q**0.5) + 1)):
        return None
    return (
        [[(a + b) % q for b in range(q)] for a in range(q)],
        [[a * b % q for b in range(q)] for a in range(q)],
    )


def affine_resolution(q: int, m: int) -> Resolution | None:
    """The lines of AG(m, q) by direction: q^m points in blocks of q, one class per direction
    (a nonzero vector whose first nonzero coordinate is 1). ``None`` when there is no field of
    ``q`` elements here."""
    tables = _field(q)
    if tables is None or m < 1:
        return None
    add, mul = tables
    vectors = list(itertools.product(range(q), repeat=m))
    index = {v: i for i, v in enumerate(vectors)}
    classes: list[list[tuple[int, ...]]] = []
    for d in vectors:
        nonzero = [c for c in d if c]
        if not nonzero or nonzero[0] != 1:
            continue
        covered: set[int] = set()
        blocks: list[tuple[int, ...]] = []
        for start in vectors:
            if index[start] in covered:
                continue
            line = tuple(
                index[tuple(add[s][mul[t][c]] for s, c in zip(start, d, strict=True))]
                for t in range(q)
            )
            covered.update(line)
            blocks.append(line)
        classes.append(blocks)
    return _checked(classes, q**m, q)


def _exact_cover(
    rows: dict[Hashable, list[Hashable]], seed: int, limit: int
) -> list[Hashable] | None:
    """Rows that cover every column exactly once (Algorithm X: the column with fewest rows
    first, its rows in an order shuffled by ``seed``), or ``None`` when none is found within
    ``limit`` nodes."""
    columns: dict[Hashable, set[Hashable]] = {}
    for row, cols in rows.items():
        for col in cols:
            columns.setdefault(col, set()).add(row)
    rng = random.Random(seed)
    chosen: list[Hashable] = []
    nodes = 0

    def select(row: Hashable) -> list[set[Hashable]]:
        removed = []
        for col in rows[row]:
            for other in columns[col]:
                for other_col in rows[other]:
                    if other_col != col:
                        columns[other_col].discard(other)
            removed.append(columns.pop(col))
        return removed

    def deselect(row: Hashable, removed: list[set[Hashable]]) -> None:
        for col in reversed(rows[row]):
            columns[col] = removed.pop()
            for other in columns[col]:
                for other_col in rows[other]:
                    if other_col != col:
                        columns[other_col].add(other)

    def solve() -> bool:
        nonlocal nodes
        if not columns:
            return True
        nodes += 1
        if nodes > limit:
            return False
        col = min(columns, key=lambda c: len(columns[c]))
        candidates = sorted(columns[col], key=repr)
        rng.shuffle(candidates)
        for row in candidates:
            removed = select(row)
            chosen.append(row)
            if solve():
                return True
            chosen.pop()
            deselect(row, removed)
        return False

    return chosen if solve() else None


def _search(rows: dict[Hashable, list[Hashable]]) -> list[Hashable] | None:
    for seed in range(SEARCH_ATTEMPTS):
        found = _exact_cover(rows, seed, SEARCH_NODES)
        if found is not None:
            return found
    return None


def fixed_point_kirkman(q: int) -> Resolution | None:
    """KTS(2q+1) on ∞ (point 0) and (x, i) (point 1 + i·q + x), from a base class developed by
    Z_q; ``None`` when the search finds no base class."""
    if q % 2 == 0 or q < 3:
        return None

    def difference(u: int, v: int) -> tuple[str, int, int]:
        i, x = divmod(u - 1, q)
        j, y = divmod(v - 1, q)
        if i == j:
            d = (y - x) % q
            return ("pure", i, min(d, q - d))
        return ("mixed", 0, (y - x) % q if i == 0 else (x - y) % q)

    rows: dict[Hashable, list[Hashable]] = {}
    for block in itertools.combinations(range(1, 2 * q + 1), 3):
        diffs = {difference(u, v) for u, v in itertools.combinations(block, 2)}
        if len(diffs) == 3:
            rows[block] = [*(("point", p) for p in block), *sorted(diffs)]
    for a, b in itertools.product(range(q), repeat=2):
        block = (0, 1 + a, 1 + q + b)
        rows[block] = [("point", p) for p in block] + [("mixed", 0, (b - a) % q)]
    base = _search(rows)
    if base is None:
        return None

    def shift(point: int, g: int) -> int:
        if point == 0:
            return 0
        i, x = divmod(point - 1, q)
        return 1 + i * q + (x + g) % q

    classes = [
        [tuple(shift(p, g) for p in block) for block in base if isinstance(block, tuple)]
        for g in range(q)
    ]
    return _checked(classes, 2 * q + 1, 3)


def three_orbit_kirkman(p: int) -> Resolution | None:
    """KTS(3p) on (x, i) (point i·p + x) from a base class developed by Z_p and (p−1)/2
    transversal blocks {(0,0), (a,1), (b,2)}; ``None`` when the search finds none."""
    if p % 2 == 0 or p < 3:
        return None

    def difference(u: int, v: int) -> tuple[str, int, int]:
        i, x = divmod(u, p)
        j, y = divmod(v, p)
        if i == j:
            d = (y - x) % p
            return ("pure", i, min(d, p - d))
        return ("mixed", i + j, (y - x) % p)  # i < j: orbit pairs 01, 02, 12 → 1, 2, 3

    rows: dict[Hashable, list[Hashable]] = {}
    for block in itertools.combinations(range(3 * p), 3):
        diffs = {difference(u, v) for u, v in itertools.combinations(block, 2)}
        if len(diffs) == 3:
            rows[("base", *block)] = [*(("point", q) for q in block), *sorted(diffs)]
    for a, b in itertools.product(range(p), repeat=2):
        rows[("transversal", a, b)] = [
            ("mixed", 1, a),
            ("mixed", 2, b),
            ("mixed", 3, (b - a) % p),
        ]
    found = _search(rows)
    if found is None:
        return None
    base = [row[1:] for row in found if isinstance(row, tuple) and row[0] == "base"]
    transversals = [row[1:] for row in found if isinstance(row, tuple) and row[0] == "transversal"]

    def shift(point: int, g: int) -> int:
        i, x = divmod(point, p)
        return i * p + (x + g) % p

    classes = [[tuple(shift(q, g) for q in block) for block in base] for g in range(p)]
    for a, b in transversals:
        classes.append([(g, p + (g + a) % p, 2 * p + (g + b) % p) for g in range(p)])
    return _checked(classes, 3 * p, 3)


def embedding(
    classes: Resolution,
    rounds: Sequence[Sequence[Sequence[int]]],
    n: int,
    limit: int = EMBEDDING_NODES,
) -> tuple[list[int], list[int]] | None:
    """A way to read played ``rounds`` of players 0..n−1 as classes of the design: ``point``
    (player → point) and the class each round becomes, or ``None`` when there is none (or none
    was found within ``limit`` search nodes). Every table of a round must land on a block of
    that round's class, each round on its own class.

    One round fits any class. With two or more, the first two rounds name every player by
    their two tables (two tables share at most one player, or the rounds repeat a pair and fit
    no design): they form a bipartite graph, tables joined by the player they share, and so do
    the blocks of any two classes. An isomorphism between the two graphs places every player;
    the remaining rounds must then land on classes. Pairs of classes whose graphs differ in the
    numbers of common neighbours are skipped without a search.
    """
    size = len(classes[0][0])
    if len(rounds) > len(classes) or any(
        sorted(p for table in round_ for p in table) != list(range(n))
        or any(len(table) != size for table in round_)
        for round_ in rounds
    ):
        return None
    if not rounds:
        return list(range(n)), []
    point = [-1] * n
    if len(rounds) == 1:
        for table, block in zip(rounds[0], classes[0], strict=True):
            for p, q in zip(table, block, strict=True):
                point[p] = q
        return point, [0]
    pair_class: dict[tuple[int, int], int] = {}
    for c, blocks in enumerate(classes):
        for block in blocks:
            for a, b in itertools.permutations(block, 2):
                pair_class[a, b] = c
    played = _incidence(rounds[0], rounds[1])
    if played is None:
        return None
    shape = _shape(played[0])
    budget = [limit]
    for c1, c2 in itertools.permutations(range(len(classes)), 2):
        design = _incidence(classes[c1], classes[c2])
        if design is None or _shape(design[0]) != shape:
            continue
        at = {tables: q for q, tables in design[1].items()}
        for left, right in _isomorphisms(played[0], design[0], budget):
            for p, (t, u) in played[1].items():
                point[p] = at[left[t], right[u]]
            taken = [c1, c2]
            for round_ in rounds[2:]:
                c = pair_class[point[round_[0][0]], point[round_[0][1]]]
                if c in taken or any(
                    pair_class.get((point[a], point[b])) != c
                    for table in round_
                    for a, b in itertools.pairwise(table)
                ):
                    break
                taken.append(c)
            else:
                return point, taken
        if budget[0] <= 0:
            return None
    return None


def _incidence(
    first: Sequence[Sequence[int]], second: Sequence[Sequence[int]]
) -> tuple[list[set[int]], dict[int, tuple[int, int]]] | None:
    """The tables of ``second`` each table of ``first`` shares a player with, and each player's
    two tables; ``None`` when two tables share more than one player."""
    where = {p: u for u, table in enumerate(second) for p in table}
    neighbours: list[set[int]] = [set() for _ in first]
    tables: dict[int, tuple[int, int]] = {}
    for t, table in enumerate(first):
        for p in table:
            if where[p] in neighbours[t]:
                return None
            neighbours[t].add(where[p])
            tables[p] = (t, where[p])
    return neighbours, tables


def _shape(neighbours: list[set[int]]) -> list[list[int]]:
    """An invariant of the bipartite graph: for each left vertex, how many right vertices it
    shares with each other left vertex, sorted."""
    return sorted(
        sorted(len(a & b) for j, b in enumerate(neighbours) if j != i)
        for i, a in enumerate(neighbours)
    )


def _isomorphisms(
    graph: list[set[int]], target: list[set[int]], budget: list[int]
) -> Iterator[tuple[list[int], list[int]]]:
    """Every isomorphism of the bipartite graph ``graph`` onto ``target`` (left vertices to left
    vertices, right to right) as (left map, right map), until ``budget`` nodes are spent.
    Vertices are placed in breadth-first order, each onto a free vertex adjacent to the images of
    its placed neighbours."""
    m = len(graph)
    right_of = [[t for t in range(m) if u in graph[t]] for u in range(m)]
    target_right = [{t for t in range(m) if u in target[t]} for u in range(m)]
    order: list[tuple[str, int]] = []
    seen = {("L", 0)}
    queue = [("L", 0)]
    while queue:
        side, v = queue.pop(0)
        order.append((side, v))
        for w in graph[v] if side == "L" else right_of[v]:
            other = ("R" if side == "L" else "L", w)
            if other not in seen:
                seen.add(other)
                queue.append(other)
    if len(order) < 2 * m:
        order += [("L", v) for v in range(m) if ("L", v) not in seen]
        order += [("R", v) for v in range(m) if ("R", v) not in seen]
    image = {"L": [-1] * m, "R": [-1] * m}
    taken = {"L": [False] * m, "R": [False] * m}

    def extend(i: int) -> Iterator[tuple[list[int], list[int]]]:
        if i == len(order):
            yield list(image["L"]), list(image["R"])
            return
        budget[0] -= 1
        if budget[0] < 0:
            return
        side, v = order[i]
        if side == "L":
            placed = [image["R"][u] for u in graph[v] if image["R"][u] >= 0]
            options = (
                set(range(m))
                if not placed
                else set.intersection(*(target_right[u] for u in placed))
            )
            wanted = len(graph[v])
            fits = [t for t in sorted(options) if not taken["L"][t] and len(target[t]) == wanted]
        else:
            placed = [image["L"][t] for t in right_of[v] if image["L"][t] >= 0]
            options = (
                set(range(m)) if not placed else set.intersection(*(target[t] for t in placed))
            )
            fits = [u for u in sorted(options) if not taken["R"][u]]
        for w in fits:
            image[side][v], taken[side][w] = w, True
            yield from extend(i + 1)
            image[side][v], taken[side][w] = -1, False

    yield from extend(0)


@lru_cache(maxsize=64)
def resolution(n: int, k: int) -> Design | None:
    """The resolution with the most classes this module can build for ``n`` points in blocks
    of ``k``, or ``None``: AG(m, k) when n = k^m, else for k = 3 and n ≡ 3 (mod 6) a Kirkman
    triple system (fixed point first, then three orbits) when the search succeeds."""
    m, power = 0, 1
    while power < n:
        power *= k
        m += 1
    if power == n and m >= 1:
        found = affine_resolution(k, m)
        if found is not None:
            return Design(f"affine geometry AG({m}, {k})", found)
    if k != 3 or n % 6 != 3 or n > SEARCH_MAX_POINTS:
        return None
    q = (n - 1) // 2
    found = fixed_point_kirkman(q)
    if found is not None:
        return Design(
            f"Kirkman triple system KTS({n}): Z_{q} on two orbits and a fixed point", found
        )
    found = three_orbit_kirkman(n // 3)
    if found is not None:
        return Design(f"Kirkman triple system KTS({n}): Z_{n // 3} on three orbits", found)
    return None
