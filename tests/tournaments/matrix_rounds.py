"""Permission-matrix rows for rounds, their tables, offline totals and duplicate boards."""

from __future__ import annotations

from typing import Any

from tests.tournaments.world import (
    DIRECTORS,
    PLAYER_OR_DIRECTORS,
    READ,
    Row,
    TournamentWorld,
    hidden,
    statuses,
    tables_complete,
    with_status,
)
from tournaments import services
from tournaments.models import RoundSeat, RoundTable

T = "/api/v1/tournaments/{tournament}/"
R = T + "rounds/"
N = R + "{round}/"
TB = N + "tables/{table}/"
OTHER = N + "tables/{other_table}/"


def _amounts(w: TournamentWorld) -> dict[str, int]:
    """Totals for the player's table: the first seat won 10 from the second."""
    link = w.player_table()
    assert link is not None
    seats = list(link.seats.order_by("position").values_list("seat", flat=True))
    return {seat: 10 if i == 0 else -10 if i == 1 else 0 for i, seat in enumerate(seats)}


def totals(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"amounts": _amounts(w), "declarer_wins": {}}


def _other_link(w: TournamentWorld) -> RoundTable:
    mine = w.player_table()
    assert mine is not None
    link = RoundTable.objects.filter(round=mine.round).exclude(pk=mine.pk).first()
    assert link is not None
    return link


def other_table(w: TournamentWorld) -> None:
    """``{other_table}``: the table of round 1 the player does not sit at."""
    w.extra["other_table"] = _other_link(w).number


def other_table_entered(w: TournamentWorld) -> None:
    """A player at the other table entered its totals (version 1)."""
    link = _other_link(w)
    w.extra["other_table"] = link.number
    first = RoundSeat.objects.filter(round_table=link).order_by("position").first()
    assert first is not None and first.entry.user is not None
    seats = link.seats.values_list("seat", flat=True)
    services.totals_enter(
        user=first.entry.user, round_table=link, amounts={seat: 0 for seat in seats}
    )


def other_totals(w: TournamentWorld, role: str) -> dict[str, Any]:
    seats = _other_link(w).seats.values_list("seat", flat=True)
    return {"amounts": {seat: 0 for seat in seats}}


def version_1(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"version": 1}


def clock_at_ten(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"ends_at": "2031-05-01T20:00:00Z"}


def no_amounts(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"amounts": {}}


def nothing(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {}


def tablemate_entered_totals(w: TournamentWorld) -> None:
    """Another player at the player's table enters its totals (version 1): waiting for the
    player's confirmation."""
    link = w.player_table()
    assert link is not None
    mate = RoundSeat.objects.filter(round_table=link).exclude(entry=w.entry).first()
    assert mate is not None and mate.entry.user is not None
    services.totals_enter(user=mate.entry.user, round_table=link, amounts=_amounts(w))


CONFIRM = statuses(anonymous=401, outsider=403, director=403, club_admin=403)
"""Only the table's players confirm totals (a director's entry counts at once)."""

ROWS = [
    Row("get", R, READ, state="playing"),
    hidden(Row("get", R, READ, state="playing")),
    hidden(Row("get", R, READ), state="draft"),
    Row("post", R, with_status(DIRECTORS, 202), state="check_in", body=nothing),
    hidden(Row("post", R, with_status(DIRECTORS, 202), state="check_in", body=nothing)),
    Row(
        "post",
        R,
        with_status(DIRECTORS, 409),
        state="playing",
        body=nothing,
        label="a round is open",
    ),
    Row("get", N, READ, state="playing"),
    hidden(Row("get", N, READ, state="playing")),
    Row("post", N + "start/", DIRECTORS, state="seated"),
    hidden(Row("post", N + "start/", DIRECTORS, state="seated")),
    Row("post", N + "start/", with_status(DIRECTORS, 409), state="playing", label="started"),
    Row(
        "post",
        N + "close/",
        with_status(DIRECTORS, 409),
        state="playing",
        label="tables unfinished",
    ),
    Row("post", N + "close/", DIRECTORS, state="playing", kind="totals", setup=tables_complete),
    hidden(
        Row("post", N + "close/", DIRECTORS, state="playing", kind="totals", setup=tables_complete)
    ),
    # duplicate boards: their commitments from the start, decks once every table finished
    Row("get", N + "boards/", READ, state="playing", kind="duplicate"),
    hidden(Row("get", N + "boards/", READ, state="playing", kind="duplicate")),
    Row("get", TB, READ, state="playing"),
    hidden(Row("get", TB, READ, state="playing")),
    # offline tables' totals: the table's players enter and confirm, directors enter
    Row("get", TB + "totals/", READ, state="playing", kind="totals"),
    hidden(Row("get", TB + "totals/", READ, state="playing", kind="totals")),
    Row("put", TB + "totals/", PLAYER_OR_DIRECTORS, state="playing", kind="totals", body=totals),
    hidden(
        Row("put", TB + "totals/", PLAYER_OR_DIRECTORS, state="playing", kind="totals", body=totals)
    ),
    # a tournament that plays hands has no totals: 409 for those who may enter them, and still
    # 403 for an outsider (who may enter nothing there)
    Row(
        "put",
        TB + "totals/",
        with_status(PLAYER_OR_DIRECTORS, 409),
        state="playing",
        body=totals,
        label="hands, not totals",
    ),
    Row(
        "post",
        TB + "totals/confirm/",
        CONFIRM,
        state="playing",
        kind="totals",
        setup=tablemate_entered_totals,
        body=version_1,
    ),
    hidden(
        Row(
            "post",
            TB + "totals/confirm/",
            CONFIRM,
            state="playing",
            kind="totals",
            setup=tablemate_entered_totals,
            body=version_1,
        )
    ),
    # a player enters and confirms their own table's totals only
    Row(
        "put",
        OTHER + "totals/",
        DIRECTORS,
        state="playing",
        kind="totals",
        setup=other_table,
        body=other_totals,
        label="another table",
    ),
    Row(
        "post",
        OTHER + "totals/confirm/",
        statuses(anonymous=401, rest=403),
        state="playing",
        kind="totals",
        setup=other_table_entered,
        body=version_1,
        label="another table",
    ),
    # round clocks are for hosted rounds: this world records its hands (409 for directors)
    Row("post", N + "clock/", with_status(DIRECTORS, 409), state="playing", body=clock_at_ten),
    hidden(
        Row("post", N + "clock/", with_status(DIRECTORS, 409), state="playing", body=clock_at_ten)
    ),
    Row(
        "post",
        TB + "hands/1/adjust/",
        with_status(DIRECTORS, 409),
        state="playing",
        body=no_amounts,
    ),
    hidden(
        Row(
            "post",
            TB + "hands/1/adjust/",
            with_status(DIRECTORS, 409),
            state="playing",
            body=no_amounts,
        )
    ),
]
