"""The cups core (``tournaments/cups.py``) against an independent, naive recomputation on
random cups (hypothesis), its properties, and fixtures mirroring the real cups: a
Raiffeisen-like season (32 tournaments, the best 6 count, 4 to qualify, a final with carried
points) and a DDV-like rolling list (24 months, 36 rounds).

The oracle is written differently on purpose: it selects counted results by repeated maximum
(and checks the sum against every combination), compares placings by counting each placing,
computes the window's start by stepping back month by month, and ranks a player as 1 + the
number of players strictly better by a full comparison against everyone."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, replace
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import cups
from tournaments.cups import Event, Player, Result

# --- the oracle --------------------------------------------------------------------------


@dataclass
class Expected:
    points: Fraction
    counted: frozenset[int]
    played: int
    rounds: int
    ranked: bool
    vector: tuple[Any, ...] = ()
    rank: int | None = None


def _month_back(day: date, months: int) -> date:
    year, month = day.year, day.month
    for _ in range(months):
        month -= 1
        if month == 0:
            year, month = year - 1, 12
    last = 31
    while True:
        try:
            return date(year, month, min(day.day, last))
        except ValueError:
            last -= 1


def _worth(data: dict[str, Any], result: Result, event: Event) -> Fraction:
    """A result's event points, straight from the policy JSON."""
    rule = data["points"]
    placing, size = result.placing, event.field_size
    if "score" in rule:
        value = result.score if result.score is not None else Fraction(0)
    elif "table" in rule:
        value = Fraction(([*rule["table"], *[0] * placing])[placing - 1])
    elif "stages" in rule:
        stage = [s for s in rule["stages"] if s["from_field"] <= size][-1]
        value = Fraction(([*stage["table"], *[0] * placing])[placing - 1])
    else:
        factor, bonus = rule["field"]["factor"], rule["field"].get("bonus", [])
        value = Fraction(factor * (size - placing + 1) if placing <= size else 0)
        value += bonus[placing - 1] if placing <= len(bonus) else 0
    return value + data.get("participation", 0)


def oracle(
    data: dict[str, Any],
    events: list[Event],
    results: list[Result],
    players: list[Player],
    as_of: date | None = None,
) -> tuple[dict[int, Expected], list[int]]:
    """Each listed player's expected line, and the expected listing order."""
    by_id = {e.id: e for e in events}
    window = data.get("window")
    if as_of is None:
        days = [e.held_on for e in events if not e.is_final]
        as_of = max(days) if days else None

    def in_scope(event: Event) -> bool:
        if event.is_final:
            return False
        if window is None:
            return True
        if as_of is None:
            return False
        return _month_back(as_of, window["months"]) < event.held_on <= as_of

    names = {p.id: p.name for p in players}
    out: dict[int, Expected] = {}
    mine: dict[int, list[Result]] = {}
    for r in results:
        mine.setdefault(r.player, []).append(r)
    for player, rs in mine.items():
        scope = [r for r in rs if in_scope(by_id[r.event])]
        k = data.get("best_of") or len(scope)
        left, chosen = list(scope), list[Result]()
        while left and len(chosen) < k:
            pick = max(
                left,
                key=lambda r: (
                    _worth(data, r, by_id[r.event]),
                    -r.placing,
                    by_id[r.event].held_on,
                    -r.event,
                ),
            )
            chosen.append(pick)
            left.remove(pick)
        total = sum((_worth(data, r, by_id[r.event]) for r in chosen), Fraction(0))
        size = min(k, len(scope))
        if math.comb(len(scope), size) <= 2000:  # every choice of k: the best sum
            best_sum = max(
                sum((_worth(data, r, by_id[r.event]) for r in combo), Fraction(0))
                for combo in itertools.combinations(scope, size)
            )
        else:  # the k largest values
            values = sorted((_worth(data, r, by_id[r.event]) for r in scope), reverse=True)
            best_sum = sum(values[:size], Fraction(0))
        assert total == best_sum
        rounds = sum(r.rounds for r in chosen)
        points = total
        if window is not None:
            points = total / rounds if rounds else Fraction(0)
        ranked = len(scope) >= max(1, data.get("min_events", 0))
        if window is not None:
            ranked = ranked and rounds >= window.get("min_rounds", 0)
        out[player] = Expected(
            points, frozenset(r.event for r in chosen), len(scope), rounds, ranked
        )

    placings = {(r.player, r.event): r.placing for r in results if in_scope(by_id[r.event])}
    chosen_by = {p: [r for r in mine[p] if r.event in out[p].counted] for p in out}

    def head_to_head(a: int, b: int) -> int:
        common = [e for e in by_id.values() if (a, e.id) in placings and (b, e.id) in placings]
        for e in sorted(common, key=lambda e: (e.held_on, e.id), reverse=True):
            if placings[a, e.id] != placings[b, e.id]:
                return 1 if placings[a, e.id] < placings[b, e.id] else -1
        return 0

    tiebreaks = data.get("tiebreaks", list(cups.TIEBREAKS))
    top = max([r.placing for r in results] + [1]) + 1
    before: dict[int, list[Any]] = {}
    for p, line in out.items():
        vector: list[Any] = [-line.points]
        for name in tiebreaks:
            if name == "latest":
                break
            if name == "better_placings":
                counts = [sum(r.placing == q for r in chosen_by[p]) for q in range(1, top)]
                vector.append([-c for c in counts])
            else:
                values = [_worth(data, r, by_id[r.event]) for r in chosen_by[p]]
                vector.append((0, -max(values)) if values else (1, 0))
        before[p] = vector
    for p, line in out.items():
        vector = list(before[p])
        if "latest" in tiebreaks:
            tie = [q for q in out if out[q].ranked == line.ranked and before[q] == before[p]]
            vector.append(-sum(head_to_head(p, q) for q in tie if q != p))
            for name in tiebreaks[tiebreaks.index("latest") + 1 :]:
                if name == "better_placings":
                    counts = [sum(r.placing == q for r in chosen_by[p]) for q in range(1, top)]
                    vector.append([-c for c in counts])
                else:
                    values = [_worth(data, r, by_id[r.event]) for r in chosen_by[p]]
                    vector.append((0, -max(values)) if values else (1, 0))
        line.vector = tuple(vector)
    for line in out.values():
        if line.ranked:
            line.rank = 1 + sum(1 for q in out if out[q].ranked and out[q].vector < line.vector)
    order = sorted(out, key=lambda p: (not out[p].ranked, out[p].vector, names[p].casefold(), p))
    return out, order


