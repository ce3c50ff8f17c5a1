"""The most groups summing to zero that a list of integers splits into: the core of the fewest
payments (:mod:`games.settlement`). Plain Python, no ORM, no clock.

Terms: a *net* is what a party is owed (positive) or owes (negative), in minor units; a
*group* is a set of parties whose nets sum to zero, so they can settle among themselves in
one payment fewer than they are. Settling ``n`` parties takes at least ``n - k`` payments when
they split into at most ``k`` groups, and exactly that many when each group is settled apart
(a group of ``m`` needs ``m - 1``). So the fewest payments are found by the most groups.

The search, exact with a proof of optimality (a certificate: an upper bound reached):

1. Zeros are groups of their own; all nets are divided by their greatest common divisor.
2. A net and its exact opposite are paired at once. This is safe: if ``x`` and ``-x`` sit in
   groups ``A`` and ``B`` of a best partition, ``{x, -x}`` and ``(A ∪ B) - {x, -x}`` are
   zero-sum too, as many groups; and if they sit in one group it splits in two. So some best
   partition holds the pair.
3. A best partition has only *minimal* groups (none with a zero-sum part: it would split in
   two). The minimal groups of the rest are listed by size, 2, 3, ... members, until
   ``FEW`` are listed (or half the parties): the *small* groups, found by a walk that subset
   sums of exactly ``c`` parties (bit sets) keep from every branch that cannot reach zero.
   Every party is then in a small group or in a *large* one (more members than listed).
4. Branch and bound over the parties as bits: the party in fewest small groups still open
   goes into each of them in turn, smallest first, and last is marked large. When every
   party is placed, the large ones sum to zero: one group more, or, when they could make two
   large groups or more and that could beat the best, the same search on them alone, listing
   larger groups, settles how many.
5. The bound at a node (the per-party bound): party ``i`` sits in a group of at least
   ``m_i`` members, the smallest open small group holding it (one more than the listed size
   for a party marked large or in no open group). So each group's members carry ``1 / m_i``
   each, at least one per group, and no more groups can come than ``Σ 1 / m_i``; nor more
   than the parties left of either sign (every group needs both). A node is cut when the
   groups so far plus that bound cannot beat the best partition found.
6. When more than ``MANY`` small groups turn up (many equal nets) the search instead runs over
   the multiset, equal nets interchangeable (:class:`_Search`, which has its own weaker
   bound).
7. A deterministic node budget (the work counted, never time: a node and each open group it
   looks at, each step of the listing): when it runs out the best partition found so far is
   returned with ``proven=False`` and the root's bound. Otherwise the whole tree was searched
   and the answer is proven the most there can be.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

# Search nodes before giving up on a proof (deterministic: counts work, never time).
NODE_BUDGET = 600_000
# More small groups than this (many equal nets): search the multiset instead.
MANY = 5_000
# Groups are listed by size, 2, 3, ..., until at least this many are (or half the parties).
FEW = 40


@dataclass(frozen=True, slots=True)
class Partition:
    """Groups of indices into the values, each summing to zero, together all the nonzero
    values; ``proven``: no partition has more groups; ``bound``: none has more than this."""

    groups: tuple[tuple[int, ...], ...]
    proven: bool
    bound: int
    nodes: int


class _Budget(Exception):
    pass


class _Many(Exception):
    pass


def most_zero_sum_groups(
    values: Sequence[int], *, node_budget: int = NODE_BUDGET, few: int = FEW
) -> Partition:
    """Split the indices of ``values`` (summing to zero) into as many zero-sum groups as
    possible; see the module's docstring for the search and its guarantee. ``few``: how
    many small groups are listed before the rest count as large (``FEW``; any value gives
    the same count of groups, only the work differs).

    Raises ``ValueError`` when the values do not sum to zero.
    """
    if sum(values) != 0:
        raise ValueError(f"values must sum to zero, not {sum(values)}")
    groups: list[tuple[int, ...]] = [(i,) for i, v in enumerate(values) if v == 0]
    nonzero = [i for i, v in enumerate(values) if v]
    divisor = math.gcd(*(values[i] for i in nonzero)) if nonzero else 1
    owed: dict[int, list[int]] = {}
    for i in nonzero:
        if values[i] > 0:
            owed.setdefault(values[i] // divisor, []).append(i)
    rest: list[int] = []
    for i in nonzero:
        v = values[i] // divisor
        if v < 0 and owed.get(-v):
            groups.append((i, owed[-v].pop(0)))
        elif v < 0:
            rest.append(i)
    paired = {i for group in groups for i in group}
    rest = sorted(
        [*rest, *(i for i in nonzero if values[i] > 0 and i not in paired)],
        key=lambda i: (values[i], i),
    )
    found, proven, bound, nodes = _most(
        [values[i] // divisor for i in rest], node_budget, small=2, few=few
    )
    groups.extend(tuple(sorted(rest[k] for k in group)) for group in found)
    return Partition(
        groups=tuple(sorted(groups)),
        proven=proven,
        bound=len(groups) - len(found) + bound,
        nodes=nodes,
    )


def _most(
    values: list[int], node_budget: int, *, small: int, few: int = FEW
) -> tuple[list[tuple[int, ...]], bool, int, int]:
    """The most zero-sum groups of ``values`` (no value beside its opposite) as positions,
    whether proven, a bound and the nodes spent: :class:`_Packing` listing groups of up to
    ``small`` parties at least, or the multiset search when there are too many of those."""
    packing = _Packing(values, node_budget, small=small, few=few)
    if packing.run():
        return packing.best, packing.proven, packing.root_bound, packing.nodes
    search = _Search(values, node_budget - packing.nodes)
    counted, proven = search.run()
    found = _positions(values, search.vals, counted)
    return found, proven, search.root_bound, packing.nodes + search.nodes


def _positions(
    values: list[int], vals: list[int], found: list[tuple[int, ...]]
) -> list[tuple[int, ...]]:
    """Groups given as how many of each value (``vals``) as positions in ``values``: each
    value's positions in order."""
    pool: dict[int, list[int]] = {}
    for k, v in enumerate(values):
        pool.setdefault(v, []).append(k)
    out = []
    for counts in found:
        group: list[int] = []
        for v, c in zip(vals, counts, strict=True):
            group.extend(pool[v].pop(0) for _ in range(c))
        out.append(tuple(sorted(group)))
    return out


