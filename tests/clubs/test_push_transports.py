"""The push transports (clubs/push/) against the fake APNs, FCM and Web Push services
(tests/push_fakes.py), which check each request as the real service does: the provider
token, the OAuth access token, the VAPID signature, the encryption to the browser's keys.
What a test asserts is what the app on the device would read, and what the caller is told to
do with the device (keep it, forget it, try again)."""

from __future__ import annotations

import dataclasses
import json
import secrets
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytest_django import Settings

from clubs.models import Device
from clubs.push import (
    Message,
    Outcome,
    apns,
    configured,
    send,
    vapid_public_key,
    webpush_host_allowed,
)
from tests.conftest import FakeClock
from tests.push_fakes import FakeService, PushServices

PAYLOAD = {"type": "seated", "path": "/evenings/7/rounds/2", "evening_id": 7, "round": 2}
MESSAGE = Message(
    title="Runde 2 ist ausgelost",
    body="Tisch 3, Platz 1: mit Anna und Bert",
    payload=PAYLOAD,
    collapse_id="seated-7-2",
    ttl_seconds=3600,
    urgent=True,
)


def apns_device(*, app: str = "") -> Device:
    return Device(kind="apns", token=secrets.token_hex(32), app=app)


def fcm_device() -> Device:
    return Device(kind="fcm", token=f"fcm-{secrets.token_urlsafe(40)}")


def webpush_device(services: PushServices) -> Device:
    """A new browser subscription at the fake, made with the server's VAPID public key."""
    key = vapid_public_key()
    assert key is not None
    endpoint, p256dh, auth = services.webpush.subscribe(key)
    return Device(kind="webpush", token=endpoint, keys={"p256dh": p256dh, "auth": auth})


@pytest.fixture(params=["apns", "fcm", "webpush"])
def device_at(request: pytest.FixtureRequest, push: PushServices) -> tuple[Device, FakeService]:
    """A device of each kind, and the fake service it is reached through."""
    kind = request.param
    if kind == "apns":
        return apns_device(), push.apns
    if kind == "fcm":
        return fcm_device(), push.fcm
    return webpush_device(push), push.webpush


