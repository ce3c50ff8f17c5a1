"""Web Push (browsers): RFC 8030's protocol, RFC 8291's message encryption and RFC 8292's
VAPID signature.

A browser's subscription is its push service's endpoint (``Device.token``, an https URL) and
the two keys its messages are encrypted to (``Device.keys``: ``p256dh``, the browser's P-256
public key, and ``auth``, a shared secret). The endpoint is an address a user gives us, so
only endpoints on the browsers' own push services (``PUSH_WEBPUSH_HOSTS``) are called; any
other is failed without a request.

What goes over the wire, one HTTP request per message::

    POST <endpoint>
    Authorization: vapid t=<JWT>,k=<the server's VAPID public key>
    Content-Encoding: aes128gcm
    TTL: <ttl_seconds>
    Urgency: high (urgent) | normal
    Topic: <collapse_id>

    <aes128gcm-encrypted {"title": ..., "body": ..., "payload": {"type": ..., "path": ...}}>

The service worker decrypts nothing itself (the browser does) and reads the JSON from the
push event's ``data``: the same ``payload`` an iOS or Android app reads. The encryption is
pywebpush's (``WebPusher.encode``, http_ece underneath); the VAPID JWT is py_vapid's, ES256
by the server's key (``PUSH_WEBPUSH_VAPID_KEY_FILE``) with claims ``aud`` = the endpoint's
origin, ``exp`` = now + 12 hours (RFC 8292 allows at most 24) and ``sub`` =
``PUSH_WEBPUSH_SUBJECT``, the contact a push service may write to. A fresh claims dict goes
to every signature: the libraries fill in the dict they are given.

Answers: 200, 201 and 202 sent; 404 and 410 gone (the subscription expired or the user
revoked it); 429 and 5xx retry, after ``Retry-After`` when given; anything else failed."""

from __future__ import annotations

import json
import threading
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from http_ece import ECEException  # type: ignore[import-untyped]
from py_vapid import Vapid, VapidException  # type: ignore[import-untyped]
from py_vapid.utils import b64urlencode  # type: ignore[import-untyped]
from pywebpush import WebPusher, WebPushException  # type: ignore[import-untyped]

from clubs.push import Message, Outcome, busy, post, webpush_host_allowed

if TYPE_CHECKING:
    from clubs.models import Device

SERVICE = "Web Push"
#: Seconds a VAPID signature is valid (RFC 8292: at most 24 hours).
VAPID_LIFETIME_SECONDS = 12 * 60 * 60


def configured() -> bool:
    """Whether the settings name the server's VAPID key."""
    return bool(settings.PUSH_WEBPUSH_VAPID_KEY_FILE)


_vapid: tuple[str, Vapid] | None = None
_vapid_lock = threading.Lock()


def vapid() -> Vapid:
    """The server's VAPID key, read from its PEM file once per process. A file that is
    missing or holds no P-256 private key raises (``OSError``, ``ValueError``): py_vapid's
    own ``from_file`` would write a new key where the file is missing, and every browser
    subscribed with the old one would be lost."""
    global _vapid
    path = settings.PUSH_WEBPUSH_VAPID_KEY_FILE
    with _vapid_lock:
        if _vapid is None or _vapid[0] != path:
            with open(path, "rb") as f:
                key = serialization.load_pem_private_key(f.read(), password=None)
            if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
                raise ValueError(f"{path} holds no P-256 (prime256v1) private key")
            _vapid = (path, Vapid(key))
        return _vapid[1]


def public_key() -> str:
    """The VAPID public key: the uncompressed P-256 point, URL-safe base64 without padding
    (what a browser's ``applicationServerKey`` is)."""
    point = vapid().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return str(b64urlencode(point))


def origin(endpoint: str) -> str:
    """The endpoint's origin, VAPID's ``aud``: scheme, host and a port other than the
    scheme's default."""
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    port = parts.port
    default = {"https": 443, "http": 80}.get(parts.scheme)
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != default else "")


def send(device: Device, message: Message) -> Outcome:
    """Send ``message`` to a browser and say what its push service answered."""
    endpoint = device.token
    if not webpush_host_allowed(endpoint) or urlsplit(endpoint).scheme != "https":
        return Outcome(
            "failed",
            detail="the endpoint is not an https address of a push service in PUSH_WEBPUSH_HOSTS",
        )
    data = json.dumps({"title": message.title, "body": message.body, "payload": message.payload})
    subscription = {
        "endpoint": endpoint,
        "keys": {"p256dh": device.keys.get("p256dh"), "auth": device.keys.get("auth")},
    }
    try:
        encrypted = WebPusher(subscription).encode(data.encode(), content_encoding="aes128gcm")
    except (WebPushException, ECEException, ValueError, TypeError) as e:
        return Outcome("failed", detail=f"the subscription's keys cannot be used: {e}")
    claims = {
        "aud": origin(endpoint),
        "exp": int(time.time()) + VAPID_LIFETIME_SECONDS,
        "sub": settings.PUSH_WEBPUSH_SUBJECT,
    }
    try:
        authorization = vapid().sign(claims)["Authorization"]
    except (OSError, ValueError, VapidException) as e:
        return Outcome("failed", detail=f"no VAPID signature: {type(e).__name__}: {e}")
    headers = {
        "authorization": authorization,
        "content-encoding": "aes128gcm",
        "content-type": "application/octet-stream",
        "ttl": str(message.ttl_seconds),
        "urgency": "high" if message.urgent else "normal",
        "topic": message.collapse_id,
    }
    response = post(SERVICE, endpoint, http2=False, content=encrypted["body"], headers=headers)
    if isinstance(response, Outcome):
        return response
    status = response.status_code
    detail = f"the push service answered {status} {response.text[:200]}".rstrip()
    if status in (200, 201, 202):
        return Outcome("sent", detail=detail)
    if status in (404, 410):
        return Outcome("gone", detail=detail)
    if status == 429 or status >= 500:
        return busy(response, detail)
    return Outcome("failed", detail=detail)
