"""Clocks at a hosted table enforced by a real Celery worker (issue 41, "done when"): three
people play through the API, one of them stops answering, and the hand still finishes, the
worker letting the absent seat's flag fall and its bot playing for the seat, each at the
right moment; after its timeouts in a row the seat is away until its person comes back. And
a flag whose message was lost is handed on again by the sweep and falls once.

Nothing here measures the machine's speed: the clocks are short only so that the test is
quick, and each moment is checked against the moments the hand and its log store (a flag
fell and the bot played no earlier than the deadline the hand showed plus the lag
allowance). The time limits only bound a failure."""

from __future__ import annotations

import datetime as dt
import random
import re
import time
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from clubs.models import User
from games import clock
from games.models import AuditEntry, Hand
from games.services import clocks
from games.tasks import clock_flag, sweep_clocks
from tests.conftest import WorkerProcess
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.conftest import RULES
from tests.helpers import client_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ACTION_SECONDS = 2
AWAY_AFTER = 2
#: A live clock with no reserve: a turn lasts its two seconds (and the lag allowance).
LIVE = {
    "kind": "live",
    "action_seconds": ACTION_SECONDS,
    "reserve_seconds": 0,
    "increment_seconds": 0,
    "timeouts_before_away": AWAY_AFTER,
    "bot_level": "random",
}
ABSENT = "carl"
PRESENT = ("anna", "bert")
#: Only a bound for a failure (the worker stopped): a hand takes a few seconds.
GIVE_UP_SECONDS = 120.0


def lag_allowance() -> dt.timedelta:
    """How long after a deadline a flag falls (the worker reads the same setting)."""
    return dt.timedelta(milliseconds=clocks.lag_cap_ms())


def wait_for(what: str, worker: WorkerProcess, check: Any) -> Any:
    """``check()`` once it answers something true; fails after :data:`GIVE_UP_SECONDS`."""
    give_up = time.monotonic() + GIVE_UP_SECONDS
    while not (found := check()):
        assert time.monotonic() < give_up, f"{what}: not seen in time\n{worker.log()[-4000:]}"
        time.sleep(0.1)
    return found


def succeeded(worker: WorkerProcess, task_id: str) -> str | None:
    """What the worker logged when the task ``task_id`` succeeded (its answer last)."""
    found = re.search(rf"\[{re.escape(task_id)}\] succeeded in [0-9.e-]+s: (.*)", worker.log())
    return found.group(1) if found else None


class Table3:
    """A hosted table of three people with :data:`LIVE`, and what the test saw of it."""

    def __init__(self, clocked: dict[str, Any]) -> None:
        club = ClubFactory.create()  # people who share a club may seat each other
        self.people: dict[str, User] = {
            seat: MembershipFactory.create(
                club=club, user=UserFactory.create(username=seat, display_name=seat)
            ).user
            for seat in (*PRESENT, ABSENT)
        }
        self.clients: dict[str, APIClient] = {s: client_for(u) for s, u in self.people.items()}
        body = {
            "name": "Against the clock",
            "mode": "hosted",
            "rules": RULES,
            "time_control": clocked,
            "seats": [{"key": s, "kind": "user", "user": u.pk} for s, u in self.people.items()],
        }
        answer = self.clients["anna"].post("/api/v1/tables/", body, format="json")
        assert answer.status_code == 201, answer.json()
        self.id = answer.json()["id"]
        #: (hand number, version) -> the absent seat's deadline the hand showed at it.
        self.deadlines: dict[tuple[int, int], dt.datetime] = {}
        #: (hand number, index) of the actions the present people sent and the server took.
        self.sent: set[tuple[int, int]] = set()
        #: The present seats a move of which was refused as late (a stalled machine).
        self.refused: set[str] = set()

    def url(self, number: int, tail: str = "") -> str:
        return f"/api/v1/tables/{self.id}/hands/{number}/{tail}"

    def start(self) -> int:
        answer = self.clients["anna"].post(f"/api/v1/tables/{self.id}/hands/")
        assert answer.status_code == 201, answer.json()
        number = int(answer.json()["number"])
        hand = Hand.objects.get(table_id=self.id, number=number)
        self.note(number, hand.version, self.absent_deadline(hand))
        return number

    def absent_deadline(self, hand: Hand) -> dt.datetime | None:
        tc = clock.TimeControl.from_json(LIVE)
        assert tc is not None and hand.clock is not None
        return clock.seat_deadline(tc, hand.clock, ABSENT)

    def note(self, number: int, version: int, deadline: dt.datetime | None) -> None:
        if deadline is not None:
            self.deadlines[(number, version)] = deadline

    def note_view(self, number: int, view: dict[str, Any]) -> None:
        shown = view["clock"]["seats"][ABSENT]["deadline"]
        self.note(number, view["version"], None if shown is None else clock.parse(shown))

    def view(self, seat: str, number: int) -> dict[str, Any]:
        answer = self.clients[seat].get(self.url(number, "view/"))
        assert answer.status_code == 200, answer.json()
        body: dict[str, Any] = answer.json()
        self.note_view(number, body)
        return body

    def play(self, number: int, rng: random.Random, until: Any = None) -> dict[str, Any]:
        """The present people play their turns at once (a random legal action), the absent
        one never, until the hand is over (or ``until(view)``); between their turns they
        wait on the events long poll."""
        give_up = time.monotonic() + GIVE_UP_SECONDS
        while time.monotonic() < give_up:
            view = self.view("anna", number)
            if view["status"] == Hand.Status.DONE or (until is not None and until(view)):
                return view
            moved = False
            for seat in PRESENT:
                mine = self.view(seat, number) if seat != "anna" else view
                if mine["status"] != Hand.Status.PLAYING or not mine.get("legal"):
                    continue
                answer = self.clients[seat].post(
                    self.url(number, "actions/"),
                    {"action": rng.choice(mine["legal"]), "expected_version": mine["version"]},
                    format="json",
                )
                body = answer.json()
                if answer.status_code == 409 and body["code"] == "time_out":
                    self.refused.add(seat)  # this machine stalled past a two-second turn
                    continue
                if answer.status_code == 409 and body["code"] == "stale_version":
                    continue
                assert answer.status_code == 200, body
                self.sent.add((number, body["version"] - 1))
                self.note_view(number, body)
                moved = True
                break
            if not moved:
                events = self.clients["anna"].get(
                    self.url(number, "events/"), {"after": view["version"], "wait": 1}
                )
                assert events.status_code == 200, events.json()
        pytest.fail(f"hand {number} did not finish in time")


