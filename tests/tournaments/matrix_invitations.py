"""Permission-matrix rows for tournament invitations: the director asks the outsider (who
shares no club with anyone here) to play or to direct; only the outsider sees, accepts or
declines it, and for everyone else it does not exist (404), as an id nobody uses."""

from __future__ import annotations

from tests.tournaments.world import Row, TournamentWorld, statuses
from tournaments import services

MINE = "/api/v1/me/tournament-invitations/"
ONE = MINE + "{invitation}/"


def outsider_asked_to_play(w: TournamentWorld) -> None:
    """``{invitation}``: the outsider is asked to play."""
    added = services.entry_add(
        user=w.users["director"], tournament=w.tournament, player_id=w.users["outsider"].pk
    )
    assert added is None, "the outsider shares no club with the director: asked, not added"
    w.extra["invitation"] = w.users["outsider"].tournament_invitations.get().pk


def outsider_asked_to_direct(w: TournamentWorld) -> None:
    """``{invitation}``: the outsider is asked to direct."""
    added = services.director_add(
        user=w.users["director"], tournament=w.tournament, director_id=w.users["outsider"].pk
    )
    assert not added
    w.extra["invitation"] = w.users["outsider"].tournament_invitations.get().pk


def asked_then_finished(w: TournamentWorld) -> None:
    """``{invitation}``: the outsider is asked to play between rounds; then the tournament
    finishes."""
    outsider_asked_to_play(w)
    services.tournament_finish(user=w.users["director"], tournament=w.refresh())


INVITEE_ONLY = statuses(anonymous=401, outsider=200, rest=404)

ROWS = [
    Row("get", MINE, statuses(anonymous=401), setup=outsider_asked_to_play),
    Row("post", ONE + "accept/", INVITEE_ONLY, setup=outsider_asked_to_play, label="play"),
    Row("post", ONE + "accept/", INVITEE_ONLY, setup=outsider_asked_to_direct, label="direct"),
    Row("post", ONE + "decline/", INVITEE_ONLY, setup=outsider_asked_to_play),
    # a private tournament: the invitee answers all the same
    Row(
        "post",
        ONE + "accept/",
        INVITEE_ONLY,
        public=False,
        setup=outsider_asked_to_play,
        label="play",
    ),
    # once the tournament is over nobody enters it any more
    Row(
        "post",
        ONE + "accept/",
        statuses(anonymous=401, outsider=409, rest=404),
        state="between_rounds",
        setup=asked_then_finished,
        label="too late",
    ),
]