# --- random cups -------------------------------------------------------------------------

REGIONS = ("Tirol", "Kärnten", "")
NAMES = ("Anna", "anna", "Bert", "Cilli", "Dora")


@st.composite
def policies(draw: st.DrawFn, *, window: bool | None = None) -> dict[str, Any]:
    kind = draw(st.sampled_from(["table", "stages", "field", "score"]))
    descending = st.lists(st.integers(0, 30), min_size=1, max_size=5).map(
        lambda t: sorted(t, reverse=True)
    )
    if kind == "table":
        points: dict[str, Any] = {"table": draw(descending)}
    elif kind == "stages":
        points = {
            "stages": [
                {"from_field": 1, "table": draw(descending)},
                {"from_field": draw(st.integers(2, 6)), "table": draw(descending)},
            ]
        }
    elif kind == "field":
        points = {"field": {"factor": draw(st.integers(0, 3)), "bonus": draw(descending)}}
    else:
        points = {"score": {}}
    data: dict[str, Any] = {
        "points": points,
        "participation": draw(st.integers(0, 3)),
        "best_of": draw(st.none() | st.integers(1, 4)),
        "min_events": draw(st.integers(0, 3)),
        "side_rankings": draw(st.sampled_from([[], ["region"], ["region", "club"]])),
        "tiebreaks": draw(st.permutations(cups.TIEBREAKS).flatmap(lambda t: st.just(list(t))))[
            : draw(st.integers(0, 3))
        ],
    }
    if window is None:
        window = draw(st.booleans())
    if window:
        data["window"] = {
            "months": draw(st.integers(1, 30)),
            "min_rounds": draw(st.integers(0, 12)),
        }
    return data


@st.composite
def cup_data(draw: st.DrawFn, *, window: bool | None = None) -> tuple[Any, ...]:
    data = draw(policies(window=window))
    count = draw(st.integers(1, 6))
    spread = draw(st.sampled_from([3, 40, 1200]))
    days = draw(st.lists(st.integers(0, spread), min_size=count, max_size=count))
    final = draw(st.none() | st.integers(0, count - 1))
    players = [
        Player(
            i,
            draw(st.sampled_from(NAMES)),
            {"region": draw(st.sampled_from(REGIONS)), "club": draw(st.sampled_from("AB"))},
        )
        for i in range(1, draw(st.integers(1, 7)) + 1)
    ]
    events, results = [], []
    for index, day in enumerate(days):
        here = draw(st.lists(st.sampled_from(players), unique=True, max_size=len(players)))
        event = Event(
            10 + (index * 7) % count,  # ids not in date order
            date(2022, 1, 1) + timedelta(days=day),
            len(here) + draw(st.integers(0, 2)),
            index == final,
        )
        events.append(event)
        for p in here:
            score = draw(st.none() | st.fractions(-20, 40, max_denominator=3))
            placing = draw(st.integers(1, max(1, len(here))))
            results.append(Result(event.id, p.id, placing, score, draw(st.integers(0, 12))))
    return data, events, results, players


