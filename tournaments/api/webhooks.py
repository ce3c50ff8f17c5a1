"""Webhooks of a tournament: the URLs its directors registered for events, their deliveries
with every attempt, replays, test pings and secret rotation (``docs/webhooks.md``).

Directors only: a tournament the caller cannot see answers 404, one they see but do not run
403, and anonymous callers 401. A secret is in the answer that creates a webhook or rotates
its secret, and in no other.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet
from django.urls import path
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.callers import caller, signed_in
from config.api.fields import JSONObjectField
from config.api.schema import ErrorSerializer
from tournaments import selectors, webhooks
from tournaments.api.tournaments import TOURNAMENT_ID
from tournaments.models import Attempt, Delivery, Tournament, Webhook

WEBHOOK_ID = OpenApiParameter("webhook_id", OpenApiTypes.INT, OpenApiParameter.PATH)
DELIVERY_ID = OpenApiParameter("delivery_id", OpenApiTypes.UUID, OpenApiParameter.PATH)
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="Not a director of the tournament."),
    404: OpenApiResponse(
        ErrorSerializer, description="No such tournament, webhook or delivery (or not visible)."
    ),
}
CONFLICT = {
    409: OpenApiResponse(
        ErrorSerializer, description="The webhook is inactive (`webhook_inactive`)."
    )
}
READ_ERRORS = {code: ERRORS[code] for code in (401, 403, 404)}
EVENTS_HELP = "Events it receives: " + ", ".join(f"`{e}`" for e in Webhook.EVENTS) + "."
CREATE_EXAMPLE = {
    "url": "https://scores.example.org/hooks/preference",
    "events": ["round_seated", "standings_changed", "tournament_finished"],
}


@extend_schema_field(
    {"type": "array", "items": {"type": "string", "enum": list(Webhook.EVENTS)}, "minItems": 1}
)
class EventsField(serializers.ListField):
    """A list of event names (checked by the service, with a sentence naming the allowed
    ones)."""

    child = serializers.CharField()

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", EVENTS_HELP)
        super().__init__(**kwargs)


class WebhookSerializer(serializers.ModelSerializer[Webhook]):
    """A webhook: where a tournament's events are POSTed. The secret is never shown again."""

    events = EventsField()

    class Meta:
        model = Webhook
        fields: tuple[str, ...] = (
            "id",
            "tournament",
            "url",
            "events",
            "is_active",
            "created_by",
            "created_at",
            "previous_secret_expires_at",
        )
        read_only_fields: tuple[str, ...] = fields
        extra_kwargs = {
            "previous_secret_expires_at": {
                "help_text": "After a rotation: until when the replaced secret still signs "
                "deliveries too (null if the secret was never rotated)."
            }
        }


class WebhookCreatedSerializer(WebhookSerializer):
    """A webhook with its new secret: the HMAC-SHA256 key of ``Preference-Signature``. Only
    the answers that create the webhook or rotate its secret show it; keep it."""

    secret = serializers.CharField(
        read_only=True, help_text="64 hex characters; used as the HMAC key as they are (UTF-8)."
    )

    class Meta(WebhookSerializer.Meta):
        fields = (*WebhookSerializer.Meta.fields, "secret")
        read_only_fields = fields


class WebhookInputSerializer(serializers.Serializer[dict[str, Any]]):
    """Register a URL (http or https) for some events."""

    url = serializers.URLField(max_length=500)
    events = EventsField()


class WebhookPatchSerializer(serializers.Serializer[dict[str, Any]]):
    """Change a webhook's URL, events or whether it is active (the secret stays)."""

    url = serializers.URLField(max_length=500, required=False)
    events = EventsField(required=False)
    is_active = serializers.BooleanField(
        required=False, help_text="An inactive webhook is sent nothing."
    )


class WebhookAttemptSerializer(serializers.ModelSerializer[Attempt]):
    """One try to deliver: the receiver's status code, or why there was none."""

    class Meta:
        model = Attempt
        fields = ("number", "at", "status_code", "error", "duration_ms")
        read_only_fields = fields


