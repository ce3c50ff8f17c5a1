"""Bot levels at tables, hints and the analysis of finished hands (issue 28), through the API
with the embedded defaults (tasks run in-process after each commit; a real worker runs them in
``tests/games/test_bots_services.py``).

- a table seats any mix of ``random``, ``heuristic`` and ``pimc`` bots (practice: one player
  against two bots of a chosen level), and they play from their seats' views;
- a seated player at a table with hints asks for the move a bot would make, on his turn only;
- a finished hand's analysis (the deal's double-dummy result and what each card gave away) is
  computed once, never before the end, and for a recorded hand only from its full record.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import User
from games.models import Hand, Table

pytestmark = pytest.mark.django_db

WIEN = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
T = "/api/v1/tables/"


def create(anna: User, *, level: str, hints: bool = False, budget: int = 1000) -> Any:
    """Ask the API for anna alone against two bots of ``level``."""
    body = {
        "name": "Übung",
        "mode": "hosted",
        "rules": WIEN,
        "seats": [
            {"key": "anna", "kind": "user", "user": anna.pk},
            {"key": "bot1", "kind": "bot", "bot_level": level},
            {"key": "bot2", "kind": "bot", "bot_level": level},
        ],
        "first_dealer": "bot2",
        "hints": hints,
        "bot_budget_ms": budget,
    }
    return client_of(anna).post(T, body, format="json")


def practice(anna: User, *, level: str, hints: bool = False, budget: int = 1000) -> Table:
    """anna alone against two bots of ``level`` (a practice table)."""
    response = create(anna, level=level, hints=hints, budget=budget)
    assert response.status_code == 201, response.json()
    return Table.objects.get(pk=response.json()["id"])


def client_of(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def play_to_the_end(client: APIClient, table: Table, rng: random.Random) -> dict[str, Any]:
    """Play hand 1 to its end: anna plays a random legal action on her turn (the bots answer
    in process); the last view."""
    for _ in range(200):
        view = client.get(f"{T}{table.pk}/hands/1/view/").json()
        if view["status"] == "done":
            return dict(view)
        assert view["to_act"] == "anna", view["to_act"]  # the bots never leave a turn open
        body = {"action": rng.choice(view["legal"]), "expected_version": view["version"]}
        response = client.post(f"{T}{table.pk}/hands/1/actions/", body, format="json")
        assert response.status_code == 200, response.json()
    raise AssertionError("the hand did not end")


# tasks run on the commit: real transactions
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("level", ["heuristic", "pimc"])
def test_practice_against_two_bots_of_a_level(anna: User, level: str, eager_tasks: None) -> None:
    table = practice(anna, level=level, budget=200)
    client = client_of(anna)
    seats = client.get(f"{T}{table.pk}/").json()["seats"]
    assert [s["bot_level"] for s in seats] == ["", level, level]
    assert client.post(f"{T}{table.pk}/hands/").status_code == 201
    last = play_to_the_end(client, table, random.Random(2))
    assert sum(last["result"]["delta"].values()) + last["result"]["pot"] - last["pot"] == 0


def test_the_levels_are_documented_and_unknown_ones_refused(anna: User) -> None:
    from games.services import BOT_LEVELS

    assert {"random", "heuristic", "pimc"} <= set(BOT_LEVELS)
    refused = create(anna, level="grandmaster")
    assert refused.status_code == 400 and "pimc" in json.dumps(refused.json())


# tasks run on the commit: real transactions
@pytest.mark.django_db(transaction=True)
def test_a_hint_is_the_bots_move_for_your_seat_on_your_turn(anna: User, eager_tasks: None) -> None:
    table = practice(anna, level="random", hints=True)
    client = client_of(anna)
    assert client.post(f"{T}{table.pk}/hands/").status_code == 201
    hint_url = f"{T}{table.pk}/hands/1/hint/"
    for _ in range(200):
        view = client.get(f"{T}{table.pk}/hands/1/view/").json()
        if view["status"] == "done":
            break
        hint = client.get(hint_url)
        assert hint.status_code == 200, hint.json()
        assert hint.json()["seat"] == "anna" and hint.json()["level"] == "pimc"
        assert hint.json()["action"] in view["legal"]
        body = {"action": hint.json()["action"], "expected_version": view["version"]}
        assert (
            client.post(f"{T}{table.pk}/hands/1/actions/", body, format="json").status_code == 200
        )
    assert client.get(hint_url).json()["code"] == "hand_over"


def test_no_hint_where_the_table_gives_none(anna: User) -> None:
    table = practice(anna, level="random")
    client = client_of(anna)
    client.post(f"{T}{table.pk}/hands/")
    off = client.get(f"{T}{table.pk}/hands/1/hint/")
    assert (off.status_code, off.json()["code"]) == (409, "hints_off")


# tasks run on the commit: real transactions
@pytest.mark.django_db(transaction=True)
def test_a_finished_hands_analysis_is_computed_once_and_never_before_the_end(
    anna: User, eager_tasks: None
) -> None:
    table = practice(anna, level="heuristic")
    client = client_of(anna)
    assert client.post(f"{T}{table.pk}/hands/").status_code == 201
    early = client.get(f"{T}{table.pk}/hands/1/analysis/")
    assert (early.status_code, early.json()["code"]) == (409, "hand_in_progress")
    play_to_the_end(client, table, random.Random(9))
    url = f"{T}{table.pk}/hands/1/analysis/"
    first = client.get(url)
    assert first.status_code in (200, 202)  # in-process, the task ran on the commit
    done = client.get(url)
    assert done.status_code == 200 and done.json()["status"] == "done"
    record = client.get(f"{T}{table.pk}/hands/1/record/").json()["record"]
    expected = json.loads(json.dumps(analyse_record(record)))
    # the answer marks the cards a timeout policy played (none at a table without a clock)
    played = [{**card, "by_timeout": False} for card in expected["cards"]]
    assert done.json()["analysis"] == {**expected, "cards": played}
    assert Hand.objects.get(table=table, number=1).analysis == expected


def analyse_record(record: dict[str, Any]) -> dict[str, Any]:
    """``python -m engine analyse`` of a record, in a process of its own."""
    out = subprocess.run(
        [sys.executable, "-m", "engine", "analyse", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return dict(json.loads(out.stdout))


# tasks run on the commit: real transactions
@pytest.mark.django_db(transaction=True)
def test_a_recorded_hand_is_analysed_from_its_full_record_only(
    anna: User, eager_tasks: None
) -> None:
    client = client_of(anna)
    body = {
        "name": "Papier",
        "mode": "recorded",
        "rules": WIEN,
        "seats": [
            {"key": "anna", "kind": "user", "user": anna.pk},
            *({"key": k, "kind": "guest", "guest_name": k} for k in ("bert", "carl")),
        ],
        "first_dealer": "carl",
    }
    table = client.post(T, body, format="json").json()
    played = json.loads(
        subprocess.run(
            [sys.executable, "-m", "engine", "play", "--seed", "9"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    )
    entry = {"deal": played["deal"], "actions": played["actions"]}
    recorded = client.post(f"{T}{table['id']}/hands/", entry, format="json")
    assert recorded.status_code == 201, recorded.json()
    assert recorded.json()["result"]["delta"] == engine.settle(played)["delta"]
    client.get(f"{T}{table['id']}/hands/1/analysis/")
    done = client.get(f"{T}{table['id']}/hands/1/analysis/").json()
    assert done["status"] == "done" and done["analysis"]["cards"]
    sheet = {"game": {"type": "ausfechten"}, "tricks": {"anna": 4, "bert": 4, "carl": 2}}
    assert client.post(f"{T}{table['id']}/hands/", sheet, format="json").status_code == 201
    no_deal = client.get(f"{T}{table['id']}/hands/2/analysis/")
    assert (no_deal.status_code, no_deal.json()["code"]) == (409, "no_deal")


def test_bot_moves_and_analyses_go_to_the_bots_queue_and_nothing_else_does() -> None:
    from django.conf import settings

    from config.celery import app

    def queue(task: str) -> str:
        return str(app.amqp.router.route({}, task)["queue"].name)

    assert queue("games.tasks.bot_act") == queue("games.tasks.analyse_hand")
    assert queue("games.tasks.bot_act") == settings.CELERY_BOTS_QUEUE
    for other in ("clubs.tasks_seasons.kick_stale_standings", "games.tasks.run_ping"):
        assert queue(other) == app.conf.task_default_queue != settings.CELERY_BOTS_QUEUE