def compare(data: dict[str, Any], events: Any, results: Any, players: Any, **kw: Any) -> None:
    """The core's standings equal the oracle's."""
    table = cups.standings(cups.parse_policy(data), events, results, players, **kw)
    expected, order = oracle(data, events, results, players, **kw)
    assert [row.player for row in table.overall] == order
    for row in table.overall:
        line = expected[row.player]
        got = frozenset(d.event for d in row.details if d.status == "counted")
        assert (row.points, got, row.played, row.rounds, row.ranked, row.rank) == (
            line.points,
            line.counted,
            line.played,
            line.rounds,
            line.ranked,
            line.rank,
        ), row.player
    assert [row.position for row in table.overall] == list(range(1, len(order) + 1))


@settings(max_examples=200, deadline=None)
@given(cup_data())
def test_the_standings_match_an_independent_recomputation(cup: tuple[Any, ...]) -> None:
    compare(*cup)


@settings(max_examples=60, deadline=None)
@given(cup_data(window=True), st.integers(0, 1300))
def test_a_ranking_list_matches_the_recomputation_on_any_date(
    cup: tuple[Any, ...], offset: int
) -> None:
    compare(*cup, as_of=date(2022, 1, 1) + timedelta(days=offset))


@settings(max_examples=100, deadline=None)
@given(cup_data())
def test_the_rank_history_is_the_standings_after_each_event(cup: tuple[Any, ...]) -> None:
    data, events, results, players = cup
    policy = cups.parse_policy(data)
    history = cups.rank_history(policy, events, results, players)
    steps = sorted((e for e in events if not e.is_final), key=lambda e: (e.held_on, e.id))
    now: dict[int, int | None] = {}
    for i, step in enumerate(steps):
        held = {e.id for e in steps[: i + 1]}
        so_far = [r for r in results if r.event in held]
        table = cups.standings(policy, events, so_far, players, as_of=step.held_on)
        for row in table.overall:
            entries = [rank for event, rank in history[row.player] if event == step.id]
            if entries:
                now[row.player] = entries[0]
            assert now[row.player] == row.rank, (step.id, row.player)
    finals = {e.id for e in events if e.is_final}
    assert set(history) == {r.player for r in results if r.event not in finals}


@settings(max_examples=100, deadline=None)
@given(cup_data())
def test_side_rankings_are_the_overall_order_restricted(cup: tuple[Any, ...]) -> None:
    data, events, results, players = cup
    table = cups.standings(cups.parse_policy(data), events, results, players)
    by_id = {p.id: p for p in players}
    for key, rows in table.side.items():
        attribute, value = key.split(":", 1)
        restricted = [
            r for r in table.overall if by_id[r.player].attributes.get(attribute) == value
        ]
        assert [r.player for r in rows] == [r.player for r in restricted]
        for i, (side, overall) in enumerate(zip(rows, restricted, strict=True)):
            assert side.position == i + 1 and side.points == overall.points
            above = [
                r for r in restricted[:i] if r.rank is not None and r.rank < (overall.rank or 0)
            ]
            assert side.rank == (None if overall.rank is None else 1 + len(above))
    keys = {
        f"{a}:{p.attributes.get(a)}"
        for a in data["side_rankings"]
        for p in players
        if p.attributes.get(a) and any(r.player == p.id for r in table.overall)
    }
    assert set(table.side) == keys


@settings(max_examples=100, deadline=None)
@given(cup_data(), st.randoms(use_true_random=False))
def test_the_order_of_the_inputs_does_not_matter(cup: tuple[Any, ...], rnd: random.Random) -> None:
    data, events, results, players = cup
    policy = cups.parse_policy(data)
    shuffled = [list(x) for x in (events, results, players)]
    for x in shuffled:
        rnd.shuffle(x)
    assert cups.standings(policy, events, results, players) == cups.standings(policy, *shuffled)


def _points(table: cups.Standings) -> dict[int, Fraction]:
    return {row.player: row.points for row in table.overall}


