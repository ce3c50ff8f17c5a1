"""Safe retries: the first answer to a request with an ``Idempotency-Key`` is kept for 24
hours per user and returned again for the same key, instead of acting twice. The same key with
a different request is refused (422). Only successful answers are kept: a refused request did
nothing, so retrying it is safe anyway."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import User
from games.errors import IdempotencyMismatch, InvalidInput
from games.models import IdempotencyRecord

KEEP = timedelta(hours=24)
HEADER = "Idempotency-Key"


def fingerprint(method: str, path: str, body: Any) -> str:
    """SHA-256 of what makes two requests the same."""
    text = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def run_once(
    *, user: User, key: str | None, fingerprint: str, act: Callable[[], tuple[int, Any]]
) -> tuple[int, Any]:
    """Run ``act`` (returning status and body) unless this user's ``key`` answered before."""
    if key is None:
        return act()
    if not 1 <= len(key) <= 200:
        raise InvalidInput(
            _("An Idempotency-Key has 1 to 200 characters."),
            fields={HEADER: [_("wrong length")]},
        )
    fresh = timezone.now() - KEEP
    try:
        with transaction.atomic():
            IdempotencyRecord.objects.filter(user=user, key=key, created_at__lt=fresh).delete()
            found = IdempotencyRecord.objects.filter(user=user, key=key).first()
            if found is not None:
                return _replay(found, fingerprint)
            status, body = act()
            IdempotencyRecord.objects.create(
                user=user, key=key, fingerprint=fingerprint, status_code=status, response=body
            )
            return status, body
    except IntegrityError:
        # A concurrent request with the same key won; its action stands and this one's rolled
        # back. Answer with the winner's response.
        found = IdempotencyRecord.objects.get(user=user, key=key)
        return _replay(found, fingerprint)


def _replay(found: IdempotencyRecord, fp: str) -> tuple[int, Any]:
    if found.fingerprint != fp:
        raise IdempotencyMismatch()
    return found.status_code, found.response
