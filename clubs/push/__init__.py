"""Sending one push notification to one device (issue 40, ``docs/notifications.md``): the
transports of the three push services a :class:`clubs.models.Device` may name, APNs
(:mod:`clubs.push.apns`, iOS), FCM HTTP v1 (:mod:`clubs.push.fcm`, Android) and Web Push
(:mod:`clubs.push.webpush`, browsers).

A :class:`Message` is what the person reads (a title and a body, already in their language)
and what the app reads (``payload``: the notification's type, its deep link ``path`` and the
ids it concerns), the same on every platform. :func:`send` hands it to the device's service
and answers an :class:`Outcome` the caller acts on: ``sent``; ``gone`` (the service says the
device no longer exists: forget it); ``retry`` (the service is busy or unreachable: try again,
after ``retry_after`` seconds when the service said so); ``failed`` (anything else: trying
again would not help, ``detail`` says why). :func:`send` raises for no answer of a service,
nor for a network error, which is ``retry``.

Each service has one HTTP client per process (:func:`http_client`), made at its first use, so
a worker keeps one connection per service open (APNs and FCM over HTTP/2, as their documents
ask) instead of a TLS handshake per message. A forked worker process makes its own.
Credentials and the services' addresses come from the ``PUSH_*`` settings
(``config/settings.py``); a service without credentials is not ``configured`` and its devices
are told nothing (``failed``).

Cryptography is the libraries' (PyJWT for APNs's provider token, google-auth for FCM's OAuth
token, pywebpush and py_vapid for Web Push's encryption and VAPID signature), never ours."""

from __future__ import annotations

import email.utils
import logging
import os
import ssl
import threading
import time
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

import httpx
from django.conf import settings

if TYPE_CHECKING:
    from clubs.models import Device


log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Message:
    """One notification as its recipient's device shows it.

    ``collapse_id`` (at most 32 of ``[A-Za-z0-9_-]``) names what the message is about: a later
    message with the same id replaces the earlier one on the device (APNs
    ``apns-collapse-id``, FCM ``android.collapse_key``, Web Push ``Topic``). ``ttl_seconds``
    is how long a service may keep it for a device that is offline; ``urgent`` asks the
    service to wake the device now (APNs priority 10, FCM ``HIGH``, Web Push ``Urgency:
    high``) rather than when it suits the battery."""

    title: str
    body: str
    payload: dict[str, Any]
    collapse_id: str
    ttl_seconds: int
    urgent: bool = False


@dataclass(frozen=True)
class Outcome:
    """What a push service answered for one message: ``sent``, ``gone``, ``retry`` (after
    ``retry_after`` seconds when the service gave its ``Retry-After``) or ``failed``;
    ``detail`` says why in English, for the log."""

    status: Literal["sent", "gone", "retry", "failed"]
    retry_after: float | None = None
    detail: str = ""


def configured(kind: str) -> bool:
    """Whether the settings hold credentials for the service of a device's ``kind``
    (``Device.Kind``)."""
    transport = _transports().get(kind)
    return transport is not None and bool(transport.configured())


def send(device: Device, message: Message) -> Outcome:
    """Send ``message`` to ``device`` through its service and say what the service answered."""
    transport = _transports().get(device.kind)
    if transport is None:
        return Outcome("failed", detail=f"no push service for devices of kind {device.kind!r}")
    if not transport.configured():
        return Outcome("failed", detail=f"{transport.SERVICE} is not configured")
    outcome: Outcome = transport.send(device, message)
    return outcome


def _transports() -> dict[str, ModuleType]:
    """The transport module of each ``Device.Kind`` (imported here: they import this module's
    types)."""
    from clubs.push import apns, fcm, webpush

    return {"apns": apns, "fcm": fcm, "webpush": webpush}


def vapid_public_key() -> str | None:
    """The server's VAPID public key as a browser's ``PushManager.subscribe`` wants its
    ``applicationServerKey``: the uncompressed P-256 point, URL-safe base64 without padding.
    None when Web Push is not configured; a key file that cannot be read raises (``OSError``,
    ``ValueError``): the installation is broken, and no browser can subscribe."""
    from clubs.push import webpush

    if not webpush.configured():
        return None
    try:
        return webpush.public_key()
    except (OSError, ValueError):
        log.exception("the VAPID key in PUSH_WEBPUSH_VAPID_KEY_FILE cannot be read")
        return None


def webpush_host_allowed(endpoint: str) -> bool:
    """Whether a Web Push ``endpoint``'s host is one of ``PUSH_WEBPUSH_HOSTS``: an entry
    ``.example.com`` allows every subdomain of example.com, any other entry that host exactly
    (on any port, or on the one port it names, as in ``127.0.0.1:8443``). The endpoint is an
    address a user gives us, so the server calls no other host with it."""
    try:
        parts = urlsplit(endpoint)
        host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return False
    if not host:
        return False
    for entry in settings.PUSH_WEBPUSH_HOSTS:
        entry = entry.strip().lower()
        if entry.startswith("."):
            if host.endswith(entry):
                return True
            continue
        try:
            allowed = urlsplit(f"//{entry}")
            allowed_host, allowed_port = allowed.hostname, allowed.port
        except ValueError:
            continue
        if allowed_host == host and allowed_port in (None, port):
            return True
    return False


_clients: dict[str, tuple[tuple[Any, ...], httpx.Client]] = {}
_clients_lock = threading.Lock()


def http_client(service: str, *, http2: bool) -> httpx.Client:
    """This process's HTTP client for ``service``, made at its first use (and again when the
    certificates or the timeout it was made with changed, as tests change them). It trusts
    ``PUSH_CA_FILE`` when set, else the usual certificate authorities. Redirects are not
    followed: a push service answers, it does not send us elsewhere."""
    made_with = (os.getpid(), http2, settings.PUSH_CA_FILE, settings.PUSH_TIMEOUT_SECONDS)
    with _clients_lock:
        known = _clients.get(service)
        if known is not None and known[0] == made_with:
            return known[1]
        verify = ssl.create_default_context(cafile=made_with[2]) if made_with[2] else True
        client = httpx.Client(
            http2=http2, verify=verify, timeout=made_with[3], follow_redirects=False
        )
        _clients[service] = (made_with, client)
    if known is not None and known[0][0] == made_with[0]:
        known[1].close()  # (a client inherited from a parent process is the parent's to close)
    return client


def post(
    service: str, url: str, *, http2: bool, content: bytes, headers: dict[str, str]
) -> httpx.Response | Outcome:
    """The answer of ``service`` to a POST of ``content`` to ``url``, or the outcome of a
    request that got none: ``retry`` for a network error (a timeout, a refused or broken
    connection), ``failed`` for a URL that is none or certificates that cannot be read."""
    try:
        client = http_client(service, http2=http2)
    except OSError as e:
        return Outcome("failed", detail=f"PUSH_CA_FILE cannot be read: {e}")
    try:
        return client.post(url, content=content, headers=headers)
    except httpx.InvalidURL as e:
        return Outcome("failed", detail=f"{url!r} is no URL: {e}")
    except httpx.HTTPError as e:
        return Outcome("retry", detail=f"{service} did not answer: {type(e).__name__}: {e}")


def retry_after(response: httpx.Response) -> float | None:
    """The seconds a service's ``Retry-After`` asks to wait (RFC 9110: a number of seconds or
    an HTTP date), or None when it gave none that can be read."""
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def busy(response: httpx.Response, detail: str) -> Outcome:
    """``retry`` for a service that answered 429 or a 5xx, with its ``Retry-After``."""
    return Outcome("retry", retry_after=retry_after(response), detail=detail)
