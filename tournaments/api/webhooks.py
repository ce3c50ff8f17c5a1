"""Webhooks of a tournament, and of a cup: the URLs its directors registered for events,
their deliveries with every attempt, replays, test pings and secret rotation
(``docs/webhooks.md``). The two owners have the same endpoints (one set of views, made by
:func:`routes` for each :class:`Owner`), the same serializers but for the events they name.

Directors only: a tournament (cup) the caller cannot see answers 404, one they see but do not
run 403, and anonymous callers 401. A secret is in the answer that creates a webhook or
rotates its secret, and in no other.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
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
from tournaments import cup_selectors, selectors, webhooks
from tournaments.api.tournaments import TOURNAMENT_ID
from tournaments.errors import TournamentNotFound
from tournaments.models import Attempt, Cup, Delivery, Tournament, Webhook

CUP_ID = OpenApiParameter("cup_id", OpenApiTypes.INT, OpenApiParameter.PATH)
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
CUP_ERRORS = {
    **ERRORS,
    403: OpenApiResponse(ErrorSerializer, description="Not a director of the cup."),
    404: OpenApiResponse(
        ErrorSerializer, description="No such cup, webhook or delivery (or not visible)."
    ),
}
CONFLICT = {
    409: OpenApiResponse(
        ErrorSerializer, description="The webhook is inactive (`webhook_inactive`)."
    )
}
CREATE_EXAMPLE = {
    "url": "https://scores.example.org/hooks/preference",
    "events": ["round_seated", "standings_changed", "tournament_finished"],
}
CUP_CREATE_EXAMPLE = {
    "url": "https://scores.example.org/hooks/cup",
    "events": ["cup_standings_changed", "cup_finished"],
}


def _events_help(events: tuple[str, ...]) -> str:
    return "Events it receives: " + ", ".join(f"`{e}`" for e in events) + "."


def _events_schema(events: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string", "enum": list(events)}, "minItems": 1}


@extend_schema_field(_events_schema(Webhook.EVENTS))
class EventsField(serializers.ListField):
    """A list of event names (checked by the service, with a sentence naming the allowed
    ones)."""

    child = serializers.CharField()
    events: tuple[str, ...] = Webhook.EVENTS

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", _events_help(self.events))
        super().__init__(**kwargs)


@extend_schema_field(_events_schema(Webhook.CUP_EVENTS))
class CupEventsField(EventsField):
    """A list of a cup's event names."""

    events = Webhook.CUP_EVENTS


class WebhookSerializer(serializers.ModelSerializer[Webhook]):
    """A webhook: where a tournament's events are POSTed. The secret is never shown again."""

    tournament: serializers.PrimaryKeyRelatedField[Tournament] = serializers.PrimaryKeyRelatedField(
        read_only=True
    )
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


class CupWebhookSerializer(WebhookSerializer):
    """A webhook: where a cup's events are POSTed. The secret is never shown again."""

    cup: serializers.PrimaryKeyRelatedField[Cup] = serializers.PrimaryKeyRelatedField(
        read_only=True
    )
    events = CupEventsField()

    class Meta(WebhookSerializer.Meta):
        fields = ("id", "cup", *WebhookSerializer.Meta.fields[2:])
        read_only_fields = fields


class CupWebhookCreatedSerializer(CupWebhookSerializer, WebhookCreatedSerializer):
    """A cup's webhook with its new secret: the HMAC-SHA256 key of ``Preference-Signature``.
    Only the answers that create the webhook or rotate its secret show it; keep it."""

    class Meta(CupWebhookSerializer.Meta):
        fields = (*CupWebhookSerializer.Meta.fields, "secret")
        read_only_fields = fields


class CupWebhookInputSerializer(WebhookInputSerializer):
    """Register a URL (http or https) for some of a cup's events."""

    events = CupEventsField()


class CupWebhookPatchSerializer(WebhookPatchSerializer):
    """Change a cup webhook's URL, events or whether it is active (the secret stays)."""

    events = CupEventsField(required=False)


