"""The pure core of cups and ranking lists (``tournaments/cups.py``): one test per rule, with
small readable cups; ``needs`` against the final's table over every permutation of its
placings. No database. The independent recomputation and the property tests are in
``test_cups_properties.py``."""

from __future__ import annotations

import itertools
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import cups
from tournaments.cups import Event, Player, PolicyError, Result

MONDAY = date(2024, 1, 1)


def event(id: int, *, day: date | None = None, size: int = 10, final: bool = False) -> Event:
    """Event ``id`` held ``id`` weeks after the first (unless ``day`` says otherwise)."""
    return Event(id, day or MONDAY + timedelta(weeks=id), size, final)


def result(event: int, player: int, placing: int, score: Any = None, rounds: int = 0) -> Result:
    return Result(event, player, placing, None if score is None else Fraction(score), rounds)


NAMES = {1: "Anna", 2: "Bert", 3: "Cilli", 4: "Dora", 5: "Ernst", 6: "Fritz", 7: "Gerti"}
PLAYERS = [Player(i, name) for i, name in NAMES.items()]


def table(
    policy: dict[str, Any],
    events: list[Event],
    results: list[Result],
    players: list[Player] = PLAYERS,
    **kwargs: Any,
) -> cups.Standings:
    return cups.standings(cups.parse_policy(policy), events, results, players, **kwargs)


def ranks(standings: cups.Standings) -> list[tuple[int, int | None]]:
    """(player, rank) in listing order."""
    return [(row.player, row.rank) for row in standings.overall]


def counted(row: cups.Row) -> list[int | None]:
    return [d.event for d in row.details if d.status == "counted"]


TOP5 = {"table": [100, 80, 65, 55, 50]}
SCORE: dict[str, Any] = {"score": {}}


# --- the policy JSON ---------------------------------------------------------------------


def test_parse_policy_fills_in_the_defaults() -> None:
    policy = cups.parse_policy({"points": TOP5})
    assert policy == cups.Policy(points=cups.PointsRule("table", table=(100, 80, 65, 55, 50)))
    assert policy.to_json() == {
        "points": TOP5,
        "participation": 0,
        "best_of": None,
        "min_events": 0,
        "window": None,
        "side_rankings": [],
        "tiebreaks": ["better_placings", "best_result", "latest"],
    }


@pytest.mark.parametrize(
    "data",
    [
        {"points": TOP5, "best_of": 6, "min_events": 4, "participation": 5},
        {
            "points": {
                "stages": [{"from_field": 1, "table": [10]}, {"from_field": 40, "table": [20]}]
            }
        },
        {"points": {"field": {"factor": 2, "bonus": [5, 3]}}, "side_rankings": ["region"]},
        {"points": SCORE, "window": {"months": 24, "min_rounds": 36}, "tiebreaks": []},
    ],
)
def test_a_policy_reads_back_from_its_normalised_json(data: dict[str, Any]) -> None:
    policy = cups.parse_policy(data)
    assert cups.parse_policy(policy.to_json()) == policy


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ([], "", "not_an_object"),
        ({}, "points", "required"),
        ({"points": TOP5, "bestof": 6}, "bestof", "unknown_key"),
        ({"points": {}}, "points", "points_kind"),
        ({"points": {"table": [3], "score": {}}}, "points", "points_kind"),
        ({"points": {"table": []}}, "points.table", "empty"),
        ({"points": {"table": [10, 12]}}, "points.table[1]", "rising"),
        ({"points": {"table": [10, -1]}}, "points.table[1]", "too_small"),
        ({"points": {"table": [10, 2.5]}}, "points.table[1]", "not_an_integer"),
        ({"points": {"table": [True]}}, "points.table[0]", "not_an_integer"),
        ({"points": {"table": "100"}}, "points.table", "not_a_list"),
        ({"points": {"stages": []}}, "points.stages", "empty"),
        ({"points": {"stages": [{"from_field": 2, "table": [1]}]}}, "points.stages[0].from_field",
         "stages_order"),
        ({"points": {"stages": [{"from_field": 1, "table": [1]}, {"from_field": 1, "table": [1]}]}},
         "points.stages[1].from_field", "stages_order"),
        ({"points": {"stages": [{"from_field": 1}]}}, "points.stages[0].table", "required"),
        ({"points": {"field": {"bonus": [1]}}}, "points.field.factor", "required"),
        ({"points": {"field": {"factor": 1, "bonus": [1, 2]}}}, "points.field.bonus[1]", "rising"),
        ({"points": {"score": {"round": 1}}}, "points.score.round", "unknown_key"),
        ({"points": TOP5, "best_of": 0}, "best_of", "too_small"),
        ({"points": TOP5, "participation": -1}, "participation", "too_small"),
        ({"points": TOP5, "min_events": "4"}, "min_events", "not_an_integer"),
        ({"points": TOP5, "window": {"min_rounds": 36}}, "window.months", "required"),
        ({"points": TOP5, "window": {"months": 0}}, "window.months", "too_small"),
        ({"points": TOP5, "side_rankings": ["region", "region"]}, "side_rankings[1]", "duplicate"),
        ({"points": TOP5, "side_rankings": ["a:b"]}, "side_rankings[0]", "not_a_name"),
        ({"points": TOP5, "side_rankings": [""]}, "side_rankings[0]", "not_a_name"),
        ({"points": TOP5, "tiebreaks": ["coin"]}, "tiebreaks[0]", "unknown_tiebreak"),
        ({"points": TOP5, "tiebreaks": ["latest", "latest"]}, "tiebreaks[1]", "duplicate"),
        ({"points": {"table": list(range(10_001, 0, -1))}}, "points.table", "too_long"),
    ],
)  # fmt: skip
def test_parse_policy_refuses_what_it_does_not_define(data: Any, field: str, code: str) -> None:
    with pytest.raises(PolicyError) as caught:
        cups.parse_policy(data)
    assert (caught.value.field, caught.value.code) == (field, code)
    assert caught.value.message == cups.MESSAGES[code].format(**caught.value.params)


