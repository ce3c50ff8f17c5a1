"""A tournament with one user in every role, for the tournaments permission matrix.

Roles: ``anonymous``, ``outsider`` (signed in, no relation to the tournament), ``player`` (an
entrant), ``director`` (in ``Tournament.directors``) and ``club_admin`` (an admin of the
organising club, who may do everything a director may).

``build_tournament_world(state=..., public=..., kind=...)`` makes the club (with the
club_admin), a tournament it organises (directed by the director, the player entered) and
drives it through the services to ``state``:

- ``draft``, ``registration``;
- ``check_in``: five more entrants, all six checked in (the player among them);
- ``seated``: round 1 seated (two tables of 3); ``playing``: round 1 started;
- ``between_rounds``: round 1 played and closed; ``finished``: then finished.

``kind`` picks the format: ``recorded`` score sheets, offline ``totals``, ``duplicate``
boards, or ``money`` (real stakes). Seating runs the worker's part
(:func:`~tournaments.services.round_seat_run`) in place, so no ``on_commit`` callback or
transactional test is needed.

Matrix rows (:class:`Row`) name a path with ``{tournament}``, ``{entry}`` (the player's
entry), ``{round}``, ``{table}`` (the player's table in round 1) and other placeholders that
a row's ``setup`` puts in ``TournamentWorld.extra`` (``{user}``, ``{delivery}``), and the
status each role must get. Every world's tournament has a webhook, ``{webhook}``, that the
director registered for every event.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from clubs.models import Club, Membership, User
from games import services as games
from games.models import Table
from games.random_entries import random_entry
from tests.factories import UserFactory
from tournaments import services, webhooks
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Tournament, Webhook

ROLES = ("anonymous", "outsider", "player", "director", "club_admin")
OTHERS = ("anna", "bert", "carl", "dora", "emil")
RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100}
HOOK_URL = "https://scores.example.org/hooks/preference"
STATES = (
    "draft",
    "registration",
    "check_in",
    "seated",
    "playing",
    "between_rounds",
    "finished",
)
KINDS: dict[str, dict[str, Any]] = {
    "recorded": {},
    "totals": {"results": Tournament.Results.TOTALS},
    "duplicate": {"scoring": Tournament.Scoring.DUPLICATE},
    "money": {"real_money": True},
}


@dataclass
class TournamentWorld:
    tournament: Tournament
    users: dict[str, User]
    club: Club
    entry: Entry
    others: list[User] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            token = RefreshToken.for_user(self.users[role]).access_token
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client

    def fill(self, path: str) -> str:
        link = self.player_table()
        return path.format(
            tournament=self.tournament.pk,
            entry=self.entry.pk,
            round=1,
            table=link.number if link is not None else 1,
            director=self.users["director"].pk,
            **self.extra,
        )

    def player_table(self) -> RoundTable | None:
        """The player's table in round 1, once seated."""
        seat = (
            RoundSeat.objects.filter(entry=self.entry, round__number=1)
            .select_related("round_table")
            .first()
        )
        return None if seat is None else seat.round_table

    def refresh(self) -> Tournament:
        self.tournament.refresh_from_db()
        return self.tournament


def build_tournament_world(
    *, state: str = "registration", public: bool = True, kind: str = "recorded"
) -> TournamentWorld:
    """The club, its tournament (``kind``) with the director and the player entered, driven to
    ``state``; ``public=False`` makes both private."""
    if state not in STATES:
        raise ValueError(f"unknown state {state!r}; one of {', '.join(STATES)}")
    users = {role: UserFactory.create(username=role) for role in ROLES if role != "anonymous"}
    club = Club.objects.create(
        name="Wiener Runde", slug="wiener-runde", is_public=public, default_rules=RULES
    )
    Membership.objects.create(club=club, user=users["club_admin"], role=Membership.Role.ADMIN)
    t = services.tournament_create(
        user=users["club_admin"],
        club_id=club.pk,
        name="Wiener Open",
        is_public=public,
        rules=RULES,
        rounds_planned=3,
        deals_per_round=3,
        seating=Tournament.Seating.RANDOM,
        tiebreaks=["declarer_wins", "lots"],
        **KINDS[kind],
    )
    # the club_admin runs it through the club, the director through the directors
    t.directors.set([users["director"]])
    entry = Entry.objects.create(
        tournament=t, user=users["player"], name="player", status=Entry.Status.REGISTERED
    )
    # every event goes to a webhook, so the matrix sees that no answer shows its secret
    hook = webhooks.webhook_create(
        user=users["director"], tournament=t, url=HOOK_URL, events=list(Webhook.EVENTS)
    )
    w = TournamentWorld(tournament=t, users=users, club=club, entry=entry)
    w.extra["webhook"] = hook.pk
    for step in STATES[1 : STATES.index(state) + 1]:
        STEPS[step](w)
    w.refresh()
    w.entry.refresh_from_db()
    return w


# ---------------------------------------------------------------------------------------------
# the steps from one state to the next (each as the director, through the services)


def _open_registration(w: TournamentWorld) -> None:
    services.tournament_open_registration(user=w.users["director"], tournament=w.tournament)


