"""Bots at a hosted table, moved by a real Celery worker (Redis broker, PostgreSQL test DB),
while a human plays the same hand through the API."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

import engine
import engine.solver.analysis
from clubs.models import User
from games import services
from games.models import Hand, LedgerEntry, Table
from games.services import SeatSpec
from games.tasks import bot_act
from tests.conftest import WorkerProcess
from tests.factories import UserFactory
from tests.games.conftest import RULES
from tests.helpers import client_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HAND_SECONDS = 120.0


def bot_table(human: User) -> Table:
    """A hosted table: the human and two random bots."""
    return services.table_create(
        user=human,
        name="With bots",
        mode=Table.Mode.HOSTED,
        rules=RULES,
        seats=[
            SeatSpec(key="anna", kind="user", user=human),
            SeatSpec(key="robo1", kind="bot", bot_level="random"),
            SeatSpec(key="robo2", kind="bot", bot_level="random"),
        ],
    )


def play_as_human(client: APIClient, base: str, rng: random.Random) -> tuple[dict[str, Any], int]:
    """Play the human's turns (a random legal action from the view) until the hand is over;
    between turns wait on the events long poll for the bots. Returns the final view and the
    number of the human's moves."""
    deadline = time.monotonic() + HAND_SECONDS
    moves = 0
    while time.monotonic() < deadline:
        view = client.get(base + "view/").json()
        if view["status"] == Hand.Status.DONE:
            return view, moves
        if view.get("legal"):
            action = rng.choice(view["legal"])
            response = client.post(
                base + "actions/",
                {"action": action, "expected_version": view["version"]},
                format="json",
            )
            assert response.status_code == 200, response.json()
            moves += 1
            continue
        events = client.get(base + "events/", {"after": view["version"], "wait": 10})
        assert events.status_code == 200, events.json()
    pytest.fail("the hand did not finish in time: are the bots moving?")


def test_a_human_plays_a_whole_hand_with_two_bots_moved_by_the_worker(
    celery_worker_process: WorkerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER  # tasks go through the broker
    moved_here: list[tuple[int, int]] = []
    real_move = services.hand_bot_move

    def spy(*, hand_id: int, version: int, **kw: Any) -> Hand | None:
        moved_here.append((hand_id, version))
        return real_move(hand_id=hand_id, version=version, **kw)

    monkeypatch.setattr(services, "hand_bot_move", spy)
    human = UserFactory.create()
    table = bot_table(human)
    client = client_for(human)
    started = client.post(f"/api/v1/tables/{table.pk}/hands/")
    assert started.status_code == 201, started.json()
    number = started.json()["number"]
    base = f"/api/v1/tables/{table.pk}/hands/{number}/"

    view, moves = play_as_human(client, base, random.Random(4))

    hand = Hand.objects.get(table=table, number=number)
    bot_moves = [a for a in hand.actions if a["seat"] != "anna"]
    assert bot_moves, "the bots never moved"
    assert moves == len(hand.actions) - len(bot_moves)
    assert moved_here == []  # no bot moved in this process
    log = celery_worker_process.log()
    assert "games.tasks.bot_act" in log
    assert "succeeded" in log

    assert hand.status == Hand.Status.DONE
    assert hand.result is not None
    assert view["result"] == hand.result
    ledger = LedgerEntry.objects.filter(hand=hand)
    assert sorted((e.payer, e.payee, e.amount) for e in ledger) == sorted(
        (t["from"], t["to"], t["amount"]) for t in hand.result["transfers"]
    )
    record = client.get(base + "record/")
    assert record.status_code == 200
    assert engine.verify(record.json()["record"]) == {
        "verified": True,
        "commitment": hand.commitment,
        "result": hand.result,
    }
    assert engine.settle(record.json()["record"]) == hand.result


def test_a_duplicated_bot_task_for_an_old_version_does_nothing(
    celery_worker_process: WorkerProcess,
) -> None:
    human = UserFactory.create()
    table = bot_table(human)
    client = client_for(human)
    base = f"/api/v1/tables/{table.pk}/hands/1/"
    assert client.post(f"/api/v1/tables/{table.pk}/hands/").status_code == 201
    deadline = time.monotonic() + 30
    while True:  # the worker moves the bots up to the human's turn or the end
        view = client.get(base + "view/").json()
        if view.get("legal") or view["status"] == Hand.Status.DONE:
            break
        assert time.monotonic() < deadline, "the bots did not move"
        client.get(base + "events/", {"after": view["version"], "wait": 5})
    before = Hand.objects.get(table=table, number=1)
    assert before.version > 0 or view.get("legal")

    for version in range(before.version + 1):  # every version the hand was ever at
        bot_act(before.pk, version)  # synchronously, in this process

    after = Hand.objects.get(pk=before.pk)
    assert (after.version, after.actions, after.status, after.updated_at) == (
        before.version,
        before.actions,
        before.status,
        before.updated_at,
    )


def test_pimc_bots_and_the_analysis_run_on_the_workers_bots_queue(
    celery_worker_process: WorkerProcess,
) -> None:
    """Two pimc bots (100 ms each a move) moved by the worker, then the hand's analysis
    computed by it: both tasks go to the bots queue the worker also serves."""
    human = UserFactory.create()
    table = services.table_create(
        user=human,
        name="Gegen pimc",
        mode=Table.Mode.HOSTED,
        rules=RULES,
        seats=[
            SeatSpec(key="anna", kind="user", user=human),
            SeatSpec(key="robo1", kind="bot", bot_level="pimc"),
            SeatSpec(key="robo2", kind="bot", bot_level="pimc"),
        ],
        bot_budget_ms=100,
    )
    client = client_for(human)
    assert client.post(f"/api/v1/tables/{table.pk}/hands/").status_code == 201
    base = f"/api/v1/tables/{table.pk}/hands/1/"
    play_as_human(client, base, random.Random(8))
    deadline = time.monotonic() + HAND_SECONDS
    while (answer := client.get(base + "analysis/")).status_code == 202:
        assert time.monotonic() < deadline, "the worker did not analyse the hand"
        time.sleep(0.2)
    assert answer.status_code == 200, answer.json()
    record = client.get(base + "record/").json()["record"]
    expected = engine.solver.analysis.analyse(record)
    played = [{**card, "by_timeout": False} for card in expected["cards"]]  # no clock here
    assert answer.json()["analysis"] == {**expected, "cards": played}
    log = celery_worker_process.log()
    assert "games.tasks.analyse_hand" in log and "games.tasks.bot_act" in log
    assert settings.CELERY_BOTS_QUEUE in log  # the worker serves the bots queue
