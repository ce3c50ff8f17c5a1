"""Who may read, open, seat, change, close and reopen a table: decided here, nowhere else.

Writers (record and correct hands): the table's seated users, the owners, admins and scorers
of the club it belongs to, and whoever an app above games says manages it
(:mod:`games.managers`: a tournament's directors). *Organisers* are club owners and admins
and those managers. A table of no club that no app above games groups is its players' *own*
and its creator's: whoever opened it manages it, seated or not (a table of four guests whose
sheet its creator keeps).

- Open: anyone signed in, at no club; at a club's table, its owners and admins, or a member
  (any role) who sits at it. Seat an account: oneself, or an account that is a member of the
  table's club (at no club: that shares a club with the caller); anyone else sits as a guest.
- Close: owners, admins and scorers of the table's club, and the managers apps above name;
  the seated players and the creator only at their own tables outside any club or group
  (tournament round).
- Reopen: organisers; the seated players and the creator at their own tables outside any
  club or group.
- Read: writers, the creator, every member of the table's club, and everybody for public
  tables and the tables of a public club (public information only; seat views follow the
  seat: a reader who is not seated sees what a spectator sees). Staff read everything
  through the admin, which never shows hidden cards either.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from clubs.models import Club, Membership, User
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


def is_member(user: User | AnonymousUser, table: Table) -> bool:
    """A member (any role) of the table's club."""
    if not user.is_authenticated:
        return False
    return _club_role(user, table) is not None


def _own_private(user: User | AnonymousUser, table: Table) -> bool:
    """Seated at, or the creator of, a table of no club that no app above games groups: the
    players' own, and its creator's, who manages it whether or not they sit at it."""
    if not user.is_authenticated or table.club_id is not None:
        return False
    mine = is_seated(user, table) or table.created_by_id == user.pk
    return mine and not managers.grouped(table.pk)


def can_close(user: User | AnonymousUser, table: Table) -> bool:
    """Owners, admins and scorers of the table's club, the managers apps above name (a
    tournament's directors), and the players and creator of their own tables outside any club
    or group."""
    if not user.is_authenticated:
        return False
    return is_scorer(user, table) or is_organiser(user, table) or _own_private(user, table)


def can_reopen(user: User | AnonymousUser, table: Table) -> bool:
    """Organisers (club owners and admins, a tournament's directors), and the players and
    creator of their own tables outside any club or group."""
    if not user.is_authenticated:
        return False
    return is_organiser(user, table) or _own_private(user, table)


CLOSE_REFUSED = _(
    "Only the club's owners, admins and scorers (or the tournament's directors) close this "
    "table; its players and its creator close only their own tables outside a club or "
    "tournament."
)
REOPEN_REFUSED = _(
    "Only the club's owners and admins (or the tournament's directors) reopen this table; "
    "its players and its creator reopen only their own tables outside a club or tournament."
)


def visible_club(user: User | AnonymousUser, club_id: int) -> Club | None:
    """The club if ``user`` may see it (public, a member's, staff), else None: a private club
    does not exist for others, as an unused id does not."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None or club.is_public or bool(getattr(user, "is_staff", False)):
        return club
    if user.is_authenticated and Membership.objects.filter(club=club, user_id=user.pk).exists():
        return club
    return None


def may_open_in(user: User, club: Club, *, seated: bool) -> bool:
    """Owners and admins open any table of their club; other members (scorers, members) the
    tables they sit at themselves."""
    role = (
        Membership.objects.filter(club=club, user_id=user.pk).values_list("role", flat=True).first()
    )
    return role in Membership.MANAGERS or (role is not None and seated)


def may_seat(user: User, other: User, club_id: int | None) -> bool:
    """Whom ``user`` may seat as an account: themselves; at a club's table a member of that
    club; at a table of no club someone who shares a club with them. Anyone else has not
    agreed to play with the caller: seat a guest by name instead."""
    if other.pk == user.pk:
        return True
    if club_id is not None:
        return Membership.objects.filter(club_id=club_id, user_id=other.pk).exists()
    mine = Membership.objects.filter(user_id=user.pk).values("club_id")
    return Membership.objects.filter(user_id=other.pk, club_id__in=mine).exists()


def _club_is_public(table: Table) -> bool:
    if table.club_id is None:
        return False
    if Table._meta.get_field("club").is_cached(table):
        return bool(table.club and table.club.is_public)
    return Club.objects.filter(pk=table.club_id, is_public=True).exists()


def can_write(user: User | AnonymousUser, table: Table) -> bool:
    """Seated players, club scorers (and admins, owners) and other organisers change a table;
    so does the creator of a table of no club and no group (:func:`_own_private`)."""
    return (
        is_seated(user, table)
        or is_scorer(user, table)
        or is_organiser(user, table)
        or _own_private(user, table)
    )


def sat_as_guest(user: User | AnonymousUser, table: Table) -> bool:
    """Whether a club guest who sat at ``table`` was merged into ``user``: their history."""
    if not user.is_authenticated:
        return False
    return any(
        s.guest_id is not None and s.guest is not None and s.guest.merged_into_id == user.pk
        for s in table.seats.all()
    )


def can_read(user: User | AnonymousUser, table: Table) -> bool:
    """Public tables and a public club's tables are readable by anyone; others by the
    members of their club, their writers, creator and staff, and by the member a guest who
    sat there was merged into."""
    if table.is_public or _club_is_public(table):
        return True
    if not user.is_authenticated:
        return False
    # what the loaded table tells first, then what asks the database
    return (
        bool(user.is_staff)
        or table.created_by_id == user.pk
        or is_seated(user, table)
        or sat_as_guest(user, table)
        or is_member(user, table)
        or can_write(user, table)
    )


#: Commands on a table that only some of its writers may give: the view's action, the rule.
COMMANDS = {"close": (can_close, CLOSE_REFUSED), "reopen": (can_reopen, REOPEN_REFUSED)}


class TableAccess(BasePermission):
    """Read for readers (safe methods); close and reopen for whom :data:`COMMANDS` names;
    any other write for writers."""

    message = _(
        "Only the table's seated players (and its club's scorers and admins or its "
        "tournament's directors; at a table of no club, its creator) may do that."
    )

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        table = obj if isinstance(obj, Table) else obj.table
        if request.method in SAFE_METHODS:
            return can_read(request.user, table)
        command = COMMANDS.get(getattr(view, "action", None) or "")
        if command is not None:
            allowed, refused = command
            self.message = refused
            return allowed(request.user, table)
        return can_write(request.user, table)
