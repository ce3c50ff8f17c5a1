"""tournaments.swiss: Swiss seating, leaders meet leaders with the fewest repeats.

Players are letters in ranking order ("a" leads) unless said otherwise; ``met`` is built from
strings of pairs ("ab bc" means a-b and b-c met once each). Hypothesis checks the guarantees of
the module text against the naive grouping and, on small fields, against every candidate.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.swiss import naive_grouping, repeats, swiss_round, tie_draw

ROOT = Path(__file__).resolve().parents[2]


def met_of(pairs: str, times: int = 1) -> dict[frozenset[str], int]:
    """``met`` from pairs written as two letters, separated by spaces."""
    return {frozenset(pair): times for pair in pairs.split()}


def joined(tables: Sequence[Sequence[str]]) -> list[str]:
    return ["".join(table) for table in tables]


def table_of(tables: Sequence[Sequence[str]]) -> dict[str, int]:
    return {player: t for t, table in enumerate(tables) for player in table}


# --- seating -----------------------------------------------------------------------------


def test_without_history_leaders_meet_leaders() -> None:
    tables = swiss_round("abcdefghi", [3, 3, 3])
    assert joined(tables) == ["abc", "def", "ghi"]
    assert all(isinstance(table, tuple) for table in tables)


def test_it_keeps_the_order_of_the_sizes() -> None:
    # the planner puts the four-table first or last; the top players fill table 1 either way
    assert joined(swiss_round("abcdefghijklm", [4, 3, 3, 3])) == ["abcd", "efg", "hij", "klm"]
    assert joined(swiss_round("abcdefghijklm", [3, 3, 3, 4])) == ["abc", "def", "ghi", "jklm"]


def test_it_seats_int_ids() -> None:
    assert swiss_round([7, 3, 9, 1, 5, 2], [3, 3]) == [(7, 3, 9), (1, 5, 2)]


def test_the_top_three_having_met_the_last_of_them_trades_with_the_next() -> None:
    met = met_of("ab ac bc")
    tables = swiss_round("abcdefghi", [3, 3, 3], met)
    # c (rank 3) and d (rank 4) trade places: a and b still meet, the one repeat that
    # cannot be avoided without sending someone two tables away (a, b, c all met)
    assert joined(tables) == ["abd", "cef", "ghi"]
    assert repeats(tables, met) == 1 < repeats(naive_grouping("abcdefghi", [3, 3, 3]), met) == 3
    assert "a" in tables[0]
    assert set(tables[0]) <= set("abcdef")


def test_the_leader_stays_at_table_one_when_moving_others_costs_the_same() -> None:
    # a met b and c: either a goes down (a by 3, d up by 1: 9 + 1) or b and c go down and
    # d and e come up (4 + 1 + 1 + 4): equal displacement, so the better-ranked stay
    tables = swiss_round("abcdef", [3, 3], met_of("ab ac"))
    assert joined(tables) == ["ade", "bcf"]


def test_it_moves_players_across_the_nearest_boundary_first() -> None:
    # b and c met at the first table; c trades with d (1 + 1) rather than b with d (4 + 1)
    assert joined(swiss_round("abcdef", [3, 3], met_of("bc"))) == ["abd", "cef"]


def test_it_counts_repeats_with_multiplicity() -> None:
    met = met_of("ab") | met_of("cd", times=2)
    assert repeats([("a", "b", "c", "d")], met) == 3
    assert repeats([("a", "c"), ("b", "d")], met) == 0


def test_it_weighs_a_pair_by_how_often_it_met() -> None:
    # a met everyone once, b twice: wherever a sits two repeats are certain, and b, not c,
    # makes a third; with b met only once the naive grouping is as good and stays
    met = met_of("ab ac ad ae af") | met_of("ab", times=2)
    tables = swiss_round("abcdef", [3, 3], met)
    assert joined(tables) == ["acd", "bef"]
    assert repeats(tables, met) == 2
    assert joined(swiss_round("abcdef", [3, 3], met_of("ab ac ad ae af"))) == ["abc", "def"]


def test_four_tables_of_four() -> None:
    ranking = "abcdefghijklmnop"
    met = met_of("ab cd ef gh ij kl mn op")  # every naive table holds two repeats
    tables = swiss_round(ranking, [4, 4, 4, 4], met)
    assert [len(t) for t in tables] == [4, 4, 4, 4]
    assert repeats(tables, met) == 0
    assert "a" in tables[0] and set(tables[0]) <= set(ranking[:8])
    naive = table_of(naive_grouping(ranking, [4, 4, 4, 4]))
    assert all(abs(t - naive[p]) <= 1 for p, t in table_of(tables).items())


def test_it_keeps_the_repeats_it_cannot_avoid() -> None:
    # everyone met everyone: no seating helps, so the naive grouping stays
    ranking = "abcdefghi"
    met = {frozenset(pair): 1 for pair in itertools.combinations(ranking, 2)}
    assert joined(swiss_round(ranking, [3, 3, 3], met)) == ["abc", "def", "ghi"]


def test_it_ignores_pairs_with_a_player_who_left() -> None:
    assert joined(swiss_round("abcdef", [3, 3], met_of("az bz"))) == ["abc", "def"]


def test_it_seats_nobody_at_no_tables() -> None:
    assert swiss_round([], []) == []


# --- the seed ----------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_tables() -> None:
    ranking = [f"p{i:02d}" for i in range(13)]
    pairs = itertools.combinations(ranking, 2)
    met = {frozenset(pair): 1 for i, pair in enumerate(pairs) if i % 3}
    for seed in (0, 1, 42):
        assert swiss_round(ranking, [3, 3, 3, 4], met, seed=seed) == swiss_round(
            ranking, [3, 3, 3, 4], met, seed=seed
        )


def test_the_seed_breaks_an_exact_tie() -> None:
    # Two seatings that move the same eight players with the same displacement (40 each) are
    # the only ones without a repeat when every other pair has met; which one wins depends on
    # the seed alone.
    first, second = ["adg", "bchi", "efj"], ["aef", "bchi", "dgj"]
    together = {frozenset(p) for t in first + second for p in itertools.combinations(t, 2)}
    ranking = "abcdefghij"
    met = {frozenset(p): 1 for p in itertools.combinations(ranking, 2)}
    met = {pair: 1 for pair in met if pair not in together}
    chosen = {seed: joined(swiss_round(ranking, [3, 4, 3], met, seed=seed)) for seed in range(8)}
    assert set(map(tuple, chosen.values())) == {tuple(first), tuple(second)}
    assert all(
        chosen[seed] == joined(swiss_round(ranking, [3, 4, 3], met, seed=seed)) for seed in chosen
    )


def test_the_tie_draw_is_the_documented_hash() -> None:
    assert tie_draw(42, 3, 1) == int(hashlib.sha256(b"42:3:1").hexdigest()[:8], 16)


# --- validation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranking", "sizes", "met", "message"),
    [
        ("abcdefg", [3, 3], None, "The table sizes add up to 6 seats, but 7 players are ranked"),
        ("abcdea", [3, 3], None, "'a' is ranked twice"),
        ("abcd", [3, 1], None, "Every table needs at least 2 players; 1 is given."),
        ("abcdef", [3, 3], {frozenset("abc"): 1}, "is not a pair"),
        ("abcdef", [3, 3], {frozenset("ab"): -1}, "'a' and 'b' met -1 times"),
    ],
)
def test_it_rejects_invalid_input(
    ranking: str, sizes: list[int], met: dict[frozenset[str], int] | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        swiss_round(ranking, sizes, met)


# --- properties --------------------------------------------------------------------------


@st.composite
def fields(
    draw: st.DrawFn, max_tables: int = 6
) -> tuple[list[str], list[int], dict[frozenset[str], int]]:
    sizes = draw(st.lists(st.sampled_from([3, 4]), min_size=1, max_size=max_tables))
    players = [f"p{i:02d}" for i in range(sum(sizes))]
    ranking = draw(st.permutations(players))
    pairs = [frozenset(p) for p in itertools.combinations(players, 2)]
    met = draw(
        st.dictionaries(st.sampled_from(pairs), st.integers(0, 3), max_size=3 * len(players))
    )
    return list(ranking), sizes, met


@given(fields(), st.integers(0, 2**32))
def test_it_partitions_the_players_with_no_more_repeats_and_nobody_moved_far(
    field: tuple[list[str], list[int], dict[frozenset[str], int]], seed: int
) -> None:
    ranking, sizes, met = field
    tables = swiss_round(ranking, sizes, met, seed=seed)
    assert [len(table) for table in tables] == sizes
    assert sorted(p for table in tables for p in table) == sorted(ranking)
    position = {player: i for i, player in enumerate(ranking)}
    assert all(list(table) == sorted(table, key=position.__getitem__) for table in tables)
    naive = naive_grouping(ranking, sizes)
    assert repeats(tables, met) <= repeats(naive, met)
    naive_table = table_of(naive)
    assert all(abs(t - naive_table[p]) <= 1 for p, t in table_of(tables).items())


def candidates(sizes: list[int]) -> Iterator[list[int]]:
    """Every assignment of ranks to tables with each rank at most one table from its naive
    table and each table full (brute force, for small fields)."""
    naive = [t for t, size in enumerate(sizes) for _ in range(size)]
    choices = [[t for t in (n - 1, n, n + 1) if 0 <= t < len(sizes)] for n in naive]
    for tables in itertools.product(*choices):
        if all(tables.count(t) == size for t, size in enumerate(sizes)):
            yield list(tables)


def displacement(assignment: list[int], sizes: list[int]) -> int:
    """Sum of squares of how far each rank lies outside its table's naive ranks."""
    starts = list(itertools.accumulate([0, *sizes]))
    total = 0
    for rank, t in enumerate(assignment):
        start, end = starts[t], starts[t + 1]
        total += (start - rank if rank < start else rank - end + 1 if rank >= end else 0) ** 2
    return total


@given(fields(max_tables=3))
@settings(max_examples=40)
def test_no_candidate_has_fewer_repeats_or_less_displacement(
    field: tuple[list[str], list[int], dict[frozenset[str], int]],
) -> None:
    ranking, sizes, met = field
    tables = swiss_round(ranking, sizes, met)
    position = {player: i for i, player in enumerate(ranking)}
    found = [0] * len(ranking)
    for t, table in enumerate(tables):
        for player in table:
            found[position[player]] = t

    def key(assignment: list[int]) -> tuple[int, int]:
        seated = [
            [ranking[r] for r, a in enumerate(assignment) if a == t] for t in range(len(sizes))
        ]
        return repeats(seated, met), displacement(assignment, sizes)

    assert key(found) == min(key(assignment) for assignment in candidates(sizes))
