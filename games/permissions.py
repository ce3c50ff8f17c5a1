"""Who may read and who may change a table.

Writers: the table's seated users, the admins of the club it belongs to (directly or through
its event) and the directors of the tournament whose round it belongs to. Readers: writers,
and everybody for public tables (public information only; seat views follow the seat).
Staff read everything through the admin, which never shows hidden cards either.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from clubs.models import Membership, User
from games.models import Seat, Table
from tournaments.models import Tournament


def _club_id(table: Table) -> int | None:
    if table.club_id is not None:
        return table.club_id
    if table.event is not None:
        return table.event.club_id
    return None


def is_seated(user: User | AnonymousUser, table: Table) -> bool:
    """Whether ``user`` sits at ``table``."""
    if not user.is_authenticated:
        return False
    return any(s.user_id == user.pk for s in table.seats.all())


def seat_of(user: User | AnonymousUser, table: Table) -> Seat | None:
    """The seat ``user`` occupies at ``table``, if any."""
    if not user.is_authenticated:
        return None
    return next((s for s in table.seats.all() if s.user_id == user.pk), None)


def is_organiser(user: User | AnonymousUser, table: Table) -> bool:
    """A club admin of the table's club or a director of its tournament."""
    if not user.is_authenticated:
        return False
    club_id = _club_id(table)
    if (
        club_id is not None
        and Membership.objects.filter(
            club_id=club_id, user_id=user.pk, role=Membership.Role.ADMIN
        ).exists()
    ):
        return True
    if table.round_id is not None:
        return Tournament.objects.filter(rounds=table.round_id, directors=user.pk).exists()
    return False


def can_write(user: User | AnonymousUser, table: Table) -> bool:
    """Seated players, club admins and tournament directors change a table."""
    return is_seated(user, table) or is_organiser(user, table)


def can_read(user: User | AnonymousUser, table: Table) -> bool:
    """Public tables are readable by anyone; others by their writers, creator and staff."""
    if table.is_public:
        return True
    if not user.is_authenticated:
        return False
    return bool(user.is_staff) or table.created_by_id == user.pk or can_write(user, table)


class TableAccess(BasePermission):
    """Read for readers (safe methods), write for writers."""

    message = (
        "Only the table's seated players (and its club admins or tournament directors) may do that."
    )

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        table = obj if isinstance(obj, Table) else obj.table
        if request.method in SAFE_METHODS:
            return can_read(request.user, table)
        return can_write(request.user, table)
