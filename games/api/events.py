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
(:func:`games.notify.wait_for_change`); other requests go on being served. Its reads are
:mod:`games.selectors`, run by :func:`games.live.db.db_call` with the websocket's, at most
``DB_SLOTS`` at once per process. (Django's ASGI
handler still gives every request its own idle helper thread for its sync parts, so a waiting
request keeps one parked thread; ``bench/games_bench.py`` counts them.)
"""

from __future__ import annotations

from typing import Any

from adrf.views import APIView  # type: ignore[import-untyped]
from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from config.api.rule_sets import or_null
from config.api.schema import ErrorSerializer
from games import notify
from games.api.serializers import PHASES, ActionTimeoutSerializer
from games.live.db import db_call
from games.models import Hand
from games.selectors import hand_events_for_user, hand_moved_past

MAX_WAIT_SECONDS = 60.0


class EventSerializer(serializers.Serializer[dict[str, Any]]):
    """One action of the hand as the caller may see it."""

    version = serializers.IntegerField(help_text="The hand's version after this action.")
    seat = serializers.CharField(help_text="The seat that acted.")
    action = serializers.DictField(
        help_text="The action without its seat, as the table's rule set's `<Variant>Action` "
        "forms show (a card as a code of its deck); another seat's hidden choice as the rule "
        "set's view shows it (a discard as null) until the hand is over."
    )


@extend_schema_field(or_null("HandClock", "At a table with a clock: each person's clock now."))
class HandClockField(serializers.JSONField):
    """A hand's clocks (``games.hands.hand_clock``), typed as the ``HandClock`` component."""


class EventsSerializer(serializers.Serializer[dict[str, Any]]):
    """The actions after ``after`` and where the hand stands now (with the clocks at a table
    that has them, and the server's time in them)."""

    version = serializers.IntegerField(help_text="The hand's current version.")
    status = serializers.ChoiceField(choices=Hand.Status.choices)
    phase = serializers.ChoiceField(choices=PHASES, help_text="The engine's phase of the hand.")
    to_act = serializers.CharField(allow_null=True, help_text="The seat to act, if any.")
    events = EventSerializer(many=True)
    clock = HandClockField(allow_null=True)
    timeouts = ActionTimeoutSerializer(
        many=True, help_text="The actions the timeout policy played (empty without a clock)."
    )


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


async def _events_for(
    user: Any, table_id: int, number: int, after: int
) -> tuple[dict[str, Any], int]:
    """The events body for ``user`` and the hand's id, read on the request's own thread (which
    holds no connection while the request waits)."""
    return await db_call(
        hand_events_for_user,
        user=user,
        table_id=table_id,
        number=number,
        after=after,
        thread_sensitive=True,
    )


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
        body, hand_id = await _events_for(user, table_id, number, after)
        if body["events"] or wait <= 0 or body["status"] != Hand.Status.PLAYING:
            return Response(body)

        async def changed() -> bool:
            return await db_call(
                hand_moved_past, hand_id=hand_id, after=after, thread_sensitive=True
            )

        if await notify.wait_for_change(hand_id, changed, wait):
            body, _ = await _events_for(user, table_id, number, after)
        return Response(body)