def test_the_bot_plays_for_a_person_who_stops_answering_and_the_hand_finishes(
    celery_worker_process: WorkerProcess,
) -> None:
    """Hands until carl, who never answers, has timed out twice in a row (each time the
    worker lets his flag fall and the bot plays), one hand more while he is away (the bot
    plays for him at once), then he comes back and plays his own turn."""
    assert not settings.CELERY_TASK_ALWAYS_EAGER  # the flags fall in the worker
    table = Table3(LIVE)
    rng = random.Random(41)
    finished: list[tuple[Hand, dict[str, Any]]] = []  # each hand and its last view

    def play_one() -> dict[str, Any]:
        number = table.start()
        view = table.play(number, rng)
        finished.append((Hand.objects.get(table_id=table.id, number=number), view))
        return view

    # The absent seat's timeouts in a row carry from hand to hand: hands until it is away,
    for _ in range(4):
        if play_one()["clock"]["seats"][ABSENT]["away"]:
            break
    else:
        pytest.fail("the absent seat was never away")
    play_one()  # and one hand more while it is away: the bot plays its actions at once

    flags = AuditEntry.objects.filter(table_id=table.id, action="timeout").order_by("at", "id")
    fell: list[tuple[int, int]] = []  # (hand number, version) of each of its flags
    when_fell: dict[tuple[int, int], dt.datetime] = {}
    for entry in flags:
        assert entry.hand_number is not None and entry.after is not None
        seats, version = entry.after["seats"], entry.after["version"]
        assert seats == [ABSENT] or set(seats) <= table.refused, seats
        if seats == [ABSENT]:
            fell.append((entry.hand_number, version))
            when_fell[fell[-1]] = entry.at
    assert len(fell) == len(set(fell)), f"a flag fell twice: {fell}"
    # Only flags make the seat away, and an away seat's clock no longer runs: exactly
    # ``timeouts_before_away`` flags, however many actions the bot then played at once.
    assert len(fell) == AWAY_AFTER

    flagged_before = 0
    for hand, view in finished:
        n = hand.number
        assert hand.status == Hand.Status.DONE and hand.result is not None
        assert view["status"] == Hand.Status.DONE and view["result"] == hand.result
        assert hand.clock is not None
        record = table.clients["bert"].get(table.url(n, "record/"))
        assert record.status_code == 200, record.json()
        timeouts = record.json()["timeouts"]
        assert timeouts == hand.clock["timeouts"]
        assert len(record.json()["record"]["actions"]) == len(hand.actions)
        # Every action the present people did not send, the timeout policy played; and it
        # played for nobody else (bar a present seat this machine let run out of time).
        by_policy = {t["action"]: t for t in timeouts}
        assert len(by_policy) == len(timeouts)
        assert set(by_policy) == {i for i in range(len(hand.actions)) if (n, i) not in table.sent}
        assert all(t["seat"] == ABSENT or t["seat"] in table.refused for t in timeouts)
        assert any(t["seat"] == ABSENT for t in timeouts), "the absent seat never had to act"
        for index, played in sorted(by_policy.items()):
            if played["seat"] != ABSENT:
                continue
            at = clock.parse(played["at"])
            if (n, index) in when_fell:
                # Its turn ended by its flag: the flag fell, and then the bot played, no
                # earlier than the deadline the hand showed plus the lag allowance.
                deadline = table.deadlines.get((n, index))
                previous = by_policy.get(index - 1)
                if previous is not None and previous["seat"] == ABSENT:
                    # its turn began when the bot's previous action for it was stored
                    derived = clock.parse(previous["at"]) + dt.timedelta(seconds=ACTION_SECONDS)
                    assert deadline in (None, derived)
                    deadline = derived
                assert deadline is not None, f"hand {n}: no deadline seen for action {index}"
                assert when_fell[(n, index)] >= deadline + lag_allowance()
                assert at >= when_fell[(n, index)]
                flagged_before += 1
            else:
                # Played at once, without a flag: only once the seat was away.
                assert flagged_before >= AWAY_AFTER, (n, index, timeouts)
                assert (n, index) not in table.deadlines  # its clock did not run
    assert hand.clock is not None and hand.clock["in_row"][ABSENT] == AWAY_AFTER

    # Away: the hand's clock says so; the person comes back with one request.
    last = hand.number
    absent = table.clients[ABSENT]
    shown = table.view(ABSENT, last)["clock"]["seats"][ABSENT]
    assert (shown["away"], shown["timeouts_in_row"]) == (True, AWAY_AFTER)
    back = absent.post(f"/api/v1/tables/{table.id}/back/")
    assert back.status_code == 200, back.json()
    assert back.json() == {"seat": ABSENT, "was_away": True}
    shown = table.view(ABSENT, last)["clock"]["seats"][ABSENT]
    assert (shown["away"], shown["timeouts_in_row"]) == (False, 0)
    # In the next hand the seat's clock runs on its turn and its person plays it.
    number = table.start()
    view = table.play(number, rng, until=lambda v: v["clock"]["seats"][ABSENT]["running"])
    mine = table.view(ABSENT, number)
    assert mine["legal"] and mine["clock"]["seats"][ABSENT]["running"]
    answer = absent.post(
        table.url(number, "actions/"),
        {"action": mine["legal"][0], "expected_version": mine["version"]},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    hand = Hand.objects.get(table_id=table.id, number=number)
    assert hand.clock is not None and hand.clock["timeouts"] == []
    assert view["version"] < hand.version


def test_a_flag_whose_message_was_lost_falls_once_when_the_sweep_hands_it_on(
    celery_worker_process: WorkerProcess,
) -> None:
    """A live table with ten minutes a turn: no flag is near, so none was handed to the
    worker. The hand's stored clock is then moved back as if the seat's turn had begun
    eleven minutes ago and its message been lost (a worker or broker died): the sweep the
    beat sends finds it overdue and hands it on; two sweeps and a redelivered flag message
    let it fall once, and the bot plays the seat's action."""
    worker = celery_worker_process
    table = Table3({**LIVE, "action_seconds": 600})
    number = table.start()
    hand = Hand.objects.get(table_id=table.id, number=number)
    assert hand.clock is not None and hand.flag_at is not None
    (seat,) = hand.clock["running"]
    tc = clock.TimeControl.from_json({**LIVE, "action_seconds": 600})
    assert tc is not None
    began = clock.parse(hand.clock["running"][seat]) - dt.timedelta(minutes=11)
    lost = {**hand.clock, "running": {seat: clock.iso(began)}}
    due = clock.flag_at(tc, lost, clocks.lag_cap_ms())
    assert due is not None and due < clock.parse(hand.clock["running"][seat])  # long overdue
    Hand.objects.filter(pk=hand.pk).update(clock=lost, flag_at=due)

    # as after a restart of Redis: no sweep remembers how far it looked or when it resent
    cache.delete_many([clocks.SWEPT_UNTIL, clocks.AGAIN_AFTER])
    sweeps = [sweep_clocks.delay(), sweep_clocks.delay()]
    handed = [wait_for("a sweep", worker, lambda s=s: succeeded(worker, s.id)) for s in sweeps]
    # The first found the overdue flag and handed it on again; the second hands overdue flags
    # on again only after CLOCK_RESEND_SECONDS, and finds the flag fallen by then anyway.
    assert handed[0] == "1" and handed[1] in ("0", "1"), handed
    # A redelivered message for the same flag, after those the sweeps sent (one queue, in
    # order): once it has run, every one of them has.
    again = clock_flag.delay(hand.pk, hand.version)
    wait_for("the redelivered flag", worker, lambda: succeeded(worker, again.id))
    moved = wait_for(
        "the bot's action for the seat",
        worker,
        lambda: Hand.objects.filter(pk=hand.pk, version__gt=hand.version).first(),
    )

    (entry,) = AuditEntry.objects.filter(table_id=table.id, action="timeout")
    assert entry.after == {"seats": [seat], "version": hand.version}
    assert entry.at >= due
    assert moved.version == hand.version + 1
    assert moved.actions[-1]["seat"] == seat
    (played,) = moved.clock["timeouts"]
    assert (played["action"], played["seat"]) == (hand.version, seat)
    assert clock.parse(played["at"]) >= entry.at
    assert moved.clock["in_row"] == {seat: 1}
    # The next seat's turn has ten minutes: a sweep now has nothing to hand on.
    assert moved.flag_at is not None and moved.flag_at > clock.parse(played["at"])
    later = sweep_clocks.delay()
    assert wait_for("a later sweep", worker, lambda: succeeded(worker, later.id)) == "0"
    assert AuditEntry.objects.filter(table_id=table.id, action="timeout").count() == 1
