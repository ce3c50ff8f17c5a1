"""Long-polling events of a hosted hand.

``GET /api/v1/tables/{table_id}/hands/{number}/events/?after=V&wait=S`` answers with the
actions after version ``V`` (the hand's version counts its actions: action ``i`` makes version
``i``), rendered for the caller's seat by the engine (another seat's discard is ``null`` until
the hand ends, and after it while a deal source withholds the board, ``games.deals``; a
spectator sees public information only). When there are none yet and the hand is still being
played, the request waits up to ``S`` seconds (default ``LONG_POLL_SECONDS``, at most 60;
``wait=0`` answers at once) for the next one.

The view is async (adrf): while it waits it holds no worker slot and no database connection,
only a coroutine on the worker's event loop and, with Redis, one pub/sub subscription
(:func:`games.notify.wait_for_change`); other requests go on being served. (Django's ASGI
handler still gives every request its own idle helper thread for its sync parts, so a waiting
request keeps one parked thread; ``bench/games_bench.py`` counts them.)
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from adrf.views import APIView  # type: ignore[import-untyped]
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import User
from config.api.schema import ErrorSerializer
from games import notify, services
from games.errors import InvalidInput
from games.models import Hand, Table
from games.permissions import can_read, seat_of

T = TypeVar("T")

MAX_WAIT_SECONDS = 60.0
#: Database work of waiting requests at once, per process and event loop: hundreds of long
#: polls that wake together must not open hundreds of connections (PostgreSQL refuses past
#: ``max_connections``); the rest queue for a moment instead.
DB_SLOTS = 8
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def _db_slot() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slot = _slots.get(loop)
    if slot is None:
        slot = _slots[loop] = asyncio.Semaphore(DB_SLOTS)
    return slot


async def _with_db(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn`` in a thread and give its database connection back before leaving, with at
    most ``DB_SLOTS`` such calls at once (so at most that many connections)."""
    async with _db_slot():
        return await sync_to_async(_then_release)(fn, *args, **kwargs)


