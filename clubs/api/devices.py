"""A person's push targets over the API (issue 40, ``docs/notifications.md``): an app
registers the phone's or browser's push address at every start, lists them in its settings
and revokes one; reads the notifications sent to its person (its inbox), and a browser reads
the server's Web Push key. Only the caller's own targets and notifications exist for the
caller."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import path
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import notifications, outbox, push
from clubs.models import Device, Notification
from clubs.selectors import people as selectors
from clubs.services import devices as services
from config.api.callers import signed_in
from config.api.schema import ErrorSerializer


class DeviceKeysSerializer(serializers.Serializer[dict[str, Any]]):
    """A Web Push subscription's keys (``PushSubscription.toJSON().keys``)."""

    p256dh = serializers.CharField(
        max_length=200, help_text="The subscription's public key, URL-safe base64 (65 bytes)."
    )
    auth = serializers.CharField(
        max_length=100, help_text="The subscription's secret, URL-safe base64 (16 bytes)."
    )


class DeviceSerializer(serializers.ModelSerializer[Device]):
    """One push target of the caller: a phone's app or a browser."""

    kind = serializers.ChoiceField(
        choices=Device.Kind.choices,
        help_text="The push service: `apns` (iOS), `fcm` (Android, FCM HTTP v1) or `webpush` "
        "(a browser, Web Push with VAPID).",
    )
    token = serializers.CharField(
        max_length=1024,
        help_text="The app's address at its push service: the APNs device token (hex), the "
        "FCM registration token, or the Web Push subscription's `endpoint` (an https URL).",
    )
    keys = DeviceKeysSerializer(
        required=False,
        write_only=True,
        help_text="Web Push only, and required there: the subscription's keys.",
    )
    app = serializers.CharField(
        max_length=200,
        required=False,
        default="",
        allow_blank=True,
        help_text="The app's id at its push service (iOS bundle id, Android package name); "
        "empty for the server's own app.",
    )
    name = serializers.CharField(
        max_length=100,
        required=False,
        default="",
        allow_blank=True,
        help_text="A label you read in your settings, e.g. “Anna's phone”.",
    )

    class Meta:
        model = Device
        fields = ("id", "kind", "token", "keys", "app", "name", "created_at", "registered_at")
        read_only_fields = ("id", "created_at", "registered_at")
        # the same target again is the same device (clubs.services.devices), not a conflict
        validators: list[Any] = []


DEVICE_ID = OpenApiParameter("device_id", int, OpenApiParameter.PATH, description="A device id.")
UNAUTHORISED = {401: OpenApiResponse(ErrorSerializer, description="Not signed in.")}
EXAMPLES = [
    OpenApiExample(
        "An iPhone",
        value={
            "kind": "apns",
            "token": "5f2c1e0a9b8d7c6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f",
            "name": "Anna's iPhone",
        },
        request_only=True,
    ),
    OpenApiExample(
        "An Android phone",
        value={
            "kind": "fcm",
            "token": "dQw4w9WgXcQ:APA91bH2kS3lB8vZ0rT5yU7iO9pA1sD3fG5hJ7kL9zX1cV3bN5mQ7wE9r",
            "app": "at.example.preference",
            "name": "Work phone",
        },
        request_only=True,
    ),
    OpenApiExample(
        "A browser",
        value={
            "kind": "webpush",
            "token": "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmZ3x2",
            "keys": {
                # the user agent's keys of RFC 8291's example (its appendix A)
                "p256dh": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPj"
                "s7Vd8pZGH6SRpkNtoIAiw4",
                "auth": "BTBZMqHH6r4Tts7J_aSIgg",
            },
            "name": "Laptop",
        },
        request_only=True,
    ),
]


class DeviceListView(generics.ListAPIView[Device]):
    """The caller's push targets; registering one."""

    serializer_class = DeviceSerializer
    permission_classes = [IsAuthenticated]
    queryset = Device.objects.none()

    def get_queryset(self) -> QuerySet[Device]:
        if getattr(self, "swagger_fake_view", False):
            return Device.objects.none()
        return selectors.devices_of(user=signed_in(self.request))

    @extend_schema(
        summary="My devices",
        description="The phones and browsers that receive your notifications, the one "
        "registered last first.",
        responses={200: DeviceSerializer(many=True), **UNAUTHORISED},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Register a device",
        description="Register this phone's or browser's push address; an app does it at every "
        "start, since the push services change addresses. The same `kind` and `token` again "
        "answer the device already registered (200), updated, and moved to you if it was "
        "another account's (a phone that changed hands). You keep at most 20 devices: one "
        "more forgets the one registered longest ago. Signing out of every device "
        "(`POST /api/v1/auth/token/revoke-all/`) forgets them all.",
        request=DeviceSerializer,
        examples=EXAMPLES,
        responses={
            201: DeviceSerializer,
            200: OpenApiResponse(DeviceSerializer, description="Registered already: updated."),
            400: OpenApiResponse(
                ErrorSerializer,
                description="validation_error, token_invalid (not a token of that push "
                "service) or keys_invalid (a Web Push subscription's keys missing or wrong).",
            ),
            **UNAUTHORISED,
        },
    )
    def post(self, request: Request) -> Response:
        data = DeviceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        device, created = services.device_register(
            user=signed_in(request),
            kind=given["kind"],
            token=given["token"],
            keys=given.get("keys"),
            app=given["app"],
            name=given["name"],
        )
        answer = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(DeviceSerializer(device).data, status=answer)


