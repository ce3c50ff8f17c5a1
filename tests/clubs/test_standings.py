"""clubs.standings: season tables from table sittings, a pure function of the set of sittings.

The worked example (``season``) is computed by hand in the comments; Hypothesis checks the
invariants over random seasons of three- and four-tables (``seasons``), which
``tests/clubs/test_ratings.py`` reuses.
"""

from __future__ import annotations

import ast
import sys
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubs.standings import (
    HandLine,
    LeaguePoints,
    Sitting,
    Standings,
    compute,
    sitting_league_points,
    sitting_places,
    sitting_totals,
)

ROOT = Path(__file__).resolve().parents[2]
LEAGUE = LeaguePoints({3: (3, 2, 1), 4: (4, 3, 2, 1)})
NAMES = ("anna", "bert", "carl", "dave", "eva", "fred")
START = datetime(2025, 1, 10, 19, 0)


def line(
    player: str, amount: int, *, out: bool = False, made: bool | None = None, premium: bool = False
) -> HandLine:
    """A hand line; ``made`` given means the player declared; ``out`` a sitting-out dealer."""
    return HandLine(
        player, amount, played=not out, declarer=made is not None, made=made, premium=premium
    )


# A 3-table on evening 1 (all play every hand) and a 4-table on evening 2 (the dealer sits out).
EVENING_1 = Sitting(
    key=1,
    evening="e1",
    at=START,
    players=("anna", "bert", "carl"),
    lines=(
        *(line("anna", 180, made=True), line("bert", 120), line("carl", -100)),
        *(line("anna", 0), line("bert", -300, made=False), line("carl", 0)),
        *(line("anna", -200), line("bert", -200), line("carl", 400, made=True, premium=True)),
    ),
    extra={"anna": 50, "bert": 50, "carl": 50},  # the pot split at close
)
# totals: anna 180 + 0 - 200 + 50 = 30, bert 120 - 300 - 200 + 50 = -330,
#         carl -100 + 0 + 400 + 50 = 350 → places carl 1, anna 2, bert 3 → points 3, 2, 1
EVENING_2 = Sitting(
    key=2,
    evening="e2",
    at=START + timedelta(days=7),
    players=("anna", "bert", "carl", "dave"),
    lines=(
        *(line("dave", -100, out=True), line("anna", 150, made=True)),
        *(line("bert", -25), line("carl", -25)),
        *(line("anna", -100, out=True), line("bert", 200, made=True)),
        *(line("carl", -50), line("dave", -50)),
        *(line("bert", -100, out=True), line("anna", 25, made=True)),
        *(line("carl", -25), line("dave", -25)),
    ),
)
# totals: anna 150 - 100 + 25 = 75, bert -25 + 200 - 100 = 75, carl -100, dave -175
# → anna and bert share first: (4 + 3) / 2 = 7/2 each; carl 2, dave 1


def season() -> list[Sitting]:
    return [EVENING_2, EVENING_1]


# ---------------------------------------------------------------------------------------------
# one sitting


def test_a_sittings_totals_add_lines_and_extra_for_every_seated_player() -> None:
    assert sitting_totals(EVENING_1) == {"anna": 30, "bert": -330, "carl": 350}
    empty = Sitting(key=9, evening="e", at=START, players=("anna", "bert", "carl"))
    assert sitting_totals(empty) == {"anna": 0, "bert": 0, "carl": 0}


def test_players_with_equal_totals_share_the_better_place() -> None:
    assert sitting_places(EVENING_2) == {"anna": 1, "bert": 1, "carl": 3, "dave": 4}


@pytest.mark.parametrize(
    ("amounts", "points"),
    [
        ((30, -330, 350), (2, 1, 3)),  # places 2, 3, 1
        ((50, 50, -100), (Fraction(5, 2), Fraction(5, 2), 1)),  # two share first: (3 + 2) / 2
        ((0, 0, 0), (2, 2, 2)),  # all three share: (3 + 2 + 1) / 3
        ((10, -10, -10), (3, Fraction(3, 2), Fraction(3, 2))),  # two share second
        ((5, 5, 5, -15), (3, 3, 3, 1)),  # three share first at a 4-table: (4 + 3 + 2) / 3
    ],
)
def test_tied_players_split_the_league_points_of_the_places_they_cover(
    amounts: tuple[int, ...], points: tuple[Fraction, ...]
) -> None:
    players = NAMES[: len(amounts)]
    sitting = Sitting(
        key=1,
        evening="e",
        at=START,
        players=players,
        lines=tuple(line(p, a) for p, a in zip(players, amounts, strict=True)),
    )
    assert sitting_league_points(sitting, LEAGUE) == dict(zip(players, points, strict=True))


