"""APNs, the Apple Push Notification service (iOS), with token-based authentication.

What goes over the wire, one HTTP/2 request per message on a connection kept open::

    POST {PUSH_APNS_URL}/3/device/{device token}
    authorization: bearer <provider token>
    apns-topic: <the device's app, else PUSH_APNS_TOPIC: the app's bundle id>
    apns-push-type: alert
    apns-priority: 10 (urgent) | 5
    apns-expiration: <now + ttl_seconds, unix seconds>
    apns-collapse-id: <collapse_id>

    {"aps": {"alert": {"title": ..., "body": ...}, "sound": "default",
             "thread-id": <payload["type"]>},
     "payload": {"type": ..., "path": ..., <ids>}}

The app reads ``payload`` (the notification's type, its deep link and ids) from the
notification's ``userInfo``; iOS groups notifications of one type by ``thread-id``.

The provider token is a JWT signed with the team's APNs key (``PUSH_APNS_KEY_FILE``, a .p8
file) by ES256: header ``kid`` = ``PUSH_APNS_KEY_ID``, claims ``iss`` = ``PUSH_APNS_TEAM_ID``
and ``iat``. Apple refuses a token older than an hour and one renewed more often than every
20 minutes (``TooManyProviderTokenUpdates``), so this process makes one and uses it for 50
minutes; when Apple answers ``ExpiredProviderToken`` anyway, it makes a new one and tries
that message once more.

Answers: 200 sent; 410 (``Unregistered``) and 400 ``BadDeviceToken`` gone (the app was
removed); ``DeviceTokenNotForTopic`` failed, not gone (a wrong ``PUSH_APNS_TOPIC`` would
otherwise remove every iPhone); 429
and 5xx retry, after ``Retry-After`` when given; anything else failed, with Apple's
``reason``."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

import httpx
import jwt
from django.conf import settings

from clubs.push import Message, Outcome, busy, post

if TYPE_CHECKING:
    from clubs.models import Device

SERVICE = "APNs"
#: Seconds a provider token is used before a new one is made (Apple: at most an hour, and
#: not renewed more often than every 20 minutes).
TOKEN_LIFETIME_SECONDS = 50 * 60
#: Apple's reasons for a 400 that mean the device token will never work again.
GONE_REASONS = frozenset({"BadDeviceToken"})


def configured() -> bool:
    """Whether the settings name an APNs key, its id and the team."""
    return bool(
        settings.PUSH_APNS_KEY_FILE and settings.PUSH_APNS_KEY_ID and settings.PUSH_APNS_TEAM_ID
    )


@dataclass(frozen=True)
class _ProviderToken:
    signer: tuple[str, str, str]  # the key file, key id and team id it was made with
    jwt: str
    made_at: float  # time.monotonic()


_token: _ProviderToken | None = None
_token_lock = threading.Lock()


def provider_token(*, renew: bool = False) -> str:
    """This process's provider token: the one made less than 50 minutes ago with the same
    key, else (or when ``renew``) a new one."""
    global _token
    signer = (settings.PUSH_APNS_KEY_FILE, settings.PUSH_APNS_KEY_ID, settings.PUSH_APNS_TEAM_ID)
    with _token_lock:
        now = time.monotonic()
        if (
            not renew
            and _token is not None
            and _token.signer == signer
            and now - _token.made_at < TOKEN_LIFETIME_SECONDS
        ):
            return _token.jwt
        with open(signer[0]) as f:
            key = f.read()
        token = jwt.encode(
            {"iss": signer[2], "iat": int(time.time())},
            key,
            algorithm="ES256",
            headers={"kid": signer[1]},
        )
        _token = _ProviderToken(signer, token, now)
        return token


def send(device: Device, message: Message) -> Outcome:
    """Send ``message`` to an iOS device and say what APNs answered."""
    topic = device.app or settings.PUSH_APNS_TOPIC
    if not topic:
        return Outcome(
            "failed", detail="no APNs topic: the device names no app and PUSH_APNS_TOPIC is empty"
        )
    response = _post(device, message, topic, renew=False)
    if (
        isinstance(response, httpx.Response)
        and response.status_code == 403
        and _reason(response) == "ExpiredProviderToken"
    ):
        response = _post(device, message, topic, renew=True)
    if isinstance(response, Outcome):
        return response
    return _outcome(response)


def _post(device: Device, message: Message, topic: str, *, renew: bool) -> httpx.Response | Outcome:
    """APNs's answer to one try of ``message``, or the outcome of a try that got none."""
    try:
        token = provider_token(renew=renew)
    except (OSError, ValueError, jwt.PyJWTError) as e:
        return Outcome(
            "failed",
            detail=f"the APNs key {settings.PUSH_APNS_KEY_FILE} cannot sign: "
            f"{type(e).__name__}: {e}",
        )
    body = {
        "aps": {
            "alert": {"title": message.title, "body": message.body},
            "sound": "default",
            "thread-id": message.payload["type"],
        },
        "payload": message.payload,
    }
    headers = {
        "authorization": f"bearer {token}",
        "apns-topic": topic,
        "apns-push-type": "alert",
        "apns-priority": "10" if message.urgent else "5",
        "apns-expiration": str(int(time.time()) + message.ttl_seconds),
        "apns-collapse-id": message.collapse_id,
        "content-type": "application/json",
    }
    url = f"{settings.PUSH_APNS_URL.rstrip('/')}/3/device/{quote(device.token, safe='')}"
    return post(SERVICE, url, http2=True, content=json.dumps(body).encode(), headers=headers)


def _reason(response: httpx.Response) -> str:
    """The ``reason`` of APNs's error answer, or "" (a success has no body)."""
    try:
        answer = response.json()
    except ValueError:
        return ""
    reason = answer.get("reason") if isinstance(answer, dict) else None
    return reason if isinstance(reason, str) else ""


def _outcome(response: httpx.Response) -> Outcome:
    status, reason = response.status_code, _reason(response)
    detail = f"APNs answered {status} {reason}".rstrip()
    if status == 200:
        return Outcome("sent", detail=f"APNs accepted it as {response.headers.get('apns-id')}")
    if status == 410 or (status == 400 and reason in GONE_REASONS):
        return Outcome("gone", detail=detail)
    if status == 429 or status >= 500:
        return busy(response, detail)
    return Outcome("failed", detail=detail)
