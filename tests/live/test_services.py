"""The socket across processes: bots moved by a real Celery worker (PostgreSQL, Redis broker
and Redis channel layer) reach a player's socket, which plays the hand on its notifications
alone, never polling.

The worker is another process: what it publishes reaches the test's server only through
Redis. The player acts only when the socket says it is their turn, and every turn after a
bot's move is announced by the worker, so the hand can only finish if those messages arrive.
"""

from __future__ import annotations

import random
import time

import pytest
from django.conf import settings

from games.models import Hand
from tests.conftest import WorkerProcess
from tests.factories import UserFactory
from tests.live.conftest import token_for
from tests.live.server import LiveServer, Socket, socket_to
from tests.live.worlds import hosted_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HAND_SECONDS = 120.0


def _play_on_notifications(
    live: LiveServer, sock: Socket, token: str, table_id: int, rng: random.Random
) -> int:
    """Act on every ``your_turn`` until the socket's events say the hand is over; the number
    of the player's moves."""
    base = f"/api/v1/tables/{table_id}/hands/1/"
    deadline = time.monotonic() + HAND_SECONDS
    acted: set[int] = set()
    while time.monotonic() < deadline:
        if any(m["type"] == "events" and m["status"] == Hand.Status.DONE for m in sock.seen):
            return len(acted)
        turn = next(
            (m for m in sock.seen if m.get("kind") == "your_turn" and m["version"] not in acted),
            None,
        )
        if turn is None:
            sock.until(lambda m: m["type"] in ("notification", "events"), timeout=30)
            continue
        view = live.ok("GET", base + "view/", token=token)
        assert view["version"] == turn["version"]
        body = {"action": rng.choice(view["legal"]), "expected_version": view["version"]}
        live.ok("POST", base + "actions/", token=token, body=body)
        acted.add(turn["version"])
    pytest.fail("the hand did not finish in time: do the worker's messages reach the socket?")


def test_a_player_plays_against_the_workers_bots_on_socket_messages_alone(
    celery_worker_process: WorkerProcess, live: LiveServer
) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER  # bot moves go through the broker
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    assert layer == "channels_redis.core.RedisChannelLayer"
    anna = UserFactory.create(username="anna")
    token = token_for(anna)
    table = hosted_table([anna], bots=2)  # anna, bot1, bot2 (dealer): anna leads
    with socket_to(live, token=token) as sock:
        sock.send({"type": "subscribe", "topic": "notifications"})
        sock.expect("notifications")
        live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=token)
        sock.send({"type": "subscribe", "topic": "hand", "table_id": table.pk, "number": 1})
        sock.expect("subscribed", topic="hand")
        moves = _play_on_notifications(live, sock, token, table.pk, random.Random(5))
    hand = Hand.objects.get(table=table, number=1)
    assert hand.status == Hand.Status.DONE
    versions = [e["version"] for m in sock.seen if m["type"] == "events" for e in m["events"]]
    assert versions == list(range(1, hand.version + 1))  # every move once, in order
    actors = {e["seat"] for m in sock.seen if m["type"] == "events" for e in m["events"]}
    assert {"bot1", "bot2"} <= actors and moves >= 1
    turns = [m for m in sock.seen if m.get("kind") == "your_turn"]
    assert len(turns) >= moves  # every move of anna's was announced