def test_a_sitting_without_hands_awards_no_league_points() -> None:
    empty = Sitting(key=9, evening="e", at=START, players=("anna", "bert", "carl"))
    assert sitting_league_points(empty, LEAGUE) == {}


def test_league_points_are_exact_fractions_also_when_given_as_floats() -> None:
    league = LeaguePoints({3: (1.5, 0.5, 0.1)})
    assert league.for_size(3, sitting=1) == (Fraction(3, 2), Fraction(1, 2), Fraction(1, 10))


# ---------------------------------------------------------------------------------------------
# the worked example


def test_the_worked_example_with_league_points() -> None:
    table = compute(season(), league=LEAGUE, members=["eva"])
    got = [
        (
            r.rank,
            r.player,
            r.league_points,
            r.balance,
            r.hands_played,
            r.declared,
            r.made,
            r.premium_games,
            r.average_per_hand,
            r.evenings,
            r.sittings,
        )
        for r in table.rows
    ]
    assert got == [
        (1, "anna", Fraction(11, 2), 105, 5, 3, 3, 0, Fraction(21), 2, 2),
        (2, "carl", Fraction(5), 250, 6, 1, 1, 1, Fraction(125, 3), 2, 2),
        (3, "bert", Fraction(9, 2), -255, 5, 2, 1, 0, Fraction(-51), 2, 2),
        (4, "dave", Fraction(1), -175, 2, 0, 0, 0, Fraction(-175, 2), 1, 1),
        (5, "eva", Fraction(0), 0, 0, 0, 0, 0, Fraction(0), 0, 0),
    ]
    assert table.order == ("league_points", "balance", "average_per_hand", "made")


def test_without_a_league_the_table_is_ranked_by_balance() -> None:
    table = compute(season(), members=["eva"])
    assert [(r.rank, r.player, r.balance) for r in table.rows] == [
        (1, "carl", 250),
        (2, "anna", 105),
        (3, "eva", 0),  # a member who never sat is even, above those who lost
        (4, "dave", -175),
        (5, "bert", -255),
    ]
    assert all(r.league_points is None for r in table.rows)
    assert table.order == ("balance", "average_per_hand", "made")


def test_the_table_renders_as_plain_json() -> None:
    table = compute(season(), league=LEAGUE)
    assert table.to_json()["order"] == ["league_points", "balance", "average_per_hand", "made"]
    assert table.row("carl").to_json() == {
        "rank": 2,
        "player": "carl",
        "balance": 250,
        "score": 0,
        "hands_played": 6,
        "declared": 1,
        "made": 1,
        "premium_games": 1,
        "average_per_hand": 41.67,
        "evenings": 2,
        "sittings": 2,
        "league_points": 5.0,
    }
    assert table.row("anna").to_json()["league_points"] == 5.5
    with pytest.raises(KeyError):
        table.row("zoe")


def test_tiebreaks_go_balance_then_average_per_hand_then_games_made_then_share() -> None:
    # Ranked by balance alone: everyone ends on 100 except fred.
    sittings = [
        Sitting(  # anna: 100 in 1 hand; bert: 100 in 2 hands
            key=1,
            evening="e",
            at=START,
            players=("anna", "bert", "fred"),
            lines=(line("anna", 100), line("bert", 50), line("fred", -150))
            + (line("bert", 50), line("fred", -50)),
        ),
        Sitting(  # carl and dave: 100 in 1 hand, carl made a game, dave did not declare
            key=2,
            evening="e",
            at=START,
            players=("carl", "dave", "eva"),
            lines=(line("carl", 100, made=True), line("dave", 100), line("eva", 100)),
        ),
    ]
    table = compute(sittings)
    assert [(r.rank, r.player) for r in table.rows] == [
        (1, "carl"),  # 100, 100 per hand, 1 made
        (2, "anna"),  # 100, 100 per hand, 0 made: shares rank 2 with dave and eva, listed by id
        (2, "dave"),
        (2, "eva"),
        (5, "bert"),  # 100, 50 per hand
        (6, "fred"),
    ]


# ---------------------------------------------------------------------------------------------
# refused input


# ---------------------------------------------------------------------------------------------
# sittings scored as a whole (Russian Preferans: each pulya settled into whists)