def test_a_policy_error_fills_in_its_message_template() -> None:
    with pytest.raises(PolicyError) as caught:
        cups.parse_policy({"points": TOP5, "best_of": 0})
    assert caught.value.params == {"minimum": 1}
    assert caught.value.message == "This must be at least 1."
    assert isinstance(caught.value, ValueError)


def test_parse_final_reads_a_final_and_none_is_no_final() -> None:
    assert cups.parse_final(None) is None
    final = cups.parse_final({"points": TOP5})
    assert final == cups.FinalPolicy(points=cups.PointsRule("table", table=(100, 80, 65, 55, 50)))
    data = {"qualify": {"top": 24, "min_events": 4}, "carry": [30, 25, 21], "points": TOP5}
    parsed = cups.parse_final(data)
    assert parsed is not None and parsed.to_json() == data


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({"qualify": {"top": 24}}, "points", "required"),
        ({"points": SCORE}, "points.score", "final_score"),
        ({"points": TOP5, "carry": [10, 20]}, "carry[1]", "rising"),
        ({"points": TOP5, "qualify": {"top": 0}}, "qualify.top", "too_small"),
        ({"points": TOP5, "qualify": {"best": 3}}, "qualify.best", "unknown_key"),
        ({"points": TOP5, "participation": 1}, "participation", "unknown_key"),
    ],
)
def test_parse_final_refuses_what_it_does_not_define(data: Any, field: str, code: str) -> None:
    with pytest.raises(PolicyError) as caught:
        cups.parse_final(data)
    assert (caught.value.field, caught.value.code) == (field, code)


# --- event points ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "placing", "field_size", "expected"),
    [
        (TOP5, 1, 10, 100),  # the table, first first
        (TOP5, 5, 10, 50),
        (TOP5, 6, 10, 0),  # beyond the table: 0
        # the Ö-Finale's stages: the table of the largest from_field <= the field size
        ({"stages": [{"from_field": 1, "table": [20, 10]}, {"from_field": 40, "table": [50, 30]}]},
         1, 39, 20),
        ({"stages": [{"from_field": 1, "table": [20, 10]}, {"from_field": 40, "table": [50, 30]}]},
         2, 40, 30),
        # (field size - placing + 1) * factor + bonus[placing - 1]
        ({"field": {"factor": 2, "bonus": [10, 5]}}, 1, 12, 34),
        ({"field": {"factor": 2, "bonus": [10, 5]}}, 3, 12, 20),
        ({"field": {"factor": 2}}, 12, 12, 2),
        ({"field": {"factor": 2, "bonus": [10]}}, 14, 12, 0),  # beyond the field: never below 0
    ],
)  # fmt: skip
def test_a_result_earns_the_points_of_its_placing(
    points: dict[str, Any], placing: int, field_size: int, expected: int
) -> None:
    standings = table({"points": points}, [event(1, size=field_size)], [result(1, 1, placing)])
    assert standings.overall[0].points == expected


