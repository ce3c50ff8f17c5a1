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
- Nobody is made a director or an entrant without a say in it. A director adds directly
  (:func:`may_add_directly`) only themselves and people who already play with them: at a
  club's tournament the club's members, at a tournament of no club anyone who shares a club
  with the director (the rule of seating an account at a table, ``games.permissions``).
  Anyone else is *invited* (:class:`~tournaments.models.Invitation`) and becomes a director or
  an entrant only by accepting; the invitation is theirs alone to see, accept or decline. An
  id nobody uses, or of an inactive account, answers exactly as a stranger's: invited.
- A tournament is organised for a club by that club's owners and admins; a club the caller
  may not see does not exist for them (:func:`may_see_club`), as an id nobody uses.
"""

from __future__ import annotations

from clubs import permissions as clubs
from clubs.models import Club, Membership, User
from clubs.permissions import AnyUser
from tournaments.models import Entry, Invitation, Tournament


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


def may_see_club(user: AnyUser, club: Club) -> bool:
    """Whether the club exists for ``user`` (public, theirs, or staff)."""
    return clubs.can_see(user, club)


def may_organise_for(user: AnyUser, club: Club) -> bool:
    """A club's tournaments are organised by its owners and admins."""
    return clubs.is_manager(user, club)


def may_add_directly(user: User, person: User, tournament: Tournament) -> bool:
    """Whom a director makes a director or an entrant without asking: themselves; at a club's
    tournament a member of that club; at a tournament of no club someone who shares a club
    with the director. Anyone else has not agreed to play with them: they are invited."""
    if person.pk == user.pk:
        return True
    if tournament.club_id is not None:
        return Membership.objects.filter(club_id=tournament.club_id, user_id=person.pk).exists()
    mine = Membership.objects.filter(user_id=user.pk).values("club_id")
    return Membership.objects.filter(user_id=person.pk, club_id__in=mine).exists()


def may_answer(user: AnyUser, invitation: Invitation) -> bool:
    """Only the invited person sees, accepts or declines an invitation."""
    return user.is_authenticated and invitation.user_id == user.pk
