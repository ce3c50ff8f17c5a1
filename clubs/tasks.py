"""Celery tasks for clubs: evening reminders, the growth of recurring series, large
personal-data exports and the notifications every app sends (``clubs.outbox``). Each calls a
service and is safe to run twice (and concurrently)."""

from __future__ import annotations

from celery import shared_task

from clubs import outbox
from clubs.services import evenings, users


@shared_task
def send_evening_reminders() -> int:
    """Beat (every 5 minutes): remind the yes and maybe answers of evenings starting within
    their club's ``reminder_hours``; each evening is reminded once. Answers how many
    evenings were reminded."""
    return evenings.evening_reminders_send()


@shared_task
def extend_evening_series(series_id: int | None = None) -> int:
    """Beat: generate the evenings of every series (or of ``series_id``) up to
    ``EVENING_SERIES_WEEKS_AHEAD`` weeks ahead; an evening is never generated twice. Answers
    how many evenings were created."""
    if series_id is not None:
        return evenings.series_extend(series_id=series_id)
    return evenings.series_extend_all()


@shared_task
def build_export(request_id: int) -> bool:
    """Build the document of a pending personal-data export (``GET /api/v1/me/export/`` of a
    person with many hands); a request built already is left as it is. Answers whether the
    export is ready."""
    request = users.export_build(request_id=request_id)
    return request is not None and request.document is not None


@shared_task
def deliver_notifications(ids: list[int]) -> int:
    """Send the notifications ``ids`` that are due and nobody sends yet (``clubs.outbox``);
    answers how many went out by push or e-mail. Safe to run twice."""
    return outbox.deliver(ids)


@shared_task
def send_due_notifications() -> int:
    """Beat (every ``NOTIFICATION_SWEEP_SECONDS``): hand every due notification to the
    worker: reminders whose time came, and any whose message was lost or whose sender died.
    Answers how many were handed on."""
    return outbox.hand_on_due()


@shared_task
def push_again(notification_id: int, device_id: int, attempt: int) -> bool:
    """Try one device's push again after its push service asked to wait (429, 5xx)."""
    return outbox.push_again(notification_id, device_id, attempt)
