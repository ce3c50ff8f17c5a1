"""A person's push targets over the API (issue 40, ``docs/notifications.md``): an app
registers the phone's or browser's push address at every start, lists them in its settings
and revokes one. Only the caller's own targets exist for the caller."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import path
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Device
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
            "token": "https://push.example.net/wpush/v2/gAAAAABmZ3x2",
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


urlpatterns = [
    path("me/devices/", DeviceListView.as_view(), name="devices"),
    path("me/devices/<id:device_id>/", DeviceDetailView.as_view(), name="device"),
]
