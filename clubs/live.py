"""Club evenings on the websocket (``docs/live.md``): the ``evening`` topic and where a member
sits in a running round, registered with :mod:`games.live` in ``ClubsConfig.ready``.

An evening's *version* is its ``updated_at`` in microseconds since the epoch. Every change an
evening's reader reloads for moves it (:func:`evening_changed`: answers and check-ins, rounds
planned, swapped, discarded and started, the evening changed, cancelled or closed), so a
client compares the version it holds with the one a message or ``subscribed`` carries.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone

from clubs import outbox
from clubs.errors import ClubNotFound
from clubs.models import Evening, EveningRound, EveningTable, User
from clubs.permissions import AnyUser
from clubs.players import player_key
from games import live
from games.models import Table


def evening_version(evening_id: int) -> int | None:
    """The evening's version (``updated_at`` in microseconds), None when it is gone."""
    found = Evening.objects.filter(pk=evening_id).values_list("updated_at", flat=True).first()
    return None if found is None else live.micros(found)


def _read(user: AnyUser, evening_id: int) -> int | None:
    """The version when ``user`` may read the evening over REST (its club is public, or they
    are a member; staff), else None."""
    from clubs import selectors
    from clubs.selectors import evenings as selectors_evenings

    club_id = Evening.objects.filter(pk=evening_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return None
    try:
        club = selectors.club_for_user(user=user, club_id=club_id)
        evening = selectors_evenings.evening_in_club(club=club, evening_id=evening_id, user=user)
    except ClubNotFound:
        return None
    return live.micros(evening.updated_at)


def evening_changed(evening_id: int, what: str) -> None:
    """Inside a service's transaction: move the evening's version and, after commit, tell its
    subscribers to reload (``what``: ``attendance_changed``, ``round_planned``,
    ``round_changed``, ``round_discarded``, ``round_started``, ``changed``, ``cancelled``,
    ``closed``)."""
    Evening.objects.filter(pk=evening_id).update(updated_at=timezone.now())
    live.publish_update("evening", evening_id, what)


def _seat_of(table: Table, user_id: int) -> str:
    return next(s.key for s in table.seats.all() if s.user_id == user_id)


def _seated(link: EveningTable, user_id: int) -> dict[str, Any]:
    return {
        "kind": "seated",
        "evening_id": link.evening_id,
        "round": link.round.number if link.round else None,
        "table_id": link.table_id,
        "table_number": link.number,
        "seat": _seat_of(link.table, user_id),
    }


def _links(where: Q) -> list[EveningTable]:
    return list(
        EveningTable.objects.filter(where)
        .select_related("round", "table")
        .prefetch_related("table__seats")
        .order_by("evening_id", "round__number", "number")
    )


def round_started(round_id: int) -> None:
    """Inside ``round_start``'s transaction: after commit tell the evening's subscribers, and
    every member seated in the round where they sit."""
    rnd = EveningRound.objects.select_related("evening").get(pk=round_id)
    evening_changed(rnd.evening_id, "round_started")
    payloads: dict[int, dict[str, Any]] = {}
    contexts: dict[int, dict[str, Any]] = {}
    for link in _links(Q(round_id=round_id)):
        seats = sorted(link.table.seats.all(), key=lambda s: s.position)
        for seat in seats:
            if seat.user_id is None:
                continue
            live.notify_user(seat.user_id, _seated(link, seat.user_id))
            payloads[seat.user_id] = {
                "path": f"/api/v1/tables/{link.table_id}/",
                "table_id": link.table_id,
            }
            contexts[seat.user_id] = {
                "table_number": link.number,
                "seat": seat.position + 1,
                "opponents": [player_key(s) for s in seats if s.pk != seat.pk],
            }
    # one call for the round: its rows go to the worker together
    outbox.notify(
        list(contexts),
        "seated",
        f"evening-round:{round_id}",
        payload={"club_id": rnd.evening.club_id, "evening_id": rnd.evening_id, "round": rnd.number},
        payloads=payloads,
        context={"where": rnd.evening.title, "round": rnd.number},
        contexts=contexts,
    )


def seating(user: User) -> list[dict[str, Any]]:
    """Where ``user`` sits in an evening round that is being played (an open table)."""
    links = _links(
        Q(round__status=EveningRound.Status.STARTED)
        & Q(table__status=Table.Status.OPEN)
        & Q(table__seats__user=user)
    )
    return [_seated(link, user.pk) for link in links]


def register() -> None:
    """Register the ``evening`` topic and the evenings' seating; ``ClubsConfig.ready``."""
    live.register(live.Topic("evening", "evening_id", _read, evening_version))
    live.register_seating("club evenings", seating)
