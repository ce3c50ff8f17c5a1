"""The beat task that forgets the clubs app's personal data past its retention period
(:mod:`clubs.retention`). Celery discovers ``tasks.py`` only: ``ClubsConfig.ready`` imports
this module, so that every worker knows the task's name."""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.utils import timezone

from clubs import retention

log = logging.getLogger(__name__)


@shared_task
def forget_expired_personal_data(now: dt.datetime | None = None) -> dict[str, int]:
    """Beat (hourly): delete the club invitations, join requests, unconfirmed accounts, export
    documents and request records past their periods at ``now`` (the clock unless given).
    Answers and logs how many of each kind; safe to run twice."""
    counts = retention.forget_due(now or timezone.now())
    log.info("forgot personal data past its retention period: %s", counts)
    return counts
