"""Permission-matrix rows for tournaments, their lifecycle, directors, audit log and entries."""

from __future__ import annotations

from typing import Any

from clubs.models import Membership
from tests.factories import UserFactory
from tests.tournaments.world import (
    DIRECTORS,
    PLAYER_OR_DIRECTORS,
    READ,
    SIGNED_IN,
    Row,
    TournamentWorld,
    hidden,
    statuses,
    with_status,
)
from tournaments import services
from tournaments.models import Entry

L = "/api/v1/tournaments/"
T = L + "{tournament}/"
E = T + "entries/{entry}/"


def co_director(w: TournamentWorld) -> None:
    """A second director, ``{user}`` (a member of the organising club, added directly), so
    that one may be removed."""
    other = UserFactory.create(username="codirector")
    Membership.objects.create(club=w.club, user=other, role=Membership.Role.MEMBER)
    added = services.director_add(
        user=w.users["director"], tournament=w.tournament, director_id=other.pk
    )
    assert added
    w.extra["user"] = other.pk


def club_member(w: TournamentWorld) -> None:
    """``{member}``: a member of the organising club, whom directors add without asking."""
    member = UserFactory.create(username="member")
    Membership.objects.create(club=w.club, user=member, role=Membership.Role.MEMBER)
    w.extra["member"] = member.pk


def player_not_checked_in(w: TournamentWorld) -> None:
    Entry.objects.filter(pk=w.entry.pk).update(status=Entry.Status.REGISTERED, checked_in_at=None)


def anna_registered(w: TournamentWorld) -> None:
    """``{other_entry}``: another player's entry, registered but not checked in."""
    entry = Entry.objects.get(tournament=w.tournament, name="anna")
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.REGISTERED, checked_in_at=None)
    w.extra["other_entry"] = entry.pk


def new_tournament(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"name": "Herbstturnier"}


def club_tournament(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"name": "Herbstturnier", "club": w.club.pk}


def venue(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"venue": "Café Landtmann"}


def reason(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"reason": "Table 2's sheet was misread."}


def new_director(w: TournamentWorld, role: str) -> dict[str, Any]:
    """Someone who shares no club with anyone here: asked, not added."""
    return {"user": w.users["outsider"].pk}


def member_of_the_club(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"user": w.extra["member"]}


