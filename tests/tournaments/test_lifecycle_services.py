"""Whole tournaments through the API with the real parts: PostgreSQL, Redis and a real Celery
worker seating the rounds and computing the standings. 9, 10 (a table of 4), 50 and 301
players; a withdrawal and a late entry between rounds and a result corrected by a director;
the stored standings equal a fresh computation."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.conf import settings

from clubs.models import Club, Membership
from games.models import AuditEntry, Table
from games.random_entries import random_entry
from tests.conftest import WorkerProcess
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import RULES
from tournaments import services
from tournaments.models import Entry, RoundSeat, Tournament
from tournaments.scoring import points_text

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 120.0


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json() if response.content else None


def wait_for(check: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"the worker did not {what} in time")
        time.sleep(0.2)


def seated(api: Any, url: str, number: int) -> dict[str, Any]:
    def check() -> Any:
        rnd = ok(api.get(f"{url}rounds/{number}/"))
        assert rnd["status"] != "failed", rnd["error"]
        return rnd if rnd["status"] == "seated" else None

    return wait_for(check, f"seat round {number}")


def up_to_date(url: str) -> dict[str, Any]:
    anon = client_for(None)
    return wait_for(
        lambda: (lambda s: s if s["up_to_date"] else None)(ok(anon.get(url + "standings/"))),
        "compute the standings",
    )


def fresh(tournament_id: int) -> list[tuple[int, int, str]]:
    table = services.compute(Tournament.objects.get(pk=tournament_id))
    return [(int(r.player), r.rank, points_text(r.points)) for r in table.rows]


def play_hands(
    boss: Any, director: Any, rnd: dict[str, Any], deals: int, rng: random.Random, correct: bool
) -> None:
    """Every table records its deals through the games API; a director corrects one."""
    for table in rnd["tables"]:
        games_table = Table.objects.get(pk=table["table"])
        for n in range(1, deals + 1):
            path = f"/api/v1/tables/{games_table.pk}/hands/"
            ok(boss.post(path, random_entry(games_table, rng, n), format="json"), 201)
    if correct:
        first = rnd["tables"][0]["table"]
        games_table = Table.objects.get(pk=first)
        path = f"/api/v1/tables/{first}/hands/{deals}/"
        ok(boss.put(path, random_entry(games_table, rng, deals), format="json"))
        assert AuditEntry.objects.filter(
            table_id=first, hand_number=deals, action="hand_edit", user=director
        ).exists()


def play_totals(boss: Any, url: str, rnd: dict[str, Any], rng: random.Random) -> None:
    """Offline play: the players of table 1 enter and confirm their totals; a director
    enters the others' (which count at once) and then corrects table 2's."""
    base = f"{url}rounds/{rnd['number']}/tables/"
    for table in rnd["tables"]:
        seats = [p["seat"] for p in table["players"]]
        amounts = {k: rng.randrange(-50, 51) * 10 for k in seats[1:]}
        amounts[seats[0]] = -sum(amounts.values())
        path = f"{base}{table['number']}/totals/"
        if table["number"] == 1:
            users = [Entry.objects.get(pk=p["entry"]).user for p in table["players"]]
            entered = ok(client_for(users[0]).put(path, {"amounts": amounts}, format="json"))
            assert entered["confirmed"] is False
            for user in users[1:]:
                body = {"version": entered["version"]}
                confirmed = ok(client_for(user).post(path + "confirm/", body, format="json"))
            assert confirmed["confirmed"] is True
        else:
            ok(boss.put(path, {"amounts": amounts}, format="json"))
    second = rnd["tables"][1]
    seats = [p["seat"] for p in second["players"]]
    fixed = {k: 0 for k in seats}
    fixed[seats[0]], fixed[seats[1]] = 120, -120
    corrected = ok(boss.put(f"{base}2/totals/", {"amounts": fixed}, format="json"))
    assert corrected["confirmed"] is True and corrected["version"] == 2


@pytest.mark.parametrize(
    ("players", "rounds", "deals", "seating", "results"),
    [
        (9, 3, 6, "fewest_repeats", "recorded"),
        (10, 3, 12, "swiss", "recorded"),
        (50, 2, 12, "fewest_repeats", "recorded"),
        (301, 2, 12, "random", "totals"),
    ],
)
def test_a_tournament_with_the_worker(
    celery_worker_process: WorkerProcess,
    players: int,
    rounds: int,
    deals: int,
    seating: str,
    results: str,
) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    director = UserFactory.create(username="td")
    boss = client_for(director)
    t = ok(
        boss.post(
            "/api/v1/tournaments/",
            {
                "name": f"Open {players}",
                "rules": RULES,
                "rounds_planned": rounds,
                "deals_per_round": deals,
                "seating": seating,
                "scoring": "table_rank",
                "tiebreaks": ["declarer_wins", "best_round", "lots"],
                "prizes": [5000, 3000, 2000],
                "real_money": True,
                "results": results,
            },
            format="json",
        ),
        201,
    )
    url = f"/api/v1/tournaments/{t['id']}/"
    ok(boss.post(url + "open-registration/", format="json"))
    users = [UserFactory.create(username=f"s{i:03d}") for i in range(players)]
    for user in users:
        ok(client_for(user).post(url + "entries/", {}, format="json"), 201)
    ok(boss.post(url + "open-check-in/", format="json"))
    for user in users:
        entry = Entry.objects.get(tournament_id=t["id"], user=user)
        ok(client_for(user).post(f"{url}entries/{entry.pk}/check-in/", format="json"))

    rng = random.Random(players)
    late = UserFactory.create(username="late")
    # the late player shares a club with the director, who therefore enters them directly
    club = Club.objects.create(name="Stammtisch", slug="stammtisch")
    for person in (director, late):
        Membership.objects.create(club=club, user=person)
    for number in range(1, rounds + 1):
        answer = ok(boss.post(url + "rounds/", {}, format="json"), 202)
        assert answer["number"] == number
        rnd = seated(boss, url, number)
        assert sum(len(x["players"]) for x in rnd["tables"]) == players
        ok(boss.post(f"{url}rounds/{number}/start/", format="json"))
        if results == "totals":
            play_totals(boss, url, rnd, rng)
        else:
            play_hands(boss, director, rnd, deals, rng, correct=number == 1)
        ok(boss.post(f"{url}rounds/{number}/close/", format="json"))
        standings = up_to_date(url)
        assert [(r["entry"], r["rank"], r["points"]) for r in standings["rows"]] == fresh(t["id"])
        if number == 1 and rounds > 1:
            # between rounds: one withdraws, a late entry takes the place
            leaver = users[0]
            entry = Entry.objects.get(tournament_id=t["id"], user=leaver)
            ok(client_for(leaver).post(f"{url}entries/{entry.pk}/withdraw/", {}, format="json"))
            ok(boss.post(url + "entries/", {"user": late.pk}, format="json"), 201)

    ok(boss.post(url + "finish/", format="json"))
    final = up_to_date(url)
    assert final["final"] is True
    assert sum(r["prize"] for r in final["rows"]) == 10000
    assert [(r["entry"], r["rank"], r["points"]) for r in final["rows"]] == fresh(t["id"])
    if rounds > 1:
        rows = {r["entry"]: r for r in final["rows"]}
        assert rows[Entry.objects.get(tournament_id=t["id"], user=users[0]).pk]["rounds"] == 1
        assert rows[Entry.objects.get(tournament_id=t["id"], user=late).pk]["rounds"] == rounds - 1
    # every player sat once per round they played
    for number in range(1, rounds + 1):
        seats = RoundSeat.objects.filter(round__tournament_id=t["id"], round__number=number)
        assert seats.count() == players
    settlement = ok(boss.get(url + "settlement/"))
    assert sum(n["net"] for n in settlement["nets"]) + settlement["pot"] == 0
    paid: dict[Any, int] = {}
    for p in settlement["payments"]:
        paid[p["payer"]["entry"]] = paid.get(p["payer"]["entry"], 0) - p["amount"]
        paid[p["payee"]["entry"]] = paid.get(p["payee"]["entry"], 0) + p["amount"]
    assert {k: v for k, v in paid.items() if k is not None and v} == {
        n["entry"]: n["net"] for n in settlement["nets"] if n["net"]
    }
    t_row = Tournament.objects.get(pk=t["id"])
    assert t_row.computations < t_row.requested_version  # coalesced: not one per hand
