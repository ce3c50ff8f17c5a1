"""Who may do what with a cup (issue 42, ``docs/cups.md``): the one place that decides it.

- Anyone (also anonymous) sees a *public* cup once it has left the draft state: its events,
  players, standings, each player's history, the final and its exports.
- A draft, or a cup that is not public, does not exist (404) except for those who run it and
  its players (a cup player with their account): what a caller may not see answers exactly
  like what does not exist.
- *Directors* run it: they change it and its policy, open, finish and reopen it, add and
  remove directors, add tournaments of this server, import tournaments run elsewhere and
  correct them, remove events, and edit and merge players. The owners and admins of the
  cup's club, and staff, may do everything a director may.
- A tournament of this server counts in a cup only once one of *its* directors (the
  tournament's, :func:`tournaments.permissions.is_director`) accepts it: the cup's directors
  propose, the tournament's decide (:func:`may_accept`). A cup director who directs the
  tournament too adds it accepted at once.
- Nobody is linked to a cup without playing with its directors: a director makes directors,
  links a player to an account and names accounts in an import only of people who already
  play with them (:func:`may_name`: themselves, members of the cup's club, anyone who shares a
  club with the director, and accounts that are players of the cup already, through a
  tournament of this server). Any other id answers exactly as an id nobody uses.
- A signed-in user creates a cup of no club (a group of organisers, its creator its first
  director); a club's cup is created by that club's owners and admins (:func:`may_create_for`).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from clubs import permissions as clubs
from clubs.models import Club, Membership, User
from clubs.permissions import AnyUser
from tournaments.models import Cup, CupEvent, CupPlayer
from tournaments.permissions import is_director


def is_cup_director(user: AnyUser, cup: Cup) -> bool:
    """A director of the cup, an owner or admin of its club, or staff."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    if cup.directors.filter(pk=user.pk).exists():
        return True
    return (
        cup.club_id is not None
        and Membership.objects.filter(
            club_id=cup.club_id, user_id=user.pk, role__in=Membership.MANAGERS
        ).exists()
    )


def is_cup_player(user: AnyUser, cup: Cup) -> bool:
    """Whether ``user`` plays in the cup (a cup player with their account)."""
    return user.is_authenticated and CupPlayer.objects.filter(cup=cup, user_id=user.pk).exists()


def is_listed(cup: Cup) -> bool:
    """Whether anyone may see it: public and out of the draft state."""
    return cup.is_public and cup.status != Cup.Status.DRAFT


def can_see_cup(user: AnyUser, cup: Cup) -> bool:
    """A listed cup, or one the caller runs or plays in."""
    return is_listed(cup) or is_cup_director(user, cup) or is_cup_player(user, cup)


def may_accept(user: AnyUser, event: CupEvent) -> bool:
    """Whether ``user`` decides on a proposed event: a director of its tournament (only
    tournaments of this server are proposed)."""
    return event.tournament is not None and is_director(user, event.tournament)


def may_create_for(user: AnyUser, club: Club | None) -> bool:
    """A signed-in user creates a cup of no club; a club's cup, its owners and admins."""
    if not user.is_authenticated:
        return False
    if club is None:
        return True
    return clubs.is_manager(user, club)


def may_see_club(user: AnyUser, club: Club) -> bool:
    """Whether the club exists for ``user`` (public, theirs, or staff): a club nobody may
    see answers like an id nobody uses."""
    return clubs.can_see(user, club)


def may_name(user: AnyUser, cup: Cup, person_ids: Iterable[int]) -> set[int]:
    """Which of ``person_ids`` the cup director ``user`` may make a director, link a player to,
    or name in an import: active accounts of themselves, of members of the cup's club, of
    people who share a club with them, and accounts already playing in the cup. Every other id
    (an unknown one too) is left out, so the answer never tells whether an account exists."""
    wanted = set(person_ids)
    if not wanted or not user.is_authenticated:
        return set()
    mine = Membership.objects.filter(user_id=user.pk).values("club_id")
    near = Q(pk=user.pk) | Q(memberships__club_id__in=mine) | Q(cup_players__cup_id=cup.pk)
    if cup.club_id is not None:
        near |= Q(memberships__club_id=cup.club_id)
    return set(
        User.objects.filter(near, pk__in=wanted, is_active=True)
        .values_list("pk", flat=True)
        .distinct()
    )