class _Packing:
    """Branch and bound over the small zero-sum groups of distinct parties (``values``:
    nonzero, summing to zero, no value beside its opposite), each party a bit; steps 3 to 5
    of the module's docstring.

    The minimal zero-sum groups are listed by size up to ``small`` members at least, and on
    while fewer than ``FEW`` are listed (up to half the parties): the *small* groups. When
    more than ``MANY`` turn up (many equal nets) :meth:`run` says so and the caller searches
    the multiset instead. Each party is then in a small group or in a *large* one. The
    search takes the party in fewest open groups and tries each open group holding it,
    smallest first, then marks it large; :meth:`bound` is the per-party bound and
    :meth:`finish` splits the large parties when that could beat the best, by this search
    again listing larger groups (``small`` one more each time, so it ends).
    """

    def __init__(self, values: list[int], node_budget: int, *, small: int, few: int) -> None:
        self.values = values
        self.few = few
        self.n = len(values)
        self.small = small
        self.budget = node_budget
        self.nodes = 0
        self.owed = sum(1 << k for k, v in enumerate(values) if v > 0)
        self.best: list[tuple[int, ...]] = [tuple(range(self.n))] if values else []
        self.proven = False
        self.root_bound = len(self.best)
        self.path: list[int] = []
        self.leaves: dict[int, list[tuple[int, ...]]] = {}

    def tick(self, work: int) -> None:
        self.nodes += work
        if self.nodes > self.budget:
            raise _Budget

    def run(self) -> bool:
        """Search; False when there are too many small groups for this search."""
        if self.n == 0:
            self.proven = True
            return True
        try:
            groups = self.small_groups()
        except _Budget:
            return False
        if groups is None:
            return False
        self.lcm = math.lcm(*range(1, self.small + 2))
        self.weight = {m: self.lcm // m for m in range(1, self.small + 2)}
        everyone = (1 << self.n) - 1
        self.root_bound = self.bound(groups, everyone, 0)
        try:
            if self.root_bound > 1:
                self.visit(groups, everyone, 0)
        except _Budget:
            return True
        self.proven = True
        self.root_bound = len(self.best)
        return True

    def small_groups(self) -> list[int] | None:
        """The zero-sum groups of 2 to ``small`` parties with no zero-sum part, as bit masks,
        smallest first, ``small`` raised while fewer than ``FEW`` are found (up to half the
        parties); None when there are more than ``MANY``."""
        vals = self.values
        n = self.n
        most = min(max(self.small, n // 2), n - 1)  # the largest groups that may be listed
        off = -sum(sorted(vals)[:most])
        keep = (1 << (off + sum(sorted(vals)[-most:]) + 1)) - 1  # sums of at most most
        # layers[c][j]: the sums (shifted by off) of exactly c parties among j..n-1
        layers = [[1 << off] * (n + 1)]
        found: list[int] = []
        groups: list[int] = []
        # the groups kept so far by their lowest party
        by_lowest: dict[int, list[int]] = {}

        def walk(j: int, need: int, m: int, mask: int) -> None:
            # m more parties among j.. summing to need
            self.tick(1)
            if m == 0:
                found.append(mask)
                if len(found) > MANY:
                    raise _Many
                return
            for k in range(j, n - m + 1):
                if not (layers[m][k] >> (need + off)) & 1:
                    return  # nor among any later start
                if (layers[m - 1][k + 1] >> (need - vals[k] + off)) & 1:
                    walk(k + 1, need - vals[k], m - 1, mask | 1 << k)

        size = 2
        least = min(self.small, most)
        while size <= (most if len(groups) < self.few else least):
            while len(layers) < size:  # sums of exactly c = len(layers) parties
                below = layers[-1]
                layer = [0] * (n + 1)
                for j in range(n - 1, -1, -1):
                    v = vals[j]
                    moved = (below[j + 1] << v) & keep if v > 0 else below[j + 1] >> -v
                    layer[j] = layer[j + 1] | moved
                layers.append(layer)
                self.tick(n * (1 + keep.bit_length() // 4096))  # work grows with the width
            try:
                for i in range(n - size + 1):
                    if (layers[size - 1][i + 1] >> (off - vals[i])) & 1:
                        walk(i + 1, -vals[i], size - 1, 1 << i)
            except _Many:
                return None
            # a group with a zero-sum part holds a smaller group: keep only those without
            for g in found:
                rest = g
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    near = by_lowest.get(bit, ())
                    self.tick(len(near))
                    if any(h & g == h for h in near):
                        break
                else:
                    groups.append(g)
                    by_lowest.setdefault(g & -g, []).append(g)
            found.clear()
            self.small = size
            size += 1
        return groups

    def bound(self, open_groups: list[int], free: int, large: int) -> int:
        """At most this many more groups among the parties ``free | large``."""
        left = free | large
        owed = (left & self.owed).bit_count()
        most = min(owed, left.bit_count() - owed)
        by_size: dict[int, int] = {}
        for g in open_groups:
            size = g.bit_count()
            by_size[size] = by_size.get(size, 0) | g
        total = 0
        for size in sorted(by_size):
            some = by_size[size] & free
            total += self.weight[size] * some.bit_count()
            free &= ~some
        total += self.weight[self.small + 1] * (free | large).bit_count()
        return min(most, total // self.lcm)

    def visit(self, open_groups: list[int], free: int, large: int) -> None:
        self.tick(1 + len(open_groups))
        have = len(self.path)
        if not free:
            self.finish(large)
            return
        if have + self.bound(open_groups, free, large) <= len(self.best):
            return
        # the free party in fewest open groups
        count: dict[int, int] = {}
        for g in open_groups:
            while g:
                bit = g & -g
                count[bit] = count.get(bit, 0) + 1
                g ^= bit
        pivot = 0
        fewest = -1
        rest = free
        while rest:
            bit = rest & -rest
            rest ^= bit
            c = count.get(bit, 0)
            if fewest < 0 or c < fewest:
                pivot, fewest = bit, c
        for g in [g for g in open_groups if g & pivot]:
            self.path.append(g)
            self.visit([h for h in open_groups if not h & g], free & ~g, large)
            self.path.pop()
        self.visit([h for h in open_groups if not h & pivot], free & ~pivot, large | pivot)

    def finish(self, large: int) -> None:
        """Every party placed: the large ones (summing to zero) as one group or, when they
        could make more and that would beat the best, as many as the multiset search finds."""
        have = len(self.path)
        rest: list[tuple[int, ...]] = []
        if large:
            members = [k for k in range(self.n) if large >> k & 1]
            rest = [tuple(members)]
            owed = (large & self.owed).bit_count()
            most = min(len(members) // (self.small + 1), owed, len(members) - owed)
            if have + most > len(self.best):
                if large not in self.leaves:
                    # they make groups of more than small: list larger ones this time
                    found, proven, _, nodes = _most(
                        [self.values[k] for k in members],
                        self.budget - self.nodes,
                        small=self.small + 1,
                        few=self.few,
                    )
                    self.tick(nodes)
                    if not proven:
                        raise _Budget
                    self.leaves[large] = [tuple(members[k] for k in g) for g in found]
                rest = self.leaves[large]
        if have + len(rest) > len(self.best):
            self.best = [
                *(tuple(k for k in range(self.n) if g >> k & 1) for g in self.path),
                *rest,
            ]


class _Search:
    """Branch and bound over the multiset ``values`` (nonzero, summing to zero, no value
    beside its opposite)."""

    def __init__(self, values: list[int], node_budget: int) -> None:
        self.vals = sorted(set(values))
        self.index = {v: i for i, v in enumerate(self.vals)}
        self.counts = tuple(values.count(v) for v in self.vals)
        self.offset = sum(-v for v in values if v < 0)
        self.budget = node_budget
        self.nodes = 0
        self.best: list[tuple[int, ...]] = []
        self.path: list[tuple[int, ...]] = []
        self.seen: dict[tuple[int, ...], int] = {}
        self.root_bound = 0

    def run(self) -> tuple[list[tuple[int, ...]], bool]:
        if not self.vals:
            return [], True
        self.best = [self.counts]  # everybody in one group
        self.root_bound = self.bound(self.counts)
        if self.root_bound <= 1:
            return self.best, True
        try:
            self.best = self.smallest_first(self.counts)
            if len(self.best) < self.root_bound:
                self.visit(self.counts)
        except _Budget:
            return self.best, False
        self.root_bound = len(self.best)
        return self.best, True

    def smallest_first(self, counts: tuple[int, ...]) -> list[tuple[int, ...]]:
        """A first partition: take a smallest zero-sum group while there is one."""
        groups: list[tuple[int, ...]] = []
        while (group := self.smallest_group(counts)) is not None:
            groups.append(group)
            counts = tuple(c - g for c, g in zip(counts, group, strict=True))
            self.best = [*groups, counts]  # kept should the budget run out
        return [*groups, counts]

    def visit(self, counts: tuple[int, ...]) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        r = sum(counts)
        if r == 0:
            if len(self.path) > len(self.best):
                self.best = list(self.path)
            return
        have = len(self.path)
        if have + self.bound(counts) <= len(self.best):
            return
        if self.seen.get(counts, -1) >= have:
            return
        self.seen[counts] = have
        # largest net left: its group must balance it
        owed = sum(c for v, c in zip(self.vals, counts, strict=True) if v > 0)
        fewer = 1 if owed * 2 <= r else -1
        pivot = min(
            (i for i, c in enumerate(counts) if c and self.vals[i] * fewer > 0),
            key=lambda i: abs(self.vals[i]),
        )
        # a group of g leaves r - g parties, at most (r - g) // 3 more groups; a rest of one
        # or two cannot sum to zero
        biggest = min(r - 3, r - 3 * (len(self.best) - have))
        for group in self.groups_with(counts, pivot, biggest):
            if have + 1 + (r - sum(group)) // 3 <= len(self.best):
                break  # smallest first: no later group can do better
            self.path.append(group)
            self.visit(tuple(c - g for c, g in zip(counts, group, strict=True)))
            self.path.pop()
        if have + 1 > len(self.best):  # the whole rest as one group
            self.path.append(counts)
            self.visit(tuple(0 for _ in counts))
            self.path.pop()

    def groups_with(
        self, counts: tuple[int, ...], pivot: int, biggest: int
    ) -> Iterator[tuple[int, ...]]:
        """The zero-sum sub-multisets of ``counts`` holding ``pivot`` with at most ``biggest``
        members and no zero-sum part of their own, smallest first (one that has such a part
        is never needed: splitting it makes one group more)."""
        pool = list(counts)
        pool[pivot] -= 1
        start = [0] * len(counts)
        start[pivot] = 1
        return self.sized(pool, start, -self.vals[pivot], range(2, biggest))

    def smallest_group(self, counts: tuple[int, ...]) -> tuple[int, ...] | None:
        """A smallest proper zero-sum sub-multiset of ``counts``, or None."""
        r = sum(counts)
        start = [0] * len(counts)
        return next(self.sized(list(counts), start, 0, range(3, r - 2)), None)

    def sized(
        self, pool: list[int], start: list[int], target: int, sizes: range
    ) -> Iterator[tuple[int, ...]]:
        """``start`` plus exactly m more of ``pool`` summing to ``target``, for each m in
        ``sizes`` in turn; never one with a zero-sum part beside ``start``'s own."""
        vals = self.vals
        d = len(vals)
        off = self.offset
        # layers[m][i]: the sums (shifted by off) of exactly m of the pool's values i..
        layers = [[1 << off] * (d + 1)]
        chosen = list(start)
        out: list[tuple[int, ...]] = []

        def walk(i: int, need: int, m: int, picked: bool) -> None:
            # choose exactly m more from values i.. summing to need
            self.nodes += 1
            if self.nodes > self.budget:
                raise _Budget
            if m == 0:
                if need == 0:
                    out.append(tuple(chosen))
                return
            if need == 0 and picked:
                return  # a zero-sum part already: never needed
            if not (layers[m][i] >> (need + off)) & 1:
                return
            v = vals[i]
            for c in range(min(pool[i], m) + 1):
                chosen[i] += c
                walk(i + 1, need - c * v, m - c, picked or c > 0)
                chosen[i] -= c

        for m in sizes:
            while len(layers) <= m:
                k = len(layers)
                layer = [0] * (d + 1)
                for i in range(d - 1, -1, -1):
                    v = vals[i]
                    acc = layer[i + 1]
                    for c in range(1, min(pool[i], k) + 1):
                        bits = layers[k - c][i + 1]
                        acc |= bits << c * v if v > 0 else bits >> -c * v
                    layer[i] = acc
                layers.append(layer)
                self.nodes += d
            walk(0, target, m, any(start))
            yield from out
            out.clear()

    def bound(self, counts: tuple[int, ...]) -> int:
        """At most this many zero-sum groups in ``counts`` (no value beside its opposite)."""
        vals = self.vals
        owed = sum(c for v, c in zip(vals, counts, strict=True) if v > 0)
        owing = sum(c for v, c in zip(vals, counts, strict=True) if v < 0)
        r = owed + owing
        if r == 0:
            return 0
        # who could be in a zero-sum triple: x with y + z = -x among the others
        present = [i for i, c in enumerate(counts) if c]
        self.nodes += len(present)  # the work of this bound, as search nodes
        in_triple: set[int] = set()
        for a_pos, a in enumerate(present):
            for b in present[a_pos:]:
                if a == b and counts[a] < 2:
                    continue
                k = self.index.get(-(vals[a] + vals[b]))
                if k is None or not counts[k]:
                    continue
                need = 1 + (k == a) + (k == b)
                if counts[k] >= need:
                    in_triple.update((a, b, k))
        a3 = sum(counts[i] for i in in_triple)
        # a group has three members at least, four for those in no zero-sum triple
        most = min(owed, owing, (4 * a3 + 3 * (r - a3)) // 12)
        if most >= 2 and not self.splits(counts):
            return 1
        return max(most, 1)

    def splits(self, counts: tuple[int, ...]) -> bool:
        """Whether some proper, nonempty part of ``counts`` sums to zero."""
        off = self.offset
        first = next(i for i, c in enumerate(counts) if c)
        reach = 1 << off  # the empty part
        some = 0  # nonempty parts
        for i, c in enumerate(counts):
            v = self.vals[i]
            for _ in range(c - (i == first)):  # leave one of the first value out
                moved = reach << v if v > 0 else reach >> -v
                some |= moved
                reach |= moved
        return bool((some >> off) & 1)