@pytest.fixture
def closed_port() -> int:
    """A port of 127.0.0.1 that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port of 127.0.0.1 that takes connections and never says a word."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield int(s.getsockname()[1])


# --- What arrives ---------------------------------------------------------------------------


def test_an_apns_message_reaches_the_iphone_with_its_payload(push: PushServices) -> None:
    device = apns_device()
    before = int(time.time())
    outcome = push_send(device)
    after = int(time.time())

    assert outcome.status == "sent", outcome
    assert push.apns.refused == []
    [received] = push.apns.received
    assert received.target == device.token
    assert received.payload == {
        "aps": {
            "alert": {
                "title": "Runde 2 ist ausgelost",
                "body": "Tisch 3, Platz 1: mit Anna und Bert",
            },
            "sound": "default",
            "thread-id": "seated",
        },
        "payload": PAYLOAD,
    }
    headers = received.headers
    assert headers["apns-topic"] == push.apns.topic
    assert headers["apns-push-type"] == "alert"
    assert headers["apns-priority"] == "10"
    assert headers["apns-collapse-id"] == "seated-7-2"
    assert before + 3600 <= int(headers["apns-expiration"]) <= after + 3600


def test_an_apns_message_goes_to_the_app_the_device_names(push: PushServices) -> None:
    push.apns.topics.add("org.example.preference.club")
    device = apns_device(app="org.example.preference.club")

    assert push_send(device).status == "sent"
    assert push.apns.received[0].headers["apns-topic"] == "org.example.preference.club"


def test_an_fcm_message_reaches_the_android_phone_with_its_payload(push: PushServices) -> None:
    device = fcm_device()

    outcome = push_send(device)

    assert outcome.status == "sent", outcome
    assert push.fcm.refused == []
    [received] = push.fcm.received
    message = received.payload["message"]
    assert message["token"] == device.token
    assert message["notification"] == {
        "title": "Runde 2 ist ausgelost",
        "body": "Tisch 3, Platz 1: mit Anna und Bert",
    }
    assert json.loads(message["data"]["payload"]) == PAYLOAD
    assert message["data"]["type"] == "seated"
    assert message["data"]["path"] == "/evenings/7/rounds/2"
    assert message["android"] == {"collapse_key": "seated-7-2", "priority": "HIGH", "ttl": "3600s"}


def test_a_web_push_message_reaches_the_browser_decrypted(push: PushServices) -> None:
    device = webpush_device(push)

    outcome = push_send(device)

    assert outcome.status == "sent", outcome
    assert push.webpush.refused == []
    [received] = push.webpush.received
    assert received.target == device.token
    assert received.payload == {
        "title": "Runde 2 ist ausgelost",
        "body": "Tisch 3, Platz 1: mit Anna und Bert",
        "payload": PAYLOAD,
    }
    assert received.headers["ttl"] == "3600"
    assert received.headers["urgency"] == "high"
    assert received.headers["topic"] == "seated-7-2"
    assert received.headers["content-encoding"] == "aes128gcm"


def test_a_message_that_is_not_urgent_lets_the_device_wait(
    device_at: tuple[Device, FakeService],
) -> None:
    device, service = device_at

    assert send(device, dataclasses.replace(MESSAGE, urgent=False)).status == "sent"

    [received] = service.received
    if device.kind == "apns":
        assert received.headers["apns-priority"] == "5"
    elif device.kind == "fcm":
        assert received.payload["message"]["android"]["priority"] == "NORMAL"
    else:
        assert received.headers["urgency"] == "normal"


def test_the_vapid_public_key_is_the_servers_key_for_browsers(push: PushServices) -> None:
    assert vapid_public_key() == push.vapid_public_key


# --- Tokens -------------------------------------------------------------------------------


def test_one_apns_provider_token_serves_many_messages(push: PushServices) -> None:
    for _ in range(3):
        assert push_send(apns_device()).status == "sent"

    assert len(push.apns.tokens_seen) == 1


def test_a_new_apns_provider_token_is_made_after_50_minutes(
    push: PushServices, fake_clock: Callable[..., FakeClock]
) -> None:
    clock = fake_clock(apns)
    # The fake's clock is the real one; the first token is made 55 minutes before it, so that
    # Apple (whose limit is an hour) takes it for the whole test.
    clock.now = time.time() - 55 * 60
    assert push_send(apns_device()).status == "sent"
    clock.advance(49 * 60)
    assert push_send(apns_device()).status == "sent"
    assert len(push.apns.tokens_seen) == 1

    clock.advance(2 * 60)
    assert push_send(apns_device()).status == "sent"

    assert len(push.apns.tokens_seen) == 2
    assert push.apns.refused == []


def test_an_expired_apns_provider_token_is_replaced_and_the_message_sent(
    push: PushServices,
) -> None:
    device = apns_device()
    push_send(apns_device())  # this process has a token
    push.apns.answer(device.token, 403, reason="ExpiredProviderToken")

    outcome = push_send(device)

    assert outcome.status == "sent", outcome
    assert push.apns.answered == [(device.token, 403)]
    assert len(push.apns.tokens_seen) == 2
    assert [r.target for r in push.apns.received][-1] == device.token


def test_an_apns_provider_token_expired_twice_is_a_failure(push: PushServices) -> None:
    device = apns_device()
    push.apns.answer(device.token, 403, reason="ExpiredProviderToken", times=2)

    outcome = push_send(device)

    assert outcome.status == "failed"
    assert "ExpiredProviderToken" in outcome.detail
    assert len(push.apns.answered) == 2


def test_an_fcm_access_token_serves_many_messages(push: PushServices) -> None:
    push_send(fcm_device())
    issued = len(push.fcm.access_tokens)

    for _ in range(3):
        assert push_send(fcm_device()).status == "sent"

    assert len(push.fcm.access_tokens) == issued
    assert len({r.headers["authorization"] for r in push.fcm.received}) == 1


def test_an_fcm_access_token_google_refuses_is_renewed_and_the_message_sent(
    push: PushServices,
) -> None:
    push_send(fcm_device())
    push.fcm.expire_tokens()
    issued = len(push.fcm.access_tokens)
    device = fcm_device()

    outcome = push_send(device)

    assert outcome.status == "sent", outcome
    assert len(push.fcm.access_tokens) == issued + 1
    assert push.fcm.received[-1].target == device.token


# --- Devices that are gone ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "reason"),
    [(410, "Unregistered"), (400, "BadDeviceToken")],
)
def test_an_iphone_apple_no_longer_knows_is_gone(
    push: PushServices, status: int, reason: str
) -> None:
    device = apns_device()
    push.apns.answer(device.token, status, reason=reason)

    outcome = push_send(device)

    assert outcome.status == "gone"
    assert reason in outcome.detail


@pytest.mark.parametrize("reason", ["BadCollapseId", "DeviceTokenNotForTopic"])
def test_an_apns_refusal_of_the_message_or_of_our_topic_keeps_the_device(
    push: PushServices, reason: str
) -> None:
    """A refusal of what we sent, or of the topic we configured (a wrong ``PUSH_APNS_TOPIC``
    would otherwise remove every iPhone), is no device gone."""
    device = apns_device()
    push.apns.answer(device.token, 400, reason=reason)

    outcome = push_send(device)

    assert outcome == Outcome("failed", detail=f"APNs answered 400 {reason}")


def test_an_android_phone_fcm_no_longer_knows_is_gone(push: PushServices) -> None:
    device = fcm_device()
    push.fcm.answer(device.token, 404, reason="UNREGISTERED")

    assert push_send(device).status == "gone"


def test_a_token_fcm_finds_invalid_is_gone(push: PushServices) -> None:
    device = Device(kind="fcm", token="not*a*registration*token")

    outcome = push_send(device)

    assert outcome.status == "gone"
    assert "not a valid FCM registration token" in outcome.detail


def test_an_fcm_refusal_of_the_message_keeps_the_device(push: PushServices) -> None:
    device = fcm_device()
    push.fcm.answer(device.token, 400, reason="INVALID_ARGUMENT")

    assert push_send(device).status == "failed"


@pytest.mark.parametrize("status", [404, 410])
def test_a_browser_subscription_the_push_service_no_longer_knows_is_gone(
    push: PushServices, status: int
) -> None:
    device = webpush_device(push)
    push.webpush.answer(device.token, status)

    assert push_send(device).status == "gone"


def test_a_browser_subscription_the_push_service_never_knew_is_gone(push: PushServices) -> None:
    device = webpush_device(push)
    device.token = f"{push.webpush.base_url}/push/{secrets.token_urlsafe(16)}"

    assert push_send(device).status == "gone"


# --- Services that are busy or away ---------------------------------------------------------


def test_a_busy_service_is_tried_again_when_it_says(
    device_at: tuple[Device, FakeService],
) -> None:
    device, service = device_at
    service.answer(device.token, 429, retry_after=7)

    outcome = push_send(device)

    assert (outcome.status, outcome.retry_after) == ("retry", 7.0)


@pytest.mark.parametrize("status", [500, 503])
def test_a_failing_service_is_tried_again(
    device_at: tuple[Device, FakeService], status: int
) -> None:
    device, service = device_at
    service.answer(device.token, status)

    outcome = push_send(device)

    assert (outcome.status, outcome.retry_after) == ("retry", None)


def test_a_service_that_cannot_be_reached_is_tried_again(
    push: PushServices, settings: Settings, closed_port: int
) -> None:
    settings.PUSH_APNS_URL = f"https://127.0.0.1:{closed_port}"
    settings.PUSH_FCM_URL = f"https://127.0.0.1:{closed_port}"
    web = webpush_device(push)
    web.token = f"https://127.0.0.1:{closed_port}/push/x"

    for device in (apns_device(), fcm_device(), web):
        outcome = push_send(device)
        assert outcome.status == "retry", outcome
        assert "did not answer" in outcome.detail


def test_a_service_that_does_not_answer_in_time_is_tried_again(
    push: PushServices, settings: Settings, silent_port: int
) -> None:
    settings.PUSH_TIMEOUT_SECONDS = 0.2
    settings.PUSH_APNS_URL = f"https://127.0.0.1:{silent_port}"

    outcome = push_send(apns_device())

    assert outcome.status == "retry"
    assert "Timeout" in outcome.detail


# --- Configuration ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "setting"),
    [
        ("apns", "PUSH_APNS_KEY_FILE"),
        ("fcm", "PUSH_FCM_CREDENTIALS_FILE"),
        ("webpush", "PUSH_WEBPUSH_VAPID_KEY_FILE"),
    ],
)
def test_a_service_without_credentials_tells_its_devices_nothing(
    push: PushServices, settings: Settings, kind: str, setting: str
) -> None:
    device = webpush_device(push) if kind == "webpush" else Device(kind=kind, token="ab" * 32)
    setattr(settings, setting, "")

    outcome = push_send(device)

    assert not configured(kind)
    assert outcome.status == "failed"
    assert "not configured" in outcome.detail
    assert push.apns.received == push.fcm.received == push.webpush.received == []


def test_every_service_pointed_at_the_fakes_is_configured(push: PushServices) -> None:
    assert [configured(kind) for kind in Device.Kind.values] == [True, True, True]


def test_without_a_vapid_key_browsers_get_no_key(settings: Settings) -> None:
    settings.PUSH_WEBPUSH_VAPID_KEY_FILE = ""

    assert vapid_public_key() is None


def test_a_missing_vapid_key_file_is_an_error_not_a_new_key(
    push: PushServices, settings: Settings, tmp_path: Path
) -> None:
    device = webpush_device(push)
    settings.PUSH_WEBPUSH_VAPID_KEY_FILE = str(tmp_path / "vapid.pem")

    outcome = push_send(device)

    assert outcome.status == "failed"
    assert "FileNotFoundError" in outcome.detail
    assert not (tmp_path / "vapid.pem").exists()
    assert vapid_public_key() is None  # logged; the key endpoint answers null, never a 500


def test_a_web_push_endpoint_on_a_host_not_allowed_is_never_called(
    push: PushServices, settings: Settings
) -> None:
    device = webpush_device(push)
    settings.PUSH_WEBPUSH_HOSTS = ["fcm.googleapis.com", ".push.apple.com"]

    outcome = push_send(device)

    assert outcome.status == "failed"
    assert "PUSH_WEBPUSH_HOSTS" in outcome.detail
    assert push.webpush.received == push.webpush.refused == []


@pytest.mark.parametrize(
    ("endpoint", "allowed"),
    [
        ("https://fcm.googleapis.com/fcm/send/abc", True),
        ("https://wns2-by3p.notify.windows.com/w/?token=abc", True),
        ("https://notify.windows.com/w/", False),
        ("https://fcm.googleapis.com.example.org/send", False),
        ("https://evilfcm.googleapis.com/send", False),
        ("https://127.0.0.1:8443/push/abc", True),
        ("https://127.0.0.1:9443/push/abc", False),
        ("https://localhost/push/abc", False),
        ("https://[::1/push", False),
        ("not an address", False),
    ],
)
def test_web_push_hosts_allow_exact_hosts_subdomains_and_ports(
    settings: Settings, endpoint: str, allowed: bool
) -> None:
    settings.PUSH_WEBPUSH_HOSTS = ["fcm.googleapis.com", ".notify.windows.com", "127.0.0.1:8443"]

    assert webpush_host_allowed(endpoint) is allowed


def test_a_web_push_host_without_a_port_allows_every_port(settings: Settings) -> None:
    settings.PUSH_WEBPUSH_HOSTS = ["127.0.0.1"]

    assert webpush_host_allowed("https://127.0.0.1:8443/push/abc")
    assert webpush_host_allowed("https://127.0.0.1/push/abc")


def push_send(device: Device) -> Outcome:
    """:func:`clubs.push.send` of :data:`MESSAGE` to ``device``."""
    return send(device, MESSAGE)
