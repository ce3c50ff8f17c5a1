"""The prize list (Preisliste): who is paid what at the end of a tournament, from the final
standings and the prize table, as plain values (no ORM).

Terms:

- *place* (Platz): a position in the final standings, 1 for the winner; *place i* is paid
  ``prizes[i - 1]``, in integer minor units (cents); places beyond the prize table are paid
  0.
- *rank*: the competition rank of the standings (``tournaments.scoring``): players tied on
  everything share a rank, and the next rank skips the places they fill (1, 2, 2, 4).
- *covered places*: the places a group of k players tied on rank r fill: r, r + 1, ...,
  r + k - 1.

The rule (``prize_list``): players tied on a rank share the prizes of the places they cover
equally. Amounts are whole minor units, so a share that does not divide evenly is rounded
down and the remainder is paid one unit each to the tied players in standings order (the
order given, which ``scoring.standings`` sorts by player id within a rank). The sum paid is
always exactly the sum of the prizes of the places the players fill.

Example, prizes 500, 300, 200 (€5, €3, €2 in cents) and standings anna 1, bert 2, carl 2,
dora 4, emil 5: bert and carl cover places 2 and 3 and share 300 + 200, 250 each; dora and
emil are paid 0; anna 500. Were carl, dora and emil tied on rank 3 instead, they would cover
places 3 to 5 and share 200 + 0 + 0: 67, 67, 66 (the odd cents to the first two listed).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import groupby
from operator import itemgetter
from typing import TypeVar

P = TypeVar("P", bound=Hashable)
"""A player: any hashable (user ids on the server, names in tests), one kind per call."""


def prize_list(ranks: Sequence[tuple[P, int]], prizes: Sequence[int]) -> dict[P, int]:
    """Each player's prize, in standings order, every player included (0 without a prize).

    ``ranks`` are (player, competition rank) in standings order: the first has rank 1 and each
    next player either shares the rank before them or has their 1-based place as rank
    (1, 2, 2, 4). ``prizes[i]`` is the prize of place i + 1, an integer of 0 or more (the
    table need not be as long as the standings, nor fall, though it usually does). Tied
    players share the prizes of the places they cover; the remainder of an uneven split goes
    one unit each to the first of them in the order given (module text). The total paid is
    ``sum(prizes[:len(ranks)])``.

    Raises ``ValueError`` when a prize is not a whole number of 0 or more, a player is listed
    twice, or the ranks are not competition ranks in order.
    """
    _check(ranks, prizes)
    paid: dict[P, int] = {}
    for rank, group in groupby(ranks, key=itemgetter(1)):
        tied = [player for player, _ in group]
        share, remainder = divmod(sum(prizes[rank - 1 : rank - 1 + len(tied)]), len(tied))
        for i, player in enumerate(tied):
            paid[player] = share + (1 if i < remainder else 0)
    return paid


def _check(ranks: Sequence[tuple[P, int]], prizes: Sequence[int]) -> None:
    for place, prize in enumerate(prizes, start=1):
        if isinstance(prize, bool) or not isinstance(prize, int) or prize < 0:
            raise ValueError(
                f"The prize for place {place} is {prize!r}; prizes are whole minor units "
                "(cents) of 0 or more."
            )
    seen: set[P] = set()
    previous = 1
    for place, (player, rank) in enumerate(ranks, start=1):
        if player in seen:
            raise ValueError(f"{player!r} is listed twice; list every player once.")
        seen.add(player)
        if isinstance(rank, bool) or not isinstance(rank, int) or rank not in (previous, place):
            expected = f"{place}" if place == 1 else f"{previous} (tied) or {place}"
            raise ValueError(
                f"{player!r} in place {place} has rank {rank!r}, but competition ranks in "
                f"standings order allow only {expected} there."
            )
        previous = rank
