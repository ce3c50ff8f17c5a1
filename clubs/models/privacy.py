"""Requests about a person's data (GDPR art. 15, 17, 20): the base layer's record of each
export and erasure, who asked, for whom and when. It is the audit trail of what
``clubs.privacy`` did, and it holds a large export the worker built until its link expires."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from clubs.models.people import Club


class DataRequest(models.Model):
    """One export or erasure of a person's data: asked by the person (``club`` empty) or by a
    club's manager acting on the person's request (``club``: the club whose data it covers)."""

    class Kind(models.TextChoices):
        EXPORT = "export"
        ERASURE = "erasure"

    class Status(models.TextChoices):
        PENDING = "pending"
        READY = "ready"
        DONE = "done"
        EXPIRED = "expired"

    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="data_requests"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who asked: the subject, or a club's manager; empty once they were erased.",
    )
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="data_requests"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    document = models.JSONField(
        null=True, blank=True, help_text="A large export the worker built, until it expires."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"{self.kind} of {self.subject_id} ({self.status})"
