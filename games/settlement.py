"""Money settlement: who pays whom so that every party's net is met.

One service for tables now and for club evenings and tournaments later: give it each party's
net (integer minor units, summing to zero) and it returns the payments. Greedy matching of the
largest debtor with the largest creditor settles ``n`` parties with at most ``n - 1`` payments,
exact to the cent. No ORM here: callers pass the nets they computed from the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` minor units."""

    payer: str
    payee: str
    amount: int


def payments_for(nets: Mapping[str, int]) -> list[Payment]:
    """Payments that settle ``nets`` (positive: is owed money; negative: owes money).

    Raises ``ValueError`` when the nets do not sum to zero: money cannot appear or vanish.
    Ties are broken by party name so that the same nets always give the same payments.
    """
    if sum(nets.values()) != 0:
        raise ValueError(f"nets must sum to zero, not {sum(nets.values())}")
    debtors = sorted(((-v, k) for k, v in nets.items() if v < 0), key=lambda x: (-x[0], x[1]))
    creditors = sorted(((v, k) for k, v in nets.items() if v > 0), key=lambda x: (-x[0], x[1]))
    out: list[Payment] = []
    while debtors and creditors:
        owe, debtor = debtors[0]
        due, creditor = creditors[0]
        amount = min(owe, due)
        out.append(Payment(debtor, creditor, amount))
        debtors = _requeue(debtors[1:], owe - amount, debtor)
        creditors = _requeue(creditors[1:], due - amount, creditor)
    return out


def _requeue(queue: list[tuple[int, str]], left: int, name: str) -> list[tuple[int, str]]:
    if left:
        queue = sorted([*queue, (left, name)], key=lambda x: (-x[0], x[1]))
    return queue


def split_evenly(amount: int, parties: Sequence[str]) -> dict[str, int]:
    """Share ``amount`` equally; leftover cents go one each to the first parties in order
    (wien.md, "End of a sitting": ``pot_at_close = "split"``)."""
    base, left = divmod(amount, len(parties))
    return {p: base + (1 if i < left else 0) for i, p in enumerate(parties)}


def format_money(amount: int, currency: str = "€") -> str:
    """``340`` → ``3.40 €``."""
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    return f"{sign}{whole}.{cents:02d} {currency}"


def describe(payment: Payment, names: Mapping[str, str], currency: str = "€") -> str:
    """A sentence for a payment: ``carl pays anna 3.40 €``."""
    payer = names.get(payment.payer, payment.payer)
    payee = names.get(payment.payee, payment.payee)
    return f"{payer} pays {payee} {format_money(payment.amount, currency)}"
