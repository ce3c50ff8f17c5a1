"""Admin registrations for clubs: users, clubs with their members and evenings."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from clubs.models import Club, Event, Membership, User


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


class EventInline(admin.TabularInline):
    """A club's evenings."""

    model = Event
    fields = ("name", "starts_at")
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Clubs with their members and evenings inline."""

    list_display = ("name", "created_at")
    search_fields = ("name",)
    readonly_fields = ("created_at",)
    inlines = (MembershipInline, EventInline)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """Who belongs to which club, and who runs it."""

    list_display = ("user", "club", "role", "joined_at")
    list_filter = ("role",)
    list_select_related = ("user", "club")
    search_fields = ("user__username", "user__display_name", "club__name")
    autocomplete_fields = ("user", "club")
    readonly_fields = ("joined_at",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Club evenings; tables can belong to one."""

    list_display = ("name", "club", "starts_at")
    list_filter = ("club",)
    list_select_related = ("club",)
    search_fields = ("name", "club__name")
    date_hierarchy = "starts_at"
    autocomplete_fields = ("club",)