class CupWebhookDeliverySerializer(WebhookDeliverySerializer):
    """One event sent to a cup's webhook: its body exactly as signed and sent, its state and
    every attempt (numbered on across replays)."""

    event = serializers.ChoiceField(
        choices=webhooks.CUP_DELIVERY_EVENTS,
        read_only=True,
        help_text=f"One of the cup's events, or `{webhooks.PING}` for a test (`…/test/`).",
    )
    payload = JSONObjectField(
        read_only=True,
        help_text='The envelope: {"id", "event", "cup", "created_at", "data"}.',
    )


# ---------------------------------------------------------------------------------------------
# owners


def _tournament(request: Request, tournament_id: int) -> webhooks.Owner:
    return selectors.tournament_for_director(user=caller(request), tournament_id=tournament_id)


def _cup(request: Request, cup_id: int) -> webhooks.Owner:
    return cup_selectors.cup_for_director(user=caller(request), cup_id=cup_id)


@dataclass(frozen=True)
class Owner:
    """What the webhooks of one kind of owner differ in: its name, path parameter, loader
    (which checks the caller directs it), serializers and examples."""

    noun: str
    param: OpenApiParameter
    load: Callable[[Request, int], webhooks.Owner]
    webhook: type[WebhookSerializer]
    created: type[WebhookCreatedSerializer]
    input: type[WebhookInputSerializer]
    patch: type[WebhookPatchSerializer]
    delivery: type[WebhookDeliverySerializer]
    errors: dict[int, OpenApiResponse]
    create_example: dict[str, Any]
    events_example: list[str]

    @property
    def read_errors(self) -> dict[int, OpenApiResponse]:
        return {code: self.errors[code] for code in (401, 403, 404)}

    def hooks(self, request: Request, owner_id: int) -> QuerySet[Webhook]:
        owner = self.load(request, owner_id)
        if isinstance(owner, Cup):
            return webhooks.webhooks_for(cup=owner)
        return webhooks.webhooks_for(tournament=owner)

    def hook(self, request: Request, owner_id: int, webhook_id: int) -> Webhook:
        hook = self.hooks(request, owner_id).filter(pk=webhook_id).first()
        if hook is None:
            raise TournamentNotFound(_("There is no such webhook."))
        return hook

    def create(self, request: Request, owner_id: int, **data: Any) -> Webhook:
        owner, user = self.load(request, owner_id), signed_in(request)
        if isinstance(owner, Cup):
            return webhooks.webhook_create(user=user, cup=owner, **data)
        return webhooks.webhook_create(user=user, tournament=owner, **data)


TOURNAMENT = Owner(
    noun="tournament",
    param=TOURNAMENT_ID,
    load=_tournament,
    webhook=WebhookSerializer,
    created=WebhookCreatedSerializer,
    input=WebhookInputSerializer,
    patch=WebhookPatchSerializer,
    delivery=WebhookDeliverySerializer,
    errors=ERRORS,
    create_example=CREATE_EXAMPLE,
    events_example=["result_entered"],
)
CUP = Owner(
    noun="cup",
    param=CUP_ID,
    load=_cup,
    webhook=CupWebhookSerializer,
    created=CupWebhookCreatedSerializer,
    input=CupWebhookInputSerializer,
    patch=CupWebhookPatchSerializer,
    delivery=CupWebhookDeliverySerializer,
    errors=CUP_ERRORS,
    create_example=CUP_CREATE_EXAMPLE,
    events_example=["cup_finished"],
)


class DeliveryFilter(filters.FilterSet):
    """Filter deliveries by state (`failed` ones to replay) or event."""

    class Meta:
        model = Delivery
        fields = ("status", "event")


