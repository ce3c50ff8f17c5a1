"""Club evenings: when and where a club meets, who comes, and the tables it plays.

An *evening* (Spielabend) has a start and end (stored in UTC, shown in the club's timezone),
a place and a capacity; a *series* generates weekly or custom recurring evenings from an
RFC 5545 RRULE. Members answer yes, no or maybe; past the capacity a yes waits on the
*waitlist* and moves up when a place frees. On the evening players check in; the evening is
played in *rounds*, each seating the checked-in players at tables (games app tables, linked
here by :class:`EveningTable` with their round and table number). Closing the evening closes
its tables and settles every player's net over the whole evening.

This module sits above the games app: games never imports it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from clubs.models.people import Club, Guest


class EveningSeries(models.Model):
    """Recurring evenings: an RRULE from a first start, each lasting ``duration_minutes``."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evening_series")
    title = models.CharField(max_length=150)
    rrule = models.CharField(max_length=500, help_text='RFC 5545, e.g. "FREQ=WEEKLY;BYDAY=TU".')
    first_start = models.DateTimeField(help_text="The first evening's start (UTC).")
    duration_minutes = models.PositiveIntegerField(default=240)
    place = models.CharField(max_length=200, blank=True)
    capacity = models.PositiveIntegerField(null=True, blank=True)
    notes = models.TextField(blank=True)
    generated_until = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("club", "id")
        verbose_name_plural = "evening series"

    def __str__(self) -> str:
        return f"{self.club}: {self.title} ({self.rrule})"


class Evening(models.Model):
    """One club evening."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", gettext_lazy("Scheduled")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")
        CLOSED = "closed", gettext_lazy("Closed and settled")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evenings")
    series = models.ForeignKey(
        EveningSeries, null=True, blank=True, on_delete=models.SET_NULL, related_name="evenings"
    )
    season = models.ForeignKey(
        "clubs.Season", null=True, blank=True, on_delete=models.SET_NULL, related_name="evenings"
    )
    title = models.CharField(max_length=150)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    place = models.CharField(max_length=200, blank=True)
    capacity = models.PositiveIntegerField(null=True, blank=True)
    notes = models.TextField(blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    rules = models.JSONField(
        null=True, blank=True, help_text="The tables' rules; null: the club's default rules."
    )
    seating_seed = models.BigIntegerField(default=0)
    reminder_sent_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    settlement = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-starts_at", "-id")

    def __str__(self) -> str:
        return f"{self.club}: {self.title}"


class Attendance(models.Model):
    """A member's answer for an evening (or a guest checked in at the door).

    ``answer`` yes/no/maybe; a yes past the capacity is ``waitlisted`` and moves up in order
    of ``answered_at`` when a place frees. ``checked_in_at`` marks who is actually there.
    """

    class Answer(models.TextChoices):
        YES = "yes", gettext_lazy("Yes")
        NO = "no", gettext_lazy("No")
        MAYBE = "maybe", gettext_lazy("Maybe")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="attendances")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="attendances",
    )
    guest = models.ForeignKey(
        Guest, null=True, blank=True, on_delete=models.CASCADE, related_name="attendances"
    )
    answer = models.CharField(max_length=8, choices=Answer.choices)
    waitlisted = models.BooleanField(default=False)
    answered_at = models.DateTimeField()
    checked_in_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True, help_text="Left the evening early.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("evening", "answered_at", "id")
        constraints = [
            models.UniqueConstraint(
                fields=("evening", "user"),
                condition=models.Q(user__isnull=False),
                name="attendance_unique_user",
            ),
            models.UniqueConstraint(
                fields=("evening", "guest"),
                condition=models.Q(guest__isnull=False),
                name="attendance_unique_guest",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) ^ models.Q(guest__isnull=False),
                name="attendance_user_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user or self.guest} at {self.evening}: {self.answer}"


class EveningRound(models.Model):
    """One round of an evening: planned (its groups can still be swapped by hand), then
    started (its games tables exist, linked by :class:`EveningTable`), then closed with the
    evening.

    ``groups`` are the planned tables: lists of player keys in seat order (``u:<user id>``,
    ``g:<guest id>``); ``plan`` is the seating service's explanation of the plan the round
    came from (objective, lower bound, repeats, the rounds planned after it).
    """

    class Status(models.TextChoices):
        PLANNED = "planned", gettext_lazy("Planned")
        STARTED = "started", gettext_lazy("Started (tables open)")
        CLOSED = "closed", gettext_lazy("Closed")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLANNED)
    groups = models.JSONField(default=list)
    plan = models.JSONField(help_text="The seating explanation of the plan this round came from.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("evening", "number")
        constraints = [
            models.UniqueConstraint(fields=("evening", "number"), name="evening_round_unique")
        ]

    def __str__(self) -> str:
        return f"{self.evening} round {self.number}"


class EveningTable(models.Model):
    """A games table played at an evening, in a round, as table ``number``."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="tables")
    round = models.ForeignKey(
        EveningRound, null=True, blank=True, on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="evening_link"
    )

    class Meta:
        ordering = ("evening", "round__number", "number")

    def __str__(self) -> str:
        return f"{self.evening} table {self.number}"


class CalendarFeed(models.Model):
    """A member's secret iCal feed of their clubs' evenings; revocable."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feeds"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"calendar feed of {self.user}"
