"""Celery tasks for tournaments. They take ids, call a service and are safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from tournaments import services
from tournaments.tasks_retention import (  # noqa: F401  (registers the task)
    forget_expired_tournament_data,
)
from tournaments.tasks_webhooks import deliver_webhook  # noqa: F401  (registers the task)


@shared_task
def seat_round(round_id: int, user_id: int) -> bool:
    """Choose a round's seating and create all its tables (or none)."""
    return services.round_seat_run(round_id=round_id, user_id=user_id)


@shared_task
def recompute_standings(tournament_id: int, version: int) -> bool:
    """Compute and store the standings if ``version`` is still the newest request."""
    return services.tournament_recompute(tournament_id=tournament_id, version=version)


@shared_task
def recompute_cup(cup_id: int, version: int) -> bool:
    """Refresh a cup's results and store its standings if ``version`` is still the newest
    request (``services.cup_recompute``)."""
    return services.cup_recompute(cup_id=cup_id, version=version)


@shared_task
def table_changed(table_id: int) -> None:
    """A tournament table's hands changed: standings, boards, webhooks."""
    services.table_hands_changed(table_id=table_id)


@shared_task
def run_round_clocks() -> int:
    """The beat's sweep of round clocks: rounds being played whose clock ran out stop
    dealing, and close once every table is complete. The number of rounds closed."""
    return services.round_clocks_sweep(now=timezone.now())