@settings(max_examples=100, deadline=None)
@given(cup_data(window=False), st.data())
def test_adding_a_result_never_lowers_a_best_k_total_and_a_worse_one_changes_nothing(
    cup: tuple[Any, ...], draw: st.DataObject
) -> None:
    data, events, results, players = cup
    data = {**data, "points": {"table": [10, 6, 3]}}  # never negative
    player = draw.draw(st.sampled_from(players))
    new_event = Event(999, date(2021, 6, 1), 3)
    placing = draw.draw(st.integers(1, 5))
    policy = cups.parse_policy(data)
    before = cups.standings(policy, events, results, players)
    after = cups.standings(
        policy, [*events, new_event], [*results, Result(999, player.id, placing, None, 1)], players
    )
    old, new = _points(before).get(player.id, Fraction(0)), _points(after)[player.id]
    assert new >= old
    row = before.overall[[r.player for r in before.overall].index(player.id)] if old else None
    if row is not None and data["best_of"] and row.counted == data["best_of"]:
        worst = min(d.points for d in row.details if d.status == "counted")
        worth = cups.PointsRule("table", table=(10, 6, 3)).for_placing(placing, 3)
        if worth + data["participation"] <= worst:
            assert new == old


@settings(max_examples=100, deadline=None)
@given(cup_data(), st.data())
def test_a_result_added_for_one_player_changes_no_other_players_points(
    cup: tuple[Any, ...], draw: st.DataObject
) -> None:
    data, events, results, players = cup
    player = draw.draw(st.sampled_from(players))
    free = [
        e for e in events if not any(r.event == e.id and r.player == player.id for r in results)
    ]
    if not free:
        return
    event = draw.draw(st.sampled_from(free))
    policy = cups.parse_policy(data)
    as_of = date(2022, 1, 1) + timedelta(days=draw.draw(st.integers(0, 1300)))
    before = _points(cups.standings(policy, events, results, players, as_of=as_of))
    added = Result(event.id, player.id, draw.draw(st.integers(1, 6)), Fraction(3), 2)
    after = _points(cups.standings(policy, events, [*results, added], players, as_of=as_of))
    assert {p: v for p, v in after.items() if p != player.id} == {
        p: v for p, v in before.items() if p != player.id
    }


@settings(max_examples=100, deadline=None)
@given(cup_data(), st.data())
def test_a_correction_in_one_event_changes_only_its_players_points(
    cup: tuple[Any, ...], draw: st.DataObject
) -> None:
    data, events, results, players = cup
    event = draw.draw(st.sampled_from(events))
    corrected = [
        replace(
            r,
            placing=draw.draw(st.integers(1, 6)),
            score=draw.draw(st.none() | st.fractions(-9, 9, max_denominator=2)),
            rounds=draw.draw(st.integers(0, 9)),
        )
        if r.event == event.id
        else r
        for r in results
    ]
    policy = cups.parse_policy(data)
    as_of = max(e.held_on for e in events)
    before = _points(cups.standings(policy, events, results, players, as_of=as_of))
    after = _points(cups.standings(policy, events, corrected, players, as_of=as_of))
    there = {r.player for r in results if r.event == event.id}
    assert {p: v for p, v in after.items() if p not in there} == {
        p: v for p, v in before.items() if p not in there
    }


# --- the real cups -----------------------------------------------------------------------

RAIFFEISEN = {
    "points": {"table": [100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 23, 20, 18, 16, 14, 12, 10]},
    "participation": 2,
    "best_of": 6,
    "side_rankings": ["region"],
}
RAIFFEISEN_FINAL: dict[str, Any] = {
    "qualify": {"top": 24, "min_events": 4},
    "carry": [30, 25, 21, 18, 16, 14, 12, 10, 8, 6, 5, 4, 3, 2, 1],
    "points": {"table": [40, 32, 26, 21, 17, 14, 12, 10, 8, 6, 4, 2]},
}


def raiffeisen_season() -> tuple[list[Event], list[Result], list[Player]]:
    """32 tournaments from September to April, 160 players of whom 30 to 60 play each one,
    and the final in May."""
    rnd = random.Random(2024)
    regions = ["Wien", "Niederösterreich", "Steiermark", "Oberösterreich"]
    players = [Player(i, f"Spieler {i:03}", {"region": rnd.choice(regions)}) for i in range(1, 161)]
    events = [Event(i, date(2023, 9, 2) + timedelta(days=7 * i), 0) for i in range(1, 33)]
    results = []
    regulars = players[:40]
    sized = []
    for e in events:
        field = rnd.sample(regulars, 20) + rnd.sample(players[40:], rnd.randint(10, 40))
        rnd.shuffle(field)
        sized.append(replace(e, field_size=len(field)))
        results += [Result(e.id, p.id, i, None, 6) for i, p in enumerate(field, 1)]
    return sized, results, players


