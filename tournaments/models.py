"""Tournaments: directors and rounds (tables of a round link here)."""

from django.conf import settings
from django.db import models


class Tournament(models.Model):
    """A tournament run by its directors."""

    name = models.CharField(max_length=150)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    """One round of a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ("tournament", "number")
        constraints = [
            models.UniqueConstraint(fields=("tournament", "number"), name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"
