"""Admin registrations for games.

Staff read everything here, but money and cards change only through ``games.services``: hands,
ledger rows, audit entries and idempotency records are read-only, and a table's rules, seats
and links are fixed once it exists.

Hidden information is a security boundary, for staff as for players: a hand's ``deal``,
``deck``, ``salt`` and ``actions`` are shown only once the hand is done and no deal source
withholds its board (``games.deals``). Until then they are left out of every form, list,
search and filter (:data:`SECRET_HAND_FIELDS`), so the admin can never be used to look at the
cards of a hand in play — not even by probing the changelist with ``?salt__startswith=…``
lookups.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games import deals
from games.models import (
    AuditEntry,
    Hand,
    IdempotencyRecord,
    LedgerEntry,
    Seat,
    Table,
    TableSeries,
    WorkerPing,
)

SECRET_HAND_FIELDS = ("deal", "deck", "salt", "actions")
PUBLIC_HAND_FIELDS = (
    "table",
    "number",
    "status",
    "dealer",
    "pot_before",
    "commitment",
    "version",
    "entry",
    "result",
    "entered_by",
    "confirmed_by",
    "created_at",
    "updated_at",
    "finished_at",
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """View-only: no adding, changing or deleting (services own these rows)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WorkerPing)
class WorkerPingAdmin(admin.ModelAdmin):
    """Read-mostly view of worker pings."""

    list_display = ("id", "user", "status", "api_pid", "worker_pid", "worker_host", "created_at")
    list_filter = ("status",)
    readonly_fields = ("api_pid", "worker_pid", "worker_host", "created_at", "completed_at")


@admin.register(TableSeries)
class TableSeriesAdmin(admin.ModelAdmin):
    """Series group sittings that carry a pot; only the name and club are editable."""

    list_display = ("name", "club", "created_by", "created_at")
    list_select_related = ("club", "created_by")
    search_fields = ("name", "club__name")
    readonly_fields = ("created_by", "created_at")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class SeatInline(admin.TabularInline):
    """A table's seats in playing order (fixed when the table is created)."""

    model = Seat
    fields = ("position", "key", "kind", "user", "guest_name", "bot_level")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """Tables are opened with ``table_create`` (seats, series, pot carried in, audit) and
    closed with ``table_close``; here only the name and visibility can be changed."""

    list_display = ("name", "mode", "status", "club", "is_public", "created_at")
    list_filter = ("mode", "status", "is_public")
    list_select_related = ("club",)
    search_fields = ("name", "club__name")
    date_hierarchy = "created_at"
    inlines = (SeatInline,)
    readonly_fields = (
        "mode",
        "status",
        "series",
        "club",
        "rules",
        "first_dealer",
        "dealer_draw",
        "opening_pot",
        "created_by",
        "created_at",
        "closed_at",
        "closing",
    )
    fields = ("name", "is_public", "requires_confirmation", *readonly_fields)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def hand_is_secret(hand: Hand | None) -> bool:
    """Whether ``hand``'s cards are still hidden: anything but a done hand, and a done hosted
    hand whose board a deal source still withholds (``games.deals``: other tables of a
    duplicate round are playing the same cards)."""
    if hand is None or hand.status != Hand.Status.DONE:
        return True
    return hand.deal is not None and deals.withheld(hand.table_id, hand.number)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    """Hands, read-only. The deal, deck, salt and actions of a hand that is not done are never
    shown (:func:`hand_is_secret`); recorded hands change through ``hand_edit``."""

    list_display = ("table", "number", "status", "dealer", "pot_before", "version", "finished_at")
    list_filter = ("status", "table__mode")
    list_select_related = ("table",)
    search_fields = ("table__name", "dealer", "commitment")

    def get_fields(self, request: HttpRequest, obj: Hand | None = None) -> tuple[str, ...]:
        if hand_is_secret(obj):
            return PUBLIC_HAND_FIELDS
        return (*PUBLIC_HAND_FIELDS, *SECRET_HAND_FIELDS)

    def get_readonly_fields(self, request: HttpRequest, obj: Hand | None = None) -> tuple[str, ...]:
        return self.get_fields(request, obj)

    def get_exclude(self, request: HttpRequest, obj: Hand | None = None) -> tuple[str, ...]:
        return SECRET_HAND_FIELDS if hand_is_secret(obj) else ()

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        """No changelist filtering on the secret fields (it would reveal them bit by bit)."""
        if lookup.split("__")[0] in SECRET_HAND_FIELDS:
            return False
        return super().lookup_allowed(lookup, value, request)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    """Money movements, read-only: balances are sums over these rows."""

    list_display = ("id", "table", "hand", "payer", "payee", "amount", "reason", "created_at")
    list_filter = ("reason",)
    list_select_related = ("table", "hand__table")
    search_fields = ("table__name", "payer", "payee")
    fields = ("table", "hand", "payer", "payee", "amount", "reason", "created_at")
    readonly_fields = fields


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Who changed what at a table, read-only."""

    list_display = ("at", "table", "hand_number", "action", "user")
    list_filter = ("action",)
    list_select_related = ("table", "user")
    search_fields = ("table__name", "user__username", "action")
    fields = ("table", "hand_number", "user", "action", "before", "after", "at")
    readonly_fields = fields


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    """Idempotency keys, read-only. The stored ``response`` is left out: an answer to a move
    carries the mover's own cards of a hand that may still be in play."""

    list_display = ("created_at", "user", "key", "status_code")
    list_select_related = ("user",)
    search_fields = ("key", "user__username")
    fields = ("user", "key", "fingerprint", "status_code", "created_at")
    readonly_fields = fields
    exclude = ("response",)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if lookup.split("__")[0] == "response":
            return False
        return super().lookup_allowed(lookup, value, request)
