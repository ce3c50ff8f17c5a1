"""Clocks in tournament rounds (issue 41, ``docs/clocks.md``): each timeout at a round's table
in the tournament's log, for the directors.

A hosted round table runs the tournament's time control (``Tournament.time_control``, given
to its games table when the round is seated). When a person's time runs out the games app
lets the flag fall once and tells the apps above (``games.hooks.listen_timeouts``) inside the
flag's transaction: :func:`on_timeout` writes one ``timeout`` log entry per entrant whose time
ran out (round, table number, hand number, the entry and its seat, the timeouts in a row and
whether the seat is now away, and the entry's timeouts in the tournament so far). The log is
the directors' (``GET …/log/``); it names the entry by id and seat key, never by name.
"""

from __future__ import annotations

from collections import Counter

from games import clock
from games.models import Hand, Table
from tournaments.models import LogEntry, RoundSeat, RoundTable

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