def test_a_raiffeisen_like_season_matches_the_recomputation_and_runs_its_final() -> None:
    events, results, players = raiffeisen_season()
    final_event = Event(99, date(2024, 5, 11), 24, is_final=True)
    compare(RAIFFEISEN, events, results, players)
    policy = cups.parse_policy(RAIFFEISEN)
    table = cups.standings(policy, [*events, final_event], results, players)
    assert all(row.counted <= 6 for row in table.overall)
    assert sum(row.played for row in table.overall) == len(results)
    final = cups.parse_final(RAIFFEISEN_FINAL)
    assert final is not None
    finalists = cups.qualified(final, table)
    assert len(finalists) >= 24
    assert all(table.row(p).played >= 4 for p in finalists)
    assert (
        cups.qualified(final, table)
        == tuple(r.player for r in table.overall if r.played >= 4 and r.rank is not None)[
            : len(finalists)
        ]
    )
    # before the final: the leader carries 30; what each contender needs
    before = cups.final_standings(final, table, [*events, final_event], [])
    assert before[0].player == finalists[0] and before[0].points == 30
    needs = cups.needs(final, table, len(finalists))
    assert needs[finalists[0]][0].wins == "sure"  # the leader wins the cup by winning the final
    assert {n.wins for n in needs[finalists[-1]]} <= {"possible", "no"}
    # the final: placings in reverse cup order
    final_results = [Result(99, p, i, None, 4) for i, p in enumerate(reversed(finalists), 1)]
    done = cups.final_standings(final, table, [*events, final_event], [*results, *final_results])
    assert [r.position for r in done] == list(range(1, len(finalists) + 1))
    totals = {r.player: r.points for r in done}
    for rank, player in enumerate(finalists, 1):
        row = table.row(player)
        qualified_rank = 1 + sum(1 for q in finalists if (table.row(q).rank or 0) < (row.rank or 0))
        carry = RAIFFEISEN_FINAL["carry"]
        carried = carry[qualified_rank - 1] if qualified_rank <= len(carry) else 0
        placing = len(finalists) - rank + 1
        table_points = RAIFFEISEN_FINAL["points"]["table"]
        won = table_points[placing - 1] if placing <= len(table_points) else 0
        assert totals[player] == carried + won


def ddv_list() -> tuple[list[Event], list[Result], list[Player]]:
    """Three years of tournaments (two a month) with 1 or 2 series of 4 to 8 rounds each: the
    rolling list of the last 24 months, ranked from 36 rounds."""
    rnd = random.Random(36)
    players = [Player(i, f"Spielerin {i}", {}) for i in range(1, 301)]
    events = [Event(i, date(2022, 1, 8) + timedelta(days=15 * i), 0) for i in range(1, 73)]
    results, sized = [], []
    for e in events:
        field = rnd.sample(players, 4 * rnd.randint(3, 8))
        rounds = rnd.randint(1, 2) * rnd.randint(4, 8)
        sized.append(replace(e, field_size=len(field)))
        scores = sorted((rnd.randint(-60, 120) for _ in field), reverse=True)
        results += [
            Result(e.id, p.id, i, Fraction(s), rounds)
            for i, (p, s) in enumerate(zip(field, scores, strict=True), 1)
        ]
    return sized, results, players


DDV = {"points": {"score": {}}, "window": {"months": 24, "min_rounds": 36}, "tiebreaks": []}


def test_a_ddv_like_rolling_list_matches_the_recomputation() -> None:
    events, results, players = ddv_list()
    compare(DDV, events, results, players)
    compare(DDV, events, results, players, as_of=date(2023, 6, 30))
    table = cups.standings(cups.parse_policy(DDV), events, results, players)
    latest = max(e.held_on for e in events)
    old = {e.id for e in events if e.held_on <= date(latest.year - 2, latest.month, latest.day)}
    assert old
    for row in table.overall:
        assert row.ranked == (row.rounds >= 36)
        assert row.points == row.average
        for d in row.details:
            assert (d.reason == "outside_window") == (d.event in old)
    assert any(not r.ranked for r in table.overall) and any(r.ranked for r in table.overall)
