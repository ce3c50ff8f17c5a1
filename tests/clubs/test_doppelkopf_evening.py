"""A club evening of Doppelkopf (issue 27): tables of four only, everybody plays every deal (no
dealer sits out), a count that is not a multiple of four is refused with what would work; a
``doppelkopf-ddv`` season ranks by game points (summed deal by deal) with the money beside,
which the players paid one another deal by deal; the evening's settlement shows both.

Both rule sets are engine-only until offered: these tests turn on ``PREVIEW_RULE_SETS``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubs.models import Club, EveningRound, EveningTable, Guest, Rating, Season
from games import services as games
from games.models import Table
from games.random_entries import random_entry
from tests.clubs.evening_setup import a_season, check_in
from tests.clubs.world import ClubWorld, build_club_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

DDV = {"variant": "doppelkopf-ddv", "point_value": 10}
KASSE = {"variant": "doppelkopf", "base": 20, "ante": 10}
DEALS = 6
MEMBERS = ("member", "scorer", "admin", "owner")


@pytest.fixture(autouse=True)
def preview(settings: Any) -> None:
    settings.PREVIEW_RULE_SETS = True


def player_of(seat: Any) -> str:
    return f"u:{seat.user_id}" if seat.user_id else f"g:{seat.guest_id}"


def evening_of(rules: dict[str, Any], players: int) -> ClubWorld:
    """The club's default ``rules``, a season, ``players`` checked in (the four members and
    guests)."""
    w = build_club_world()
    Club.objects.filter(pk=w.club.pk).update(default_rules=rules)
    w.club.refresh_from_db()
    a_season(w)
    guests = [Guest.objects.create(club=w.club, name=f"Gast {i}") for i in range(players - 4)]
    check_in(w.evening, *(w.users[r] for r in MEMBERS), *guests)
    return w


def url(w: ClubWorld, rest: str = "") -> str:
    return f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/{rest}"


def seated(w: ClubWorld) -> list[Table]:
    planned = w.client("admin").post(url(w, "rounds/"), {"rounds_total": 1}, format="json")
    assert planned.status_code == 201, planned.json()
    started = w.client("admin").post(url(w, "rounds/1/start/"))
    assert started.status_code == 200, started.json()
    return [link.table for link in EveningTable.objects.filter(evening=w.evening)]


@pytest.mark.parametrize("players", [6, 7, 9])
def test_a_count_that_is_not_a_multiple_of_four_is_refused_with_what_would_work(
    players: int,
) -> None:
    w = evening_of(DDV, players)
    answer = w.client("admin").post(url(w, "rounds/"), {"rounds_total": 1}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "unsplittable"
    assert f"{players} players" in body["message"]
    below, above = players - players % 4, players - players % 4 + 4
    assert str(below) in body["message"] and str(above) in body["message"]
    assert not EveningRound.objects.exists()


def test_a_ddv_evening_ranks_by_game_points_and_everybody_plays_every_deal() -> None:
    w = evening_of(DDV, 8)
    tables = seated(w)
    assert [t.seats.count() for t in tables] == [4, 4]
    owner = w.users["owner"]
    rng = random.Random(27)
    points: dict[str, int] = {}
    money: dict[str, int] = {}
    for table in tables:
        seat_player = {s.key: player_of(s) for s in table.seats.all()}
        for _ in range(DEALS):
            entry = random_entry(table, rng)
            result = games.table_record_hand(table_id=table.pk, user=owner, entry=entry).result
            for key, score in result["score"].items():
                points[seat_player[key]] = points.get(seat_player[key], 0) + score
            for key, delta in result["delta"].items():
                money[seat_player[key]] = money.get(seat_player[key], 0) + delta
    assert sum(points.values()) == 0 and any(points.values())
    assert money == {p: 10 * v for p, v in points.items()}  # point_value 10, paid deal by deal

    season = Season.objects.get(pk=w.extra["season"])
    standings = w.client("member").get(f"/api/v1/clubs/{w.club.pk}/seasons/{season.pk}/standings/")
    answer = standings.json()
    assert answer["ranked_by"] == "score" and answer["score_unit"] == "points"
    rows = answer["rows"]
    assert {r["player"]: r["score"] for r in rows} == points
    assert {r["player"]: r["balance"] for r in rows} == money
    assert [r["score"] for r in rows] == sorted(points.values(), reverse=True)
    assert all(r["hands_played"] == DEALS for r in rows)  # no dealer sits out

    provisional = w.client("member").get(url(w, "settlement/")).json()
    assert provisional["score_unit"] == "points"
    assert {p["player"]: (p["net"], p["score"]) for p in provisional["players"]} == {
        p: (money[p], points[p]) for p in points
    }
    closed = w.client("admin").post(url(w, "close/"))
    assert closed.status_code == 200, closed.json()
    assert {p["player"]: p["net"] for p in closed.json()["players"]} == money
    after = w.client("member").get(f"/api/v1/clubs/{w.club.pk}/seasons/{season.pk}/standings/")
    assert {r["player"]: r["balance"] for r in after.json()["rows"]} == money  # not twice
    # ratings: each table of four a sitting that places its players by their game points
    ratings = {r.player: r for r in Rating.objects.filter(club=w.club)}
    assert set(ratings) == set(points) and all(r.sittings == 1 for r in ratings.values())
    for table in tables:
        seats = [player_of(s) for s in table.seats.all()]
        best = max(seats, key=lambda p: points[p])
        worst = min(seats, key=lambda p: points[p])
        if points[best] > points[worst]:
            assert ratings[best].mu > ratings[worst].mu


def test_a_kasse_evening_ranks_by_money_and_keeps_each_tables_kasse_as_its_pot() -> None:
    w = evening_of(KASSE, 4)
    (table,) = seated(w)
    owner = w.users["owner"]
    rng = random.Random(4)
    for _ in range(DEALS):
        games.table_record_hand(table_id=table.pk, user=owner, entry=random_entry(table, rng))
    season = Season.objects.get(pk=w.extra["season"])
    answer = (
        w.client("member").get(f"/api/v1/clubs/{w.club.pk}/seasons/{season.pk}/standings/").json()
    )
    assert answer["ranked_by"] == "balance" and answer["score_unit"] is None
    assert all(r["hands_played"] == DEALS for r in answer["rows"])
    settlement = w.client("member").get(url(w, "settlement/")).json()
    nets = sum(p["net"] for p in settlement["players"])
    assert nets + settlement["pot_net"] == 0  # what the players lost is in the Kasse