class WebhookDeliverySerializer(serializers.ModelSerializer[Delivery]):
    """One event sent to the webhook: its body exactly as signed and sent, its state and
    every attempt (numbered on across replays)."""

    event = serializers.ChoiceField(
        choices=webhooks.DELIVERY_EVENTS,
        read_only=True,
        help_text=f"One of the events, or `{webhooks.PING}` for a test (`…/test/`).",
    )
    payload = JSONObjectField(
        read_only=True,
        help_text='The envelope: {"id", "event", "tournament", "created_at", "data"}.',
    )
    attempts = WebhookAttemptSerializer(source="tries", many=True, read_only=True)

    class Meta:
        model = Delivery
        fields = ("id", "event", "status", "payload", "created_at", "delivered_at", "attempts")
        read_only_fields = fields


def _tournament(request: Request, tournament_id: int) -> Tournament:
    return selectors.tournament_for_director(user=caller(request), tournament_id=tournament_id)


def _webhook(request: Request, tournament_id: int, webhook_id: int) -> Webhook:
    t = _tournament(request, tournament_id)
    return webhooks.webhook_for(tournament=t, webhook_id=webhook_id)


def _delivery_out(webhook: Webhook, delivery: Delivery) -> Response:
    fresh = webhooks.delivery_for(webhook=webhook, delivery_id=delivery.pk)
    return Response(WebhookDeliverySerializer(fresh).data, status=status.HTTP_202_ACCEPTED)


