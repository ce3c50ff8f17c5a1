"""Who may read and who may change a table.

Writers: the table's seated users, the owners, admins and scorers of the club it belongs to,
and whoever an app above games says manages it (:mod:`games.managers`: a tournament's
directors). *Organisers* (club owners and admins, and those managers) also open and close
the club's tables; scorers record and correct hands. Readers: writers, and everybody for
public tables (public information only; seat views follow the seat). Staff read everything
through the admin, which never shows hidden cards either.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from clubs.models import Membership, User
from games import managers
from games.models import Seat, Table


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


def _club_role(user: User, table: Table) -> str | None:
    if table.club_id is None:
        return None
    return (
        Membership.objects.filter(club_id=table.club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


def is_organiser(user: User | AnonymousUser, table: Table) -> bool:
    """An owner or admin of the table's club, or a manager an app above games names."""
    if not user.is_authenticated:
        return False
    if _club_role(user, table) in Membership.MANAGERS:
        return True
    return managers.manages(user, table.pk)


def is_scorer(user: User | AnonymousUser, table: Table) -> bool:
    """An owner, admin or scorer of the table's club: records and corrects its hands."""
    if not user.is_authenticated:
        return False
    return _club_role(user, table) in Membership.SCORERS


def can_write(user: User | AnonymousUser, table: Table) -> bool:
    """Seated players, club scorers (and admins, owners) and other organisers change a table."""
    return is_seated(user, table) or is_scorer(user, table) or is_organiser(user, table)


def sat_as_guest(user: User | AnonymousUser, table: Table) -> bool:
    """Whether a club guest who sat at ``table`` was merged into ``user``: their history."""
    if not user.is_authenticated:
        return False
    return any(
        s.guest_id is not None and s.guest is not None and s.guest.merged_into_id == user.pk
        for s in table.seats.all()
    )


def can_read(user: User | AnonymousUser, table: Table) -> bool:
    """Public tables are readable by anyone; others by their writers, creator and staff, and
    by the member a guest who sat there was merged into."""
    if table.is_public:
        return True
    if not user.is_authenticated:
        return False
    return (
        bool(user.is_staff)
        or table.created_by_id == user.pk
        or can_write(user, table)
        or sat_as_guest(user, table)
    )


class TableAccess(BasePermission):
    """Read for readers (safe methods), write for writers."""

    message = (
        "Only the table's seated players (and its club's scorers and admins or its "
        "tournament's directors) may do that."
    )

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        table = obj if isinstance(obj, Table) else obj.table
        if request.method in SAFE_METHODS:
            return can_read(request.user, table)
        return can_write(request.user, table)
