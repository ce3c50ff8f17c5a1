"""Permission-matrix rows of the cups API (issue 42): every operation as every role.

The cup is set up beside the tournament world (``setup``): a cup of the world's club, so its
``club_admin`` runs it as an admin of the cup's club (the *club owner* of the cups' roles),
with a second director (``cupdir``, the *cup director*, who has no role in the club: he gets
the club owner's status on every row but those of :data:`CUP_DIRECTOR`, checked in
tests/tournaments/test_cups_api.py). The world's ``director`` directs another tournament, of no
club, that the cup director proposed to the cup (the *tournament director*, who accepts or
declines it); the world's ``player`` is a *cup player*, by an imported result with their
account; the ``outsider`` is a stranger. The cup runs (or is a draft, or private, where the
rows say so) and its standings are computed.

Placeholders: ``{cup}``, ``{event}`` (an imported event), ``{proposal}`` (the proposed
tournament's event), ``{cup_player}`` (the player's), ``{guest}`` and ``{guest2}`` (guests
of the two imports), ``{t3}`` (a tournament not in the cup), ``{proposed}`` (the proposed
tournament), ``{cupdir}`` (the cup director's user id).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from clubs.models import Club, Membership
from tests.factories import UserFactory
from tests.tournaments.world import RULES, Row, TournamentWorld, statuses, with_status
from tournaments import services as tournament_services
from tournaments.models import CupEvent, CupPlayer
from tournaments.services import cups

POLICY = {"points": {"table": [10, 8, 6]}, "side_rankings": ["region"]}


def _cup(w: TournamentWorld, *, public: bool = True, running: bool = True) -> None:
    admin, director, player = w.users["club_admin"], w.users["director"], w.users["player"]
    cupdir = UserFactory.create(username="cupdir")
    # the cup's own director plays with the club's admin elsewhere (a director names only
    # people they play with: tournaments.cup_permissions.may_name)
    elsewhere = Club.objects.create(name="Stammtisch", slug="stammtisch-cupdir")
    for person in (admin, cupdir, player):
        Membership.objects.create(club=elsewhere, user=person)
    cup = cups.cup_create(
        user=admin,
        club=w.club,
        name="Wiener Cup",
        rule_sets=[str(RULES["variant"])],
        is_public=public,
        policy=POLICY,
        final=None,
    )
    cups.cup_director_add(user=admin, cup=cup, director_id=cupdir.pk)
    w.extra.update(cup=cup.pk, cupdir=cupdir.pk)
    # a tournament of no club, directed by the world's director alone
    other = tournament_services.tournament_create(user=director, name="Grazer Open", rules=RULES)
    spare = tournament_services.tournament_create(user=director, name="Linzer Open", rules=RULES)
    for t in (other, spare):  # listed, so the cup's directors may propose them
        tournament_services.tournament_open_registration(user=director, tournament=t)
    w.extra.update(t3=spare.pk, proposed=other.pk)
    if not running:
        return
    cups.cup_open(user=admin, cup=cup)
    proposal = cups.event_add_tournament(user=cupdir, cup=cup, tournament_id=other.pk)
    assert proposal.status == CupEvent.Status.PROPOSED
    event = cups.event_import(
        user=cupdir,
        cup=cup,
        name="Kärntner Turnier",
        held_on=dt.date(2027, 3, 6),
        format="json",
        data={
            "results": [
                {"placing": 1, "name": "player", "user": player.pk, "rounds": 2},
                {"placing": 2, "name": "Gast", "rounds": 2, "attributes": {"region": "Tirol"}},
            ]
        },
    )
    cups.event_import(
        user=cupdir,
        cup=cup,
        name="Tiroler Turnier",
        held_on=dt.date(2027, 4, 3),
        format="csv",
        # second of two, the winner not imported: the player is first of the cup alone, so
        # finishing it names a winner
        data="placing,name\n2,Gast Zwei\n",
        field_size=2,
    )
    cups.cup_recompute(cup_id=cup.pk)
    w.extra.update(
        event=event.pk,
        proposal=proposal.pk,
        cup_player=CupPlayer.objects.get(cup=cup, user=player).pk,
        guest=CupPlayer.objects.get(cup=cup, name="Gast").pk,
        guest2=CupPlayer.objects.get(cup=cup, name="Gast Zwei").pk,
    )


def running_cup(w: TournamentWorld) -> None:
    _cup(w)


def private_cup(w: TournamentWorld) -> None:
    _cup(w, public=False)


def draft_cup(w: TournamentWorld) -> None:
    _cup(w, running=False)


C = "/api/v1/cups/{cup}/"
E = C + "events/{event}/"
PROPOSAL = C + "events/{proposal}/"
PLAYER = C + "players/{cup_player}/"

READ = statuses()
SIGNED_IN = statuses(anonymous=401)
CUP_DIRECTORS = statuses(anonymous=401, outsider=403, player=403, director=403)
TOURNAMENT_DIRECTORS = statuses(anonymous=401, outsider=404, player=404, club_admin=403)
"""A proposal is the business of the cup's directors, who see it, and the tournament's, who
decide it: nobody else sees it (404)."""


def row(method: str, path: str, expect: dict[str, int], **kw: Any) -> Row:
    kw.setdefault("setup", running_cup)
    return Row(method, path, expect, **kw)


def body(**values: Any) -> Any:
    """A request body naming the world's ids (``{"into": "guest2"}`` → the id of
    ``extra["guest2"]``), the same for every role."""

    def make(w: TournamentWorld, role: str) -> Any:
        return {
            k: w.extra[v[1:]] if isinstance(v, str) and v[:1] == "@" else v
            for k, v in values.items()
        }

    return make


IMPORT = {
    "name": "Osttiroler Turnier",
    "held_on": "2027-05-01",
    "format": "csv",
    "data": "placing,name,score,rounds\n1,Gast,12,3\n2,Gast Drei,7/2,3\n",
}
RESULTS = {"format": "json", "data": {"results": [{"placing": 1, "name": "Gast"}]}}


def private(r: Row, **by_role: int) -> Row:
    """The row on a private cup: it does not exist for the public and strangers (404; a
    write asks the anonymous to sign in first), nor for the tournament director, who runs
    no part of it; its player still sees it."""
    expect = dict(r.expect)
    expect["outsider"] = 404
    expect["director"] = 404
    if expect["anonymous"] != 401:
        expect["anonymous"] = 404
    expect.update(by_role)
    return replace(r, expect=expect, setup=private_cup, label="private cup")


READS = [
    row("get", C, READ),
    row("get", C + "events/", READ),
    row("get", E, READ),
    row("get", E + "results/", READ),
    row("get", C + "players/", READ),
    row("get", PLAYER, READ),
    row("get", PLAYER + "history/", READ),
    row("get", C + "standings/", READ),
    row("get", C + "standings/print/", READ),
    row("get", C + "final/", READ),
    row("get", C + "export/standings.csv", READ),
    row("get", C + "export/standings.json", READ),
]

ROWS = [
    row("get", "/api/v1/cups/", READ),
    row(
        "post",
        "/api/v1/cups/",
        with_status(SIGNED_IN, 201),
        body=body(name="Unser Cup", rule_sets=["wien"], policy=POLICY),
        label="of no club",
    ),
    row(
        "post",
        "/api/v1/cups/",
        with_status(CUP_DIRECTORS, 201),
        body=lambda w, role: {
            "club": w.club.pk,
            "name": "Clubcup",
            "rule_sets": ["wien"],
            "policy": POLICY,
        },
        label="of the club",
    ),
    *READS,
    *(private(r) for r in READS),
    row("get", C + "standings/?ranking=region:Tirol", READ, label="side ranking"),
    row("get", C + "standings/?ranking=nowhere", statuses(rest=400), label="no such ranking"),
    row("get", C + "export/standings.xml", statuses(rest=404), label="no such format"),
    row("patch", C, with_status(CUP_DIRECTORS, 200), body=body(description="Saison 2027")),
    row("delete", C, with_status(CUP_DIRECTORS, 409), label="running"),
    row(
        "delete",
        C,
        statuses(anonymous=401, outsider=404, player=404, director=404, club_admin=204),
        setup=draft_cup,
        label="draft",
    ),
    row(
        "post",
        C + "open/",
        statuses(anonymous=401, outsider=404, player=404, director=404),
        setup=draft_cup,
        label="draft",
    ),
    row("post", C + "open/", with_status(CUP_DIRECTORS, 409), label="running"),
    row("post", C + "finish/", with_status(CUP_DIRECTORS, 200)),
    row("post", C + "reopen/", with_status(CUP_DIRECTORS, 409), body=body(reason="Correction")),
    # the player plays with the club's admin and the cup director at the Stammtisch (and in
    # the cup): a director may make them a director; the outsider, a stranger to both, is
    # refused as an id nobody uses would be (tournaments.cup_permissions.may_name)
    row(
        "post",
        C + "directors/",
        CUP_DIRECTORS,
        body=lambda w, role: {"user": w.users["player"].pk},
    ),
    row(
        "post",
        C + "directors/",
        with_status(CUP_DIRECTORS, 400),
        body=lambda w, role: {"user": w.users["outsider"].pk},
        label="a stranger",
    ),
    row("delete", C + "directors/{cupdir}/", with_status(CUP_DIRECTORS, 204)),
    row("get", C + "log/", CUP_DIRECTORS),
    private(row("get", C + "log/", CUP_DIRECTORS)),
    row("post", C + "events/", with_status(CUP_DIRECTORS, 201), body=body(tournament="@t3")),
    row("post", C + "imports/", with_status(CUP_DIRECTORS, 201), body=body(**IMPORT)),
    row("delete", E, with_status(CUP_DIRECTORS, 204)),
    row("put", E + "results/", CUP_DIRECTORS, body=body(**RESULTS)),
    row("get", PROPOSAL, statuses(anonymous=404, outsider=404, player=404)),
    row("post", PROPOSAL + "accept/", TOURNAMENT_DIRECTORS),
    row("post", PROPOSAL + "decline/", TOURNAMENT_DIRECTORS),
    private(row("post", PROPOSAL + "accept/", TOURNAMENT_DIRECTORS), director=200),
    row("patch", PLAYER, CUP_DIRECTORS, body=body(attributes={"region": "Wien"})),
    row("post", C + "players/{guest2}/merge/", CUP_DIRECTORS, body=body(into="@cup_player")),
    row("get", "/api/v1/me/cups/", SIGNED_IN),
    # a tournament's cups: anyone who sees the tournament (what they read differs: its
    # directors every proposal, the others the accepted events of cups they see; checked in
    # tests/tournaments/test_cups_api.py); a tournament they may not see is missing
    row("get", "/api/v1/tournaments/{proposed}/cups/", READ),
    row(
        "get", "/api/v1/tournaments/{proposed}/cups/", READ, setup=private_cup, label="private cup"
    ),
    row(
        "get",
        "/api/v1/tournaments/{tournament}/cups/",
        statuses(anonymous=404, outsider=404),
        public=False,
    ),
]

CUP_DIRECTOR = {
    # a director of the cup who has no role in its club does not create the club's cups
    "post /api/v1/cups/ [registration of the club]": 403,
    # nor sees the club's private tournament
    "get /api/v1/tournaments/{tournament}/cups/ [registration private]": 404,
}
"""Where the cup director's status differs from the club owner's (``club_admin``): row id →
status."""
