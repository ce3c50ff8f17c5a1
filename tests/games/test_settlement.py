"""games.settlement: nets into payments, payments in words. (Splitting a pot at the close is
the rule set's: ``tests/engine/test_core.py``.)"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import zero_sum
from games.settlement import (
    Payment,
    describe,
    format_money,
    payments_for,
    pot_keeper,
    settle,
)
from tests.draws import draws


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


@pytest.mark.parametrize(
    ("amount", "text"), [(340, "3.40 €"), (5, "0.05 €"), (0, "0.00 €"), (-1250, "-12.50 €")]
)
def test_money_is_written_with_two_decimals_and_the_currency(amount: int, text: str) -> None:
    assert format_money(amount) == text


def test_a_payment_reads_as_a_sentence() -> None:
    payment = Payment("c", "a", 340)
    assert describe(payment, {"c": "carl", "a": "anna"}) == "carl pays anna 3.40 €"
    assert describe(payment, {}, "EUR") == "c pays a 3.40 EUR"


@pytest.mark.parametrize(
    ("shared", "club", "keeper"),
    [
        (False, True, "kept by the club"),  # wien.md "End of a sitting": stays with the table
        (False, False, "kept for the table's next sitting"),
        (True, True, "shared among the players at the close"),
    ],
)
def test_a_payment_into_or_out_of_the_pot_says_who_holds_the_pot(
    shared: bool, club: bool, keeper: str
) -> None:
    assert pot_keeper(shared=shared, club=club) == keeper
    names = {"e": "Emil", "a": "Anna", "pot": "the pot"}
    into = describe(Payment("e", "pot", 7850), names, pot_keeper=keeper)
    assert into == f"Emil pays 78.50 € into the pot ({keeper})"
    out = describe(Payment("pot", "a", 300), names, pot_keeper=keeper)
    assert out == f"The pot ({keeper}) pays Anna 3.00 €"


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


def settles_exactly(nets: dict[str, int], payments: list[Payment]) -> bool:
    """Every net met to the cent, each payment a positive amount from one who owes to one
    who is owed."""
    return (
        all(v == 0 for v in apply(nets, payments).values())
        and all(isinstance(p.amount, int) and p.amount > 0 for p in payments)
        and all(nets[p.payer] < 0 < nets[p.payee] for p in payments)
    )


# Sixteen players and the pot: three groups settle among themselves and the rest is a fourth
# (anna, bert, carl, dora | emil, fritz, greta, hans | ida, jakob, karl, lena | max, nina,
# otto, paula and the pot). Largest debtor to largest creditor takes 15 payments.
EVENING_OF_SIXTEEN = {
    "anna": -2570,
    "bert": 80,
    "carl": -2690,
    "dora": 5180,
    "emil": -250,
    "fritz": 1840,
    "greta": 960,
    "hans": -2550,
    "ida": 1370,
    "jakob": 1040,
    "karl": 2900,
    "lena": -5310,
    "max": 1550,
    "nina": -1630,
    "otto": 740,
    "paula": -2010,
    "pot": 1350,
}


def test_an_evening_of_sixteen_and_the_pot_settles_in_thirteen_payments() -> None:
    answer = settle(EVENING_OF_SIXTEEN)
    assert len(answer.payments) == 13  # 17 parties in 4 groups
    assert answer.proven and answer.least == 13
    assert settles_exactly(EVENING_OF_SIXTEEN, answer.payments)
    assert payments_for(EVENING_OF_SIXTEEN) == answer.payments


def test_the_payments_fall_into_four_groups_that_each_settle_among_themselves() -> None:
    group = {name: {name} for name in EVENING_OF_SIXTEEN}
    for p in payments_for(EVENING_OF_SIXTEEN):
        joined = group[p.payer] | group[p.payee]
        for name in joined:
            group[name] = joined
    groups = {frozenset(g) for g in group.values()}
    assert len(groups) == 4
    assert all(sum(EVENING_OF_SIXTEEN[name] for name in g) == 0 for g in groups)


def test_an_evening_nobody_can_split_needs_one_payment_fewer_than_its_parties_proven() -> None:
    nets = {"anna": 1000, "bert": 10, "carl": -300, "dora": -400, "emil": -310}
    answer = settle(nets)
    assert len(answer.payments) == 4
    assert answer.proven


def test_out_of_search_nodes_it_still_settles_exactly_but_says_it_is_not_proven() -> None:
    answer = settle(EVENING_OF_SIXTEEN, node_budget=5)
    assert not answer.proven
    assert answer.least <= 13 <= len(answer.payments) <= 16
    assert settles_exactly(EVENING_OF_SIXTEEN, answer.payments)


cents = st.integers(1, 40_000).flatmap(lambda v: st.sampled_from([v, -v]))


@st.composite
def planted_evenings(draw: st.DrawFn, most: int) -> tuple[dict[str, int], int]:
    """Nets of up to ``most`` parties made of planted zero-sum groups (2 to 6 parties each),
    in a shuffled order; returns the nets and how many groups were planted."""
    groups: list[list[int]] = []
    total = 0
    for _ in range(draw(st.integers(1, 12))):
        amounts = draw(st.lists(cents, min_size=1, max_size=5))
        if sum(amounts):
            amounts.append(-sum(amounts))
        if len(amounts) < 2 or total + len(amounts) > most:
            continue
        groups.append(amounts)
        total += len(amounts)
    values = [v for group in groups for v in group]
    order = draw(st.permutations(range(len(values))))
    return {f"p{i:02d}": values[j] for i, j in enumerate(order)}, len(groups)


@settings(max_examples=60)
@given(planted_evenings(most=24))
def test_planted_groups_are_never_missed_up_to_24_parties(
    planted: tuple[dict[str, int], int],
) -> None:
    nets, groups = planted
    answer = settle(nets)  # the service's budget: what an evening gets
    parties = sum(1 for v in nets.values() if v)
    assert answer.proven
    assert len(answer.payments) == answer.least <= parties - groups
    assert settles_exactly(nets, answer.payments)


@settings(max_examples=25)
@given(planted_evenings(most=40))
def test_up_to_40_parties_every_net_is_met_and_a_proven_answer_beats_the_planted_groups(
    planted: tuple[dict[str, int], int],
) -> None:
    nets, groups = planted
    answer = settle(nets, node_budget=5_000)
    parties = sum(1 for v in nets.values() if v)
    assert answer.least <= len(answer.payments) <= max(parties - 1, 0)
    if answer.proven:
        assert len(answer.payments) <= parties - groups
    assert settles_exactly(nets, answer.payments)


@settings(deadline=None, max_examples=draws(150))
@given(st.lists(st.integers(-60, 60).map(lambda v: v * 10), min_size=1, max_size=8))
def test_up_to_nine_parties_the_payments_are_the_fewest_an_exhaustive_search_finds(
    values: list[int],
) -> None:
    values = [*values, -sum(values)]
    nets = {f"p{i}": v for i, v in enumerate(values)}
    answer = settle(nets)
    nonzero = [v for v in values if v]
    fewest = len(nonzero) - most_zero_sum_groups(nonzero)
    assert answer.proven
    assert len(answer.payments) == answer.least == fewest
    assert settles_exactly(nets, answer.payments)


# A 26-player evening (pot split at every table) from bench/settlement_bench.py's generator:
# nets from engine-played hands.
PLAYED_EVENING = [
    1120, 61, 404, 2879, 2674, 2008, -1833, -610, -395, -1866, -250, 429, -190,
    -1466, -519, -512, 138, 877, -119, -3047, -1403, 1047, 1592, 1003, -2675, 653,
]  # fmt: skip


@pytest.mark.parametrize("budget", [50, 5_000, 50_000])
def test_a_played_evening_is_settled_exactly_within_any_node_budget(budget: int) -> None:
    nets = {f"p{i:02d}": v for i, v in enumerate(PLAYED_EVENING)}
    answer = settle(nets, node_budget=budget)
    assert settles_exactly(nets, answer.payments)
    assert answer.least <= len(answer.payments) <= len(nets) - 1


# A 40-player evening from bench/settlement_bench.py's generator (seed 2026): the search that
# bounded a rest by (4a + 3(r - a)) // 12 found 8 groups but could not rule out 10 within
# 600,000 nodes; the per-party bound (a party in no zero-sum group of fewer than m carries
# 1 / m) proves 8.
EVENING_OF_FORTY = [
    657, 376, 1117, 1650, -1045, 3405, 1164, -2057, 243, -494, 2420, -1707, -3286, 1834,
    -1764, 276, 2381, -916, 139, 1559, -1739, -403, -1105, -1687, 765, 501, -366, 732, -3952,
    892, 2352, -1128, 235, 1318, -122, -133, -1052, 776, -940, -896,
]  # fmt: skip


def test_an_evening_of_forty_is_proven_to_need_32_payments_within_20_000_nodes() -> None:
    nets = {f"p{i:02d}": v for i, v in enumerate(EVENING_OF_FORTY)}
    answer = settle(nets, node_budget=20_000)
    assert answer.proven
    assert len(answer.payments) == answer.least == 32  # 40 parties in 8 groups
    assert settles_exactly(nets, answer.payments)


@settings(deadline=None, max_examples=draws(120))
@given(st.lists(st.integers(-40, 40), min_size=5, max_size=11))
def test_when_large_groups_must_be_split_the_search_still_finds_the_most(
    values: list[int],
) -> None:
    # listing only the smallest groups leaves most parties in large groups, whose split the
    # search settles apart: it must agree with trying every partition
    values = [*values, -sum(values)]
    nonzero = [v for v in values if v]
    found = zero_sum.most_zero_sum_groups(values, few=1)
    assert found.proven
    assert len(found.groups) - (len(values) - len(nonzero)) == most_zero_sum_groups(nonzero)
    assert all(sum(values[i] for i in group) == 0 for group in found.groups)
    assert sorted(i for group in found.groups for i in group) == list(range(len(values)))
