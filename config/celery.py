"""The Celery application (``celery -A config worker``).

Configuration comes from Django settings under the ``CELERY_`` namespace; tasks are
discovered in each installed app's ``tasks.py``.

A worker process treats its database connection as a request does: before and after each
task it is closed when older than ``CONN_MAX_AGE`` or broken (``close_old_connections``), so
with ``CONN_MAX_AGE`` above 0 the tasks of a process share one connection instead of opening
one each (Celery's own rule, which ``CELERY_DB_REUSE_MAX`` turns off, closes it after every
task). Tasks run eagerly (``make run``, tests) are left alone: they run inside the caller's
request or transaction.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(sender: Any = None, **_: Any) -> None:
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