def _then_release(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    try:
        return fn(*args, **kwargs)
    finally:
        _release_connection()


class EventSerializer(serializers.Serializer[dict[str, Any]]):
    """One action of the hand as the caller may see it."""

    version = serializers.IntegerField(help_text="The hand's version after this action.")
    seat = serializers.CharField(help_text="The seat that acted.")
    action = serializers.DictField(
        help_text='The action without its seat, e.g. {"call": "pass"} or {"card": "HA"}; '
        'another seat\'s discard is {"discard": null} until the hand is over.'
    )


class EventsSerializer(serializers.Serializer[dict[str, Any]]):
    """The actions after ``after`` and where the hand stands now."""

    version = serializers.IntegerField(help_text="The hand's current version.")
    status = serializers.ChoiceField(choices=Hand.Status.choices)
    phase = serializers.CharField(help_text="The engine's phase: auction, talon, … done.")
    to_act = serializers.CharField(allow_null=True, help_text="The seat to act, if any.")
    events = EventSerializer(many=True)


class EventsQuerySerializer(serializers.Serializer[dict[str, Any]]):
    """Query parameters of the events endpoint."""

    after = serializers.IntegerField(
        min_value=0, default=0, help_text="The version the client has seen (0: from the start)."
    )
    wait = serializers.FloatField(
        min_value=0,
        max_value=MAX_WAIT_SECONDS,
        required=False,
        help_text="Seconds to wait for the next action when there is none yet "
        "(default LONG_POLL_SECONDS, at most 60; 0 answers at once).",
    )


def _release_connection() -> None:
    """Give the database connection back before waiting (a waiter holds none). Inside a
    transaction (tests) the connection is kept."""
    if not connection.in_atomic_block:
        connection.close()


def hand_reader(
    *, user: User | AnonymousUser, table_id: int, number: int
) -> tuple[Table, Hand, str | None]:
    """The table and hosted hand ``user`` may read, and their seat at it (None: a spectator);
    404 for a table the user may not read or a hand that is not hosted."""
    table = Table.objects.prefetch_related("seats").filter(pk=table_id).first()
    if table is None or not can_read(user, table):
        raise NotFound("There is no such table.")
    hand = Hand.objects.filter(table=table, number=number).first()
    if hand is None or hand.deal is None:
        raise NotFound(f"Table {table_id} has no hosted hand {number}.")
    seat = seat_of(user, table)
    return table, hand, None if seat is None else seat.key


def events_body(table: Table, hand: Hand, seat: str | None, after: int) -> dict[str, Any]:
    """The events after ``after`` as ``seat`` (None: a spectator) may see them."""
    if after > hand.version:
        raise InvalidInput(
            f"The hand is at version {hand.version}; 'after' cannot be beyond it.",
            fields={"after": [f"at most {hand.version}"]},
        )
    seen = services.hand_view(table, hand, seat)
    events = [
        {
            "version": i,
            "seat": item["seat"],
            "action": {k: v for k, v in item.items() if k != "seat"},
        }
        for i, item in enumerate(seen["actions"][after:], start=after + 1)
    ]
    return {
        "version": hand.version,
        "status": hand.status,
        "phase": seen["phase"],
        "to_act": seen["to_act"],
        "events": events,
    }


def hand_events(
    *, user: User | AnonymousUser, table_id: int, number: int, after: int
) -> tuple[dict[str, Any], int]:
    """The events body for ``user`` and the hand's id; 404 for a table the user may not read
    or a hand that is not hosted."""
    table, hand, seat = hand_reader(user=user, table_id=table_id, number=number)
    return events_body(table, hand, seat, after), hand.pk


def seat_events(*, table_id: int, number: int, seat: str | None, after: int) -> dict[str, Any]:
    """The events body for ``seat`` without asking who reads: only for a caller that checked
    the reader with :func:`hand_reader` already (a websocket subscription, which shares one
    read among the sockets of a process that would read the same thing)."""
    table = Table.objects.prefetch_related("seats").filter(pk=table_id).first()
    hand = None if table is None else Hand.objects.filter(table=table, number=number).first()
    if table is None or hand is None or hand.deal is None:
        raise NotFound(f"Table {table_id} has no hosted hand {number}.")
    return events_body(table, hand, seat, after)


def _version_beyond(hand_id: int, after: int) -> bool:
    """Whether the hand moved past ``after``."""
    return Hand.objects.filter(pk=hand_id, version__gt=after).exists()


class HandEventsView(APIView):
    """The actions of a hosted hand after a version, waiting for the next one if needed."""

    permission_classes = [AllowAny]  # readers are checked per table: can_read, else 404

    @extend_schema(
        summary="A hand's events (long poll)",
        parameters=[EventsQuerySerializer],
        responses={
            200: EventsSerializer,
            400: OpenApiResponse(ErrorSerializer, description="Invalid after or wait."),
        },
    )
    async def get(self, request: Request, table_id: int, number: int) -> Response:
        """The actions after ``after``, rendered for the caller; when there are none yet, wait
        up to ``wait`` seconds for the next one (a long poll)."""
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after: int = query.validated_data["after"]
        wait = min(query.validated_data.get("wait", settings.LONG_POLL_SECONDS), MAX_WAIT_SECONDS)
        user = request.user
        body, hand_id = await _with_db(
            hand_events, user=user, table_id=table_id, number=number, after=after
        )
        if body["events"] or wait <= 0 or body["status"] != Hand.Status.PLAYING:
            return Response(body)

        async def changed() -> bool:
            return await _with_db(_version_beyond, hand_id, after)

        if await notify.wait_for_change(hand_id, changed, wait):
            body, _ = await _with_db(
                hand_events, user=user, table_id=table_id, number=number, after=after
            )
        return Response(body)
