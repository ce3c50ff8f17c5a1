"""Celery tasks for games. Tasks take ids, call a service and are safe to run twice."""

from celery import shared_task

from games import services


@shared_task
def run_ping(ping_id: int) -> None:
    """Complete the ping ``ping_id`` in this worker process."""
    services.ping_complete(ping_id=ping_id)
