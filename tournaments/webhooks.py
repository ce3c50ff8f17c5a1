"""Webhooks of a tournament or of a cup (the webhook's *owner*): a director registers URLs for
some of the owner's events, and every event is POSTed to them as signed JSON
(``docs/webhooks.md``).

Terms: a *webhook* is a URL with its events and secret; a *delivery* is one event sent to one
webhook, identified by a UUID the receiver sees (``X-Preference-Delivery``, and ``id`` in the
body); an *attempt* is one try to deliver it. A delivery is tried by the worker with
exponential back-off (:mod:`tournaments.tasks_webhooks`) until the receiver answers 2xx
(``delivered``) or ``WEBHOOK_MAX_ATTEMPTS`` tries have failed (``failed``). A replay sends the
same delivery (same id, same body) again with a fresh allowance of tries.

The tournament services call :func:`emit` (the cup services :func:`emit_cup`) inside their
transaction; the sends start after the commit. The body is the envelope ``{"id", "event",
"tournament", "created_at", "data"}`` (a cup's names ``"cup"`` instead of ``"tournament"``)
serialised compactly with sorted keys. ``Preference-Signature`` is
``t=<unix seconds>,v1=<hex>``: the HMAC-SHA256 of ``"<t>." + body`` under the webhook's secret,
so a receiver can refuse an old (replayed) request (see :func:`sign`). After a director rotates
the secret (:func:`webhook_rotate_secret`) the old one stays valid for
``WEBHOOK_SECRET_OVERLAP_HOURS``: the header then carries one ``v1=`` per valid secret, the
newest first. ``X-Preference-Signature`` (``sha256=`` and the HMAC of the body alone, newest
secret) is kept for receivers written before the timestamp; it does not stop replays.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import secrets
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Max, Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import User
from config import outbound
from config.tasks import send_after_commit
from tournaments.cup_permissions import is_cup_director
from tournaments.errors import InvalidInput, NotAllowed, TournamentConflict, TournamentNotFound
from tournaments.models import (
    Attempt,
    Cup,
    CupLogEntry,
    Delivery,
    LogEntry,
    Tournament,
    Webhook,
)
from tournaments.permissions import is_director

#: What a webhook belongs to: a tournament or a cup (exactly one, ``Webhook`` checks it).
Owner = Tournament | Cup

#: The event a director sends to one webhook to try it out (``POST …/test/``); never
#: subscribed to.
PING = "ping"
#: Every event a delivery can carry: the ones a webhook subscribes to, and ``PING``.
DELIVERY_EVENTS = (*Webhook.EVENTS, PING)
#: Every event a delivery of a cup's webhook can carry.
CUP_DELIVERY_EVENTS = (*Webhook.CUP_EVENTS, PING)
USER_AGENT = "preference-webhooks/1"
SIGNATURE_HEADER = "Preference-Signature"
LEGACY_SIGNATURE_HEADER = "X-Preference-Signature"
SIGNATURE_PREFIX = "sha256="
#: How old a signature's timestamp may be, in seconds, for :func:`verify` (the receiver's
#: choice; ``docs/webhooks.md`` suggests five minutes).
SIGNATURE_TOLERANCE_SECONDS = 300
URL_SCHEMES = ("http", "https")
ERROR_LENGTH = 500
CHANGEABLE = ("url", "events", "is_active")


# ---------------------------------------------------------------------------------------------
# signing and the body


def body_bytes(payload: dict[str, Any]) -> bytes:
    """The exact bytes sent (and signed): compact JSON with sorted keys, UTF-8."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":")).encode("utf-8")


