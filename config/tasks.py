"""Sending Celery tasks from services: after the commit of the rows they follow, never failing
the request that wrote them.

Every service that hands work to the worker calls :func:`send_after_commit` inside its
transaction; a hooks listener, which already runs after the commit, calls :func:`send`. A
task whose message is lost (the broker was down) is sent again by a beat kick or a replay
(``games.tasks.kick_stalled_bots``, ``clubs.tasks_seasons.kick_stale_standings``, a
webhook delivery's replay), so the loss is logged, not raised: the data is committed already.

A task is given as itself or by its name (``"games.tasks.bot_act"``, the names the settings
route and schedule by): a service that names its task need not import the tasks module, which
imports the services (an app's ``AppConfig.ready`` imports its tasks, so that every process
knows their names).
"""

from __future__ import annotations

import logging
from typing import Any

import kombu.exceptions
import redis.exceptions
from celery import Task
from django.db import transaction

from config.celery import app

log = logging.getLogger(__name__)

#: What sending a task raises when the broker cannot be reached.
BROKER_ERRORS = (
    kombu.exceptions.OperationalError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)


def task_named(task: Task | str) -> Task:
    """``task``, or the registered task of that name (a ``KeyError`` for an unknown name)."""
    return app.tasks[task] if isinstance(task, str) else task


def send(task: Task | str, *args: Any, **options: Any) -> bool:
    """Queue ``task`` (a task or its name) with ``args`` now (``apply_async`` ``options``,
    e.g. ``countdown``); answers whether the broker took it. Call it only where the data the
    task follows is committed (in an ``on_commit`` callback or a hooks listener): a broker
    that cannot be reached is logged and answers False, never raises."""
    task = task_named(task)
    try:
        task.apply_async(args, **options)
    except BROKER_ERRORS as e:
        log.warning("broker unreachable, %s%s not sent: %s", task.name, args, e)
        return False
    return True


def send_after_commit(task: Task | str, *args: Any, **options: Any) -> None:
    """Queue ``task`` (a task or its name: an unknown name raises now) with ``args``
    (``apply_async`` ``options``, e.g. ``countdown``) once the current transaction commits,
    nothing if it rolls back. Robust: a broker that cannot be reached is logged by
    :func:`send`; any other failure of sending (in-process without a broker, the task itself
    raising) is logged by Django and never fails the command."""
    task = task_named(task)

    def send_task() -> None:
        send(task, *args, **options)

    send_task.__qualname__ = f"send_after_commit({task.name})"
    transaction.on_commit(send_task, robust=True)