def _open_check_in(w: TournamentWorld) -> None:
    director = w.users["director"]
    services.tournament_open_check_in(user=director, tournament=w.tournament)
    for name in OTHERS:
        # members of the organising club, whom a director enters without asking them
        other = UserFactory.create(username=name)
        Membership.objects.create(club=w.club, user=other, role=Membership.Role.MEMBER)
        w.others.append(other)
        services.entry_add(user=director, tournament=w.tournament, player_id=other.pk, name=name)
    services.entry_check_in(user=w.users["player"], entry=w.entry)


def _seat(w: TournamentWorld) -> None:
    director = w.users["director"]
    rnd = services.round_seat(user=director, tournament=w.tournament)
    services.round_seat_run(round_id=rnd.pk, user_id=director.pk)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.SEATED, f"round {rnd.number} not seated: {rnd.error}"


def _start(w: TournamentWorld) -> None:
    rnd = Round.objects.get(tournament=w.tournament, number=1)
    services.round_start(user=w.users["director"], round=rnd)


def tables_complete(w: TournamentWorld) -> None:
    """Every table of round 1 finishes: the director confirms totals of zero (offline
    tables) or records every deal (score sheets)."""
    director = w.users["director"]
    t = w.refresh()
    rng = random.Random(1)
    for link in RoundTable.objects.filter(round__tournament=t, round__number=1):
        if t.results == Tournament.Results.TOTALS:
            seats = link.seats.values_list("seat", flat=True)
            services.totals_enter(
                user=director, round_table=link, amounts={seat: 0 for seat in seats}
            )
            continue
        table = Table.objects.get(pk=link.table_id)
        for n in range(table.hands.count() + 1, t.deals_per_round + 1):
            games.table_record_hand(
                table_id=table.pk, user=director, entry=random_entry(table, rng, n)
            )


def _close(w: TournamentWorld) -> None:
    tables_complete(w)
    rnd = Round.objects.get(tournament=w.tournament, number=1)
    services.round_close(user=w.users["director"], round=rnd)


def _finish(w: TournamentWorld) -> None:
    services.tournament_finish(user=w.users["director"], tournament=w.refresh())


STEPS: dict[str, Callable[[TournamentWorld], None]] = {
    "registration": _open_registration,
    "check_in": _open_check_in,
    "seated": _seat,
    "playing": _start,
    "between_rounds": _close,
    "finished": _finish,
}


# ---------------------------------------------------------------------------------------------
# rows


@dataclass(frozen=True)
class Row:
    """One endpoint: how to call it and the status per role, on a tournament of ``kind`` in
    ``state``, public and listed unless ``public=False`` (or a draft)."""

    method: str
    path: str
    expect: dict[str, int]
    state: str = "registration"
    kind: str = "recorded"
    public: bool = True
    body: Callable[[TournamentWorld, str], Any] | None = None
    setup: Callable[[TournamentWorld], None] | None = None
    label: str = ""

    @property
    def id(self) -> str:
        where = [self.state, *([self.kind] if self.kind != "recorded" else [])]
        if not self.public:
            where.append("private")
        if self.label:
            where.append(self.label)
        return f"{self.method} {self.path} [{' '.join(where)}]"


def statuses(**by_role: int) -> dict[str, int]:
    """Every role's status; ``rest`` is the default for roles not named."""
    rest = by_role.pop("rest", 200)
    unknown = set(by_role) - set(ROLES)
    assert not unknown, f"unknown roles {unknown}"
    return {role: by_role.get(role, rest) for role in ROLES}


def with_status(base: dict[str, int], ok: int) -> dict[str, int]:
    """``base`` with every 200 replaced by ``ok`` (201, 202, 204, 409 ...)."""
    return {role: ok if status == 200 else status for role, status in base.items()}


# Common shapes on a public, listed tournament.
READ = statuses()
SIGNED_IN = statuses(anonymous=401)
DIRECTORS = statuses(anonymous=401, outsider=403, player=403)
PLAYER_OR_DIRECTORS = statuses(anonymous=401, outsider=403)


def hidden(row: Row, **changes: Any) -> Row:
    """The row on a tournament outsiders cannot see (private, or a draft): it does not exist
    for them (404), except that a write still asks the anonymous to sign in first (401)."""
    expect = dict(changes.pop("expect", row.expect))
    expect["outsider"] = 404
    if expect["anonymous"] != 401:
        expect["anonymous"] = 404
    if changes.get("state") != "draft":
        changes.setdefault("public", False)
    return replace(row, expect=expect, **changes)


def world_for(row: Row) -> TournamentWorld:
    """A fresh world in the row's state, its ``setup`` done."""
    world = build_tournament_world(state=row.state, public=row.public, kind=row.kind)
    if row.setup is not None:
        row.setup(world)
    return world


def call_row(world: TournamentWorld, row: Row, role: str) -> Any:
    """Call the row's endpoint in ``world`` as ``role`` and return the response."""
    body = row.body(world, role) if row.body is not None else None
    client = world.client(role)
    call = getattr(client, row.method)
    path = world.fill(row.path)
    return call(path, body, format="json") if body is not None else call(path)


def run_row(row: Row, role: str) -> Any:
    """Build a fresh world, run the row as ``role`` and return the response."""
    return call_row(world_for(row), row, role)