class DeviceDetailView(generics.GenericAPIView[Device]):
    """Revoke one of the caller's devices."""

    serializer_class = DeviceSerializer
    permission_classes = [IsAuthenticated]
    queryset = Device.objects.none()

    @extend_schema(
        summary="Revoke a device",
        description="No notification reaches it from now on (an app does this when its user "
        "turns notifications off or signs out on it). Another person's device answers 404 "
        "as an unknown one.",
        parameters=[DEVICE_ID],
        request=None,
        responses={
            204: None,
            404: OpenApiResponse(ErrorSerializer, description="not_found: no device of yours."),
            **UNAUTHORISED,
        },
    )
    def delete(self, request: Request, device_id: int) -> Response:
        services.device_revoke(user=signed_in(request), device_id=device_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class NotificationPayloadSerializer(serializers.Serializer[dict[str, Any]]):
    """What an app routes a notification by: the same object in a push (APNs: the
    notification's `payload` key; FCM: the data key `payload`, as JSON text; Web Push: the
    decrypted message's `payload`) and in the inbox. Ids a type does not concern are
    absent."""

    type = serializers.ChoiceField(
        choices=notifications.TYPE_NAMES, help_text="The notification type."
    )
    path = serializers.CharField(
        help_text="The deep link: the API path of what it is about (open this screen)."
    )
    notification_id = serializers.IntegerField(help_text="The notification (inbox) id.")
    club_id = serializers.IntegerField(required=False, help_text="The club.")
    evening_id = serializers.IntegerField(required=False, help_text="The club evening.")
    tournament_id = serializers.IntegerField(required=False, help_text="The tournament.")
    cup_id = serializers.IntegerField(required=False, help_text="The cup.")
    event_id = serializers.IntegerField(required=False, help_text="The cup's event.")
    round = serializers.IntegerField(required=False, help_text="The round's number.")
    table_id = serializers.IntegerField(required=False, help_text="The table.")
    number = serializers.IntegerField(required=False, help_text="The hand's number.")
    deadline = serializers.DateTimeField(
        required=False,
        help_text="At a table with a clock: when your time for the action runs out.",
    )


class InboxItemSerializer(serializers.Serializer[dict[str, Any]]):
    """One notification sent to the caller, as its push said it (in the caller's language
    now)."""

    id = serializers.IntegerField()
    type = serializers.ChoiceField(
        choices=notifications.TYPE_NAMES, help_text="The notification type."
    )
    title = serializers.CharField()
    body = serializers.CharField()
    payload = NotificationPayloadSerializer()
    sent_at = serializers.DateTimeField()
    channel = serializers.ChoiceField(
        choices=("push", "email", "none"),
        help_text="How it went out: `push`, `email`, or `none` (you had no device, or every "
        "push service refused).",
    )


CHANNEL_OF = {
    Notification.Outcome.PUSHED: "push",
    Notification.Outcome.MAILED: "email",
    Notification.Outcome.NO_TARGET: "none",
    Notification.Outcome.FAILED: "none",
}
INBOX_SIZE = 50


class InboxView(generics.GenericAPIView[Any]):
    """The notifications sent to the caller."""

    serializer_class = InboxItemSerializer
    permission_classes = [IsAuthenticated]
    queryset = Notification.objects.none()
    pagination_class = None  # the last INBOX_SIZE, never more: one page

    @extend_schema(
        summary="My notifications",
        description=f"The last {INBOX_SIZE} notifications sent to you, the newest first: what "
        "an app shows in its list of messages, and what it opens a push by "
        "(`payload.notification_id`). Notifications you turned off, and turns you were "
        "watching, are not here. Kept 30 days.",
        responses={200: InboxItemSerializer(many=True), **UNAUTHORISED},
    )
    def get(self, request: Request) -> Response:
        user = signed_in(request)
        rows = selectors.inbox_of(user=user, size=INBOX_SIZE)
        items = []
        for row in rows:
            assert row.sent_at is not None
            message = outbox.message_of(row, row.sent_at, user)
            items.append(
                {
                    "id": row.pk,
                    "type": row.type,
                    "title": message.title,
                    "body": message.body,
                    "payload": message.payload,
                    "sent_at": row.sent_at,
                    "channel": CHANNEL_OF[Notification.Outcome(row.outcome)],
                }
            )
        return Response(InboxItemSerializer(items, many=True).data)  # type: ignore[arg-type]


class WebPushKeySerializer(serializers.Serializer[dict[str, Any]]):
    public_key = serializers.CharField(
        allow_null=True,
        help_text="The server's VAPID public key (an uncompressed P-256 point, URL-safe "
        "base64): `PushManager.subscribe`'s `applicationServerKey`. null: this server sends "
        "no Web Push.",
    )


class WebPushKeyView(generics.GenericAPIView[Any]):
    """The key a browser subscribes to this server's pushes with."""

    serializer_class = WebPushKeySerializer
    permission_classes = [AllowAny]
    queryset = Device.objects.none()

    @extend_schema(
        summary="Web Push key",
        description="What a browser passes to `PushManager.subscribe` "
        "(`applicationServerKey`) before it registers the subscription as a `webpush` "
        "device. Anyone may read it.",
        responses={200: WebPushKeySerializer},
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": push.vapid_public_key()})


urlpatterns = [
    path("me/devices/", DeviceListView.as_view(), name="devices"),
    path("me/devices/<id:device_id>/", DeviceDetailView.as_view(), name="device"),
    path("me/inbox/", InboxView.as_view(), name="inbox"),
    path("push/web-push-key/", WebPushKeyView.as_view(), name="web-push-key"),
]