def test_a_score_rule_counts_the_tournaments_own_score_exactly() -> None:
    standings = table(
        {"points": SCORE}, [event(1), event(2)], [result(1, 1, 1, "7/2"), result(2, 1, 2, -3)]
    )
    assert standings.overall[0].points == Fraction(1, 2)
    assert cups.points_text(standings.overall[0].points) == "1/2"


def test_a_result_without_a_score_earns_nothing_under_a_score_rule_and_says_so() -> None:
    row = table({"points": SCORE}, [event(1)], [result(1, 1, 1)]).overall[0]
    assert row.points == 0
    assert row.details[0].to_json() == {
        "event": 1,
        "placing": 1,
        "points": "0",
        "status": "counted",
        "reason": "",
        "note": "no_score",
    }


def test_participation_points_are_added_to_each_event_played() -> None:
    standings = table(
        {"points": TOP5, "participation": 5},
        [event(1), event(2)],
        [result(1, 1, 1), result(2, 1, 9)],
    )
    assert standings.overall[0].points == 105 + 5


# --- best k of n, minimums, the final ----------------------------------------------------


def test_the_best_k_events_count_and_the_others_are_dropped() -> None:
    events = [event(i) for i in range(1, 5)]
    results = [result(1, 1, 3), result(2, 1, 1), result(3, 1, 5), result(4, 1, 2)]
    row = table({"points": TOP5, "best_of": 2}, events, results).overall[0]
    assert (row.points, row.counted, row.played) == (180, 2, 4)
    assert [(d.event, d.status, d.reason) for d in row.details] == [
        (1, "dropped", "not_best"),
        (2, "counted", ""),
        (3, "dropped", "not_best"),
        (4, "counted", ""),
    ]


def test_a_players_equal_results_count_the_better_placing_first() -> None:
    # beyond the table both earn 0: the better placing (6th) counts
    results = [result(1, 1, 9), result(2, 1, 6)]
    row = table({"points": TOP5, "best_of": 1}, [event(1), event(2)], results).overall[0]
    assert counted(row) == [2]


def test_a_players_equal_results_and_placings_count_the_later_event_then_the_lower_id() -> None:
    later = table(
        {"points": TOP5, "best_of": 1}, [event(1), event(2)], [result(1, 1, 2), result(2, 1, 2)]
    ).overall[0]
    assert counted(later) == [2]
    same_day = [event(5, day=MONDAY), event(3, day=MONDAY)]
    lower = table(
        {"points": TOP5, "best_of": 1}, same_day, [result(5, 1, 2), result(3, 1, 2)]
    ).overall[0]
    assert counted(lower) == [3]


def test_players_below_min_events_are_listed_after_the_ranked_without_a_rank() -> None:
    events = [event(1), event(2)]
    results = [result(1, 1, 1), result(1, 2, 4), result(2, 2, 5)]
    standings = table({"points": TOP5, "min_events": 2}, events, results)
    assert ranks(standings) == [(2, 1), (1, None)]
    assert [row.position for row in standings.overall] == [1, 2]
    assert standings.row(1).points == 100 and not standings.row(1).ranked


def test_min_events_zero_ranks_everyone_who_played() -> None:
    standings = table({"points": TOP5}, [event(1)], [result(1, 1, 9), result(1, 2, 1)])
    assert ranks(standings) == [(2, 1), (1, 2)]


def test_the_finals_results_do_not_count_in_the_cup() -> None:
    events = [event(1), event(2, final=True)]
    standings = table({"points": TOP5}, events, [result(1, 1, 3), result(2, 1, 1)])
    row = standings.overall[0]
    assert (row.points, row.played, row.counted) == (65, 1, 1)
    assert [(d.event, d.status, d.reason) for d in row.details] == [
        (1, "counted", ""),
        (2, "dropped", "final"),
    ]


def test_a_player_with_only_a_final_result_is_listed_but_not_ranked() -> None:
    events = [event(1), event(2, final=True)]
    standings = table({"points": TOP5}, events, [result(1, 1, 3), result(2, 2, 1)])
    assert ranks(standings) == [(1, 1), (2, None)]


# --- the rolling window (a ranking list) -------------------------------------------------

DDV = {"points": SCORE, "window": {"months": 24, "min_rounds": 36}}


