"""Doppelkopf through the API with the real parts (issue 27): PostgreSQL, Redis and a real
Celery worker. A club evening of eight at two tables of four under the DDV rules, its season
standings by game points computed by the worker; and a tournament of 16 over three DDV series
(rounds of 24 counted deals at four tables of four, Pflichtsoli and Vorführungen on top),
seated and ranked by the worker, the stored standings equal to a fresh computation and to the
game points of the recorded deals."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from django.conf import settings

from clubs.models import Club, Season
from clubs.services import seasons
from games.models import Hand, Seat, Table
from games.random_entries import random_entry
from tests.clubs.world import ClubWorld, build_club_world
from tests.conftest import WorkerProcess
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.test_lifecycle_services import fresh, ok, seated, up_to_date, wait_for
from tournaments.models import Entry
from tournaments.scoring import points_text

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RULES = {"variant": "doppelkopf-ddv", "point_value": 10}


def record_round(client: Any, table: Table, rng: random.Random) -> dict[str, int]:
    """Record random deals at ``table`` through the API until its DDV round is complete (the
    table's ``round`` says so); each seat's game points."""
    points: dict[str, int] = {}
    path = f"/api/v1/tables/{table.pk}/hands/"
    while ok(client.get(f"/api/v1/tables/{table.pk}/"))["round"]["round"] == 1:
        result = ok(client.post(path, random_entry(table, rng), format="json"), 201)["result"]
        for key, score in result["score"].items():
            points[key] = points.get(key, 0) + score
    hands = Hand.objects.filter(table=table)
    assert hands.count() - hands.filter(result__game__pflicht=True).count() == 24
    refused = client.post(path, random_entry(table, rng), format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "hand_limit"
    return points


def test_a_doppelkopf_evening_with_the_worker(celery_worker_process: WorkerProcess) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    w: ClubWorld = build_club_world()
    Club.objects.filter(pk=w.club.pk).update(default_rules=RULES)
    admin = w.client("admin")
    club = f"/api/v1/clubs/{w.club.pk}/"
    evening = f"{club}evenings/{w.evening.pk}/"
    body = {"name": "Saison", "starts_on": "2000-01-01", "ends_on": "2100-12-31"}
    season = ok(admin.post(club + "seasons/", {**body, "is_active": True}, format="json"), 201)
    for role in ("member", "scorer", "admin", "owner"):
        ok(w.client(role).put(evening + "attendance/", {"answer": "yes"}, format="json"))
        ok(w.client(role).post(evening + "check-ins/", {}, format="json"), 201)
    for name in ("Gustav", "Helga", "Ida", "Jakob"):
        ok(admin.post(evening + "check-ins/", {"guest_name": name}, format="json"), 201)

    ok(admin.post(evening + "rounds/", {"rounds_total": 1}, format="json"), 201)
    started = ok(admin.post(f"{evening}rounds/1/start/"))
    assert sorted(len(t["seats"]) for t in started["tables"]) == [4, 4]
    rng = random.Random(27)
    points: dict[str, int] = {}
    for table in started["tables"]:
        games_table = Table.objects.get(pk=table["table_id"])
        player = {
            s.key: f"u:{s.user_id}" if s.user_id else f"g:{s.guest_id}"
            for s in Seat.objects.filter(table=games_table)
        }
        for _ in range(8):
            path = f"/api/v1/tables/{games_table.pk}/hands/"
            entry = random_entry(games_table, rng)
            result = ok(w.client("scorer").post(path, entry, format="json"), 201)["result"]
            for key, score in result["score"].items():
                points[player[key]] = points.get(player[key], 0) + score
    settlement = ok(admin.post(evening + "close/"))
    assert settlement["score_unit"] == "points"
    assert {p["player"]: p["score"] for p in settlement["players"]} == points
    assert {p["player"]: p["net"] for p in settlement["players"]} == {
        k: 10 * v for k, v in points.items()
    }

    url = f"{club}seasons/{season['id']}/standings/"
    wait_for(
        lambda: (found := ok(w.client("member").get(url)))["up_to_date"] and found["rows"],
        "compute the standings",
    )
    stored = ok(w.client("member").get(url))
    assert stored["ranked_by"] == "score" and stored["score_unit"] == "points"
    assert {r["player"]: r["score"] for r in stored["rows"]} == points
    assert all(r["hands_played"] == 8 for r in stored["rows"])
    computed, _ = seasons.compute_standings(Season.objects.get(pk=season["id"]))
    assert [(r["player"], r["rank"]) for r in stored["rows"]] == [
        (str(r.player), r.rank) for r in computed.rows
    ]


def test_a_three_series_doppelkopf_tournament_of_16_with_the_worker(
    celery_worker_process: WorkerProcess,
) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    director = UserFactory.create(username="td")
    boss = client_for(director)
    body = {
        "name": "Doko-Pokal",
        "rules": RULES,
        "rounds_planned": 3,
        "deals_per_round": 24,
        "seating": "fewest_repeats",
        "scoring": "balance",
        "tiebreaks": ["best_round", "lots"],
        "real_money": True,
    }
    t = ok(boss.post("/api/v1/tournaments/", body, format="json"), 201)
    url = f"/api/v1/tournaments/{t['id']}/"
    ok(boss.post(url + "open-registration/", format="json"))
    users = [UserFactory.create(username=f"d{i:02d}") for i in range(16)]
    for user in users:
        ok(client_for(user).post(url + "entries/", {}, format="json"), 201)
    ok(boss.post(url + "open-check-in/", format="json"))
    for user in users:
        entry = Entry.objects.get(tournament_id=t["id"], user=user)
        ok(client_for(user).post(f"{url}entries/{entry.pk}/check-in/", format="json"))

    rng = random.Random(16)
    points: dict[int, int] = {}
    for number in (1, 2, 3):
        ok(boss.post(url + "rounds/", {}, format="json"), 202)
        rnd = seated(boss, url, number)
        assert sorted(len(x["players"]) for x in rnd["tables"]) == [4, 4, 4, 4]
        ok(boss.post(f"{url}rounds/{number}/start/", format="json"))
        for table in rnd["tables"]:
            games_table = Table.objects.get(pk=table["table"])
            users_at = {s.key: s.user_id for s in Seat.objects.filter(table=games_table)}
            for key, score in record_round(boss, games_table, rng).items():
                points[users_at[key]] = points.get(users_at[key], 0) + score
        ok(boss.post(f"{url}rounds/{number}/close/", format="json"))
        standings = up_to_date(url)
        assert standings["unit"] == "points"
        assert [(r["entry"], r["rank"], r["points"]) for r in standings["rows"]] == fresh(t["id"])

    ok(boss.post(url + "finish/", format="json"))

    # public reads may come from a cache of a second (PUBLIC_POLL_CACHE_SECONDS)
    def finished() -> dict[str, Any] | None:
        found: dict[str, Any] = up_to_date(url)
        return found if found["final"] else None

    final = wait_for(finished, "finish the standings")
    entry_user = dict(Entry.objects.filter(tournament_id=t["id"]).values_list("pk", "user_id"))
    assert {entry_user[r["entry"]]: r["points"] for r in final["rows"]} == {
        user: points_text(Fraction(p)) for user, p in points.items()
    }
    settlement = ok(boss.get(url + "settlement/"))
    # an entry whose game points sum to zero may be listed with net 0 or not at all
    nets = {entry_user[n["entry"]]: n["net"] for n in settlement["nets"] if n["net"]}
    assert nets == {user: 10 * p for user, p in points.items() if p}
    assert settlement["pot"] == 0
