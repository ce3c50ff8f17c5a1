"""Money settlement: who pays whom so that every party's net is met.

One service for tables, club evenings and tournaments: give it each party's net (integer
minor units, summing to zero) and it returns the fewest payments that settle them, exact to
the cent: ``n`` parties need ``n`` minus the most groups they split into whose nets sum to
zero (:mod:`games.zero_sum`: a branch and bound that proves its answer, with a deterministic
node budget after which it says it has not), at most ``n - 1``. No ORM here: callers pass the
nets they computed from the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext as _

from games.zero_sum import NODE_BUDGET, most_zero_sum_groups


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` minor units."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The payments that settle a set of nets; ``proven``: no settlement has fewer;
    ``least``: none has fewer than this many (equal to ``len(payments)`` when proven)."""

    payments: list[Payment]
    proven: bool
    least: int


def payments_for(nets: Mapping[str, int]) -> list[Payment]:
    """Payments that settle ``nets`` (positive: is owed money; negative: owes money), as few
    as there can be: :func:`settle` without its proof."""
    return settle(nets).payments


def settle(nets: Mapping[str, int], *, node_budget: int = NODE_BUDGET) -> Settlement:
    """Payments that settle ``nets``, as few as there can be, and whether that is proven.

    Parties that settle among themselves need one payment fewer than they are; so the fewest
    payments are the number of parties owed or owing minus the largest number of groups whose
    nets sum to zero (:func:`games.zero_sum.most_zero_sum_groups`, proven within
    ``node_budget`` search nodes; docs/clubs.md says how often that is met). Each group is
    settled by matching its largest debtor with its largest creditor, smaller groups first.
    When that plain matching over everybody is as short it is kept. Ties are broken by party
    name, so the same nets always give the same payments.

    Raises ``ValueError`` when the nets do not sum to zero: money cannot appear or vanish.
    """
    if sum(nets.values()) != 0:
        raise ValueError(f"nets must sum to zero, not {sum(nets.values())}")
    parties = sorted((k, v) for k, v in nets.items() if v)
    greedy = _greedy(parties)
    if len(greedy) <= 1:
        return Settlement(greedy, proven=True, least=len(greedy))
    found = most_zero_sum_groups([v for _, v in parties], node_budget=node_budget)
    least = len(parties) - found.bound
    if len(parties) - len(found.groups) >= len(greedy):
        # greedy is already as short: keep its order
        return Settlement(greedy, proven=found.proven, least=least)
    groups = sorted(found.groups, key=lambda g: (len(g), g))
    payments = [p for group in groups for p in _greedy([parties[i] for i in group])]
    return Settlement(payments, proven=found.proven, least=least)


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


def _requeue(queue: list[tuple[int, str]], left: int, name: str) -> list[tuple[int, str]]:
    if left:
        queue = sorted([*queue, (left, name)], key=lambda x: (-x[0], x[1]))
    return queue


def format_money(amount: int, currency: str = "€") -> str:
    """``340`` → ``3.40 €``, in German ``3,40 €``: the decimal separator of the active
    language (``DECIMAL_SEPARATOR`` of Django's formats), no grouping."""
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    point = formats.get_format("DECIMAL_SEPARATOR")
    return f"{sign}{whole}{point}{cents:02d} {currency}"


#: The pot's party key in nets and payments (``games.models.POT``).
POT = "pot"


def pot_keeper(*, shared: bool, club: bool) -> str:
    """Who holds the money paid into the pot, as the sentences say it (in the reader's
    language). What happens to a pot at the end of a sitting is the rule set's
    (``games.rulesets.shares_pot_at_close``): ``shared`` among the sitting's players at the
    close, or else kept for the table's next sitting, which at a club's tables (and so for a
    club evening) means the club keeps it."""
    if shared:
        return _("shared among the players at the close")
    return _("kept by the club") if club else _("kept for the table's next sitting")


def describe(
    payment: Payment, names: Mapping[str, str], currency: str = "€", *, pot_keeper: str = ""
) -> str:
    """A sentence for a payment in the reader's language, its money in their locale
    (:func:`format_money`): ``carl pays anna 3.40 €`` (German ``carl zahlt anna 3,40 €``). A
    payment into or out of the pot says so and, given ``pot_keeper`` (:func:`pot_keeper`), who
    holds the pot: ``emil pays 78.50 € into the pot (kept by the club)``,
    ``The pot (kept by the club) pays anna 3.00 €``. The sentence names the pot itself (German
    declines it), whatever ``names`` calls it."""
    money = format_money(payment.amount, currency)
    payer = names.get(payment.payer, payment.payer)
    payee = names.get(payment.payee, payment.payee)
    if payment.payee == POT:
        if pot_keeper:
            return _("{payer} pays {money} into the pot ({keeper})").format(
                payer=payer, money=money, keeper=pot_keeper
            )
        return _("{payer} pays {money} into the pot").format(payer=payer, money=money)
    if payment.payer == POT:
        if pot_keeper:
            return _("The pot ({keeper}) pays {payee} {money}").format(
                keeper=pot_keeper, payee=payee, money=money
            )
        return _("The pot pays {payee} {money}").format(payee=payee, money=money)
    return _("{payer} pays {payee} {money}").format(payer=payer, payee=payee, money=money)
