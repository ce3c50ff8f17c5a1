"""What the tournaments app forgets once it has passed its retention period (issue 39,
docs/privacy.md "Retention periods"; the periods are ``settings.PERSONAL_DATA_RETENTION``):
webhook deliveries with their tries, and answered or moot invitations. A tournament's log
stays as long as the tournament (the club's books).

Each ``*_due(now)`` function selects the rows whose period has passed at ``now`` and changes
nothing; the beat task :func:`forget_expired_tournament_data` deletes them. Celery discovers
``tasks.py`` only: ``tournaments.tasks`` imports this module, so that every worker knows the
task's name."""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from tournaments.models import Attempt, Delivery, Invitation, Tournament

log = logging.getLogger(__name__)


def period(name: str) -> dt.timedelta:
    """The retention period ``name`` of ``settings.PERSONAL_DATA_RETENTION``."""
    return settings.PERSONAL_DATA_RETENTION[name]


def attempts_due(now: dt.datetime) -> QuerySet[Attempt]:
    """Tries to deliver made more than ``webhook_deliveries`` ago."""
    return Attempt.objects.filter(at__lt=now - period("webhook_deliveries"))


def deliveries_due(now: dt.datetime) -> QuerySet[Delivery]:
    """Deliveries made more than ``webhook_deliveries`` ago and not tried since (a delivery a
    director replayed stays until its last try is as old)."""
    cutoff = now - period("webhook_deliveries")
    recent = Attempt.objects.filter(delivery=OuterRef("pk"), at__gte=cutoff)
    return Delivery.objects.filter(created_at__lt=cutoff).exclude(Exists(recent))


def invitations_due(now: dt.datetime) -> QuerySet[Invitation]:
    """Invitations answered (accepted or declined) more than ``tournament_invitations`` ago,
    and unanswered ones whose tournament finished that long ago: an invitation has no expiry
    of its own, it is moot once its tournament is over. The tournament records no time of
    finishing, but finishing is a change (``Tournament.changed_at``), so its last change counts,
    which is the finish or later."""
    cutoff = now - period("tournament_invitations")
    answered = Q(answered__lt=cutoff) & ~Q(status=Invitation.Status.INVITED)
    moot = Q(
        status=Invitation.Status.INVITED,
        tournament__status=Tournament.Status.FINISHED,
        tournament__changed_at__lt=cutoff,
    )
    return Invitation.objects.alias(answered=Coalesce("decided_at", "created_at")).filter(
        answered | moot
    )


@shared_task
def forget_expired_tournament_data(now: dt.datetime | None = None) -> dict[str, int]:
    """Beat (daily): delete the webhook deliveries, their tries and the tournament invitations
    past their periods at ``now`` (the clock unless given). Answers and logs how many of each
    kind; safe to run twice."""
    now = now or timezone.now()
    tries = attempts_due(now).delete()[1].get(Attempt._meta.label, 0)
    deleted = deliveries_due(now).delete()[1]  # with any tries of theirs left
    counts = {
        "webhook_deliveries": deleted.get(Delivery._meta.label, 0),
        "webhook_attempts": tries + deleted.get(Attempt._meta.label, 0),
        "tournament_invitations": invitations_due(now).delete()[1].get(Invitation._meta.label, 0),
    }
    log.info("forgot personal data past its retention period: %s", counts)
    return counts