def test_the_window_counts_events_after_as_of_minus_months_up_to_as_of() -> None:
    as_of = date(2024, 3, 31)
    events = [
        event(1, day=date(2024, 2, 29)),  # as_of - 1 month (clamped to February's end): out
        event(2, day=date(2024, 3, 1)),  # in
        event(3, day=as_of),  # in
        event(4, day=date(2024, 4, 1)),  # after as_of: out
    ]
    results = [result(e.id, 1, 1, 10**e.id, 1) for e in events]
    row = table({"points": SCORE, "window": {"months": 1}}, events, results, as_of=as_of).overall[0]
    assert [(d.event, d.status, d.reason) for d in row.details] == [
        (1, "dropped", "outside_window"),
        (2, "counted", ""),
        (3, "counted", ""),
        (4, "dropped", "outside_window"),
    ]
    assert row.played == 2 and row.points == Fraction(100 + 1000, 2)


def test_the_window_defaults_to_the_latest_event_that_is_not_the_final() -> None:
    events = [
        event(1, day=date(2022, 1, 10)),
        event(2, day=date(2024, 1, 10)),
        event(3, day=date(2024, 6, 1), final=True),
    ]
    results = [result(1, 1, 1, 5, 1), result(2, 1, 1, 7, 1)]
    row = table({"points": SCORE, "window": {"months": 24}}, events, results).overall[0]
    assert counted(row) == [2]  # 2022-01-10 is exactly 24 months before 2024-01-10: out


def test_the_window_ranks_by_the_average_per_round_and_needs_min_rounds() -> None:
    events = [event(1), event(2)]
    results = [
        result(1, 1, 1, 120, 24),
        result(2, 1, 2, 60, 12),  # 180 / 36 rounds = 5
        result(1, 2, 2, 130, 20),  # 6.5 per round, but only 20 rounds: not ranked
        result(1, 3, 3, 100, 24),
        result(2, 3, 1, 83, 12),  # 183 / 36
    ]
    standings = table(DDV, events, results)
    assert ranks(standings) == [(3, 1), (1, 2), (2, None)]
    assert standings.row(3).average == standings.row(3).points == Fraction(183, 36)
    assert (standings.row(1).rounds, standings.row(2).rounds) == (36, 20)


def test_a_player_without_counted_rounds_has_an_average_of_zero() -> None:
    row = table({"points": SCORE, "window": {"months": 24}}, [event(1)], [result(1, 1, 1, 9, 0)])
    assert row.overall[0].average == 0


def test_without_a_window_there_is_no_average() -> None:
    assert table({"points": TOP5}, [event(1)], [result(1, 1, 1)]).overall[0].average is None


# --- tiebreaks and shared ranks ----------------------------------------------------------


def test_better_placings_counts_first_places_then_second_places_and_so_on() -> None:
    # equal points (the score rule), placings [1, 3, 3] against [1, 4, 4], and [1, 3] against
    # [1, 3, 5] (one more fifth place)
    events = [event(i) for i in range(1, 4)]
    results = [
        *(result(e, 1, p, 10) for e, p in zip((1, 2, 3), (1, 4, 4), strict=True)),
        *(result(e, 2, p, 10) for e, p in zip((1, 2, 3), (1, 3, 3), strict=True)),
        *(result(e, 3, p, 15) for e, p in zip((1, 2), (1, 3), strict=True)),
        *(result(e, 4, p, 10) for e, p in zip((1, 2, 3), (3, 1, 5), strict=True)),
    ]
    standings = table({"points": SCORE, "tiebreaks": ["better_placings"]}, events, results)
    assert ranks(standings) == [(2, 1), (4, 2), (3, 3), (1, 4)]


def test_best_result_prefers_the_best_single_event() -> None:
    results = [result(1, 1, 1, 10), result(2, 1, 2, 10), result(1, 2, 2, 5), result(2, 2, 1, 15)]
    standings = table(
        {"points": SCORE, "tiebreaks": ["best_result"]}, [event(1), event(2)], results
    )
    assert ranks(standings) == [(2, 1), (1, 2)]


def test_latest_prefers_the_better_placing_at_the_latest_event_both_played() -> None:
    events = [event(1), event(2), event(3)]
    results = [
        result(1, 1, 1, 10),
        result(2, 1, 4, 0),
        result(1, 2, 4, 0),
        result(2, 2, 1, 10),
        result(3, 2, 9, 0),  # Bert alone at the latest: it does not decide
    ]
    standings = table({"points": SCORE, "tiebreaks": ["latest"]}, events, results)
    assert ranks(standings) == [(2, 1), (1, 2)]


