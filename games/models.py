"""Games models. ``WorkerPing`` proves the API → broker → worker → database path."""

from django.conf import settings
from django.db import models


class WorkerPing(models.Model):
    """A job a user asks a Celery worker to complete; records which process did it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="worker_pings"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    api_pid = models.PositiveIntegerField(help_text="Process id of the API process that asked.")
    worker_pid = models.PositiveIntegerField(null=True, blank=True)
    worker_host = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"WorkerPing #{self.pk} ({self.status})"