def routes(o: Owner, prefix: str, name: str) -> list[URLPattern]:
    """The webhook endpoints of one kind of owner under ``prefix`` (which names its id as
    ``o.param``), their URL names starting with ``name``."""
    key = o.param.name

    def _delivery_out(webhook: Webhook, delivery: Delivery) -> Response:
        fresh = webhooks.delivery_for(webhook=webhook, delivery_id=delivery.pk)
        return Response(o.delivery(fresh).data, status=status.HTTP_202_ACCEPTED)

    class WebhookListView(generics.ListAPIView[Webhook]):
        serializer_class = o.webhook
        queryset = Webhook.objects.none()

        def get_queryset(self) -> QuerySet[Webhook]:
            return o.hooks(self.request, self.kwargs[key])

        @extend_schema(
            summary=f"A {o.noun}'s webhooks",
            description="Directors. Oldest first; the secrets are not shown.",
            parameters=[o.param],
            responses={200: o.webhook(many=True), **o.read_errors},
        )
        def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
            return super().get(request, *args, **kwargs)

        @extend_schema(
            summary="Register a webhook",
            description=f"Directors. The {o.noun}'s events you name are POSTed to the URL as "
            "signed JSON. The answer carries the webhook's `secret` (the HMAC-SHA256 key of "
            "`Preference-Signature`): this is the only time it is shown (rotating it shows the "
            "new one).",
            parameters=[o.param],
            request=o.input,
            responses={201: o.created, **o.errors},
            examples=[OpenApiExample("Webhook", value=o.create_example, request_only=True)],
        )
        def post(self, request: Request, **kwargs: int) -> Response:
            data = o.input(data=request.data)
            data.is_valid(raise_exception=True)
            hook = o.create(request, kwargs[key], **data.validated_data)
            return Response(o.created(hook).data, status=status.HTTP_201_CREATED)

    class WebhookDetailView(APIView):
        @extend_schema(
            summary="A webhook",
            description="Directors. Without its secret.",
            parameters=[o.param, WEBHOOK_ID],
            responses={200: o.webhook, **o.read_errors},
        )
        def get(self, request: Request, webhook_id: int, **kwargs: int) -> Response:
            return Response(o.webhook(o.hook(request, kwargs[key], webhook_id)).data)

        @extend_schema(
            summary="Change a webhook",
            description="Directors. Change the URL, the events, or switch it off (`is_active`: "
            "an inactive webhook is sent nothing, and its deliveries still pending fail "
            "untried). The secret stays.",
            parameters=[o.param, WEBHOOK_ID],
            request=o.patch,
            responses={200: o.webhook, **o.errors},
            examples=[
                OpenApiExample("Switch off", value={"is_active": False}, request_only=True),
                OpenApiExample("Events", value={"events": o.events_example}, request_only=True),
            ],
        )
        def patch(self, request: Request, webhook_id: int, **kwargs: int) -> Response:
            hook = o.hook(request, kwargs[key], webhook_id)
            data = o.patch(data=request.data, partial=True)
            data.is_valid(raise_exception=True)
            user = signed_in(request)
            hook = webhooks.webhook_update(user=user, webhook=hook, **data.validated_data)
            return Response(o.webhook(hook).data)

        @extend_schema(
            summary="Delete a webhook",
            description="Directors. With its deliveries and their attempts.",
            parameters=[o.param, WEBHOOK_ID],
            responses={204: None, **o.read_errors},
        )
        def delete(self, request: Request, webhook_id: int, **kwargs: int) -> Response:
            hook = o.hook(request, kwargs[key], webhook_id)
            webhooks.webhook_delete(user=signed_in(request), webhook=hook)
            return Response(status=status.HTTP_204_NO_CONTENT)

    class DeliveryListView(generics.ListAPIView[Delivery]):
        serializer_class = o.delivery
        filterset_class = DeliveryFilter
        queryset = Delivery.objects.none()

        def get_queryset(self) -> QuerySet[Delivery]:
            hook = o.hook(self.request, self.kwargs[key], self.kwargs["webhook_id"])
            return webhooks.deliveries_for(webhook=hook)

        @extend_schema(
            summary="A webhook's deliveries",
            description="Directors. Newest first, each with its body and every attempt (status "
            "code or error, duration). Filter by `status` or `event`.",
            parameters=[o.param, WEBHOOK_ID],
            responses={200: o.delivery(many=True), **o.read_errors},
        )
        def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
            return super().get(request, *args, **kwargs)

    class DeliveryReplayView(APIView):
        @extend_schema(
            summary="Send a delivery again",
            description="Directors. Sends the delivery again now, whatever its state: the same "
            "`X-Preference-Delivery` id and the same body (receivers that remember ids see a "
            "duplicate), with a fresh allowance of tries and back-off; the attempts are "
            "numbered on. No body. Answers 202 with the delivery (pending, or already "
            "delivered when the server sends in-process).",
            parameters=[o.param, WEBHOOK_ID, DELIVERY_ID],
            request=None,
            responses={202: o.delivery, **o.read_errors, **CONFLICT},
        )
        def post(
            self, request: Request, webhook_id: int, delivery_id: uuid.UUID, **kwargs: int
        ) -> Response:
            hook = o.hook(request, kwargs[key], webhook_id)
            delivery = webhooks.delivery_for(webhook=hook, delivery_id=delivery_id)
            delivery = webhooks.delivery_replay(user=signed_in(request), delivery=delivery)
            return _delivery_out(hook, delivery)

    class WebhookRotateSecretView(APIView):
        @extend_schema(
            summary="Rotate a webhook's secret",
            description="Directors. Gives the webhook a new secret and answers with it: this is "
            "the only time it is shown. The replaced secret stays valid for "
            "`WEBHOOK_SECRET_OVERLAP_HOURS` (24 by default; `previous_secret_expires_at`): "
            "until then `Preference-Signature` carries a `v1=` for each secret, so the receiver "
            "can switch to the new one at any moment in between. Rotating again within that "
            "window drops the older secret at once. No body.",
            parameters=[o.param, WEBHOOK_ID],
            request=None,
            responses={200: o.created, **o.read_errors},
        )
        def post(self, request: Request, webhook_id: int, **kwargs: int) -> Response:
            hook = o.hook(request, kwargs[key], webhook_id)
            hook = webhooks.webhook_rotate_secret(user=signed_in(request), webhook=hook)
            return Response(o.created(hook).data)

    class WebhookTestView(APIView):
        @extend_schema(
            summary="Send a test ping",
            description="Directors. Sends a `ping` delivery to this webhook alone (whatever its "
            'events), with `data` `{"webhook": <id>, "url": <url>}`, to try the receiver and '
            "its signature check. No body. Answers 202 with the new delivery.",
            parameters=[o.param, WEBHOOK_ID],
            request=None,
            responses={202: o.delivery, **o.read_errors, **CONFLICT},
        )
        def post(self, request: Request, webhook_id: int, **kwargs: int) -> Response:
            hook = o.hook(request, kwargs[key], webhook_id)
            delivery = webhooks.webhook_ping(user=signed_in(request), webhook=hook)
            return _delivery_out(hook, delivery)

    one = prefix + "<id:webhook_id>/"
    return [
        path(prefix, WebhookListView.as_view(), name=f"{name}-webhooks"),
        path(one, WebhookDetailView.as_view(), name=f"{name}-webhook"),
        path(one + "deliveries/", DeliveryListView.as_view(), name=f"{name}-webhook-deliveries"),
        path(
            one + "deliveries/<uuid:delivery_id>/replay/",
            DeliveryReplayView.as_view(),
            name=f"{name}-webhook-replay",
        ),
        path(one + "test/", WebhookTestView.as_view(), name=f"{name}-webhook-test"),
        path(
            one + "rotate-secret/", WebhookRotateSecretView.as_view(), name=f"{name}-webhook-rotate"
        ),
    ]


urlpatterns = [
    *routes(TOURNAMENT, "tournaments/<id:tournament_id>/webhooks/", "t"),
    *routes(CUP, "cups/<id:cup_id>/webhooks/", "c"),
]