def pulya(key: int, evening: str, scores: dict[str, int], money: int = 0) -> Sitting:
    """A Preferans sitting of three deals: the deals move nothing (amount 0), anna declares
    and makes the first; the pulya settled gives ``scores``, worth ``money`` cents each."""
    players = tuple(scores)
    return Sitting(
        key=key,
        evening=evening,
        at=START + timedelta(days=key),
        players=players,
        lines=tuple(
            line(p, 0, made=True if (deal, p) == (0, "anna") else None)
            for deal in range(3)
            for p in players
        ),
        extra={p: v * money for p, v in scores.items()} if money else {},
        scores=scores,
    )


def test_a_scored_sitting_places_its_players_by_score_not_money() -> None:
    sitting = pulya(1, "e1", {"anna": -40, "bert": 70, "carl": -30})
    assert sitting_totals(sitting) == {"anna": -40, "bert": 70, "carl": -30}
    assert sitting_places(sitting) == {"bert": 1, "carl": 2, "anna": 3}
    assert sitting_league_points(sitting, LEAGUE) == {"bert": 3, "carl": 2, "anna": 1}


def test_a_season_of_pulyas_ranks_by_whists_and_shows_the_money_beside_them() -> None:
    table = compute(
        [
            pulya(1, "e1", {"anna": -40, "bert": 70, "carl": -30}, money=10),
            pulya(2, "e2", {"anna": 100, "bert": -20, "carl": -80}),  # no whist price
        ]
    )
    assert table.order == ("score", "average_per_hand", "made")
    assert table.by_score
    assert [(r.player, r.rank, r.score, r.balance) for r in table.rows] == [
        ("anna", 1, 60, -400),
        ("bert", 2, 50, 700),
        ("carl", 3, -110, -300),
    ]
    assert table.row("anna").average_per_hand == Fraction(60, 6)
    assert table.row("anna").to_json()["score"] == 60


def test_money_and_pulyas_in_one_season_rank_by_money_with_the_whists_shown() -> None:
    table = compute([EVENING_1, pulya(5, "e5", {"anna": -40, "bert": 70, "carl": -30})])
    assert table.order == ("balance", "average_per_hand", "made")
    assert not table.by_score
    assert [(r.player, r.balance, r.score) for r in table.rows] == [
        ("carl", 350, -30),
        ("anna", 30, -40),
        ("bert", -330, 70),
    ]


def test_a_score_of_somebody_not_seated_is_refused() -> None:
    with pytest.raises(ValueError, match="not seated: 'zoe'"):
        Sitting(key=1, evening="e", at=START, players=("anna",), scores={"zoe": 1})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"played": False, "declarer": True, "made": True}, "must have played"),
        ({"declarer": True}, "`made` is a bool"),
        ({"made": False}, "`made` is a bool"),
        ({"premium": True}, "only the declarer"),
    ],
)
def test_inconsistent_hand_lines_are_refused(kwargs: dict[str, bool], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        HandLine("anna", 0, **kwargs)


def test_sittings_with_strangers_or_a_player_twice_are_refused() -> None:
    with pytest.raises(ValueError, match="not seated: 'dave'"):
        Sitting(key=1, evening="e", at=START, players=("anna", "bert"), lines=(line("dave", 5),))
    with pytest.raises(ValueError, match="not seated: 'eva'"):
        Sitting(key=1, evening="e", at=START, players=("anna", "bert"), extra={"eva": 5})
    with pytest.raises(ValueError, match="seated twice"):
        Sitting(key=1, evening="e", at=START, players=("anna", "anna"))


def test_a_sitting_given_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="sitting 1 is given twice"):
        compute([EVENING_1, EVENING_2, EVENING_1])


def test_a_table_size_without_league_points_is_refused() -> None:
    with pytest.raises(ValueError, match="sitting 2: no league points for a table of 4"):
        compute(season(), league=LeaguePoints({3: (3, 2, 1)}))


