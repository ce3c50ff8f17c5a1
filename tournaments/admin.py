"""Admin registrations for tournaments: tournaments with their directors and rounds."""

from django.contrib import admin

from tournaments.models import Round, Tournament


class RoundInline(admin.TabularInline):
    """A tournament's rounds."""

    model = Round
    fields = ("number",)
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Tournaments with their directors and rounds."""

    list_display = ("name", "created_at")
    search_fields = ("name",)
    readonly_fields = ("created_at",)
    filter_horizontal = ("directors",)
    inlines = (RoundInline,)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    """Rounds; a round's tables link here."""

    list_display = ("tournament", "number")
    list_select_related = ("tournament",)
    search_fields = ("tournament__name",)
    autocomplete_fields = ("tournament",)
