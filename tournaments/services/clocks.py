"""Clocks in tournament rounds (issue 41, ``docs/clocks.md``): each timeout at a round's table
in the tournament's log, for the directors; and round clocks.

A hosted round table runs the tournament's time control (``Tournament.time_control``, given
to its games table when the round is seated). When a person's time runs out the games app
lets the flag fall once and tells the apps above (``games.hooks.listen_timeouts``) inside the
flag's transaction: :func:`on_timeout` writes one ``timeout`` log entry per entrant whose time
ran out (round, table number, hand number, the entry and its seat, the timeouts in a row and
whether the seat is now away, and the entry's timeouts in the tournament so far). The log is
the directors' (``GET …/log/``); it names the entry by id and seat key, never by name.

*Round clocks* (hosted tournaments). A round may have a time limit, ``Round.ends_at``: from
the tournament's ``round_minutes`` when it starts, or as a director sets it
(:func:`round_clock_set`). The beat's sweep (``tournaments.tasks.run_round_clocks``) finds the
rounds being played whose clock ran out and runs :func:`round_clock_run` for each: it marks
the round run out (``ran_out_at``, ``round_clock_out`` in the log, with each table's hands), so
that no table deals a further hand (``tournaments.managers``) and a table is complete once none
of its hands is pending; it ends each hand in card play with at most the tournament's
``round_clock_tricks`` to play by its double-dummy result
(``games.services.end_hand_by_solver``); the others wait for a director's adjusted score
(:func:`hand_adjust`: the hand is taken back and a :class:`~tournaments.models.HandAdjustment`
counts instead); then it closes the round as a director would, once every table is
complete. Each step is checked again under the tournament's lock, so a sweep that runs twice,
or beside a director's own close, changes nothing more.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import User
from config.tasks import send_after_commit
from games import clock
from games import services as games
from games.models import Hand, Seat, Table
from tournaments import live
from tournaments.errors import InvalidInput, TournamentConflict
from tournaments.models import (
    HandAdjustment,
    LogEntry,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)
from tournaments.permissions import is_director
from tournaments.services.common import (
    local_time,
    lock,
    log,
    require_director,
    round_state,
)
from tournaments.services.results import reveal_boards
from tournaments.services.rounds import close_tables, table_progress
from tournaments.services.standings import request_standings

TIMEOUT = "timeout"
"""The log's action for a timeout at a round's table."""


def on_timeout(table_id: int, hand_number: int, seats: list[str]) -> None:
    """The listener of ``games.hooks.timed_out``: log each entrant among ``seats`` whose time
    ran out in hand ``hand_number`` of games table ``table_id``, if it is a round's table
    (a bot's seat, which never times out, and tables of no tournament are left alone).

    It runs inside the flag's transaction, which holds the hand's row lock: it writes only
    log rows and takes no tournament lock (a director's command locks the tournament, then
    games rows; the other order could deadlock), so it does not move the tournament's
    ``changed_at`` either: the log is no public page."""
    link = RoundTable.objects.filter(table_id=table_id).select_related("round").first()
    if link is None:
        return
    entries = dict(
        RoundSeat.objects.filter(round_table=link, seat__in=seats).values_list("seat", "entry_id")
    )
    if not entries:
        return
    control = clock.TimeControl.from_json(
        Table.objects.filter(pk=table_id).values_list("time_control", flat=True).first()
    )
    state = (
        Hand.objects.filter(table_id=table_id, number=hand_number)
        .values_list("clock", flat=True)
        .first()
    ) or {}
    in_row = state.get("in_row", {})
    tournament_id = link.round.tournament_id
    earlier = Counter(
        LogEntry.objects.filter(
            tournament_id=tournament_id, action=TIMEOUT, detail__entry__in=list(entries.values())
        ).values_list("detail__entry", flat=True)
    )
    rows = []
    for seat in sorted(entries):
        entry = entries[seat]
        # the flag's own timeout counts once the policy's bot has played (games.clock.played_for)
        row = int(in_row.get(seat, 0)) + 1
        rows.append(
            LogEntry(
                tournament_id=tournament_id,
                user=None,
                action=TIMEOUT,
                round_number=link.round.number,
                detail={
                    "table": link.number,
                    "games_table": table_id,
                    "hand": hand_number,
                    "entry": entry,
                    "seat": seat,
                    "in_row": row,
                    "away": control is not None and row >= control.timeouts_before_away,
                    "timeouts": earlier[entry] + 1,
                },
            )
        )
    LogEntry.objects.bulk_create(rows)


# ---------------------------------------------------------------------------------------------
# round clocks


def round_clock_set(*, user: User, round: Round, ends_at: dt.datetime | None) -> Round:
    """A director sets when the round's clock runs out (``None``: the round has no clock)
    while it is seated or being played and its clock has not run out; a moment already past
    ends the round's play at the sweep's next run. Audited as ``round_clock`` with the moments
    before and after."""
    with transaction.atomic():
        t = lock(round.tournament_id)
        require_director(user, t)
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if t.results != Tournament.Results.HOSTED:
            raise TournamentConflict(
                _(
                    "A round's clock ends the hands of hosted tables; this tournament records "
                    "its results."
                ),
                code="not_hosted",
            )
        if rnd.status not in (Round.Status.SEATED, Round.Status.PLAYING):
            raise TournamentConflict(
                _(
                    "Round {number} is {state}; a round's clock is set while the round is "
                    "seated or being played."
                ).format(number=rnd.number, state=round_state(rnd)),
                code="wrong_state",
            )
        if rnd.ran_out_at is not None:
            raise TournamentConflict(
                _("Round {number}'s clock ran out at {moment}.").format(
                    number=rnd.number, moment=local_time(rnd.ran_out_at, t.timezone)
                ),
                code="round_clock_out",
            )
        before = rnd.ends_at
        rnd.ends_at = ends_at
        rnd.save(update_fields=["ends_at"])
        log(
            t,
            user,
            "round_clock",
            round_number=rnd.number,
            before=None if before is None else before.isoformat(),
            after=None if ends_at is None else ends_at.isoformat(),
        )
        live.tournament_changed(t.pk, "round_clock_set", round=rnd.number)
    return rnd


def rounds_out_of_time(now: dt.datetime) -> list[int]:
    """The rounds being played whose clock ran out by ``now`` (run out already or not: a
    round waiting for its last hands is looked at again)."""
    return list(
        Round.objects.filter(status=Round.Status.PLAYING, ends_at__lte=now)
        .order_by("ends_at", "pk")
        .values_list("pk", flat=True)
    )


def round_clock_run(*, round_id: int, now: dt.datetime) -> bool:
    """What happens when round ``round_id``'s clock has run out by ``now``: the first time,
    the round is marked run out (``ran_out_at``; ``round_clock_out`` in the log, with each
    table's hands done and pending), so no table deals a further hand; each hand still being
    played ends by double dummy where it may (:func:`_end_by_solver`); then, once every table
    is complete, the round closes as a director closes it. True when it closed. Safe to run
    twice, and beside the directors' own commands."""
    with transaction.atomic():
        found = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
        if found is None:
            return False
        t = lock(found)
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
        if rnd.status != Round.Status.PLAYING or rnd.ends_at is None or rnd.ends_at > now:
            return False
        if rnd.ran_out_at is None:
            rnd.ran_out_at = now
            rnd.save(update_fields=["ran_out_at"])
            tables = [
                {k: p[k] for k in ("number", "hands_done", "hands_pending")}
                for p in table_progress(rnd)
            ]
            log(
                t,
                None,
                "round_clock_out",
                round_number=rnd.number,
                ends_at=rnd.ends_at.isoformat(),
                tables=tables,
            )
            reveal_boards(rnd)  # duplicate: boards no table will play any more
            request_standings(t.pk)
            live.tournament_changed(t.pk, "round_clock_out", round=rnd.number)
        tricks = t.round_clock_tricks
    # Each games hand ends in its own transaction, outside the tournament's lock: a flag that
    # falls holds its hand's lock while it writes to the log (games rows, then the tournament),
    # so the other order here could deadlock.
    _end_by_solver(round_id, tricks, now)
    return _close_when_complete(round_id)


def _end_by_solver(round_id: int, tricks: int, now: dt.datetime) -> None:
    """End each hand of the run-out round ``round_id`` still being played by the double-dummy
    play-out of its cards where it is in card play with at most ``tricks`` tricks to play
    (``games.services.end_hand_by_solver``), each a ``hand_end_solver`` in the log; the
    others wait for the directors' adjusted scores (:func:`hand_adjust`). Every sweep tries
    again: a hand its players brought into card play since may end now."""
    if tricks <= 0:
        return
    pending = list(
        Hand.objects.filter(
            table__round_link__round_id=round_id,
            table__mode=Table.Mode.HOSTED,
            status=Hand.Status.PLAYING,
        )
        .order_by("table__round_link__number", "number")
        .values_list("table_id", "number", "table__round_link__number")
    )
    for table_id, number, table_number in pending:
        if (
            games.end_hand_by_solver(table_id=table_id, number=number, max_tricks=tricks, now=now)
            is None
        ):
            continue
        with transaction.atomic():
            rnd = Round.objects.select_related("tournament").get(pk=round_id)
            log(
                rnd.tournament,
                None,
                "hand_end_solver",
                round_number=rnd.number,
                table=table_number,
                hand=number,
            )


def _close_when_complete(round_id: int) -> bool:
    """Close the run-out round ``round_id`` once every table is complete, in the name of
    the director who started it (else another director), audited as ``round_close`` by the
    round's clock."""
    with transaction.atomic():
        found = Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
        if found is None:
            return False
        t = lock(found)
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
        if rnd.status != Round.Status.PLAYING or rnd.ran_out_at is None:
            return False
        if not all(p["complete"] for p in table_progress(rnd)):
            return False
        closer = _closer(t, rnd)
        if closer is None:
            return False
        close_tables(t, rnd, closer)
        log(
            t,
            None,
            "round_close",
            round_number=rnd.number,
            closed_by="round_clock",
            closer=closer.pk,
        )
    return True


def _closer(t: Tournament, rnd: Round) -> User | None:
    """Who closes a round whose clock ran out (games closes each table in a manager's name):
    the director who started it, while they still direct the tournament, else its first
    director."""
    started = (
        LogEntry.objects.filter(tournament=t, action="round_start", round_number=rnd.number)
        .exclude(user=None)
        .select_related("user")
        .order_by("-id")
        .first()
    )
    candidates = [started.user] if started is not None and started.user is not None else []
    candidates += list(t.directors.filter(is_active=True).order_by("pk"))
    return next((u for u in candidates if is_director(u, t)), None)


def round_clocks_sweep(*, now: dt.datetime) -> int:
    """The beat's sweep: :func:`round_clock_run` for every round being played whose clock
    ran out. The number of rounds it closed."""
    return sum(round_clock_run(round_id=pk, now=now) for pk in rounds_out_of_time(now))


# ---------------------------------------------------------------------------------------------
# the directors' adjusted scores


def _check_adjustment(link: RoundTable, amounts: Mapping[str, Any]) -> None:
    """Amounts for exactly the table's seats (a bot's too: the table's amounts sum to zero),
    whole numbers summing to zero."""
    seats = set(Seat.objects.filter(table_id=link.table_id).values_list("key", flat=True))
    if set(amounts) != seats:
        raise InvalidInput(
            _("Give an amount for exactly the seats {seats}.").format(
                seats=", ".join(sorted(seats))
            ),
            fields={"amounts": [_("wrong seats")]},
        )
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in amounts.values()):
        raise InvalidInput(_("Amounts are whole numbers."), fields={"amounts": [_("not integers")]})
    if sum(amounts.values()) != 0:
        raise InvalidInput(
            _("The amounts must sum to zero; they sum to {sum}.").format(sum=sum(amounts.values())),
            fields={"amounts": [_("do not sum to zero")]},
        )


def hand_adjust(
    *,
    user: User,
    round_table: RoundTable,
    number: int,
    amounts: Mapping[str, int],
    reason: str = "",
) -> HandAdjustment:
    """A director's adjusted score for hand ``number`` of a round's table, still being played
    after the round's clock ran out (the double-dummy ending did not apply): the hand is taken
    back at its games table (``games.services.hand_abandon``: as if never dealt) and
    ``amounts`` (by seat, summing to zero, in the table's unit: money's minor units, or the
    rule set's score unit) count instead in the standings, a player's results and the money
    settlement. Audited as ``hand_adjust``; the round closes at once if that was the last hand
    it waited for.

    The hand is taken back first, in its own transaction, and the adjustment recorded after
    under the tournament's lock (a flag that falls holds the hand, then writes to the log:
    the other order could deadlock); a request that finds the hand ended or taken back already
    is refused (409 ``hand_not_pending``)."""
    link = RoundTable.objects.select_related("round__tournament").get(pk=round_table.pk)
    rnd = link.round
    t = rnd.tournament
    require_director(user, t)
    if rnd.ran_out_at is None:
        raise TournamentConflict(
            _("Round {number}'s clock has not run out: its hands are played to their end.").format(
                number=rnd.number
            ),
            code="round_clock_running",
        )
    if rnd.status != Round.Status.PLAYING:
        raise TournamentConflict(
            _("Round {number} is {state}; its hands have ended.").format(
                number=rnd.number, state=round_state(rnd)
            ),
            code="wrong_state",
        )
    _check_adjustment(link, amounts)
    taken = games.hand_abandon(table_id=link.table_id, number=number, user=user)
    if taken is None:
        raise TournamentConflict(
            _(
                "Hand {hand} of table {table} is not being played: it ended, or it was never dealt."
            ).format(hand=number, table=link.number),
            code="hand_not_pending",
        )
    with transaction.atomic():
        t = lock(t.pk)
        row = HandAdjustment.objects.create(
            round_table=link,
            number=number,
            dealer=taken["dealer"],
            amounts=dict(amounts),
            reason=reason,
            entered_by=user,
        )
        log(
            t,
            user,
            "hand_adjust",
            round_number=rnd.number,
            table=link.number,
            hand=number,
            amounts=dict(amounts),
            reason=reason,
        )
        reveal_boards(rnd)
        request_standings(t.pk)
        send_after_commit("tournaments.tasks.table_changed", link.table_id)  # result_entered
        live.tournament_changed(t.pk, "result_entered", round=rnd.number, table=link.number)
    _close_when_complete(rnd.pk)
    return row