def test_latest_looks_further_back_when_both_placed_equal_there() -> None:
    results = [result(1, 1, 1, 5), result(2, 1, 3, 5), result(1, 2, 2, 5), result(2, 2, 3, 5)]
    standings = table({"points": SCORE, "tiebreaks": ["latest"]}, [event(1), event(2)], results)
    assert ranks(standings) == [(1, 1), (2, 2)]


def test_players_who_never_played_together_share_a_rank_by_latest() -> None:
    results = [result(1, 1, 1, 5), result(2, 2, 2, 5)]
    standings = table({"points": SCORE, "tiebreaks": ["latest"]}, [event(1), event(2)], results)
    assert ranks(standings) == [(1, 1), (2, 1)]


def test_latest_between_more_than_two_orders_by_head_to_head_balance() -> None:
    # Anna beats Bert and Cilli, Bert beats Cilli, each at their latest common event; Dora
    # never met anyone: balance 0, like Bert (+1 - 1)
    events = [event(1), event(2), event(3), event(4)]
    results = [
        result(1, 1, 1, 5),
        result(1, 2, 2, 5),
        result(2, 2, 1, 5),
        result(2, 3, 2, 5),
        result(3, 1, 1, 5),
        result(3, 3, 2, 5),
        result(4, 4, 1, 10),
    ]
    standings = table({"points": SCORE, "tiebreaks": ["latest"]}, events, results)
    assert ranks(standings) == [(1, 1), (2, 2), (4, 2), (3, 4)]


def test_a_cycle_by_latest_stays_tied() -> None:
    events = [event(1), event(2), event(3)]
    results = [
        *(result(1, p, pl, 5) for p, pl in ((1, 1), (2, 2))),
        *(result(2, p, pl, 5) for p, pl in ((2, 1), (3, 2))),
        *(result(3, p, pl, 5) for p, pl in ((3, 1), (1, 2))),
    ]
    standings = table({"points": SCORE, "tiebreaks": ["latest"]}, events, results)
    assert ranks(standings) == [(1, 1), (2, 1), (3, 1)]


def test_the_tiebreaks_apply_in_the_policys_order() -> None:
    # Anna: placings [1, 5] best result 12; Bert: placings [2, 2], best result 15
    results = [result(1, 1, 1, 12), result(2, 1, 5, 8), result(1, 2, 2, 15), result(2, 2, 2, 5)]
    events = [event(1), event(2)]
    first = table(
        {"points": SCORE, "tiebreaks": ["better_placings", "best_result"]}, events, results
    )
    assert ranks(first) == [(1, 1), (2, 2)]
    second = table(
        {"points": SCORE, "tiebreaks": ["best_result", "better_placings"]}, events, results
    )
    assert ranks(second) == [(2, 1), (1, 2)]


def test_equal_players_share_a_rank_and_the_next_rank_skips() -> None:
    players = [Player(1, "zoe"), Player(2, "Ben"), Player(3, "anna"), Player(4, "Anna")]
    results = [result(1, 1, 1, 9), result(1, 2, 2, 5), result(1, 3, 2, 5), result(1, 4, 4, 1)]
    standings = table({"points": SCORE}, [event(1)], results, players)
    assert ranks(standings) == [(1, 1), (3, 2), (2, 2), (4, 4)]  # by name, any case, then id
    assert [row.position for row in standings.overall] == [1, 2, 3, 4]


# --- side rankings -----------------------------------------------------------------------


def test_side_rankings_restrict_the_overall_order_and_rerank() -> None:
    players = [
        Player(1, "Anna", {"region": "Tirol", "category": "women"}),
        Player(2, "Bert", {"region": "Kärnten"}),
        Player(3, "Cilli", {"region": "Tirol", "category": "women"}),
        Player(4, "Dora", {"region": "Tirol", "category": ""}),
        Player(5, "Ernst", {}),
    ]
    results = [result(1, p, pl, s) for p, pl, s in ((2, 1, 9), (1, 2, 5), (3, 2, 5), (4, 3, 4))]
    results += [result(1, 5, 5, 1)]
    standings = table(
        {"points": SCORE, "side_rankings": ["region", "category"], "min_events": 1},
        [event(1)],
        results,
        players,
    )
    assert ranks(standings) == [(2, 1), (1, 2), (3, 2), (4, 4), (5, 5)]
    assert sorted(standings.side) == ["category:women", "region:Kärnten", "region:Tirol"]
    tirol = standings.side["region:Tirol"]
    assert [(r.player, r.position, r.rank) for r in tirol] == [(1, 1, 1), (3, 2, 1), (4, 3, 3)]
    assert [(r.player, r.rank) for r in standings.side["category:women"]] == [(1, 1), (3, 1)]
    assert tirol[0].points == standings.row(1).points


