"""Admin registrations for clubs: users, clubs with their members and evenings.

Times show in the club's timezone (``LocalTimes``): a change page in the zone of the object
it shows, a list's times each in the zone of its row, with the zone's abbreviation."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
from clubs.services import rounds
from games.settlement import format_money


def zone(name: str | None) -> ZoneInfo | None:
    """The timezone called ``name``; None for an empty or unknown name."""
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def local_time(value: dt.datetime | None, zone_name: str | None) -> str:
    """``value`` in the zone ``zone_name`` (the server's when unknown), with its abbreviation:
    ``2026-11-24 19:30 CET``."""
    if value is None:
        return "–"
    return timezone.localtime(value, zone(zone_name)).strftime("%Y-%m-%d %H:%M %Z")


def local_column(field: str, zone_of: Callable[[Any], str | None], label: Any) -> Any:
    """A list column showing the datetime ``field`` in the zone ``zone_of(obj)`` names."""

    @admin.display(description=label, ordering=field)
    def column(self: Any, obj: Any) -> str:
        return local_time(getattr(obj, field), zone_of(obj))

    return column


class LocalTimes(admin.ModelAdmin):
    """A change page whose times (shown and entered) are in the timezone of its object's club
    or tournament (``zone_name``); the page's subtitle names the zone."""

    def zone_name(self, obj: Any) -> str | None:
        raise NotImplementedError

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        obj = self.get_object(request, object_id) if object_id else None
        tz = zone(self.zone_name(obj)) if obj is not None else None
        with timezone.override(tz) if tz else nullcontext():
            if obj is not None and tz is not None:
                subtitle = _("{object} (times in {zone})").format(object=obj, zone=tz)
                extra_context = {**(extra_context or {}), "subtitle": subtitle}
            answer = super().changeform_view(request, object_id, form_url, extra_context)
            render = getattr(answer, "render", None)
            if callable(render):
                render()  # the page is rendered lazily: render it in the zone
        return answer


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """The stock user admin plus ``display_name``."""

    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (gettext_lazy("Profile"), {"fields": ("display_name", "language")}),
    )
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
class ClubAdmin(LocalTimes):
    """Clubs with their members and evenings inline, times in the club's timezone."""

    list_display = ("name", "slug", "city", "timezone", "is_public", "created")
    search_fields = ("name", "slug", "city")
    readonly_fields = ("created_at",)
    inlines = (MembershipInline, EveningInline)
    created = local_column("created_at", lambda club: club.timezone, gettext_lazy("created"))

    def zone_name(self, obj: Club) -> str | None:
        return obj.timezone


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """Who belongs to which club, and who runs it."""

    list_display = ("user", "club", "role", "joined_at")
    list_filter = ("role",)
    list_select_related = ("user", "club")
    search_fields = ("user__username", "user__display_name", "club__name")
    autocomplete_fields = ("user", "club")
    readonly_fields = ("joined_at",)


def _money(amount: int) -> str:
    return format_money(amount, "").strip()


def _evening_zone(evening: Evening) -> str | None:
    return evening.club.timezone


@admin.register(Evening)
class EveningAdmin(LocalTimes):
    """Club evenings, times in the club's timezone; their rounds and tables are made by the
    seating service, and a closed evening's settlement shows as its payments."""

    list_display = ("title", "club", "starts", "status")
    list_filter = ("status", "club")
    list_select_related = ("club",)
    search_fields = ("title", "club__name")
    date_hierarchy = "starts_at"
    autocomplete_fields = ("club",)
    exclude = ("settlement",)
    readonly_fields = ("payments", "closed_at", "reminder_sent_at", "status", "series")
    starts = local_column("starts_at", _evening_zone, gettext_lazy("starts"))

    def zone_name(self, obj: Evening) -> str | None:
        return _evening_zone(obj)

    @admin.display(description=gettext_lazy("settlement"))
    def payments(self, obj: Evening) -> str:
        """The stored settlement as people read it, in their language: who pays whom how
        much, each player's net and what stayed in the pot."""
        if not obj.settlement:
            return _("Not settled yet: the evening is settled when it is closed.")
        settled = rounds.in_reader_language(
            obj.settlement, settings.CURRENCY_SYMBOL, keeper=rounds.evening_pot_keeper(obj)
        )
        payments = settled.get("payments") or []
        paid = (
            format_html_join("", "<li>{}</li>", ((p["sentence"],) for p in payments))
            if payments
            else format_html("<li>{}</li>", _("Nobody pays anybody: everyone is even."))
        )
        nets = format_html_join(
            "",
            "<tr><td>{}</td><td style='text-align:right'>{}</td></tr>",
            ((row["name"], _money(row["net"])) for row in settled.get("players", [])),
        )
        pot = settled.get("pot_net") or 0
        keeps = _("The pot keeps {amount}.").format(amount=_money(pot))
        return format_html(
            "<strong>{}</strong><ul>{}</ul><strong>{}</strong><table>{}</table>{}",
            _("Payments"),
            paid,
            _("Nets"),
            nets,
            format_html("<p>{}</p>", keeps) if pot else "",
        )


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