def nothing(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {}


def substitute(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"name": "Franz Huber"}


def warning(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"reason": "Two timeouts in round 1."}


def ill(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"reason": "Ill"}


ENTER = statuses(anonymous=401, outsider=201, player=409, director=201, club_admin=201)
"""Entering yourself: anyone signed in who may see the tournament; the player is in already."""

ROWS = [
    # the list shows each caller what they may see: never a 404
    Row("get", L, READ),
    Row("get", L, READ, public=False),
    Row("get", L, READ, state="draft"),
    Row("post", L, with_status(SIGNED_IN, 201), body=new_tournament),
    # only the club's owners and admins organise its tournaments (a director is no admin)
    Row(
        "post",
        L,
        statuses(anonymous=401, outsider=403, player=403, director=403, club_admin=201),
        body=club_tournament,
        label="for the club",
    ),
    # the tournament
    Row("get", T, READ),
    hidden(Row("get", T, READ)),
    hidden(Row("get", T, READ), state="draft"),
    Row("patch", T, DIRECTORS, body=venue),
    hidden(Row("patch", T, DIRECTORS, body=venue)),
    hidden(Row("patch", T, DIRECTORS, body=venue), state="draft"),
    # only a draft is deleted; later, the record stays
    Row("delete", T, with_status(DIRECTORS, 409)),
    hidden(Row("delete", T, with_status(DIRECTORS, 204)), state="draft"),
    # lifecycle
    hidden(Row("post", T + "open-registration/", DIRECTORS), state="draft"),
    Row("post", T + "open-registration/", with_status(DIRECTORS, 409), label="open already"),
    Row("post", T + "open-check-in/", DIRECTORS),
    hidden(Row("post", T + "open-check-in/", DIRECTORS)),
    Row("post", T + "finish/", DIRECTORS, state="between_rounds"),
    hidden(Row("post", T + "finish/", DIRECTORS, state="between_rounds")),
    Row("post", T + "finish/", with_status(DIRECTORS, 409), state="playing", label="round open"),
    Row("post", T + "reopen/", DIRECTORS, state="finished", body=reason),
    hidden(Row("post", T + "reopen/", DIRECTORS, state="finished", body=reason)),
    # directors
    # a member of the organising club becomes a director at once; anyone else is asked (202)
    Row("post", T + "directors/", DIRECTORS, body=member_of_the_club, setup=club_member),
    hidden(Row("post", T + "directors/", DIRECTORS, body=member_of_the_club, setup=club_member)),
    Row("post", T + "directors/", with_status(DIRECTORS, 202), body=new_director, label="ask"),
    hidden(
        Row("post", T + "directors/", with_status(DIRECTORS, 202), body=new_director, label="ask")
    ),
    Row("delete", T + "directors/{user}/", with_status(DIRECTORS, 204), setup=co_director),
    hidden(Row("delete", T + "directors/{user}/", with_status(DIRECTORS, 204), setup=co_director)),
    Row(
        "delete",
        T + "directors/{director}/",
        with_status(DIRECTORS, 409),
        label="the last director",
    ),
    # the audit log: directors only
    Row("get", T + "log/", DIRECTORS),
    hidden(Row("get", T + "log/", DIRECTORS)),
    # entries
    Row("get", T + "entries/", READ),
    hidden(Row("get", T + "entries/", READ)),
    hidden(Row("get", T + "entries/", READ), state="draft"),
    Row("post", T + "entries/", ENTER, body=nothing, label="enter yourself"),
    hidden(Row("post", T + "entries/", ENTER, body=nothing, label="enter yourself")),
    Row("post", T + "entries/", with_status(DIRECTORS, 201), body=substitute, label="add"),
    hidden(Row("post", T + "entries/", with_status(DIRECTORS, 201), body=substitute)),
    Row(
        "post",
        T + "entries/",
        with_status(DIRECTORS, 201),
        body=member_of_the_club,
        setup=club_member,
        label="add a member",
    ),
    Row(
        "post",
        T + "entries/",
        with_status(DIRECTORS, 202),
        body=new_director,
        label="ask a stranger",
    ),
    Row("get", E, READ),
    hidden(Row("get", E, READ)),
    Row(
        "post", E + "check-in/", PLAYER_OR_DIRECTORS, state="check_in", setup=player_not_checked_in
    ),
    hidden(
        Row(
            "post",
            E + "check-in/",
            PLAYER_OR_DIRECTORS,
            state="check_in",
            setup=player_not_checked_in,
        )
    ),
    Row("post", E + "withdraw/", PLAYER_OR_DIRECTORS, state="check_in", body=ill),
    hidden(Row("post", E + "withdraw/", PLAYER_OR_DIRECTORS, state="check_in", body=ill)),
    # a player acts for themselves only
    Row(
        "post",
        T + "entries/{other_entry}/check-in/",
        DIRECTORS,
        state="check_in",
        setup=anna_registered,
    ),
    Row(
        "post",
        T + "entries/{other_entry}/withdraw/",
        DIRECTORS,
        state="check_in",
        setup=anna_registered,
        body=ill,
    ),
    # players withdraw between rounds, not during one
    Row(
        "post",
        E + "withdraw/",
        with_status(PLAYER_OR_DIRECTORS, 409),
        state="playing",
        body=ill,
        label="round open",
    ),
    # directors warn a player while the tournament runs
    Row("post", E + "warn/", with_status(DIRECTORS, 201), state="playing", body=warning),
    hidden(Row("post", E + "warn/", with_status(DIRECTORS, 201), state="playing", body=warning)),
    Row("post", E + "warn/", with_status(DIRECTORS, 409), body=warning, label="not running"),
]
