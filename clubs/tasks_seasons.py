"""Celery tasks for season standings and club ratings. They take ids, call a service and are
safe to run twice (a task for a version that is no longer the newest does nothing)."""

from __future__ import annotations

from celery import shared_task

from clubs.services import seasons


@shared_task
def recompute_season(season_id: int, version: int) -> bool:
    """Compute and store a season's standings if ``version`` is still the newest request."""
    return seasons.season_recompute(season_id=season_id, version=version)


@shared_task
def kick_stale_standings() -> int:
    """Beat: send the computation of every season whose standings lag behind a request (its
    task was lost when the broker or a worker went down; a duplicate of a waiting task
    computes nothing). Answers how many were sent."""
    pending = seasons.seasons_pending()
    for season_id, version in pending:
        recompute_season.delay(season_id, version)
    return len(pending)


@shared_task
def table_changed(table_id: int) -> None:
    """A table's hands changed: ask for its seasons' standings, rate it once it is closed."""
    seasons.table_hands_changed(table_id=table_id)


@shared_task
def recompute_ratings(club_id: int) -> None:
    """Replay and store a club's ratings from scratch."""
    seasons.ratings_recompute(club_id=club_id)
