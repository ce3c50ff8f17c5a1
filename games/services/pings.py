"""Worker pings: a job a user asks a Celery worker to complete (issue 2)."""

from __future__ import annotations

import os
import socket

from django.db import transaction
from django.utils import timezone

from clubs.models import User
from config.tasks import send_after_commit
from games.models import (
    WorkerPing,
)


def ping_create(*, user: User) -> WorkerPing:
    """Create a pending ping and enqueue ``run_ping`` once the row is committed."""
    with transaction.atomic():
        ping = WorkerPing.objects.create(user=user, api_pid=os.getpid())
        send_after_commit("games.tasks.run_ping", ping.pk)
    return ping


def ping_complete(*, ping_id: int) -> WorkerPing | None:
    """Mark a ping done by this process; a no-op for a done or missing ping (idempotent)."""
    with transaction.atomic():
        ping = WorkerPing.objects.select_for_update().filter(pk=ping_id).first()
        if ping is None or ping.status == WorkerPing.Status.DONE:
            return ping
        ping.status = WorkerPing.Status.DONE
        ping.worker_pid = os.getpid()
        ping.worker_host = socket.gethostname()
        ping.completed_at = timezone.now()
        ping.save(update_fields=["status", "worker_pid", "worker_host", "completed_at"])
    return ping
