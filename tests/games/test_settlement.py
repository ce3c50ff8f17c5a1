"""games.settlement: nets into payments, splitting a pot, payments in words."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.settlement import Payment, describe, format_money, payments_for, split_evenly


def apply(nets: dict[str, int], payments: list[Payment]) -> dict[str, int]:
    left = dict(nets)
    for p in payments:
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    return left


def test_the_largest_debtor_pays_the_largest_creditor_first() -> None:
    payments = payments_for({"anna": 340, "bert": -100, "carl": -240})
    assert payments == [Payment("carl", "anna", 240), Payment("bert", "anna", 100)]


def test_nobody_pays_when_everybody_is_even() -> None:
    assert payments_for({"anna": 0, "bert": 0}) == []
    assert payments_for({}) == []


def test_it_refuses_nets_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        payments_for({"anna": 100, "bert": -90})


def test_ties_are_broken_by_name_so_the_answer_is_stable() -> None:
    nets = {"bert": 50, "anna": 50, "dave": -50, "carl": -50}
    assert payments_for(nets) == [Payment("carl", "anna", 50), Payment("dave", "bert", 50)]


@given(
    st.dictionaries(
        st.text("abcdefgh", min_size=1, max_size=3), st.integers(-100_000, 100_000), max_size=8
    )
)
def test_payments_settle_every_net_exactly_with_at_most_n_minus_one_payments(
    raw: dict[str, int],
) -> None:
    if not raw:
        return
    names = sorted(raw)
    nets = dict(raw)
    nets[names[0]] -= sum(raw.values())  # make them sum to zero
    payments = payments_for(nets)
    assert all(v == 0 for v in apply(nets, payments).values())
    parties = sum(1 for v in nets.values() if v)
    assert len(payments) <= max(parties - 1, 0)
    assert all(p.amount > 0 and p.payer != p.payee for p in payments)
    assert all(nets[p.payer] < 0 < nets[p.payee] for p in payments)


@given(st.integers(0, 100_000), st.integers(1, 6))
def test_splitting_shares_exactly_with_leftover_cents_to_the_first(amount: int, n: int) -> None:
    parties = [f"p{i}" for i in range(n)]
    shares = split_evenly(amount, parties)
    assert sum(shares.values()) == amount
    values = [shares[p] for p in parties]
    assert values == sorted(values, reverse=True)
    assert max(values) - min(values) <= 1


def test_a_split_of_two_hundred_in_three_gives_the_extra_cents_to_the_first_two() -> None:
    assert split_evenly(200, ["anna", "bert", "carl"]) == {"anna": 67, "bert": 67, "carl": 66}


@pytest.mark.parametrize(
    ("amount", "text"), [(340, "3.40 €"), (5, "0.05 €"), (0, "0.00 €"), (-1250, "-12.50 €")]
)
def test_money_is_written_with_two_decimals_and_the_currency(amount: int, text: str) -> None:
    assert format_money(amount) == text


def test_a_payment_reads_as_a_sentence() -> None:
    payment = Payment("c", "a", 340)
    assert describe(payment, {"c": "carl", "a": "anna"}) == "carl pays anna 3.40 €"
    assert describe(payment, {}, "EUR") == "c pays a 3.40 EUR"


def most_zero_sum_groups(values: list[int]) -> int:
    """The most groups summing to zero that ``values`` partition into, by trying every
    partition (small inputs only): an independent check of the settlement's search."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for size in range(len(rest) + 1):
        for picked in itertools.combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in picked) == 0:
                left = [v for i, v in enumerate(rest) if i not in picked]
                best = max(best, 1 + most_zero_sum_groups(left))
    return best


@given(st.lists(st.sampled_from([-300, -200, -100, 100, 200, 300, 500, -500]), max_size=7))
def test_the_payments_are_as_few_as_any_settlement_can_be(values: list[int]) -> None:
    values = [*values, -sum(values)]
    nets = {f"p{i}": v for i, v in enumerate(values)}
    payments = payments_for(nets)
    assert all(v == 0 for v in apply(nets, payments).values())
    nonzero = [v for v in values if v]
    assert len(payments) == len(nonzero) - most_zero_sum_groups(nonzero)


def test_a_pair_that_settles_between_themselves_saves_a_payment() -> None:
    # largest against largest: emil (-800) → dave (600), emil → anna (200), carl (-600) →
    # anna (300), carl → bert (300): four payments. carl owes what dave is owed: three.
    nets = {"anna": 500, "bert": 300, "carl": -600, "dave": 600, "emil": -800}
    assert payments_for(nets) == [
        Payment("carl", "dave", 600),
        Payment("emil", "anna", 500),
        Payment("emil", "bert", 300),
    ]