def test_side_rankings_list_unranked_players_without_a_rank() -> None:
    players = [Player(1, "Anna", {"club": "Graz"}), Player(2, "Bert", {"club": "Graz"})]
    results = [result(1, 1, 1), result(1, 2, 2), result(2, 2, 1)]
    standings = table(
        {"points": TOP5, "min_events": 2, "side_rankings": ["club"]},
        [event(1), event(2)],
        results,
        players,
    )
    assert [(r.player, r.rank) for r in standings.side["club:Graz"]] == [(2, 1), (1, None)]


# --- history -----------------------------------------------------------------------------


def test_rank_history_records_each_players_rank_when_it_changes() -> None:
    events = [event(1), event(2), event(3), event(4, final=True)]
    results = [
        result(1, 1, 1),
        result(1, 2, 2),
        result(2, 3, 1),  # Cilli: 100, ties Anna; the latest common event: none, shared
        result(3, 2, 1),  # Bert: 180, first
        result(4, 1, 1),  # the final changes nothing
    ]
    history = cups.rank_history(cups.parse_policy({"points": TOP5}), events, results, PLAYERS)
    assert history == {
        1: [(1, 1), (3, 2)],
        2: [(1, 2), (2, 3), (3, 1)],
        3: [(2, 1), (3, 2)],
    }


def test_rank_history_follows_the_window_as_results_leave_it() -> None:
    events = [
        event(1, day=date(2024, 1, 1)),
        event(2, day=date(2024, 2, 10)),
        event(3, day=date(2024, 3, 5)),
    ]
    results = [result(1, 1, 1, 10, 1), result(2, 2, 1, 5, 1), result(3, 3, 1, 1, 1)]
    policy = cups.parse_policy({"points": SCORE, "window": {"months": 2}})
    history = cups.rank_history(policy, events, results, PLAYERS)
    # on 2024-03-05 Anna's result of 2024-01-01 has left the window
    assert history == {1: [(1, 1), (3, None)], 2: [(2, 2), (3, 1)], 3: [(3, 2)]}


# --- the final ---------------------------------------------------------------------------


def cup_of(scores: dict[int, int], played: dict[int, int] | None = None) -> cups.Standings:
    """A cup whose players' points are ``scores`` (ties stay ties), each with ``played``
    events (default 1)."""
    played = played or {}
    events = [event(i) for i in range(1, 6)]
    results = []
    for player, score in scores.items():
        n = played.get(player, 1)
        results += [result(e, player, 1, score if e == 1 else 0) for e in range(1, n + 1)]
    return table({"points": SCORE, "tiebreaks": []}, events, results)


def test_the_best_ranked_players_with_enough_events_qualify() -> None:
    standings = cup_of({1: 50, 2: 40, 3: 30, 4: 20, 5: 10}, played={1: 4, 2: 3, 3: 4, 4: 4, 5: 4})
    final = cups.parse_final({"qualify": {"top": 3, "min_events": 4}, "points": TOP5})
    assert final is not None
    assert cups.qualified(final, standings) == (1, 3, 4)


def test_players_tied_with_the_last_qualifier_qualify_too() -> None:
    standings = cup_of({1: 50, 2: 40, 3: 40, 4: 20})
    final = cups.parse_final({"qualify": {"top": 2}, "points": TOP5})
    assert final is not None
    assert cups.qualified(final, standings) == (1, 2, 3)


def test_unranked_players_do_not_qualify() -> None:
    events = [event(1), event(2)]
    results = [result(1, 1, 1), result(2, 1, 1), result(1, 2, 2)]
    standings = table({"points": TOP5, "min_events": 2}, events, results)
    final = cups.parse_final({"points": TOP5})
    assert final is not None and cups.qualified(final, standings) == (1,)


