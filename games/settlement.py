"""Money settlement: who pays whom so that every party's net is met.

One service for tables now and for club evenings and tournaments later: give it each party's
net (integer minor units, summing to zero) and it returns the fewest payments that settle
them, exact to the cent: ``n`` parties need ``n`` minus the most groups they split into whose
nets sum to zero (found exactly up to 16 parties, an evening of fifteen players and the pot;
beyond, exact pairs first), at most ``n - 1``. No ORM here: callers pass the nets they
computed from the ledger.
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
    """Payments that settle ``nets`` (positive: is owed money; negative: owes money), as few
    as there can be.

    Parties that settle among themselves need one payment fewer than they are; so the fewest
    payments are the number of parties owed or owing minus the largest number of groups whose
    nets sum to zero. Up to :data:`EXACT_PARTIES` such parties the groups are found exactly
    (over all subsets); beyond, parties owing exactly what another is owed are paired first.
    Each group is settled by matching its largest debtor with its largest creditor. Ties are
    broken by party name, so the same nets always give the same payments.

    Raises ``ValueError`` when the nets do not sum to zero: money cannot appear or vanish.
    """
    if sum(nets.values()) != 0:
        raise ValueError(f"nets must sum to zero, not {sum(nets.values())}")
    parties = sorted((k, v) for k, v in nets.items() if v)
    greedy = _greedy(parties)
    if len(greedy) <= 1:
        return greedy
    exact = len(parties) <= EXACT_PARTIES
    groups = _zero_sum_groups(parties) if exact else _pairs_first(parties)
    if len(parties) - len(groups) >= len(greedy):
        return greedy  # greedy is already as short: keep its order
    return [p for group in groups for p in _greedy(group)]


# Beyond this many parties the exact search (2^n subsets) would take too long per answer.
EXACT_PARTIES = 16


def _greedy(parties: list[tuple[str, int]]) -> list[Payment]:
    """Largest debtor pays largest creditor, until everybody is even: at most n − 1."""
    debtors = sorted(((-v, k) for k, v in parties if v < 0), key=lambda x: (-x[0], x[1]))
    creditors = sorted(((v, k) for k, v in parties if v > 0), key=lambda x: (-x[0], x[1]))
    out: list[Payment] = []
    while debtors and creditors:
        owe, debtor = debtors[0]
        due, creditor = creditors[0]
        amount = min(owe, due)
        out.append(Payment(debtor, creditor, amount))
        debtors = _requeue(debtors[1:], owe - amount, debtor)
        creditors = _requeue(creditors[1:], due - amount, creditor)
    return out


def _zero_sum_groups(parties: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """The most groups with nets summing to zero that partition ``parties`` (all nonzero,
    summing to zero): best[mask] is the most zero-sum groups the parties of ``mask`` (a
    zero-sum set) split into, built up over the subsets in order."""
    n = len(parties)
    values = [v for _, v in parties]
    total = [0] * (1 << n)
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            most = max(most, best[mask ^ bit])
            rest ^= bit
        best[mask] = most + (1 if total[mask] == 0 else 0)
    groups = []
    mask = (1 << n) - 1
    while mask:
        # peel off a smallest zero-sum subset whose removal keeps the optimum
        sub = mask
        chosen = mask
        while sub:
            if (
                total[sub] == 0
                and best[mask ^ sub] == best[mask] - 1
                and bin(sub).count("1") < bin(chosen).count("1")
            ):
                chosen = sub
            sub = (sub - 1) & mask
        groups.append([parties[i] for i in range(n) if chosen >> i & 1])
        mask ^= chosen
    return groups


def _pairs_first(parties: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Pair each party owing exactly what another is owed; the rest is one group."""
    creditors: dict[int, list[tuple[str, int]]] = {}
    for k, v in parties:
        if v > 0:
            creditors.setdefault(v, []).append((k, v))
    groups = []
    for k, v in parties:
        if v < 0 and creditors.get(-v):
            groups.append([(k, v), creditors[-v].pop(0)])
    paired = {k for group in groups for k, _ in group}
    rest = [(k, v) for k, v in parties if k not in paired]
    return groups + ([rest] if rest else [])


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
