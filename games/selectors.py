"""Reads for games."""

from __future__ import annotations

from django.db.models import QuerySet

from clubs.models import User
from games.models import WorkerPing


def worker_pings_for_user(*, user: User) -> QuerySet[WorkerPing]:
    """The user's own pings, newest first."""
    return WorkerPing.objects.filter(user=user).select_related("user")
