"""The Celery task that sends webhook deliveries, with exponential back-off between tries.
It takes a delivery's id, calls :func:`tournaments.webhooks.send_delivery` and is safe to run twice
(a delivered or failed delivery is not sent again). Registered through ``tournaments.tasks``
(Celery discovers ``tasks.py`` only)."""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.conf import settings

from tournaments import webhooks

log = logging.getLogger(__name__)

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
    Answers whether it was delivered.

    Each failed try is one log line (a warning, no traceback): the delivery, the try's number
    and the receiver's answer, and what comes next: the next try's wait, or that the delivery
    has failed. In-process (no broker: ``make run``, tasks run eagerly in the request that
    emitted the event) nobody would run a retry after its back-off, so the task does not ask
    for one: the line says so and the delivery stays pending for a replay."""
    sent = webhooks.send_delivery(delivery_id=delivery_id)
    if sent.delivered or not sent.tried:
        return sent.delivered
    what = (
        f"webhook delivery {delivery_id}: try {sent.attempts} of "
        f"{settings.WEBHOOK_MAX_ATTEMPTS} failed ({sent.answer})"
    )
    if sent.failed:
        log.warning("%s; the delivery has failed: replay it to send it again", what)
        return False
    if self.request.is_eager:
        log.warning(
            "%s; tasks run in-process (no CELERY_BROKER_URL), so it is not tried again on "
            "its own: replay it",
            what,
        )
        return False
    wait = backoff(sent.attempts)
    log.warning("%s; next try in %d s", what, wait)
    raise self.retry(countdown=wait, max_retries=settings.WEBHOOK_MAX_ATTEMPTS)
