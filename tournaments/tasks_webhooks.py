"""The Celery task that sends webhook deliveries, with exponential back-off between tries.
It takes a delivery's id, calls :func:`tournaments.webhooks.deliver` and is safe to run twice
(a delivered or failed delivery is not sent again). Registered through ``tournaments.tasks``
(Celery discovers ``tasks.py`` only)."""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings

from tournaments import webhooks

#: The longest wait between two tries, whatever the back-off base.
BACKOFF_CAP_SECONDS = 3600


def backoff(attempt: int) -> int:
    """Seconds to wait after failed try number ``attempt`` (1, 2, …):
    ``WEBHOOK_BACKOFF_SECONDS * 2 ** (attempt - 1)``, at most an hour."""
    base = max(0, int(settings.WEBHOOK_BACKOFF_SECONDS))
    exponent = min(max(attempt, 1) - 1, 32)
    return int(min(base * 2**exponent, BACKOFF_CAP_SECONDS))


# The delivery counts its own tries (a replay starts a fresh allowance), so Celery's retry
# counter only guards against a runaway loop.
@shared_task(bind=True, max_retries=None)
def deliver_webhook(self: Task[[str], bool], delivery_id: str) -> bool:
    """Try a webhook delivery once; while it is still pending, try again after the back-off.
    Answers whether it was delivered."""
    if webhooks.deliver(delivery_id=delivery_id):
        return True
    attempts = webhooks.pending_attempts(delivery_id=delivery_id)
    if attempts is None:
        return False
    raise self.retry(countdown=backoff(attempts), max_retries=settings.WEBHOOK_MAX_ATTEMPTS)
