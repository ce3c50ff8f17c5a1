"""Tournaments on the websocket (``docs/live.md``): the ``tournament`` topic and where an
entrant sits in the round being played, registered with :mod:`games.live` in
``TournamentsConfig.ready``.

A tournament's *version* is its ``changed_at`` in microseconds since the epoch: the moment
anything its public pages show last changed (the same value behind their ETags), so it moves
with every round seated, started and closed, every result entered, every standings
computation and the finish. ``standings_changed`` messages also carry ``standings_version``
(the stored standings' ``computed_version``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from clubs import outbox
from clubs.models import User
from clubs.permissions import AnyUser
from games import live
from tournaments.errors import TournamentNotFound
from tournaments.models import Round, RoundSeat, Tournament
from tournaments.names import entry_key


def tournament_version(tournament_id: int) -> int | None:
    """The tournament's version (``changed_at`` in microseconds), None when it is gone."""
    found = Tournament.objects.filter(pk=tournament_id).values_list("changed_at", flat=True).first()
    return None if found is None else live.micros(found)


def _read(user: AnyUser, tournament_id: int) -> int | None:
    """The version when ``user`` may read the tournament over REST (listed, or they run or
    entered it), else None."""
    from tournaments import selectors

    try:
        t = selectors.tournament_polled(user=user, tournament_id=tournament_id)
    except TournamentNotFound:
        return None
    return live.micros(t.changed_at)


def tournament_changed(tournament_id: int, what: str, **extra: Any) -> None:
    """Inside a service's transaction (after the tournament was marked changed): tell its
    subscribers to reload after commit. ``what``: ``round_seated``, ``round_started``,
    ``round_closed``, ``result_entered``, ``standings_changed``, ``tournament_finished``."""
    live.publish_update("tournament", tournament_id, what, **extra)


def _seated(seat: RoundSeat) -> dict[str, Any]:
    return {
        "kind": "seated",
        "tournament_id": seat.round.tournament_id,
        "round": seat.round.number,
        "table_id": seat.round_table.table_id,
        "table_number": seat.round_table.number,
        "seat": seat.seat,
    }


def round_seated(rnd: Round) -> None:
    """Inside the seating transaction: tell the tournament's subscribers, and after commit
    every entrant with an account where they sit."""
    tournament_changed(rnd.tournament_id, "round_seated", round=rnd.number)
    seats = list(
        RoundSeat.objects.filter(round=rnd).select_related(
            "round", "round_table", "round__tournament", "entry"
        )
    )
    if rnd.starts_at is not None:
        outbox.notify(
            [seat.entry.user_id for seat in seats if seat.entry.user_id is not None],
            "round_starts",
            f"tournament-round:{rnd.pk}",
            payload={
                "path": f"/api/v1/tournaments/{rnd.tournament_id}/rounds/{rnd.number}/",
                "tournament_id": rnd.tournament_id,
                "round": rnd.number,
            },
            context={"where": rnd.tournament.name, "round": rnd.number},
            moment=rnd.starts_at,
        )
    at_table: dict[int, list[RoundSeat]] = defaultdict(list)
    for seat in seats:
        at_table[seat.round_table_id].append(seat)
    payloads: dict[int, dict[str, Any]] = {}
    contexts: dict[int, dict[str, Any]] = {}
    for seat in seats:
        user_id = seat.entry.user_id
        if user_id is None:
            continue
        live.notify_user(user_id, _seated(seat))
        payloads[user_id] = {"table_id": seat.round_table.table_id}
        contexts[user_id] = {
            "table_number": seat.round_table.number,
            "seat": seat.position + 1,
            "opponents": [
                entry_key(rnd.tournament_id, other.entry_id)
                for other in at_table[seat.round_table_id]
                if other.pk != seat.pk
            ],
        }
    # one call for the round: its rows go to the worker together
    outbox.notify(
        list(contexts),
        "seated",
        f"tournament-round:{rnd.pk}",
        payload={
            "path": f"/api/v1/tournaments/{rnd.tournament_id}/rounds/{rnd.number}/",
            "tournament_id": rnd.tournament_id,
            "round": rnd.number,
        },
        payloads=payloads,
        context={"where": rnd.tournament.name, "round": rnd.number},
        contexts=contexts,
    )


def seating(user: User) -> list[dict[str, Any]]:
    """Where ``user`` sits in a tournament round that is seated or being played."""
    seats = (
        RoundSeat.objects.filter(
            entry__user=user, round__status__in=(Round.Status.SEATED, Round.Status.PLAYING)
        )
        .select_related("round", "round_table")
        .order_by("round__tournament_id", "round__number")
    )
    return [_seated(seat) for seat in seats]


def register() -> None:
    """Register the ``tournament`` topic and the tournaments' seating;
    ``TournamentsConfig.ready``."""
    live.register(live.Topic("tournament", "tournament_id", _read, tournament_version))
    live.register_seating("tournaments", seating)
