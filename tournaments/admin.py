"""Admin for tournaments: tournaments with directors, entries and rounds, the audit log.

Duplicate boards are not in the admin: their deck and salt are hidden information until
every table finished the board (the API's boards endpoint reveals them then).
"""

from django.contrib import admin

from tournaments.models import Entry, LogEntry, Round, Tournament, Webhook


class RoundInline(admin.TabularInline):
    """A tournament's rounds."""

    model = Round
    fields = ("number", "status", "seating", "seated_at", "closed_at")
    readonly_fields = fields
    extra = 0
    can_delete = False


class EntryInline(admin.TabularInline):
    """A tournament's entries."""

    model = Entry
    fields = ("name", "user", "status", "first_round", "last_round")
    readonly_fields = ("user",)
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Tournaments with their directors, entries and rounds."""

    list_display = ("name", "status", "club", "starts_on", "created_at")
    list_filter = ("status", "scoring")
    search_fields = ("name", "slug")
    readonly_fields = ("created_at", "changed_at", "requested_version", "computed_version")
    filter_horizontal = ("directors",)
    inlines = (EntryInline, RoundInline)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    """Rounds; a round's tables link here."""

    list_display = ("tournament", "number", "status")
    list_select_related = ("tournament",)
    search_fields = ("tournament__name",)
    autocomplete_fields = ("tournament",)


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    """The audit trail, read-only."""

    list_display = ("tournament", "at", "user", "action", "round_number")
    list_select_related = ("tournament", "user")
    readonly_fields = ("tournament", "user", "action", "round_number", "detail", "at")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    """Webhooks (the secret is not shown)."""

    list_display = ("tournament", "url", "is_active", "created_at")
    exclude = ("secret",)