def _hmac(secret: str, message: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def sign(secrets: Sequence[str], body: bytes, timestamp: int) -> str:
    """The ``Preference-Signature`` value of ``body`` sent at ``timestamp`` (Unix seconds):
    ``t=<timestamp>`` and, for each secret, ``v1=`` and the lowercase hex HMAC-SHA256 of
    ``b"<timestamp>." + body``, keyed with the secret as UTF-8 bytes (the 64-character string
    shown once, not its hex decoding), comma-separated, e.g. ``t=1773410709,v1=5d1f…``.

    A receiver computes this over the body exactly as received (before parsing it), accepts
    the request if any ``v1`` matches in constant time and ``t`` is recent
    (:func:`verify`; ``docs/webhooks.md`` has the snippet)."""
    signed = str(int(timestamp)).encode("ascii") + b"." + body
    parts = [f"t={int(timestamp)}", *(f"v1={_hmac(secret, signed)}" for secret in secrets)]
    return ",".join(parts)


def sign_legacy(secret: str, body: bytes) -> str:
    """The deprecated ``X-Preference-Signature`` value: ``sha256=`` and the hex HMAC-SHA256
    of the body alone (no timestamp, so it cannot tell a replay from the first send)."""
    return SIGNATURE_PREFIX + _hmac(secret, body)


def verify(
    secret: str,
    body: bytes,
    header: str,
    *,
    now: float,
    tolerance: int = SIGNATURE_TOLERANCE_SECONDS,
) -> bool:
    """What a receiver checks: ``header`` (a ``Preference-Signature`` value) has a timestamp
    at most ``tolerance`` seconds away from ``now`` (Unix seconds) and a ``v1`` that is the
    HMAC of ``"<t>." + body`` under ``secret``, compared in constant time."""
    timestamp, signatures = None, []
    for part in header.split(","):
        key, _equals, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1":
            signatures.append(value)
    if timestamp is None or abs(now - timestamp) > tolerance:
        return False
    expected = _hmac(secret, str(timestamp).encode("ascii") + b"." + body)
    return any(hmac.compare_digest(expected, given) for given in signatures)


def signing_secrets(webhook: Webhook, now: datetime) -> list[str]:
    """The secrets a delivery sent at ``now`` is signed with: the webhook's secret, then the
    one a rotation replaced while its overlap lasts."""
    out = [webhook.secret]
    expires = webhook.previous_secret_expires_at
    if webhook.previous_secret and expires is not None and now < expires:
        out.append(webhook.previous_secret)
    return out


# ---------------------------------------------------------------------------------------------
# validation


def _events(events: Iterable[str], allowed_events: Sequence[str]) -> list[str]:
    """The events, each once, in the given order; refuses names not in ``allowed_events``
    (the owner's: ``Webhook.EVENTS`` or ``Webhook.CUP_EVENTS``) with a sentence that names
    the allowed ones."""
    if isinstance(events, str) or not isinstance(events, Iterable):
        raise InvalidInput(
            _("Give the events as a list of names."), fields={"events": [_("Expected a list.")]}
        )
    out: list[str] = []
    for name in events:
        if name not in allowed_events:
            allowed = ", ".join(allowed_events)
            message = _("{name} is not an event; choose from {allowed}.").format(
                name=repr(name), allowed=allowed
            )
            raise InvalidInput(message, fields={"events": [message]})
        if name not in out:
            out.append(name)
    if not out:
        message = _("Subscribe to at least one event: {events}.").format(
            events=", ".join(allowed_events)
        )
        raise InvalidInput(message, fields={"events": [message]})
    return out


def _url(url: str) -> str:
    """An absolute http or https URL (at most 500 characters)."""
    url = (url or "").strip()
    try:
        URLValidator(schemes=list(URL_SCHEMES))(url)
    except ValidationError:
        message = _("Give an absolute http:// or https:// URL.")
        raise InvalidInput(message, fields={"url": [message]}) from None
    if len(url) > 500:
        message = _("The URL is longer than {most} characters.").format(most=500)
        raise InvalidInput(message, fields={"url": [message]})
    refused = outbound.refuse_private(url)
    if refused is not None:
        raise InvalidInput(refused, fields={"url": [refused]}, code="private_address")
    return url


def owner_of(webhook: Webhook) -> Owner:
    """The tournament or the cup the webhook belongs to."""
    owner = webhook.tournament if webhook.tournament_id is not None else webhook.cup
    assert owner is not None, "a webhook belongs to a tournament or a cup"
    return owner


def events_of(owner: Owner) -> tuple[str, ...]:
    """The events the owner's webhooks may subscribe to."""
    return Webhook.CUP_EVENTS if isinstance(owner, Cup) else Webhook.EVENTS


def _owned(owner: Owner) -> dict[str, Owner]:
    """The webhook's owner field and value: ``{"cup": cup}`` or ``{"tournament": t}``."""
    return {"cup": owner} if isinstance(owner, Cup) else {"tournament": owner}


def _one_owner(tournament: Tournament | None, cup: Cup | None) -> Owner:
    owner = tournament if cup is None else cup
    if owner is None or (tournament is not None and cup is not None):
        raise TypeError("name the tournament or the cup")
    return owner


def _require_director(user: User, owner: Owner) -> None:
    if isinstance(owner, Cup):
        if not is_cup_director(user, owner):
            raise NotAllowed(_("Only the cup's directors may do that."))
    elif not is_director(user, owner):
        raise NotAllowed()


def _log(hook: Webhook, user: User | None, action: str, /, **detail: Any) -> None:
    """Audit a webhook command in its owner's log (a cup's: ``CupLogEntry``), never the
    secret. Unlike the tournament commands it leaves the public pages' ``changed_at`` alone:
    nothing public changed."""
    if hook.tournament_id is not None:
        LogEntry.objects.create(
            tournament_id=hook.tournament_id, user=user, action=action, detail=detail
        )
    elif hook.cup_id is not None:
        CupLogEntry.objects.create(cup_id=hook.cup_id, user=user, action=action, detail=detail)


# ---------------------------------------------------------------------------------------------
# reads


def webhooks_for(
    *, tournament: Tournament | None = None, cup: Cup | None = None
) -> QuerySet[Webhook]:
    """A tournament's webhooks, or a cup's, oldest first."""
    owned = _owned(_one_owner(tournament, cup))
    return Webhook.objects.filter(**owned).order_by("id")


def webhook_for(
    *, tournament: Tournament | None = None, cup: Cup | None = None, webhook_id: int
) -> Webhook:
    """One webhook of the tournament (or of the cup); 404 otherwise."""
    webhook = webhooks_for(tournament=tournament, cup=cup).filter(pk=webhook_id).first()
    if webhook is None:
        raise TournamentNotFound(_("There is no such webhook."))
    return webhook


def deliveries_for(*, webhook: Webhook) -> QuerySet[Delivery]:
    """A webhook's deliveries, newest first, each with its attempts."""
    return (
        Delivery.objects.filter(webhook=webhook)
        .prefetch_related(Prefetch("tries", queryset=Attempt.objects.order_by("number")))
        .order_by("-created_at", "-pk")
    )


def delivery_for(*, webhook: Webhook, delivery_id: uuid.UUID | str) -> Delivery:
    """One delivery of the webhook; 404 otherwise."""
    delivery = deliveries_for(webhook=webhook).filter(pk=delivery_id).first()
    if delivery is None:
        raise TournamentNotFound(_("There is no such delivery."))
    return delivery


# ---------------------------------------------------------------------------------------------
# commands


def webhook_create(
    *,
    user: User,
    tournament: Tournament | None = None,
    cup: Cup | None = None,
    url: str,
    events: Iterable[str],
) -> Webhook:
    """Register ``url`` for ``events`` of the tournament (names from ``Webhook.EVENTS``) or
    of the cup (``Webhook.CUP_EVENTS``) with a new random secret (64 hex characters), which
    only this answer shows."""
    owner = _one_owner(tournament, cup)
    _require_director(user, owner)
    url = _url(url)
    wanted = _events(events, events_of(owner))
    with transaction.atomic():
        webhook = Webhook.objects.create(
            **_owned(owner), url=url, events=wanted, secret=secrets.token_hex(32), created_by=user
        )
        _log(webhook, user, "webhook_create", webhook=webhook.pk, url=url, events=wanted)
    return webhook


def webhook_update(*, user: User, webhook: Webhook, **changes: Any) -> Webhook:
    """Change a webhook's ``url``, ``events`` or ``is_active`` (an inactive webhook is sent
    nothing; its deliveries still pending fail untried). The secret stays."""
    unknown = sorted(set(changes) - set(CHANGEABLE))
    if unknown:
        raise InvalidInput(
            _("Only url, events and is_active can be changed."),
            fields={name: [_("Cannot be changed.")] for name in unknown},
        )
    owner = owner_of(webhook)
    _require_director(user, owner)
    values: dict[str, Any] = {}
    if "url" in changes:
        values["url"] = _url(changes["url"])
    if "events" in changes:
        values["events"] = _events(changes["events"], events_of(owner))
    if "is_active" in changes:
        values["is_active"] = bool(changes["is_active"])
    if not values:
        return webhook
    with transaction.atomic():
        locked = Webhook.objects.select_for_update().get(pk=webhook.pk)
        before = {name: getattr(locked, name) for name in values}
        for name, value in values.items():
            setattr(locked, name, value)
        locked.save(update_fields=list(values))
        _log(
            locked,
            user,
            "webhook_update",
            webhook=locked.pk,
            before=before,
            after=values,
        )
    return locked


def webhook_rotate_secret(*, user: User, webhook: Webhook, now: datetime | None = None) -> Webhook:
    """Give the webhook a new random secret, which only this answer shows. The secret it
    replaces stays valid for ``WEBHOOK_SECRET_OVERLAP_HOURS`` from ``now``: until then every
    delivery is signed with both (two ``v1=`` in ``Preference-Signature``), so the receiver can
    switch to the new secret whenever it likes in that window. Rotating again within the
    window drops the older one at once (only the secret being replaced overlaps)."""
    _require_director(user, owner_of(webhook))
    now = now or timezone.now()
    overlap = timedelta(hours=float(settings.WEBHOOK_SECRET_OVERLAP_HOURS))
    with transaction.atomic():
        locked = Webhook.objects.select_for_update().get(pk=webhook.pk)
        locked.previous_secret = locked.secret
        locked.previous_secret_expires_at = now + overlap
        locked.secret = secrets.token_hex(32)
        locked.save(update_fields=["secret", "previous_secret", "previous_secret_expires_at"])
        _log(
            locked,
            user,
            "webhook_rotate_secret",
            webhook=locked.pk,
            previous_valid_until=locked.previous_secret_expires_at.isoformat(),
        )
    return locked


def webhook_delete(*, user: User, webhook: Webhook) -> None:
    """Remove a webhook with its deliveries and their attempts."""
    _require_director(user, owner_of(webhook))
    with transaction.atomic():
        _log(webhook, user, "webhook_delete", webhook=webhook.pk, url=webhook.url)
        webhook.delete()


def _send_on_commit(delivery: Delivery) -> None:
    """Send the delivery to the worker once the transaction commits. Robust: a broker that is
    down (or, in-process, a receiver that fails) is logged and never fails the command that
    emitted the event; the delivery stays pending and can be replayed."""
    from tournaments.tasks_webhooks import deliver_webhook

    send_after_commit(deliver_webhook, str(delivery.pk))


def _deliveries(webhooks: Iterable[Webhook], event: str, data: Any) -> list[Delivery]:
    """One pending delivery per webhook, its envelope built now (naming the webhook's
    tournament, or its cup), each sent after commit."""
    data = json.loads(json.dumps(data, cls=DjangoJSONEncoder))
    created_at = timezone.now().isoformat()
    out = []
    for webhook in webhooks:
        pk = uuid.uuid4()
        owner: dict[str, int | None] = (
            {"cup": webhook.cup_id}
            if webhook.cup_id is not None
            else {"tournament": webhook.tournament_id}
        )
        payload = {"id": str(pk), "event": event, **owner, "created_at": created_at, "data": data}
        delivery = Delivery.objects.create(id=pk, webhook=webhook, event=event, payload=payload)
        _send_on_commit(delivery)
        out.append(delivery)
    return out


def _emit(hooks: QuerySet[Webhook], event: str, data: dict[str, Any]) -> None:
    """One delivery to each of ``hooks`` that is active and subscribed to ``event``."""
    subscribed = [hook for hook in hooks.filter(is_active=True) if event in (hook.events or [])]
    if subscribed:
        with transaction.atomic():
            _deliveries(subscribed, event, data)


def emit(*, tournament_id: int, event: str, data: dict[str, Any]) -> None:
    """Tell the tournament's active webhooks subscribed to ``event`` (one of
    ``Webhook.EVENTS``): one delivery each, sent after the caller's transaction commits (and
    never if it rolls back). ``data`` is the event's own part of the envelope."""
    if event not in Webhook.EVENTS:
        raise ValueError(f"unknown webhook event {event!r}")
    _emit(Webhook.objects.filter(tournament_id=tournament_id), event, data)


def emit_cup(*, cup_id: int, event: str, data: dict[str, Any]) -> None:
    """Tell the cup's active webhooks subscribed to ``event`` (one of ``Webhook.CUP_EVENTS``),
    as :func:`emit` does a tournament's; the envelope names the cup (``"cup"``)."""
    if event not in Webhook.CUP_EVENTS:
        raise ValueError(f"unknown cup webhook event {event!r}")
    _emit(Webhook.objects.filter(cup_id=cup_id), event, data)


def webhook_ping(*, user: User, webhook: Webhook) -> Delivery:
    """Send a ``ping`` delivery to this webhook alone (whatever its events), to try the
    receiver and its signature check."""
    _require_director(user, owner_of(webhook))
    if not webhook.is_active:
        raise TournamentConflict(
            _("The webhook is inactive: activate it before sending to it."),
            code="webhook_inactive",
        )
    with transaction.atomic():
        (delivery,) = _deliveries([webhook], PING, {"webhook": webhook.pk, "url": webhook.url})
        _log(
            webhook,
            user,
            "webhook_test",
            webhook=webhook.pk,
            delivery=str(delivery.pk),
        )
    return delivery


def delivery_replay(*, user: User, delivery: Delivery) -> Delivery:
    """Send a delivery again now, whatever its state: the same id and body, the attempts
    numbered on, and a fresh allowance of ``WEBHOOK_MAX_ATTEMPTS`` tries with back-off."""
    webhook = delivery.webhook
    _require_director(user, owner_of(webhook))
    if not webhook.is_active:
        raise TournamentConflict(
            _("The webhook is inactive: activate it before replaying its deliveries."),
            code="webhook_inactive",
        )
    with transaction.atomic():
        locked = Delivery.objects.select_for_update().get(pk=delivery.pk)
        before = locked.status
        locked.status = Delivery.Status.PENDING
        locked.attempts = 0
        locked.delivered_at = None
        locked.save(update_fields=["status", "attempts", "delivered_at"])
        _log(
            webhook,
            user,
            "webhook_replay",
            webhook=webhook.pk,
            delivery=str(locked.pk),
            event=locked.event,
            was=before,
        )
        _send_on_commit(locked)
    return locked


# ---------------------------------------------------------------------------------------------
# sending (the worker)


# Only public addresses, checked at every connection; a redirect is an answer, not an
# instruction: it counts as a failed attempt (config/outbound.py).
_opener = outbound.opener()


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    """POST ``body``: the answer's status code, or ``None`` and why there was none."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with _opener.open(request, timeout=settings.WEBHOOK_TIMEOUT_SECONDS) as response:
            response.read(65536)
            return int(response.status), ""
    except urllib.error.HTTPError as e:
        e.close()
        return int(e.code), ""
    except urllib.error.URLError as e:
        reason = e.reason
        text = f"{type(reason).__name__}: {reason}" if isinstance(reason, Exception) else reason
        return None, str(text)
    except (OSError, ValueError, http.client.HTTPException) as e:
        return None, f"{type(e).__name__}: {e}"


@dataclass(frozen=True)
class Sent:
    """What one call of :func:`send_delivery` did with a delivery."""

    #: The delivery is delivered (now, or it was already).
    delivered: bool
    #: A try was made now (none for a delivery delivered or failed before, or whose webhook
    #: is switched off).
    tried: bool = False
    #: The receiver's answer to the try made now: ``"HTTP 500"``, or why there was none
    #: (``"ConnectionRefusedError: ..."``); empty without a try.
    answer: str = ""
    #: Failed tries since the delivery was created or replayed.
    attempts: int = 0
    #: The delivery is ``failed``: no more tries until a replay.
    failed: bool = False


def send_delivery(*, delivery_id: str, now: datetime | None = None) -> Sent:
    """Try a pending delivery once: POST its body, signed, and record the attempt. The
    delivery is delivered on any 2xx; otherwise the caller retries later. The
    ``WEBHOOK_MAX_ATTEMPTS``-th failed try since it was created (or replayed) makes it
    ``failed``. Safe to run twice: a delivered or failed delivery is not sent again, and the
    row lock keeps two runs from sending at once. ``now`` (the clock, injectable) dates the
    signature and decides whether a rotated-out secret still signs."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(of=("self",))
            .select_related("webhook")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None:
            return Sent(delivered=False, failed=True)
        if delivery.status == Delivery.Status.FAILED:
            return Sent(delivered=False, attempts=delivery.attempts, failed=True)
        if delivery.status == Delivery.Status.DELIVERED:
            return Sent(delivered=True, attempts=delivery.attempts)
        webhook = delivery.webhook
        if not webhook.is_active:
            delivery.status = Delivery.Status.FAILED
            delivery.save(update_fields=["status"])
            return Sent(delivered=False, attempts=delivery.attempts, failed=True)
        body = body_bytes(delivery.payload)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-Preference-Event": delivery.event,
            "X-Preference-Delivery": str(delivery.pk),
            SIGNATURE_HEADER: sign(signing_secrets(webhook, now), body, int(now.timestamp())),
            LEGACY_SIGNATURE_HEADER: sign_legacy(webhook.secret, body),
        }
        started = time.monotonic()
        status_code, error = _post(webhook.url, body, headers)
        duration_ms = round((time.monotonic() - started) * 1000)
        last = delivery.tries.aggregate(last=Max("number"))["last"] or 0
        Attempt.objects.create(
            delivery=delivery,
            number=last + 1,
            status_code=status_code,
            error=error[:ERROR_LENGTH],
            duration_ms=duration_ms,
        )
        delivery.attempts += 1
        ok = status_code is not None and 200 <= status_code < 300
        if ok:
            delivery.status = Delivery.Status.DELIVERED
            delivery.delivered_at = timezone.now()
        elif delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
            delivery.status = Delivery.Status.FAILED
        delivery.save(update_fields=["status", "attempts", "delivered_at"])
    return Sent(
        delivered=ok,
        tried=True,
        answer=f"HTTP {status_code}" if status_code is not None else error,
        attempts=delivery.attempts,
        failed=delivery.status == Delivery.Status.FAILED,
    )


def deliver(*, delivery_id: str, now: datetime | None = None) -> bool:
    """Try a pending delivery once (:func:`send_delivery`); answers whether it is delivered
    (any 2xx, now or before)."""
    return send_delivery(delivery_id=delivery_id, now=now).delivered
