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


class RoundTable(models.Model):
    """A games table played in a tournament round, as table ``number``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="round_link")

    class Meta:
        ordering = ("round", "number")
        constraints = [
            models.UniqueConstraint(fields=("round", "number"), name="round_table_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"