def test_the_final_adds_the_placing_points_to_the_points_carried_in() -> None:
    standings = cup_of({1: 50, 2: 40, 3: 40, 4: 20, 5: 5}, played={5: 1})
    final = cups.parse_final(
        {"qualify": {"top": 4}, "carry": [30, 25, 21], "points": {"table": [20, 10, 5]}}
    )
    assert final is not None
    events = [event(1), event(9, final=True, size=5)]
    results = [
        result(9, 1, 4),  # 30 + 0
        result(9, 2, 2),  # 25 + 10 (Bert and Cilli share the 2nd rank: both carry 25)
        result(9, 3, 3),  # 25 + 5
        result(9, 4, 1),  # 0 + 20 (rank 4: beyond the carry table)
        result(9, 5, 5),  # a wildcard: carries nothing
    ]
    rows = cups.final_standings(final, standings, events, results)
    assert [(r.player, r.rank, r.points) for r in rows] == [
        (2, 1, 35),
        (3, 2, 30),  # ties with Anna: the better final placing
        (1, 3, 30),
        (4, 4, 20),
        (5, 5, 0),
    ]
    assert [d.to_json() for d in rows[0].details] == [
        {
            "event": None,
            "placing": 2,
            "points": "25",
            "status": "carried",
            "reason": "",
            "note": "",
        },
        {"event": 9, "placing": 2, "points": "10", "status": "counted", "reason": "", "note": ""},
    ]


def test_equal_final_totals_are_split_by_final_placing_then_cup_rank() -> None:
    standings = cup_of({1: 50, 2: 40, 3: 30})
    final = cups.parse_final({"carry": [10, 5, 5], "points": {"table": [5, 5, 0]}})
    assert final is not None
    events = [event(9, final=True, size=3)]
    by_placing = cups.final_standings(
        final, standings, events, [result(9, 1, 3), result(9, 2, 1), result(9, 3, 2)]
    )
    assert [(r.player, r.rank) for r in by_placing] == [(2, 1), (3, 2), (1, 3)]
    by_cup_rank = cups.final_standings(
        final, standings, events, [result(9, 1, 3), result(9, 2, 2), result(9, 3, 2)]
    )
    assert [(r.player, r.rank) for r in by_cup_rank] == [(2, 1), (3, 2), (1, 3)]


def test_before_the_final_is_played_the_table_shows_the_points_carried_in() -> None:
    standings = cup_of({1: 50, 2: 40, 3: 40})
    final = cups.parse_final({"carry": [30, 25], "points": TOP5})
    assert final is not None
    rows = cups.final_standings(final, standings, [event(1)], [])
    assert [(r.player, r.rank, r.points, r.played) for r in rows] == [
        (1, 1, 30, 0),
        (2, 2, 25, 0),
        (3, 2, 25, 0),
    ]


def test_needs_tells_each_contender_the_ranks_each_placing_brings() -> None:
    standings = cup_of({1: 50, 2: 40, 3: 30})
    final = cups.parse_final({"carry": [30, 20, 10], "points": {"table": [20, 10, 0]}})
    assert final is not None
    needs = cups.needs(final, standings, 3)
    leader = [(n.placing, n.total, n.best_rank, n.worst_rank, n.wins) for n in needs[1]]
    # winning the final wins the cup; 2nd: Bert winning the final has 40 too and the better
    # placing; 3rd: Bert 2nd (30) and Cilli 1st (30) both placed better, and with Bert 1st
    # (40) Cilli has 20: 2nd at best
    assert leader == [(1, 50, 1, 1, "sure"), (2, 40, 1, 2, "possible"), (3, 30, 2, 3, "no")]
    third = [(n.placing, n.best_rank, n.worst_rank, n.wins) for n in needs[3]]
    # Cilli 1st has 30: Anna 3rd (30) and Bert 2nd (30) tie and are placed worse; only Anna
    # 2nd (40) passes her
    assert third == [(1, 1, 2, "possible"), (2, 2, 3, "no"), (3, 3, 3, "no")]


def test_an_equal_total_goes_to_the_better_final_placing_so_winning_the_final_is_sure() -> None:
    standings = cup_of({1: 50, 2: 40, 3: 30})
    final = cups.parse_final({"carry": [6, 4, 2], "points": {"table": [10, 6, 3]}})
    assert final is not None
    # Cilli, third of the cup, wins the final: 2 + 10 = 12; Anna second has 6 + 6 = 12 too
    cilli_first = cups.needs(final, standings, 3)[3][0]
    assert (cilli_first.total, cilli_first.best_rank, cilli_first.worst_rank) == (12, 1, 1)
    assert cilli_first.wins == "sure"
    # and the final's table says the same
    final_event = event(9, final=True, size=3)
    rows = cups.final_standings(
        final, standings, [final_event], [result(9, 3, 1), result(9, 1, 2), result(9, 2, 3)]
    )
    assert [(r.player, r.rank, r.points) for r in rows] == [(3, 1, 12), (1, 2, 12), (2, 3, 7)]
    # Anna second: Cilli first ties her and is above; Bert first (14) too: 2nd whatever
    anna_second = cups.needs(final, standings, 3)[1][1]
    assert (anna_second.best_rank, anna_second.worst_rank, anna_second.wins) == (2, 2, "no")


