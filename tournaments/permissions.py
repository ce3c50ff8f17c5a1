"""Who may do what in a tournament.

- Anyone (also anonymous) sees a *public* tournament once it has left the draft state: its
  info, rounds, table assignments, standings, results and exports.
- A draft, or a tournament that is not public, does not exist (404) except for those who run
  it and its entrants.
- *Directors* run it: they change it, open registration and check-in, seat, start and close
  rounds, correct results, finish and reopen it, and register webhooks. The owners and admins
  of the organising club may do everything a director may.
- Signed-in users register themselves (or withdraw); entrants check in, play and enter and
  confirm their own table's results.
"""

from __future__ import annotations

from clubs.models import Membership
from clubs.permissions import AnyUser
from tournaments.models import Entry, Tournament


def is_director(user: AnyUser, tournament: Tournament) -> bool:
    """A director, an owner or admin of the organising club, or staff."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    if tournament.directors.filter(pk=user.pk).exists():
        return True
    return (
        tournament.club_id is not None
        and Membership.objects.filter(
            club_id=tournament.club_id, user_id=user.pk, role__in=Membership.MANAGERS
        ).exists()
    )


def is_entrant(user: AnyUser, tournament: Tournament) -> bool:
    return (
        user.is_authenticated
        and Entry.objects.filter(tournament=tournament, user_id=user.pk).exists()
    )


def is_listed(tournament: Tournament) -> bool:
    """Whether anyone may see it: public and out of the draft state."""
    return tournament.is_public and tournament.status != Tournament.Status.DRAFT


def can_see(user: AnyUser, tournament: Tournament) -> bool:
    return is_listed(tournament) or is_director(user, tournament) or is_entrant(user, tournament)
