"""Issue 40, the first part: a person's push targets (``/api/v1/me/devices/``). An app
registers its phone's or browser's push address at every start; the same address again is
the same device (moved to whoever registered it last), each person sees and revokes only
their own, a wrong token or Web Push key is refused with a sentence naming the field, and
signing out everywhere or erasing the account forgets every target."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs import privacy
from clubs.models import Device, Notification
from clubs.services import devices
from tests.factories import UserFactory
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/devices/"
APNS = "a1" * 32
FCM = "dQw4w9WgXcQ:APA91bH2kS3lB8vZ0rT5yU7iO9pA1sD3fG5hJ7kL9zX1cV3bN5mQ7wE9r"
ENDPOINT = "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmZ3x2"
#: The user agent's keys of RFC 8291's example (appendix A).
P256DH = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AUTH = "BTBZMqHH6r4Tts7J_aSIgg"


def register(client: APIClient, **body: Any) -> Any:
    return client.post(URL, body, format="json")


def test_a_phone_registers_once_and_again_at_every_start() -> None:
    anna = client_for(UserFactory.create(username="anna"))
    first = register(anna, kind="apns", token=APNS.upper(), name="Anna's iPhone")
    assert first.status_code == 201, first.json()
    body = first.json()
    assert (body["kind"], body["token"], body["name"]) == ("apns", APNS, "Anna's iPhone")
    again = register(anna, kind="apns", token=APNS, name="iPhone")
    assert again.status_code == 200
    assert again.json()["id"] == body["id"] and again.json()["name"] == "iPhone"
    assert again.json()["registered_at"] >= body["registered_at"]
    assert Device.objects.count() == 1


def test_each_kind_of_target_registers_and_lists_newest_first() -> None:
    anna = client_for(UserFactory.create(username="anna"))
    assert register(anna, kind="apns", token=APNS).status_code == 201
    assert register(anna, kind="fcm", token=FCM, app="at.example.preference").status_code == 201
    web = register(anna, kind="webpush", token=ENDPOINT, keys={"p256dh": P256DH, "auth": AUTH})
    assert web.status_code == 201, web.json()
    assert "keys" not in web.json()  # written, never read back
    listed = anna.get(URL).json()
    assert [d["kind"] for d in listed["results"]] == ["webpush", "fcm", "apns"]
    assert Device.objects.get(kind="webpush").keys == {"p256dh": P256DH, "auth": AUTH}


def test_the_same_target_moves_to_whoever_registered_it_last() -> None:
    anna, bert = UserFactory.create(username="anna"), UserFactory.create(username="bert")
    register(client_for(anna), kind="fcm", token=FCM)
    moved = register(client_for(bert), kind="fcm", token=FCM)
    assert moved.status_code == 200
    assert list(Device.objects.values_list("user", flat=True)) == [bert.pk]
    assert client_for(anna).get(URL).json()["count"] == 0


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"kind": "apns", "token": "not-hex" * 10}, "token", "token_invalid"),
        ({"kind": "apns", "token": "ab" * 10}, "token", "token_invalid"),
        ({"kind": "fcm", "token": "short"}, "token", "token_invalid"),
        (
            {"kind": "fcm", "token": "has spaces in it, which no token has"},
            "token",
            "token_invalid",
        ),
        ({"kind": "webpush", "token": "http://push.example.net/x"}, "token", "token_invalid"),
        ({"kind": "webpush", "token": ENDPOINT}, "keys", "keys_invalid"),
        (
            {"kind": "webpush", "token": ENDPOINT, "keys": {"p256dh": AUTH, "auth": AUTH}},
            "keys",
            "keys_invalid",
        ),
        (
            {"kind": "webpush", "token": ENDPOINT, "keys": {"p256dh": P256DH, "auth": P256DH}},
            "keys",
            "keys_invalid",
        ),
        (
            {"kind": "webpush", "token": ENDPOINT, "keys": {"p256dh": "!!!", "auth": AUTH}},
            "keys",
            "keys_invalid",
        ),
        ({"kind": "pager", "token": APNS}, "kind", "validation_error"),
        ({"kind": "apns"}, "token", "validation_error"),
    ],
)
def test_a_wrong_target_is_refused_naming_the_field(
    body: dict[str, Any], field: str, code: str
) -> None:
    answer = register(client_for(UserFactory.create()), **body)
    assert answer.status_code == 400
    error = answer.json()
    assert error["code"] == code and field in error["fields"], error
    assert error["message"] and Device.objects.count() == 0


def test_a_web_push_key_is_checked_as_bytes_not_as_text() -> None:
    point = base64.urlsafe_b64decode(P256DH + "=")
    compressed = base64.urlsafe_b64encode(bytes([2]) + point[1:33]).decode().rstrip("=")
    answer = register(
        client_for(UserFactory.create()),
        kind="webpush",
        token=ENDPOINT,
        keys={"p256dh": compressed, "auth": AUTH},
    )
    assert answer.status_code == 400 and answer.json()["code"] == "keys_invalid"


def test_a_person_keeps_twenty_devices_and_forgets_the_oldest() -> None:
    anna = UserFactory.create()
    for n in range(devices.MAX_DEVICES + 1):
        devices.device_register(user=anna, kind="apns", token=f"{n:064x}")
    kept = set(Device.objects.filter(user=anna).values_list("token", flat=True))
    assert len(kept) == devices.MAX_DEVICES and f"{0:064x}" not in kept


def test_only_the_owner_sees_and_revokes_a_device() -> None:
    anna, bert = UserFactory.create(username="anna"), UserFactory.create(username="bert")
    device = register(client_for(anna), kind="apns", token=APNS).json()
    assert client_for(bert).get(URL).json()["count"] == 0
    refused = client_for(bert).delete(f"{URL}{device['id']}/")
    unknown = client_for(bert).delete(f"{URL}{device['id'] + 1000}/")
    assert refused.status_code == unknown.status_code == 404
    assert refused.json() == unknown.json()
    assert client_for(anna).delete(f"{URL}{device['id']}/").status_code == 204
    assert not Device.objects.exists()


def test_signing_out_everywhere_forgets_every_device() -> None:
    anna, bert = UserFactory.create(username="anna"), UserFactory.create(username="bert")
    devices.device_register(user=anna, kind="apns", token=APNS)
    devices.device_register(user=bert, kind="fcm", token=FCM)
    assert client_for(anna).post("/api/v1/auth/token/revoke-all/").status_code == 200
    assert list(Device.objects.values_list("user", flat=True)) == [bert.pk]


def test_the_export_lists_devices_without_their_addresses_and_erasure_forgets_them() -> None:
    anna = UserFactory.create(username="anna")
    devices.device_register(
        user=anna,
        kind="webpush",
        token=ENDPOINT,
        keys={"p256dh": P256DH, "auth": AUTH},
        name="Laptop",
    )
    document = privacy.export(anna)
    [listed] = document["account"]["push_devices"]
    assert (listed["kind"], listed["name"]) == ("webpush", "Laptop")
    text = str(document)
    assert ENDPOINT not in text and P256DH not in text and AUTH not in text
    privacy.erase(anna)
    assert not Device.objects.exists()


def test_the_export_lists_the_notifications_and_erasure_deletes_them() -> None:
    anna, bert = UserFactory.create(username="anna"), UserFactory.create(username="bert")
    for person in (anna, bert):
        Notification.objects.create(
            user=person,
            type="seated",
            key="evening-round:7",
            due_at=timezone.now(),
            payload={"type": "seated", "path": "/api/v1/tables/3/", "table_id": 3},
        )
    [listed] = privacy.export(anna)["account"]["notifications"]
    assert listed["type"] == "seated" and listed["about"] == "evening-round:7"
    assert listed["payload"]["path"] == "/api/v1/tables/3/" and listed["sent_at"] is None
    privacy.erase(anna)
    assert list(Notification.objects.values_list("user", flat=True)) == [bert.pk]
