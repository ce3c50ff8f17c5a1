"""Settlement as a list of transfers, for any rule set that settles in money or points.

Terms: a *party* is a seat or the table's carry (the pot, a Kasse); a *transfer* is
``{"from", "to", "amount", "why"}`` between two parties, ``why`` a word of the rule set
(``dealer``, ``game``, ``fall`` …). A rule set writes a deal's transfers into a :class:`Book`;
:func:`totals` sums them into each seat's change and the carry after the deal, so every deal
balances by construction (``sum(delta) + carry_after - carry_before == 0``).

The rules of what a deal pays are the rule set's (``engine.rules.<name>``); the dispatching
``settle_outcome`` is in ``engine.record``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class Book:
    """The transfers of one deal, in the order they are made."""

    __slots__ = ("transfers",)

    def __init__(self) -> None:
        self.transfers: list[dict[str, Any]] = []

    def pay(self, payer: str, payee: str, amount: int, why: str) -> None:
        """``payer`` pays ``amount`` to ``payee`` for ``why``; a payment of 0 is not listed."""
        if amount:
            self.transfers.append({"from": payer, "to": payee, "amount": amount, "why": why})


def totals(
    transfers: Sequence[dict[str, Any]], seats: Sequence[str], party: str, before: int
) -> tuple[dict[str, int], int]:
    """Each seat's net change and the carry ``party`` after the deal (``before`` it), summed
    from ``transfers``."""
    delta = dict.fromkeys(seats, 0)
    carry = before
    for tr in transfers:
        for who, sign in ((tr["from"], -1), (tr["to"], 1)):
            if who == party:
                carry += sign * tr["amount"]
            else:
                delta[who] += sign * tr["amount"]
    return delta, carry
