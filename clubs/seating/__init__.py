"""Seat rotation: who sits at which table in each round of a club evening (later a tournament
round), so that people meet different opponents. Pure Python, no ORM; the services turn
check-ins, played rounds and the season's sittings into a :class:`PlanRequest`.

Terms: a *round* (Runde) seats every present player once; a *table* (Tisch) is a tuple of players in
seat order; a *table shape* (:class:`TableShape`) is a size and how many *active* players play each
deal, the seats taking turns to sit out (at a four-table with three active players, the dealer,
Geber). Nothing assumes one game: a rule set may play tables of 3 and a table of 4 where the count
needs it (``THREE_ACTIVE_SHAPES``), or tables of 4, optionally of 5 with one sitting out
(``FOUR_ACTIVE_SHAPES``, ``FOUR_ACTIVE_WITH_FIVE_SHAPES``). The *preferred* size is used as much as
possible (:func:`table_sizes`).

The objective (:func:`score`), to be minimised, is lexicographic: first the repeats (with the
season's history), then the balance of non-preferred tables. Two players at one table share the
fraction ``active*(active−1) / (size*(size−1))`` of its deals: 1 at a three-table, 1/2 at a
four-table with three active, 1 at a four-table where all play, 3/5 at a five-table with four. For
each pair, ``w`` is the sum of those shares over the evening's rounds where they share a table
(played rounds included), ``h`` their shared deals earlier in the season (``history``); for each
player, ``t`` counts this evening's sittings at a non-preferred table and ``prior`` those earlier in
the season. With λ = ``history_weight`` (0.5) and μ = ``balance_weight`` (0.25)::

    first:  Σ over pairs   repeat_penalty(w) + λ·h·w
    then:   μ · Σ over players   Σ_{k=1..t} (k − 1 + λ·prior)²

Plans are compared on the first line; the second decides only between plans whose first lines
are equal (:attr:`Score.key`), so no amount of balance ever outweighs any difference in
repeats or history. ``repeat_penalty`` is the straight-line interpolation of C(k, 2) between
whole numbers: 0 up to one table's worth of shared deals, then rising by 1, 2, 3 … per further
table's worth. It is convex, so the search prefers two pairs meeting twice over one pair
meeting three times; with tables of 3 only it is the number of pairs of rounds in which the
same two players meet (0 exactly when nobody meets anyone twice). Meeting someone one has met
once tonight costs 1; meeting someone with h shared deals from the season costs λ·h.

The second line balances the non-preferred tables (such as a four-table with three active, where
each player sits out a quarter of the deals): a player's k-th such sitting tonight costs μ·(k − 1 +
λ·prior)², nothing for the first, 0.25 for the second, 1 for the third, 2.25 for the fourth (no
prior); those with many such sittings earlier in the season get them later. μ only scales it (0
switches it off): it never trades against repeats. So where the table sizes force repeats (10
players over 5 rounds, a four-table every round) the fewest repeats come first, even if a player
then sits at the four-table four times. The forbidden pairs are a constraint, not a cost.

The lower bound (:mod:`clubs.seating.bound`), one for each line, spreads the shared deals and
the non-preferred seats the rounds hand out as evenly as convexity allows (pigeonhole: repeats
are forced when there are more pair meetings than pairs, or a player needs more partners than
there are players); a plan that reaches both is optimal. Resolvable designs
(:mod:`clubs.seating.designs`) give plans without any repeat where they exist (Kirkman triple
systems for 9, 15, 21, 27, 33, 39, 45 players in threes; affine planes for 16 in fours, 25 in
fives); otherwise simulated annealing (:mod:`clubs.seating.search`). Evenings of at most 12
present players are then searched exactly (:mod:`clubs.seating.exact`: branch and bound over
the rounds' splits into tables, with symmetry breaking), within a budget of seats placed: when
that search finishes, no plan is better, and the plan says so (``proven_optimal``) with the
optimum as its lower bounds. Where it does not finish (10 players in 5 or 6 rounds, 11 in 6,
12 in 5 or 6), the annealing goes on and only the pigeonhole bounds can prove a plan optimal.
"""

from clubs.seating.designs import Design, is_resolution, resolution
from clubs.seating.objective import Player, Score, repeat_penalty, score
from clubs.seating.planner import Plan, PlanRequest, Repeat, plan
from clubs.seating.tables import (
    FOUR_ACTIVE_PREFERRED,
    FOUR_ACTIVE_SHAPES,
    FOUR_ACTIVE_WITH_FIVE_SHAPES,
    THREE_ACTIVE_PREFERRED,
    THREE_ACTIVE_SHAPES,
    SeatingError,
    SplitOption,
    TableShape,
    shapes_of,
    table_sizes,
)

__all__ = [
    "FOUR_ACTIVE_PREFERRED",
    "FOUR_ACTIVE_SHAPES",
    "FOUR_ACTIVE_WITH_FIVE_SHAPES",
    "THREE_ACTIVE_PREFERRED",
    "THREE_ACTIVE_SHAPES",
    "Design",
    "Plan",
    "PlanRequest",
    "Player",
    "Repeat",
    "Score",
    "SeatingError",
    "SplitOption",
    "TableShape",
    "is_resolution",
    "plan",
    "repeat_penalty",
    "resolution",
    "score",
    "shapes_of",
    "table_sizes",
]
