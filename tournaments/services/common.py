"""What every tournament command shares: the row lock, the state check and the audit entry."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import F
from django.utils import timezone

from clubs.models import User
from tournaments.errors import NotAllowed, TournamentConflict, TournamentNotFound
from tournaments.models import LogEntry, Round, Tournament
from tournaments.permissions import is_director

STATUS_WORDS = {
    Tournament.Status.DRAFT: "a draft",
    Tournament.Status.REGISTRATION: "open for registration",
    Tournament.Status.CHECK_IN: "in check-in",
    Tournament.Status.RUNNING: "running",
    Tournament.Status.FINISHED: "finished",
}


def lock(tournament_id: int) -> Tournament:
    """The tournament, locked for the rest of the transaction (commands run one at a time)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentNotFound()
    return tournament


def require_director(user: User, tournament: Tournament) -> None:
    if not is_director(user, tournament):
        raise NotAllowed()


def require_status(tournament: Tournament, allowed: Iterable[str], doing: str) -> None:
    """Refuse ``doing`` with a sentence unless the tournament is in one of ``allowed``."""
    allowed = list(allowed)
    if tournament.status not in allowed:
        wanted = " or ".join(STATUS_WORDS[Tournament.Status(s)] for s in allowed)
        now = STATUS_WORDS[Tournament.Status(tournament.status)]
        raise TournamentConflict(
            f"Cannot {doing}: the tournament is {now}, not {wanted}.",
            code="wrong_state",
        )


def open_round(tournament: Tournament) -> Round | None:
    """The round being seated, seated or played (at most one), if any."""
    return (
        tournament.rounds.filter(
            status__in=(Round.Status.SEATING, Round.Status.SEATED, Round.Status.PLAYING)
        )
        .order_by("-number")
        .first()
    )


def last_closed(tournament: Tournament) -> int:
    """The number of the last closed round (0 before any)."""
    found = (
        tournament.rounds.filter(status=Round.Status.CLOSED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return found or 0


def log(
    tournament: Tournament,
    user: User | None,
    action: str,
    *,
    round_number: int | None = None,
    **detail: Any,
) -> LogEntry:
    """Audit a command and mark the tournament changed (its public pages' ETags move)."""
    Tournament.objects.filter(pk=tournament.pk).update(changed_at=timezone.now())
    return LogEntry.objects.create(
        tournament=tournament, user=user, action=action, round_number=round_number, detail=detail
    )


def touch(tournament_id: int) -> None:
    """Mark the tournament changed without an audit entry (a result came in)."""
    Tournament.objects.filter(pk=tournament_id).update(changed_at=timezone.now())


def bump_version(tournament_id: int) -> int:
    """Ask for newer standings: the new requested version."""
    Tournament.objects.filter(pk=tournament_id).update(requested_version=F("requested_version") + 1)
    return int(
        Tournament.objects.filter(pk=tournament_id).values_list("requested_version", flat=True)[0]
    )
