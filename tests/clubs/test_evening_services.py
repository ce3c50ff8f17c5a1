"""A whole club evening through the API, with a real Celery worker (Redis broker, PostgreSQL):
answers, check-in, three rounds seated by the seating service, hands recorded at every table,
a correction, the evening closed and settled, and the season standings and club ratings
computed by the worker."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.conf import settings

from clubs import ratings as rating_core
from clubs.models import Rating, Season
from clubs.services import seasons
from games.models import Table
from tests.clubs.evening_setup import random_entry
from tests.clubs.world import ClubWorld, build_club_world
from tests.conftest import WorkerProcess

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 60.0


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


def wait_for(check: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"the worker did not {what} in time")
        time.sleep(0.3)


def season_and_six_checked_in(w: ClubWorld) -> dict[str, Any]:
    """Through the API: an active season, and six players checked in to the world's evening
    (four members answer and check in themselves, the admin checks in two guests). Answers
    the season."""
    admin = w.client("admin")
    club = f"/api/v1/clubs/{w.club.pk}/"
    evening = f"{club}evenings/{w.evening.pk}/"
    season: dict[str, Any] = ok(
        admin.post(
            club + "seasons/",
            {
                "name": "Saison",
                "starts_on": "2000-01-01",
                "ends_on": "2100-12-31",
                "is_active": True,
            },
            format="json",
        ),
        201,
    )
    for role in ("member", "scorer", "admin", "owner"):
        ok(w.client(role).put(evening + "attendance/", {"answer": "yes"}, format="json"))
        ok(w.client(role).post(evening + "check-ins/", {}, format="json"), 201)
    for name in ("Gustav", "Helga"):
        ok(admin.post(evening + "check-ins/", {"guest_name": name}, format="json"), 201)
    return season


def test_a_whole_evening_with_the_worker(celery_worker_process: WorkerProcess) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    w: ClubWorld = build_club_world()
    admin = w.client("admin")
    club = f"/api/v1/clubs/{w.club.pk}/"
    evening = f"{club}evenings/{w.evening.pk}/"
    season = season_and_six_checked_in(w)

    rng = random.Random(2026)
    for number in (1, 2, 3):
        planned = ok(admin.post(evening + "rounds/", {"rounds_total": 3}, format="json"), 201)
        assert planned["number"] == number
        assert [len(t["seats"]) for t in planned["tables"]] == [3, 3]
        started = ok(admin.post(f"{evening}rounds/{number}/start/"))
        for table in started["tables"]:
            games_table = Table.objects.get(pk=table["table_id"])
            for _ in range(5):
                ok(
                    w.client("scorer").post(
                        f"/api/v1/tables/{games_table.pk}/hands/",
                        random_entry(games_table, rng),
                        format="json",
                    ),
                    201,
                )
    # a scorer corrects hand 2 of the first table of round 1
    first = Table.objects.get(
        pk=ok(w.client("member").get(evening + "tables/"))["results"][0]["table_id"]
    )
    ok(
        w.client("scorer").put(
            f"/api/v1/tables/{first.pk}/hands/2/", random_entry(first, rng, 2), format="json"
        )
    )
    rounds = ok(w.client("member").get(evening + "rounds/"))["results"]
    assert [r["status"] for r in rounds] == ["started"] * 3
    # six players in two tables of three for three rounds: 18 pair meetings among 15 pairs,
    # so some pairs must meet twice; each plan says so with a bound below its objective
    assert all(r["plan"]["lower_bound"] <= r["plan"]["objective"] for r in rounds)

    settlement = ok(admin.post(evening + "close/"))
    assert settlement["final"] is True
    assert sum(p["net"] for p in settlement["players"]) + settlement["pot_net"] == 0

    url = f"{club}seasons/{season['id']}/standings/"
    wait_for(
        lambda: (body := ok(w.client("member").get(url)))["up_to_date"] and body["rows"],
        "compute the standings",
    )
    stored = ok(w.client("member").get(url))["rows"]
    fresh, _ = seasons.compute_standings(Season.objects.get(pk=season["id"]))
    assert [(r["player"], r["rank"], r["balance"]) for r in stored] == [
        (str(r.player), r.rank, r.balance) for r in fresh.rows
    ]
    assert {r["player"]: r["balance"] for r in stored} == {
        p["player"]: p["net"] for p in settlement["players"]
    }
    assert Season.objects.get(pk=season["id"]).computations < 30  # coalesced, not per entry

    wait_for(lambda: Rating.objects.filter(club=w.club).count() == 6, "rate the tables")
    wait_for(
        lambda: Rating.objects.filter(club=w.club, sittings=3).count() == 6, "rate every table"
    )
    sittings, _ = seasons.club_sittings(w.club.pk)
    replayed = rating_core.replay(sittings)
    assert {r.player: (r.mu, r.sigma) for r in Rating.objects.filter(club=w.club)} == {
        str(p): (r.mu, r.sigma) for p, r in replayed.current.items()
    }
    assert "clubs.tasks_seasons.recompute_season" in celery_worker_process.log()