class WebhookListView(generics.ListAPIView[Webhook]):
    serializer_class = WebhookSerializer
    queryset = Webhook.objects.none()

    def get_queryset(self) -> QuerySet[Webhook]:
        t = _tournament(self.request, self.kwargs["tournament_id"])
        return webhooks.webhooks_for(tournament=t)

    @extend_schema(
        summary="A tournament's webhooks",
        description="Directors. Oldest first; the secrets are not shown.",
        parameters=[TOURNAMENT_ID],
        responses={200: WebhookSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Register a webhook",
        description="Directors. The tournament's events you name are POSTed to the URL as "
        "signed JSON. The answer carries the webhook's `secret` (the HMAC-SHA256 key of "
        "`Preference-Signature`): this is the only time it is shown (rotating it shows the new "
        "one).",
        parameters=[TOURNAMENT_ID],
        request=WebhookInputSerializer,
        responses={201: WebhookCreatedSerializer, **ERRORS},
        examples=[OpenApiExample("Webhook", value=CREATE_EXAMPLE, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        t = _tournament(request, tournament_id)
        data = WebhookInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hook = webhooks.webhook_create(user=signed_in(request), tournament=t, **data.validated_data)
        return Response(WebhookCreatedSerializer(hook).data, status=status.HTTP_201_CREATED)


class WebhookDetailView(APIView):
    @extend_schema(
        summary="A webhook",
        description="Directors. Without its secret.",
        parameters=[TOURNAMENT_ID, WEBHOOK_ID],
        responses={200: WebhookSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        hook = _webhook(request, tournament_id, webhook_id)
        return Response(WebhookSerializer(hook).data)

    @extend_schema(
        summary="Change a webhook",
        description="Directors. Change the URL, the events, or switch it off (`is_active`: an "
        "inactive webhook is sent nothing, and its deliveries still pending fail untried). The "
        "secret stays.",
        parameters=[TOURNAMENT_ID, WEBHOOK_ID],
        request=WebhookPatchSerializer,
        responses={200: WebhookSerializer, **ERRORS},
        examples=[
            OpenApiExample("Switch off", value={"is_active": False}, request_only=True),
            OpenApiExample("Events", value={"events": ["result_entered"]}, request_only=True),
        ],
    )
    def patch(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        hook = _webhook(request, tournament_id, webhook_id)
        data = WebhookPatchSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        hook = webhooks.webhook_update(user=signed_in(request), webhook=hook, **data.validated_data)
        return Response(WebhookSerializer(hook).data)

    @extend_schema(
        summary="Delete a webhook",
        description="Directors. With its deliveries and their attempts.",
        parameters=[TOURNAMENT_ID, WEBHOOK_ID],
        responses={204: None, **READ_ERRORS},
    )
    def delete(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        hook = _webhook(request, tournament_id, webhook_id)
        webhooks.webhook_delete(user=signed_in(request), webhook=hook)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryFilter(filters.FilterSet):
    """Filter deliveries by state (`failed` ones to replay) or event."""

    class Meta:
        model = Delivery
        fields = ("status", "event")


class DeliveryListView(generics.ListAPIView[Delivery]):
    serializer_class = WebhookDeliverySerializer
    filterset_class = DeliveryFilter
    queryset = Delivery.objects.none()

    def get_queryset(self) -> QuerySet[Delivery]:
        hook = _webhook(self.request, self.kwargs["tournament_id"], self.kwargs["webhook_id"])
        return webhooks.deliveries_for(webhook=hook)

    @extend_schema(
        summary="A webhook's deliveries",
        description="Directors. Newest first, each with its body and every attempt (status "
        "code or error, duration). Filter by `status` or `event`.",
        parameters=[TOURNAMENT_ID, WEBHOOK_ID],
        responses={200: WebhookDeliverySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class DeliveryReplayView(APIView):
    @extend_schema(
        summary="Send a delivery again",
        description="Directors. Sends the delivery again now, whatever its state: the same "
        "`X-Preference-Delivery` id and the same body (receivers that remember ids see a "
        "duplicate), with a fresh allowance of tries and back-off; the attempts are numbered "
        "on. No body. Answers 202 with the delivery (pending, or already delivered when the "
        "server sends in-process).",
        parameters=[TOURNAMENT_ID, WEBHOOK_ID, DELIVERY_ID],
        request=None,
        responses={202: WebhookDeliverySerializer, **READ_ERRORS, **CONFLICT},
    )
    def post(
        self, request: Request, tournament_id: int, webhook_id: int, delivery_id: uuid.UUID
    ) -> Response:
        hook = _webhook(request, tournament_id, webhook_id)
        delivery = webhooks.delivery_for(webhook=hook, delivery_id=delivery_id)
        delivery = webhooks.delivery_replay(user=signed_in(request), delivery=delivery)
        return _delivery_out(hook, delivery)


class WebhookRotateSecretView(APIView):
    @extend_schema(
        summary="Rotate a webhook's secret",
        description="Directors. Gives the webhook a new secret and answers with it: this is the "
        "only time it is shown. The replaced secret stays valid for "
        "`WEBHOOK_SECRET_OVERLAP_HOURS` (24 by default; `previous_secret_expires_at`): until "
        "then `Preference-Signature` carries a `v1=` for each secret, so the receiver can switch "
        "to the new one at any moment in between. Rotating again within that window drops the "
        "older secret at once. No body.",
        parameters=[TOURNAMENT_ID, WEBHOOK_ID],
        request=None,
        responses={200: WebhookCreatedSerializer, **READ_ERRORS},
    )
    def post(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        hook = _webhook(request, tournament_id, webhook_id)
        hook = webhooks.webhook_rotate_secret(user=signed_in(request), webhook=hook)
        return Response(WebhookCreatedSerializer(hook).data)


class WebhookTestView(APIView):
    @extend_schema(
        summary="Send a test ping",
        description="Directors. Sends a `ping` delivery to this webhook alone (whatever its "
        'events), with `data` `{"webhook": <id>, "url": <url>}`, to try the receiver and its '
        "signature check. No body. Answers 202 with the new delivery.",
        parameters=[TOURNAMENT_ID, WEBHOOK_ID],
        request=None,
        responses={202: WebhookDeliverySerializer, **READ_ERRORS, **CONFLICT},
    )
    def post(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        hook = _webhook(request, tournament_id, webhook_id)
        delivery = webhooks.webhook_ping(user=signed_in(request), webhook=hook)
        return _delivery_out(hook, delivery)


W = "tournaments/<id:tournament_id>/webhooks/"
ONE = W + "<id:webhook_id>/"

urlpatterns = [
    path(W, WebhookListView.as_view(), name="t-webhooks"),
    path(ONE, WebhookDetailView.as_view(), name="t-webhook"),
    path(ONE + "deliveries/", DeliveryListView.as_view(), name="t-webhook-deliveries"),
    path(
        ONE + "deliveries/<uuid:delivery_id>/replay/",
        DeliveryReplayView.as_view(),
        name="t-webhook-replay",
    ),
    path(ONE + "test/", WebhookTestView.as_view(), name="t-webhook-test"),
    path(ONE + "rotate-secret/", WebhookRotateSecretView.as_view(), name="t-webhook-rotate"),
]
