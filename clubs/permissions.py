"""Who may do what in a club: roles, from most to least rights, owner, admin, scorer, member.

- Anyone (also anonymous) sees a *public* club's name, description, evenings and standings.
- A *private* club does not exist for non-members (404).
- Members see members, attendance, tables and everything of their club; they answer for
  evenings, check themselves in, leave.
- Scorers also record and correct hands at the club's tables (games app).
- Admins run members (invite, accept, remove, change roles below owner), guests, evenings,
  seating, seasons, and close evenings.
- Owners also name and demote admins and owners and hand the club over; the last owner
  cannot leave or be demoted.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser

from clubs.models import Club, Membership, User

AnyUser = User | AnonymousUser
ROLE_ORDER = {
    Membership.Role.OWNER: 3,
    Membership.Role.ADMIN: 2,
    Membership.Role.SCORER: 1,
    Membership.Role.MEMBER: 0,
}


def role_of(user: AnyUser, club: Club | int) -> str | None:
    """The user's role in ``club``, or None for non-members and anonymous callers. (Not
    remembered on the user: a signed-in user object may outlive the request.)"""
    if not user.is_authenticated:
        return None
    club_id = club if isinstance(club, int) else club.pk
    return (
        Membership.objects.filter(club_id=club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


def is_member(user: AnyUser, club: Club) -> bool:
    return role_of(user, club) is not None


def is_scorer(user: AnyUser, club: Club) -> bool:
    return role_of(user, club) in Membership.SCORERS


def is_manager(user: AnyUser, club: Club) -> bool:
    """Owner or admin."""
    return role_of(user, club) in Membership.MANAGERS


def is_owner(user: AnyUser, club: Club) -> bool:
    return role_of(user, club) == Membership.Role.OWNER


def can_see(user: AnyUser, club: Club) -> bool:
    """Public clubs are seen by anyone; private ones by their members (and staff)."""
    if club.is_public:
        return True
    return bool(getattr(user, "is_staff", False)) or is_member(user, club)
