"""Admin for tournaments: tournaments with directors, entries and rounds, the audit log.

The admin is a window on the data, not a way around the services: a tournament's state and
rounds change only through the lifecycle commands, and once the first round is seated its
format (``tournaments.services.tournaments.FORMAT_FIELDS``), prizes and entries are
read-only here too (the API's services check, log and recompute every change). Tournaments
are created through the API, which records the creator as director and draws the lots seed.

The lots seed is never on a page before the tournament is finished (nobody knows the draw in
advance), and then read-only. Duplicate boards are not in the admin: their deck and salt are
hidden information until every table finished the board (the API's boards endpoint reveals
them then). Times show in the tournament's timezone.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from clubs.admin import LocalTimes, local_column
from tournaments import scoring
from tournaments.models import Entry, LogEntry, Round, Tournament, Webhook
from tournaments.services.tournaments import BEFORE_ROUNDS, FORMAT_FIELDS


def started(t: Tournament | None) -> bool:
    """Whether the tournament's first round has been seated (its format is fixed)."""
    return t is not None and t.status not in BEFORE_ROUNDS


def finished(t: Tournament | None) -> bool:
    """Whether the tournament is finished (its lots seed is published)."""
    return t is not None and t.status == Tournament.Status.FINISHED


def _zone(obj: Any) -> str | None:
    return obj.tournament.timezone if hasattr(obj, "tournament") else obj.timezone


class RoundInline(admin.TabularInline):
    """A tournament's rounds (made by the seating service)."""

    model = Round
    fields = ("number", "status", "seating", "seated_at", "closed_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntryInline(admin.TabularInline):
    """A tournament's entries: editable before the first round, read-only after it
    (check-ins, late entries and withdrawals go through the API)."""

    model = Entry
    fields = ("name", "user", "status", "first_round", "last_round")
    readonly_fields = ("user",)
    extra = 0

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.fields if started(obj) else self.readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not started(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not started(obj) and super().has_delete_permission(request, obj)


@admin.register(Tournament)
class TournamentAdmin(LocalTimes):
    """Tournaments with their directors, entries and rounds, times in their timezone."""

    list_display = ("name", "status", "club", "starts_on", "created")
    list_filter = ("status", "scoring")
    search_fields = ("name", "slug")
    always_read_only = (
        "status",
        "time_control",
        "round_minutes",
        "round_clock_tricks",
        "lots_commitment",
        "created_at",
        "changed_at",
        "computed_at",
        "requested_version",
        "computed_version",
        "computations",
    )
    filter_horizontal = ("directors",)
    inlines = (EntryInline, RoundInline)
    created = local_column("created_at", _zone, "created")

    def zone_name(self, obj: Tournament) -> str | None:
        return obj.timezone

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_exclude(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        return () if finished(obj) else ("lots_seed",)

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if not started(obj):
            return self.always_read_only
        fixed = (*FORMAT_FIELDS, "prizes")
        return (*self.always_read_only, *(f for f in fixed if f != "lots_seed" or finished(obj)))

    @admin.display(description=gettext_lazy("lots commitment"))
    def lots_commitment(self, obj: Tournament) -> str:
        """SHA-256 of ``lots:<seed>``, public from the start (the seed itself is not)."""
        return scoring.lots_commitment(obj.lots_seed)


@admin.register(Round)
class RoundAdmin(LocalTimes):
    """Rounds, read-only (seated, started and closed by the services); a round's tables
    link here."""

    list_display = ("tournament", "number", "status")
    list_select_related = ("tournament",)
    search_fields = ("tournament__name",)

    def zone_name(self, obj: Round) -> str | None:
        return obj.tournament.timezone

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LogEntry)
class LogEntryAdmin(LocalTimes):
    """The audit trail, read-only, times in the tournament's timezone."""

    list_display = ("tournament", "when", "user", "action", "round_number")
    list_select_related = ("tournament", "user")
    readonly_fields = ("tournament", "user", "action", "round_number", "detail", "at")
    when = local_column("at", _zone, "at")

    def zone_name(self, obj: LogEntry) -> str | None:
        return obj.tournament.timezone

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    """Webhooks (the secret is not shown)."""

    list_display = ("tournament", "url", "is_active", "created_at")
    exclude = ("secret",)
