"""A Russian Preferans club evening through the API with a real Celery worker (Redis broker,
PostgreSQL): two rounds at two tables of three, each table keeping a pulya by score sheet, the
evening closed (each pulya paid at its whist price), and the season standings, ranked by
whists, and the club ratings computed by the worker (issue 26)."""

from __future__ import annotations

import random

import pytest
from django.conf import settings

from clubs.models import Club, Rating, Season
from clubs.services import seasons
from games.models import Table
from tests.clubs.evening_setup import random_entry
from tests.clubs.test_evening_services import ok, season_and_six_checked_in, wait_for
from tests.clubs.world import ClubWorld, build_club_world
from tests.conftest import WorkerProcess

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WHIST_VALUE = 5
RULES = {"variant": "preferans", "convention": "rostov", "pool_target": 20, "whist_value": 5}


def test_a_preferans_evening_and_its_season_with_the_worker(
    celery_worker_process: WorkerProcess,
) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    w: ClubWorld = build_club_world()
    Club.objects.filter(pk=w.club.pk).update(default_rules=RULES)
    admin = w.client("admin")
    club = f"/api/v1/clubs/{w.club.pk}/"
    evening = f"{club}evenings/{w.evening.pk}/"
    season = season_and_six_checked_in(w)

    rng = random.Random(26)
    for number in (1, 2):
        ok(admin.post(evening + "rounds/", {"rounds_total": 2}, format="json"), 201)
        started = ok(admin.post(f"{evening}rounds/{number}/start/"))
        for table in started["tables"]:
            games_table = Table.objects.get(pk=table["table_id"])
            assert games_table.rules["variant"] == "preferans"
            for _ in range(4):
                ok(
                    w.client("scorer").post(
                        f"/api/v1/tables/{games_table.pk}/hands/",
                        random_entry(games_table, rng),
                        format="json",
                    ),
                    201,
                )

    settlement = ok(admin.post(evening + "close/"))
    assert settlement["final"] is True and settlement["score_unit"] == "whists"
    whists = {p["player"]: p["score"] for p in settlement["players"]}
    assert sum(whists.values()) == 0
    assert {p["player"]: p["net"] for p in settlement["players"]} == {
        player: w_ * WHIST_VALUE for player, w_ in whists.items()
    }

    url = f"{club}seasons/{season['id']}/standings/"
    wait_for(
        lambda: (body := ok(w.client("member").get(url)))["up_to_date"] and body["rows"],
        "compute the standings",
    )
    answer = ok(w.client("member").get(url))
    assert answer["ranked_by"] == "score" and answer["score_unit"] == "whists"
    stored = answer["rows"]
    assert {r["player"]: (r["score"], r["balance"]) for r in stored} == {
        player: (w_, w_ * WHIST_VALUE) for player, w_ in whists.items()
    }
    fresh, _ = seasons.compute_standings(Season.objects.get(pk=season["id"]))
    assert [(r["player"], r["rank"], r["score"]) for r in stored] == [
        (str(r.player), r.rank, r.score) for r in fresh.rows
    ]
    assert [r["score"] for r in stored] == sorted(whists.values(), reverse=True)
    wait_for(
        lambda: Rating.objects.filter(club=w.club, sittings=2).count() == 6, "rate every table"
    )
    assert "clubs.tasks_seasons.recompute_season" in celery_worker_process.log()
