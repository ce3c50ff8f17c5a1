"""A Celery worker keeps its database connection between tasks as a web thread does between
requests (``CONN_MAX_AGE``, docker compose's 60 s), instead of Celery's own rule of a new
PostgreSQL connection for every task, which cost the clocks' flags more of PostgreSQL's CPU
than their queries (docs/benchmarks.md, "Clocks"). Counted by PostgreSQL itself: the
sessions established to the test database while a real worker runs twenty tasks."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from clubs.tasks import send_due_notifications
from tests.conftest import WorkerProcess

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TASKS = 20
#: Only a bound for a failure (the worker stopped): twenty empty sweeps take a second.
GIVE_UP_SECONDS = 120.0
DONE = "Task clubs.tasks.send_due_notifications["


def sessions() -> int:
    """Sessions established to this database so far (those still open may not be counted
    yet: PostgreSQL adds a backend's counts when it reports them)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def test_a_worker_runs_its_tasks_on_one_kept_connection(
    celery_worker_process: WorkerProcess,
) -> None:
    done_before = celery_worker_process.log().count(DONE)
    send_due_notifications.delay()  # the worker's connection, open before counting
    deadline = time.monotonic() + GIVE_UP_SECONDS
    while celery_worker_process.log().count(DONE) < done_before + 1:
        assert time.monotonic() < deadline, celery_worker_process.log()[-3000:]
        time.sleep(0.1)
    before = sessions()
    for _ in range(TASKS):
        send_due_notifications.delay()
    while celery_worker_process.log().count(DONE) < done_before + 1 + TASKS:
        assert time.monotonic() < deadline, celery_worker_process.log()[-3000:]
        time.sleep(0.1)
    # a connection per task would have established twenty sessions (each counted as its
    # backend exits); the worker's kept connection and this test's own at most two
    assert sessions() - before <= 2