@pytest.mark.parametrize(
    ("by_size", "message"),
    [({3: (3, 2)}, "2 values given"), ({3: (1, 2, 3)}, "rise with the placing")],
)
def test_malformed_league_points_are_refused(
    by_size: dict[int, tuple[int, ...]], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        LeaguePoints(by_size)


# ---------------------------------------------------------------------------------------------
# random seasons


@st.composite
def seasons(draw: st.DrawFn, *, closed: bool = False) -> list[Sitting]:
    """Random sittings of three- and four-tables over a few evenings, with declarers, premium
    games and sitting-out dealers. Each hand's deltas sum to minus what went into the pot;
    with ``closed`` the pot is split among the players at the end (extra), else ``extra`` is
    random. Times repeat on purpose, so the key must break ties."""
    result = []
    for key in range(draw(st.integers(0, 7))):
        size = draw(st.sampled_from((3, 4)))
        players = tuple(draw(st.permutations(NAMES))[:size])
        lines: list[HandLine] = []
        pot = 0
        for hand in range(draw(st.integers(0, 4))):
            dealer = players[hand % size]
            active = [p for p in players if p != dealer] if size == 4 else list(players)
            declarer = draw(st.sampled_from([None, *active]))
            made = draw(st.booleans())
            premium = draw(st.booleans())
            for player in players:
                amount = draw(st.integers(-40, 40)) * 10
                pot -= amount
                lines.append(
                    HandLine(
                        player,
                        amount,
                        played=player in active,
                        declarer=player == declarer,
                        made=made if player == declarer else None,
                        premium=premium and player == declarer,
                    )
                )
        if closed:
            share, left = divmod(pot, size)
            extra = {p: share + (i < left) for i, p in enumerate(players)}
        else:
            extra = draw(st.dictionaries(st.sampled_from(players), st.integers(-100, 100)))
        result.append(
            Sitting(
                key=key,
                evening=draw(st.integers(0, 2)),
                at=START + timedelta(hours=draw(st.integers(0, 3))),
                players=players,
                lines=tuple(lines),
                extra=extra,
            )
        )
    return result


LEAGUES = st.sampled_from([None, LEAGUE])


@given(seasons(), st.data(), LEAGUES)
def test_the_order_of_the_sittings_does_not_matter(
    sittings: list[Sitting], data: st.DataObject, league: LeaguePoints | None
) -> None:
    shuffled = data.draw(st.permutations(sittings))
    assert compute(shuffled, league=league) == compute(sittings, league=league)


@given(seasons(closed=True))
def test_balances_sum_to_zero_when_the_pot_is_split_at_the_end(sittings: list[Sitting]) -> None:
    assert sum(r.balance for r in compute(sittings).rows) == 0


@given(seasons())
def test_balances_sum_to_minus_what_stayed_in_the_pot(sittings: list[Sitting]) -> None:
    in_pot = -sum(line.amount for s in sittings for line in s.lines)
    extra = sum(sum(s.extra.values()) for s in sittings)
    assert sum(r.balance for r in compute(sittings).rows) == extra - in_pot


def _season_sums(table: Standings) -> dict[str, tuple[object, ...]]:
    """Per player the parts that add up over disjoint sets of sittings (evenings aside)."""
    return {
        str(r.player): (
            r.balance,
            r.hands_played,
            r.declared,
            r.made,
            r.premium_games,
            r.sittings,
            r.league_points,
        )
        for r in table.rows
    }


@given(seasons(), st.data(), LEAGUES)
def test_adding_sittings_one_by_one_adds_up_to_the_whole_season(
    sittings: list[Sitting], data: st.DataObject, league: LeaguePoints | None
) -> None:
    whole = _season_sums(compute(sittings, league=league))
    zero = (0, 0, 0, 0, 0, 0, None if league is None else Fraction(0))
    running: dict[str, tuple[object, ...]] = {}
    so_far: list[Sitting] = []
    for sitting in data.draw(st.permutations(sittings)):
        so_far.append(sitting)
        one = _season_sums(compute([sitting], league=league))
        for player, parts in one.items():
            before = running.get(player, zero)
            running[player] = tuple(
                None if a is None else a + b  # type: ignore[operator]
                for a, b in zip(before, parts, strict=True)
            )
        assert _season_sums(compute(so_far, league=league)) == running
    assert running == whole


@given(seasons(), LEAGUES, st.lists(st.sampled_from(NAMES), max_size=3))
def test_ranks_are_competition_ranks_of_the_ranking_key(
    sittings: list[Sitting], league: LeaguePoints | None, members: list[str]
) -> None:
    rows = compute(sittings, league=league, members=members).rows

    def key(i: int) -> tuple[Fraction, int, Fraction, int]:
        r = rows[i]
        points = r.league_points if r.league_points is not None else Fraction(0)
        return (-points, -r.balance, -r.average_per_hand, -r.made)

    seated = {p for s in sittings for p in s.players}
    assert {r.player for r in rows} == seated | set(members)
    assert [(key(i), rows[i].player) for i in range(len(rows))] == sorted(
        (key(i), rows[i].player) for i in range(len(rows))
    )
    for i, row in enumerate(rows):
        assert row.rank == 1 + sum(1 for j in range(len(rows)) if key(j) < key(i))


# ---------------------------------------------------------------------------------------------
# purity


def test_standings_import_only_the_standard_library() -> None:
    tree = ast.parse((ROOT / "clubs" / "standings.py").read_text(encoding="utf-8"))
    modules = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}
