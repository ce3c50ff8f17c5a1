"""What every tournament command shares: the row lock, the state check and the audit entry."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import pgettext, pgettext_lazy

from clubs.models import User
from tournaments.errors import NotAllowed, TournamentConflict, TournamentNotFound
from tournaments.models import LogEntry, Round, Tournament
from tournaments.permissions import is_director

#: What a tournament is in each state, as the end of "the tournament is ..." (a refusal).
STATUS_WORDS = {
    Tournament.Status.DRAFT: pgettext_lazy("the tournament is ...", "a draft"),
    Tournament.Status.REGISTRATION: pgettext_lazy("the tournament is ...", "open for registration"),
    Tournament.Status.CHECK_IN: pgettext_lazy("the tournament is ...", "in check-in"),
    Tournament.Status.RUNNING: pgettext_lazy("the tournament is ...", "running"),
    Tournament.Status.FINISHED: pgettext_lazy("the tournament is ...", "finished"),
}

#: The steps a tournament's state may refuse, by name, as the "..." of "Cannot ...: the
#: tournament is ..." (msgctxt "refused step"; German: a zu-infinitive, "die Anmeldung zu
#: öffnen").
STEPS = {
    "delete": pgettext_lazy("refused step", "delete the tournament"),
    "open_registration": pgettext_lazy("refused step", "open registration"),
    "open_check_in": pgettext_lazy("refused step", "open check-in"),
    "finish": pgettext_lazy("refused step", "finish the tournament"),
    "reopen": pgettext_lazy("refused step", "reopen the tournament"),
    "enter": pgettext_lazy("refused step", "enter"),
    "add_entry": pgettext_lazy("refused step", "add an entry"),
    "check_in": pgettext_lazy("refused step", "check in"),
    "withdraw": pgettext_lazy("refused step", "withdraw"),
    "warn": pgettext_lazy("refused step", "warn a player"),
    "seat_round": pgettext_lazy("refused step", "seat a round"),
}


#: What a round is in each state, as the end of "Round 2 is ..." (a refusal).
ROUND_STATES = {
    Round.Status.SEATING: pgettext_lazy("round 2 is ...", "being seated"),
    Round.Status.SEATED: pgettext_lazy("round 2 is ...", "seated"),
    Round.Status.PLAYING: pgettext_lazy("round 2 is ...", "playing"),
    Round.Status.CLOSED: pgettext_lazy("round 2 is ...", "closed"),
    Round.Status.FAILED: pgettext_lazy("round 2 is ...", "seating failed"),
}


def round_state(rnd: Round) -> str:
    """What ``rnd`` is now, in the reader's words ("Round 2 is *being seated*")."""
    return str(ROUND_STATES[Round.Status(rnd.status)])


def listing(items: Iterable[object], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` in the active language (``last``: ``"and"`` or
    ``"or"``)."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    head = ", ".join(words[:-1])
    if last == "or":
        return pgettext("list", "{items} or {last}").format(items=head, last=words[-1])
    return pgettext("list", "{items} and {last}").format(items=head, last=words[-1])


def local_time(value: dt.datetime, zone: str) -> str:
    """``value`` in the time zone ``zone`` (a tournament's), as the active language writes a
    date and time: English ``2026-11-23 19:30 CET``, German ``23.11.2026, 19:30 CET``."""
    try:
        where: dt.tzinfo = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        where = dt.UTC
    written = pgettext("date and time, as Django's date filter writes it", "Y-m-d H:i T")
    return date_format(value.astimezone(where), written)


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
    """Refuse the step ``doing`` (a name in :data:`STEPS`) with a sentence unless the
    tournament is in one of ``allowed``."""
    allowed = list(allowed)
    if tournament.status not in allowed:
        wanted = listing((STATUS_WORDS[Tournament.Status(s)] for s in allowed), "or")
        now = STATUS_WORDS[Tournament.Status(tournament.status)]
        sentence = pgettext(
            "refused step", "Cannot {doing}: the tournament is {now}, not {wanted}."
        )
        raise TournamentConflict(
            sentence.format(doing=STEPS[doing], now=now, wanted=wanted),
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
