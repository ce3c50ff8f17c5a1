"""Celery tasks for games. Tasks take ids, call a service and are safe to run twice.

The services send them by name (``"games.tasks.bot_act"``: ``config.tasks``), so that this
module imports the services and not the other way round; ``GamesConfig.ready`` imports it, so
that every process knows the names."""

from __future__ import annotations

import datetime as dt
import logging

from celery import shared_task
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from games import services
from games.models import IdempotencyRecord, WorkerPing

log = logging.getLogger(__name__)


@shared_task
def run_ping(ping_id: int) -> None:
    """Complete the ping ``ping_id`` in this worker process."""
    services.ping_complete(ping_id=ping_id)


@shared_task
def bot_act(hand_id: int, version: int) -> None:
    """Let bots move while a bot is to act, starting from ``version``; a task for a version
    the hand has left does nothing (idempotent by version)."""
    while True:
        hand = services.hand_bot_move(hand_id=hand_id, version=version, schedule=False)
        if hand is None:
            return
        version = hand.version


@shared_task
def clock_flag(hand_id: int, version: int) -> None:
    """Let the due flags of a hosted hand fall, once: nothing when the hand has left
    ``version`` (a move came first) or no flag is due yet (idempotent by version)."""
    services.flag_fall(hand_id, version)


@shared_task
def sweep_clocks() -> int:
    """Beat (every ``CLOCK_SWEEP_SECONDS``): hand on the flags that fall within the horizon,
    and again those overdue (their message was lost)."""
    return services.clocks.hand_on_due()


@shared_task
def analyse_hand(hand_id: int, version: int) -> None:
    """Compute and keep the double-dummy analysis of a finished hand (the ``bots`` queue: it
    solves deals, as bots do)."""
    services.compute_analysis(hand_id, version)


@shared_task
def kick_stalled_bots() -> None:
    """Beat: restart bots whose task was lost (a worker died mid-hand)."""
    for hand_id, version in services.hands_waiting_for_bots():
        bot_act.delay(hand_id, version)


@shared_task
def forget_idempotency_keys(now: dt.datetime | None = None) -> dict[str, int]:
    """Beat (hourly): drop idempotency records older than ``idempotency_keys``
    (``settings.PERSONAL_DATA_RETENTION``) at ``now`` (the clock unless given). Answers and
    logs how many."""
    cutoff = (now or timezone.now()) - settings.PERSONAL_DATA_RETENTION["idempotency_keys"]
    deleted = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()[1]
    counts = {"idempotency_keys": deleted.get(IdempotencyRecord._meta.label, 0)}
    log.info("forgot personal data past its retention period: %s", counts)
    return counts


def worker_pings_due(now: dt.datetime) -> QuerySet[WorkerPing]:
    """Worker pings asked more than ``worker_pings`` (``settings.PERSONAL_DATA_RETENTION``)
    before ``now``."""
    cutoff = now - settings.PERSONAL_DATA_RETENTION["worker_pings"]
    return WorkerPing.objects.filter(created_at__lt=cutoff)


@shared_task
def forget_worker_pings(now: dt.datetime | None = None) -> dict[str, int]:
    """Beat (hourly): delete the worker pings past their period at ``now`` (the clock unless
    given). Answers and logs how many."""
    deleted = worker_pings_due(now or timezone.now()).delete()[1]
    counts = {"worker_pings": deleted.get(WorkerPing._meta.label, 0)}
    log.info("forgot personal data past its retention period: %s", counts)
    return counts
