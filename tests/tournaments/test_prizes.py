"""tournaments.prizes: the prize list, tied players sharing the prizes of the places they cover.

Amounts are cents; the worked examples are computed by hand in the comments. Hypothesis checks
that the total paid is always the sum of the prizes of the places filled.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.prizes import prize_list

ROOT = Path(__file__).resolve().parents[2]


def test_without_ties_each_place_takes_its_prize() -> None:
    ranks = [("anna", 1), ("bert", 2), ("carl", 3), ("dora", 4)]
    assert prize_list(ranks, [5000, 3000, 2000]) == {
        "anna": 5000,
        "bert": 3000,
        "carl": 2000,
        "dora": 0,
    }


def test_it_lists_every_player_in_standings_order() -> None:
    assert list(prize_list([("carl", 1), ("anna", 2), ("bert", 3)], [100])) == [
        "carl",
        "anna",
        "bert",
    ]


def test_two_tied_for_first_share_first_and_second() -> None:
    # (5000 + 3000) / 2 = 4000 each; carl is third
    ranks = [("anna", 1), ("bert", 1), ("carl", 3)]
    assert prize_list(ranks, [5000, 3000, 2000]) == {"anna": 4000, "bert": 4000, "carl": 2000}


def test_three_tied_for_second_share_second_to_fourth() -> None:
    # (3000 + 2000 + 1000) / 3 = 2000 each
    ranks = [("anna", 1), ("bert", 2), ("carl", 2), ("dora", 2), ("emil", 5)]
    paid = prize_list(ranks, [5000, 3000, 2000, 1000, 500])
    assert paid == {"anna": 5000, "bert": 2000, "carl": 2000, "dora": 2000, "emil": 500}


def test_a_tie_straddling_the_end_of_the_table_shares_the_last_prize_with_the_zeros() -> None:
    # carl and dora cover places 3 and 4; the table pays 2000 + 0: 1000 each
    ranks = [("anna", 1), ("bert", 2), ("carl", 3), ("dora", 3), ("emil", 5)]
    paid = prize_list(ranks, [5000, 3000, 2000])
    assert paid == {"anna": 5000, "bert": 3000, "carl": 1000, "dora": 1000, "emil": 0}


def test_the_odd_cent_goes_to_the_first_listed() -> None:
    # (5000 + 3001) / 2 = 4000 remainder 1: the first listed of the two gets 4001
    assert prize_list([("bert", 1), ("anna", 1)], [5000, 3001]) == {"bert": 4001, "anna": 4000}


def test_two_odd_cents_go_one_each_to_the_first_two_listed() -> None:
    # the module text's example: 200 + 0 + 0 over three is 66 remainder 2
    ranks = [("anna", 1), ("bert", 2), ("carl", 3), ("dora", 3), ("emil", 3)]
    paid = prize_list(ranks, [500, 300, 200])
    assert paid == {"anna": 500, "bert": 300, "carl": 67, "dora": 67, "emil": 66}


def test_a_tie_wholly_beyond_the_table_is_paid_nothing() -> None:
    ranks = [("anna", 1), ("bert", 2), ("carl", 2)]
    assert prize_list(ranks, [100]) == {"anna": 100, "bert": 0, "carl": 0}


def test_no_players_no_prizes() -> None:
    assert prize_list([], [100, 50]) == {}
    assert prize_list([(7, 1), (3, 2)], []) == {7: 0, 3: 0}


@pytest.mark.parametrize(
    ("ranks", "prizes", "message"),
    [
        ([("anna", 1)], [100, -1], "The prize for place 2 is -1"),
        ([("anna", 1)], [100, 2.5], "The prize for place 2 is 2.5"),
        ([("anna", 1)], [True], "The prize for place 1 is True"),
        ([("anna", 1), ("anna", 2)], [100], "'anna' is listed twice"),
        ([("anna", 2)], [100], "'anna' in place 1 has rank 2, but .* allow only 1 there"),
        ([("anna", 0)], [100], "'anna' in place 1 has rank 0"),
        ([("anna", 1), ("bert", 3)], [100], "'bert' in place 2 has rank 3, .* 1 \\(tied\\) or 2"),
        ([("anna", 1), ("bert", 1), ("carl", 2)], [100], "'carl' in place 3 has rank 2"),
        ([("anna", 1), ("bert", 2), ("carl", 1)], [100], "'carl' in place 3 has rank 1"),
    ],
)
def test_it_rejects_invalid_input(
    ranks: list[tuple[str, int]], prizes: list[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        prize_list(ranks, prizes)


@st.composite
def standings(draw: st.DrawFn) -> list[tuple[str, int]]:
    """Competition ranks for a random field: groups of tied players, in order."""
    groups = draw(st.lists(st.integers(1, 4), max_size=12))
    ranks: list[tuple[str, int]] = []
    for size in groups:
        rank = len(ranks) + 1
        ranks.extend((f"p{rank - 1 + i:02d}", rank) for i in range(size))
    return ranks


@given(standings(), st.lists(st.integers(0, 10**6), max_size=20))
def test_the_total_paid_is_the_sum_of_the_prizes_of_the_places_filled(
    ranks: list[tuple[str, int]], prizes: list[int]
) -> None:
    paid = prize_list(ranks, prizes)
    assert list(paid) == [player for player, _ in ranks]
    assert sum(paid.values()) == sum(prizes[: len(ranks)])
    for rank in {r for _, r in ranks}:
        shares = [paid[p] for p, r in ranks if r == rank]
        assert max(shares) - min(shares) <= 1
        assert shares == sorted(shares, reverse=True)


@given(standings(), st.lists(st.integers(0, 10**6), max_size=20))
def test_with_falling_prizes_a_better_rank_is_never_paid_less(
    ranks: list[tuple[str, int]], prizes: list[int]
) -> None:
    paid = prize_list(ranks, sorted(prizes, reverse=True))
    amounts = [paid[player] for player, _ in ranks]
    assert amounts == sorted(amounts, reverse=True)
