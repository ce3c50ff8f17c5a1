"""GET /api/v1/tables/{id}/hands/{n}/events/: the long poll for a hosted hand's actions."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.conf import settings
from django.db import connections

import engine
from clubs.models import User
from engine.actions import Call
from engine.rules.wien import Phase, State
from games import services
from games.models import Hand, Table
from games.services import SeatSpec
from tests.factories import UserFactory
from tests.games.conftest import RULES
from tests.helpers import client_for

SEATS = ("anna", "bert", "carl")


def hosted_table(*, is_public: bool = False) -> tuple[Table, dict[str, User]]:
    """A hosted table of three users; carl deals hand 1, so anna is forehand."""
    users = {key: UserFactory.create(username=key) for key in SEATS}
    table = services.table_create(
        user=users["anna"],
        name="Hosted",
        mode=Table.Mode.HOSTED,
        rules=RULES,
        seats=[SeatSpec(key=k, kind="user", user=u) for k, u in users.items()],
        first_dealer="carl",
        is_public=is_public,
    )
    services.hand_start(table_id=table.pk, user=users["anna"])
    return table, users


def url(table: Table, number: int = 1, **query: Any) -> str:
    params = "&".join(f"{k}={v}" for k, v in query.items())
    return f"/api/v1/tables/{table.pk}/hands/{number}/events/" + (f"?{params}" if params else "")


def hand_of(table: Table, number: int = 1) -> Hand:
    return Hand.objects.get(table=table, number=number)


def next_action(state: State) -> dict[str, Any]:
    """Forehand calls 1 and the others pass (so forehand takes the talon and discards); after
    that, the first legal action."""
    legal = engine.legal_actions(state)
    if state.phase is Phase.AUCTION:
        calls = [a for a in legal if isinstance(a, Call)]
        wanted = "1" if not state.history else "pass"
        move = next(a for a in calls if a.call == wanted)
    else:
        move = legal[0]
    return engine.action_to_json(move, engine.PIQUET, seat=False)


def act(table: Table, users: dict[str, User], number: int = 1) -> dict[str, Any]:
    """The player to act makes the next move through the service; returns it with its seat."""
    hand = hand_of(table, number)
    state = services.hand_state(table, hand)
    seat = state.to_act_seat
    assert seat is not None
    move = next_action(state)
    services.hand_apply_action(
        table_id=table.pk, number=number, user=users[seat], action=move, expected_version=None
    )
    return {"seat": seat, **move}


def act_later(table: Table, users: dict[str, User], delay: float) -> threading.Thread:
    """Act from another thread (another request) after ``delay`` seconds."""

    def run() -> None:
        try:
            time.sleep(delay)
            act(table, users)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db
def test_it_returns_the_actions_after_a_version_at_once() -> None:
    table, users = hosted_table()
    moves = [act(table, users) for _ in range(3)]
    started = time.monotonic()
    response = client_for(users["bert"]).get(url(table, after=1))
    assert time.monotonic() - started < 2
    assert response.status_code == 200
    body = response.json()
    assert body["version"] == 3
    assert body["status"] == "playing"
    assert body["phase"] == "talon"
    assert body["to_act"] == "anna"
    assert body["events"] == [
        {"version": 2, "seat": moves[1]["seat"], "action": {"call": "pass"}},
        {"version": 3, "seat": moves[2]["seat"], "action": {"call": "pass"}},
    ]
    everything = client_for(users["bert"]).get(url(table, after=0)).json()
    assert [e["version"] for e in everything["events"]] == [1, 2, 3]
    assert everything["events"][0] == {"version": 1, "seat": "anna", "action": {"call": "1"}}


@pytest.mark.django_db
def test_it_times_out_with_no_events_after_wait() -> None:
    table, users = hosted_table()
    started = time.monotonic()
    response = client_for(users["anna"]).get(url(table, after=0, wait=0.6))
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert response.json()["events"] == []
    assert response.json()["version"] == 0
    assert 0.6 <= elapsed < 3


@pytest.mark.django_db
def test_wait_zero_answers_at_once() -> None:
    table, users = hosted_table()
    started = time.monotonic()
    response = client_for(users["anna"]).get(url(table, wait=0))
    assert time.monotonic() - started < 1
    assert response.json()["events"] == []


@pytest.mark.django_db(transaction=True)
def test_it_waits_and_returns_when_another_request_acts() -> None:
    table, users = hosted_table()
    assert not settings.EVENTS_REDIS_URL or settings.CELERY_BROKER_URL  # polls the DB here
    thread = act_later(table, users, delay=0.5)
    started = time.monotonic()
    response = client_for(users["bert"]).get(url(table, after=0, wait=10))
    elapsed = time.monotonic() - started
    thread.join()
    assert response.status_code == 200
    body = response.json()
    assert body["events"] == [{"version": 1, "seat": "anna", "action": {"call": "1"}}]
    assert body["version"] == 1
    assert 0.4 <= elapsed < 5


@pytest.mark.django_db
def test_it_hides_another_seats_discard_until_the_hand_is_over() -> None:
    table, users = hosted_table(is_public=True)
    for _ in range(4):
        last = act(table, users)
    assert last["seat"] == "anna" and len(last["discard"]) == 2

    def discard_seen_by(user: User | None) -> Any:
        events = client_for(user).get(url(table, after=3)).json()["events"]
        assert events[0]["version"] == 4
        return events[0]["action"]["discard"]

    assert sorted(discard_seen_by(users["anna"])) == sorted(last["discard"])
    assert discard_seen_by(users["bert"]) is None
    assert discard_seen_by(users["carl"]) is None
    assert discard_seen_by(None) is None  # anonymous spectator of a public table
    assert discard_seen_by(UserFactory.create()) is None  # signed-in spectator

    while hand_of(table).status == Hand.Status.PLAYING:
        act(table, users)
    assert sorted(discard_seen_by(users["bert"])) == sorted(last["discard"])
    assert sorted(discard_seen_by(None)) == sorted(last["discard"])


@pytest.mark.django_db
def test_a_spectator_sees_no_cards_of_others() -> None:
    table, users = hosted_table(is_public=True)
    for _ in range(5):
        act(table, users)
    body = client_for(UserFactory.create()).get(url(table, after=0)).json()
    deal = hand_of(table).deal
    assert deal is not None
    for event in body["events"]:
        if "discard" in event["action"]:
            assert event["action"]["discard"] is None
    secret = {card for key in ("anna", "bert", "carl") for card in deal[key]}
    played = {e["action"]["card"] for e in body["events"] if "card" in e["action"]}
    shown = {str(v) for e in body["events"] for v in e["action"].values()}
    assert not (secret - played) & shown


@pytest.mark.django_db
def test_it_is_404_for_a_table_the_caller_may_not_read() -> None:
    table, users = hosted_table(is_public=False)
    stranger = UserFactory.create()
    for client in (client_for(stranger), client_for(None)):
        response = client.get(url(table, wait=0))
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    assert client_for(users["carl"]).get(url(table, wait=0)).status_code == 200
    assert client_for(users["carl"]).get(url(table, number=2, wait=0)).status_code == 404


@pytest.mark.django_db
def test_a_public_table_is_readable_anonymously() -> None:
    table, _ = hosted_table(is_public=True)
    assert client_for(None).get(url(table, wait=0)).status_code == 200


@pytest.mark.django_db
def test_it_refuses_a_version_beyond_the_hand_and_a_long_wait() -> None:
    table, users = hosted_table()
    client = client_for(users["anna"])
    beyond = client.get(url(table, after=5, wait=0))
    assert beyond.status_code == 400
    assert "after" in beyond.json()["fields"]
    assert client.get(url(table, wait=61)).status_code == 400
    assert client.get(url(table, after=-1)).status_code == 400


@pytest.mark.django_db
def test_a_finished_hand_answers_at_once_with_nothing_new() -> None:
    table, users = hosted_table()
    while hand_of(table).status == Hand.Status.PLAYING:
        act(table, users)
    version = hand_of(table).version
    started = time.monotonic()
    body = client_for(users["anna"]).get(url(table, after=version, wait=10)).json()
    assert time.monotonic() - started < 2
    assert body["events"] == []
    assert body["status"] == "done"
    assert body["phase"] == "done"
    assert body["to_act"] is None


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_redis_pub_sub_wakes_a_waiting_request_at_once() -> None:
    """With Redis, a waiter checks the database only when a message arrives (or at its
    deadline), so being woken well before ``wait`` shows the pub/sub message got through."""
    assert settings.EVENTS_REDIS_URL.startswith("redis://")
    table, users = hosted_table()
    thread = act_later(table, users, delay=0.5)
    started = time.monotonic()
    response = client_for(users["bert"]).get(url(table, after=0, wait=20))
    elapsed = time.monotonic() - started
    thread.join()
    assert response.json()["events"] == [{"version": 1, "seat": "anna", "action": {"call": "1"}}]
    assert 0.4 <= elapsed < 2.5