def test_needs_counts_wildcards_beyond_the_qualified_as_carrying_nothing() -> None:
    standings = cup_of({1: 50})
    final = cups.parse_final({"carry": [5], "points": {"table": [20, 10]}})
    assert final is not None
    second = cups.needs(final, standings, 2)[1][1]
    assert (second.total, second.best_rank, second.worst_rank) == (15, 2, 2)
    with pytest.raises(ValueError):
        cups.needs(final, cup_of({1: 50, 2: 40}), 1)


def test_needs_refuses_final_points_that_rise_with_the_placing() -> None:
    final = cups.FinalPolicy(points=cups.PointsRule("table", table=(5, 10)))
    with pytest.raises(ValueError):
        cups.needs(final, cup_of({1: 50}), 2)


def final_table_over_every_permutation(
    final: cups.FinalPolicy, standings: cups.Standings, field_size: int
) -> dict[tuple[int, int], tuple[Fraction, int, int]]:
    """(total, best rank, worst rank) of each qualified player at each placing, read from
    :func:`~tournaments.cups.final_standings` over every way the field can place: the
    qualified players, then the cup's other players and new ones as wildcards."""
    contenders = list(cups.qualified(final, standings))
    wildcards = [r.player for r in standings.overall if r.player not in contenders]
    wildcards += range(100, 100 + field_size)
    field = contenders + wildcards[: field_size - len(contenders)]
    events = [event(9, final=True, size=field_size)]
    seen: dict[tuple[int, int], tuple[Fraction, int, int]] = {}
    for placings in itertools.permutations(range(1, field_size + 1)):
        results = [result(9, p, q) for p, q in zip(field, placings, strict=True)]
        rows = cups.final_standings(final, standings, events, results)
        assert len({r.rank for r in rows}) == field_size  # distinct placings: no shared rank
        by_player = dict(zip(field, placings, strict=True))
        for row in rows:
            if row.player not in contenders:
                continue
            key, rank = (row.player, by_player[row.player]), row.rank
            assert rank is not None
            total, best, worst = seen.get(key, (row.points, rank, rank))
            assert total == row.points
            seen[key] = (total, min(best, rank), max(worst, rank))
    return seen


@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(st.integers(0, 6), min_size=1, max_size=7),
    top=st.none() | st.integers(1, 7),
    carry=st.lists(st.integers(0, 10), max_size=7),
    worth=st.lists(st.integers(0, 10), min_size=1, max_size=7),
    extra=st.integers(0, 2),
)
def test_needs_matches_the_finals_table_over_every_permutation_of_the_final(
    scores: list[int], top: int | None, carry: list[int], worth: list[int], extra: int
) -> None:
    carry.sort(reverse=True)
    worth.sort(reverse=True)
    standings = cup_of(dict(enumerate(scores, 1)))
    final = cups.parse_final({"qualify": {"top": top}, "carry": carry, "points": {"table": worth}})
    assert final is not None
    contenders = cups.qualified(final, standings)
    field_size = min(7, len(contenders) + extra)
    got = cups.needs(final, standings, field_size)
    expected = final_table_over_every_permutation(final, standings, field_size)
    assert sorted(got) == sorted(contenders)
    for player, items in got.items():
        assert [n.placing for n in items] == list(range(1, field_size + 1))
        for need in items:
            total, best, worst = expected[player, need.placing]
            assert (need.total, need.best_rank, need.worst_rank) == (total, best, worst)
            wins = "sure" if worst == 1 else "possible" if best == 1 else "no"
            assert need.wins == wins, (player, need)


def test_points_text_writes_integers_and_fractions_in_lowest_terms() -> None:
    assert [
        cups.points_text(v) for v in (Fraction(14, 2), Fraction(7, 2), -3, Fraction(-6, 4))
    ] == [
        "7",
        "7/2",
        "-3",
        "-3/2",
    ]
