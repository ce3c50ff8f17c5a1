"""Writes for a person's push targets (issue 40, ``docs/notifications.md``): register one,
revoke one, revoke them all.

Apps register their target at every start (the push services rotate tokens), so registering
is idempotent: the same target (kind and token) answers the row it already has, refreshed,
moved to the caller where it belonged to another account (a phone that changed hands, or a
different sign-in on the same app), never a second row. A person keeps at most
``MAX_DEVICES`` targets; registering one more forgets the one registered longest ago (a phone
given away does not unregister). Signing out of every device (``users.sessions_revoke_all``)
and erasing the account revoke them all."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.db import transaction
from django.utils.timezone import now
from django.utils.translation import gettext as _

from clubs import push
from clubs.errors import ClubNotFound, InvalidInput
from clubs.models import Device, User

#: The targets a person keeps; one more forgets the one registered longest ago.
MAX_DEVICES = 20
#: An APNs device token: hexadecimal (32 bytes today; Apple allows longer ones).
APNS_TOKEN = re.compile(r"[0-9a-fA-F]{64,200}")
#: An FCM registration token: letters, digits and ``-_:.``.
FCM_TOKEN = re.compile(r"[A-Za-z0-9_:.\-]{20,1024}")
#: Web Push key sizes (RFC 8291): an uncompressed P-256 point and a 16-byte secret.
P256DH_BYTES, AUTH_BYTES = 65, 16


def _b64url(text: object) -> bytes | None:
    """``text`` decoded from URL-safe base64 with or without padding; None if it is not."""
    if not isinstance(text, str) or not re.fullmatch(r"[A-Za-z0-9_\-]+=*", text):
        return None
    bare = text.rstrip("=")
    try:
        return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except (binascii.Error, ValueError):
        return None


def checked_target(kind: str, token: str, keys: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """The token as stored (an APNs token in lower case) and the keys a target of ``kind``
    keeps, or a 400 naming the field: ``token_invalid``, ``keys_invalid``."""
    if kind == Device.Kind.APNS:
        if not APNS_TOKEN.fullmatch(token):
            raise InvalidInput.about(
                "token",
                _("An APNs device token is 64 to 200 hexadecimal digits."),
                code="token_invalid",
            )
        return token.lower(), {}
    if kind == Device.Kind.FCM:
        if not FCM_TOKEN.fullmatch(token):
            raise InvalidInput.about(
                "token",
                _(
                    "An FCM registration token is 20 to 1024 letters, digits and the "
                    "characters - _ : . (as the Firebase SDK gives it)."
                ),
                code="token_invalid",
            )
        return token, {}
    parts = urlsplit(token)
    if parts.scheme != "https" or not parts.hostname or len(token) > 1024:
        raise InvalidInput.about(
            "token",
            _(
                "A Web Push target's token is its subscription's endpoint, an https URL of "
                "at most 1024 characters (PushSubscription.endpoint)."
            ),
            code="token_invalid",
        )
    if not push.webpush_host_allowed(token):
        raise InvalidInput.about(
            "token",
            _(
                "{host} is not a browser's push service this server sends to; ask its "
                "operator to add it (PUSH_WEBPUSH_HOSTS)."
            ).format(host=parts.hostname),
            code="token_invalid",
        )
    p256dh, auth = _b64url(keys.get("p256dh")), _b64url(keys.get("auth"))
    if p256dh is None or len(p256dh) != P256DH_BYTES or p256dh[0] != 4:
        raise InvalidInput.about(
            "keys",
            _(
                "keys.p256dh must be the subscription's public key: 65 bytes in URL-safe "
                "base64 (PushSubscription.getKey('p256dh'))."
            ),
            code="keys_invalid",
        )
    if auth is None or len(auth) != AUTH_BYTES:
        raise InvalidInput.about(
            "keys",
            _(
                "keys.auth must be the subscription's secret: 16 bytes in URL-safe base64 "
                "(PushSubscription.getKey('auth'))."
            ),
            code="keys_invalid",
        )
    return token, {"p256dh": str(keys["p256dh"]), "auth": str(keys["auth"])}


@transaction.atomic
def device_register(
    *,
    user: User,
    kind: str,
    token: str,
    keys: Mapping[str, Any] | None = None,
    app: str = "",
    name: str = "",
) -> tuple[Device, bool]:
    """Register a push target for ``user``; ``(device, created)``. The same target again
    answers its row (``created`` false) with the given app, name and keys, moved to ``user``
    if another account had it."""
    token, kept = checked_target(kind, token, keys or {})
    at = now()
    device = Device.objects.select_for_update().filter(kind=kind, token=token).first()
    created = device is None
    if device is None:
        device = Device.objects.create(
            user=user, kind=kind, token=token, keys=kept, app=app, name=name, registered_at=at
        )
    else:
        device.user, device.keys, device.app, device.name = user, kept, app, name
        device.registered_at = at
        device.save(update_fields=["user", "keys", "app", "name", "registered_at"])
    stale = Device.objects.filter(user=user).order_by("-registered_at", "-id")[MAX_DEVICES:]
    Device.objects.filter(pk__in=[d.pk for d in stale]).delete()
    return device, created


def device_revoke(*, user: User, device_id: int) -> None:
    """Forget one of ``user``'s targets: no notification reaches it from now on. Another
    person's answers 404 as an unknown one."""
    deleted, _by_model = Device.objects.filter(user=user, pk=device_id).delete()
    if not deleted:
        raise ClubNotFound(_("There is no such device."))


def devices_revoke_all(*, user: User) -> int:
    """Forget every target of ``user`` (signing out of every device, erasure); how many."""
    deleted, _by_model = Device.objects.filter(user=user).delete()
    return deleted
