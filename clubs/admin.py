"""Admin registrations for clubs: users, clubs with their members and evenings."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from clubs.models import (
    Club,
    Evening,
    Guest,
    Invitation,
    JoinRequest,
    Membership,
    Rating,
    Season,
    User,
)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """The stock user admin plus ``display_name``."""

    fieldsets = (*(BaseUserAdmin.fieldsets or ()), ("Profile", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff")


class MembershipInline(admin.TabularInline):
    """A club's members and their roles."""

    model = Membership
    fields = ("user", "role", "joined_at")
    readonly_fields = ("joined_at",)
    autocomplete_fields = ("user",)
    extra = 0


class EveningInline(admin.TabularInline):
    """A club's evenings (created and changed through the API's services)."""

    model = Evening
    fields = ("title", "starts_at", "ends_at", "status")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Clubs with their members and evenings inline."""

    list_display = ("name", "slug", "city", "is_public", "created_at")
    search_fields = ("name", "slug", "city")
    readonly_fields = ("created_at",)
    inlines = (MembershipInline, EveningInline)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """Who belongs to which club, and who runs it."""

    list_display = ("user", "club", "role", "joined_at")
    list_filter = ("role",)
    list_select_related = ("user", "club")
    search_fields = ("user__username", "user__display_name", "club__name")
    autocomplete_fields = ("user", "club")
    readonly_fields = ("joined_at",)


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    """Club evenings; their rounds and tables are made by the seating service."""

    list_display = ("title", "club", "starts_at", "status")
    list_filter = ("status", "club")
    list_select_related = ("club",)
    search_fields = ("title", "club__name")
    date_hierarchy = "starts_at"
    autocomplete_fields = ("club",)
    readonly_fields = ("settlement", "closed_at", "reminder_sent_at", "status", "series")


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Seasons; their standings are computed by the worker."""

    list_display = ("name", "club", "starts_on", "ends_on", "is_active", "computed_at")
    list_select_related = ("club",)
    readonly_fields = ("requested_version", "computed_version", "computed_at")


@admin.register(Guest)
class GuestAdmin(admin.ModelAdmin):
    """Guests clubs seated under a name."""

    list_display = ("name", "club", "merged_into", "created_at")
    list_select_related = ("club", "merged_into")
    search_fields = ("name", "club__name")
    readonly_fields = ("merged_into", "merged_at")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations; the code is shown only in part."""

    list_display = ("club", "role", "email", "expires_at", "uses", "max_uses", "revoked_at")
    list_select_related = ("club",)
    exclude = ("code",)
    readonly_fields = ("uses",)


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ("user", "club", "status", "created_at", "decided_at")
    list_filter = ("status",)
    list_select_related = ("user", "club")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "mu", "sigma", "ordinal", "sittings")
    list_select_related = ("club",)
    readonly_fields = ("mu", "sigma", "ordinal", "sittings")
