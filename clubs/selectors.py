"""Reads for clubs, scoped to the caller: querysets with their relations loaded.

A private club, and everything in it, does not exist for non-members: lookups raise
:class:`clubs.errors.ClubNotFound` (404), never 403.
"""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from clubs import permissions
from clubs.errors import ClubNotFound, NotAllowed
from clubs.models import Club, Membership
from clubs.permissions import AnyUser


def clubs_for_user(*, user: AnyUser) -> QuerySet[Club]:
    """Clubs the caller may see: public ones and their own (staff: all), with
    ``members_count``."""
    qs = Club.objects.all()
    if not user.is_authenticated:
        qs = qs.filter(is_public=True)
    elif not user.is_staff:
        mine = Membership.objects.filter(user=user.pk).values("club_id")
        qs = qs.filter(Q(is_public=True) | Q(pk__in=mine))
    return qs.annotate(members_count=Count("memberships"))


def club_for_user(*, user: AnyUser, club_id: int) -> Club:
    """The club if the caller may see it; 404 otherwise."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None or not permissions.can_see(user, club):
        raise ClubNotFound()
    return club


def club_for_member(*, user: AnyUser, club_id: int) -> Club:
    """The club if the caller is a member (staff too); 404 for a private club they cannot
    see, 403 for a public one they do not belong to."""
    club = club_for_user(user=user, club_id=club_id)
    if not (permissions.is_member(user, club) or getattr(user, "is_staff", False)):
        raise NotAllowed("Only the club's members may see this.")
    return club


def club_for_manager(*, user: AnyUser, club_id: int) -> Club:
    """The club if the caller is an owner or admin; 404 when they cannot see it, 403 when
    they can but do not run it."""
    club = club_for_user(user=user, club_id=club_id)
    if not permissions.is_manager(user, club):
        raise NotAllowed()
    return club


def memberships_of(*, club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("joined_at", "id")
