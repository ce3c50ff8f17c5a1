"""Every task the beat schedules is one the worker knows once Django has started: a task
module that nothing imports would be sent by beat and dropped by every worker."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.celery import app


@pytest.mark.parametrize("entry", sorted(settings.CELERY_BEAT_SCHEDULE))
def test_every_scheduled_task_is_registered(entry: str) -> None:
    app.loader.import_default_modules()
    name = settings.CELERY_BEAT_SCHEDULE[entry]["task"]
    assert name in app.tasks, f"beat entry {entry!r} sends {name!r}, which no worker knows"
