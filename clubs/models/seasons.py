"""Seasons, their stored standings, and club ratings.

A *season* groups a club's evenings (one active at a time). Its standings are computed by a
Celery task from every hand played at its evenings' tables (``clubs.standings`` is the plain
algorithm) and stored as rows, so reading them is one query; ``computed_version`` says which
change (``requested_version``) they reflect. Ratings are OpenSkill (Plackett-Luce) values
per player per club, updated per table sitting (``clubs.ratings``), with their history.

A *player* is a member (``u:<user id>``) or a guest who was not merged (``g:<guest id>``);
a merged guest's hands count for the member.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from clubs.models.people import Club, Guest


class Season(models.Model):
    """A named period of a club's evenings with its standings."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=150)
    starts_on = models.DateField()
    ends_on = models.DateField()
    is_active = models.BooleanField(default=False)
    league_points = models.JSONField(
        null=True,
        blank=True,
        help_text='Points by rank at each table sitting, by table size: {"3": [3, 2, 1], ...}; '
        "null ranks by balance.",
    )
    requested_version = models.PositiveIntegerField(default=0)
    computed_version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    computations = models.PositiveIntegerField(
        default=0, help_text="How often the standings were computed (coalescing shows here)."
    )
    score_unit = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="The unit of the rows' score when some table's sitting is scored as a whole "
        "(the rule set's score unit), as of the last computation; empty: none is.",
    )
    by_score = models.BooleanField(
        default=False,
        help_text="Whether the last computation ranked by score (every placed sitting scored).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("club", "-starts_on", "-id")
        constraints = [
            models.UniqueConstraint(
                fields=("club",), condition=models.Q(is_active=True), name="season_one_active"
            )
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class SeasonStanding(models.Model):
    """One player's row in a season's stored standings."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.CharField(max_length=24)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    guest = models.ForeignKey(
        Guest, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    name = models.CharField(max_length=150)
    rank = models.PositiveIntegerField()
    position = models.PositiveIntegerField(help_text="Display order (ties share a rank).")
    balance = models.BigIntegerField()
    score = models.BigIntegerField(default=0)
    hands_played = models.PositiveIntegerField()
    declared = models.PositiveIntegerField()
    made = models.PositiveIntegerField()
    premium_games = models.PositiveIntegerField()
    average_per_hand = models.FloatField()
    evenings = models.PositiveIntegerField()
    sittings = models.PositiveIntegerField()
    league_points = models.FloatField(null=True, blank=True, help_text="With league points.")

    class Meta:
        ordering = ("season", "position")
        constraints = [
            models.UniqueConstraint(fields=("season", "player"), name="standing_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.rank}. {self.name}"


class Rating(models.Model):
    """A player's current OpenSkill rating in a club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    player = models.CharField(max_length=24)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    guest = models.ForeignKey(
        Guest, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    name = models.CharField(max_length=150)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu − 3σ: the conservative estimate shown and ranked.")
    sittings = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("club", "-ordinal", "player")
        constraints = [
            models.UniqueConstraint(fields=("club", "player"), name="rating_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.club}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    """One rating update: a player's rating before and after one table sitting."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.CharField(max_length=24)
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_after = models.FloatField()

    class Meta:
        ordering = ("club", "at", "table", "player")
        constraints = [
            models.UniqueConstraint(fields=("club", "table", "player"), name="rating_change_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} at table {self.table_id}: {self.ordinal_after:.2f}"
