"""Schemathesis against the whole OpenAPI schema, in-process, on the test database.

Schemathesis (a dev dependency) reads the schema the API serves at ``/api/v1/schema/`` and,
for every operation, sends the documented examples, the boundary and unexpected values of
every parameter and body field (its coverage phase: also other HTTP methods and media
types), then random valid and invalid requests (fuzzing, positive and negative). Every
answer is checked against the schema (``CHECKS``):

- ``not_a_server_error``: never a 5xx;
- ``status_code_conformance``: the status is documented for the operation;
- ``content_type_conformance``: so is the answer's media type;
- ``response_schema_conformance``: the body matches the documented shape;
- ``response_headers_conformance``, ``missing_required_header``, ``unsupported_method``
  (405 for a method the path does not have), ``allow_header_conformance`` and
  ``ignored_auth`` (an operation documented as needing a sign-in refuses a missing or
  invalid token; public reads must be documented as needing no sign-in: the root ``security``
  allows none and they list none of their own).

Two checks are off, because they ask for something this API rightly does otherwise:

- ``positive_data_acceptance`` expects every schema-valid body to be accepted. Ours carry
  rules no JSON Schema states: a password the validators accept (not too common, not like
  the username), rules the engine checks (G a positive multiple of 10, the cap a multiple
  of G), a club or series id that exists, a tournament capacity for at least one table.
  The server answers those 400 with a sentence naming the field, as it should.
- ``negative_data_rejection`` expects a 4xx for every value of the wrong JSON type. DRF
  reads compatible scalars on purpose (``0`` for a name is the string ``"0"``, ``"true"``
  or ``1`` a boolean, ``?page_size=x`` falls back to the default page, an unknown
  ``?is_public=`` value filters nothing), so such requests are answered like their
  well-typed twins, never with a 5xx or an answer outside the schema, which the checks
  above still verify for every one of them.

It calls the Django WSGI application directly (no server) on the test database, where a
small world is built first (:func:`build_world`): the caller sits at a recorded table with a
hand on its score sheet and at a hosted table with a hand being played, is a member of a
club with an evening ahead (answered yes) and a season, holds a calendar feed, and is
entered in a tournament of that club whose first round is being played, seated at one of
its tables. Path parameters take those objects' ids (``ids_config``) four times in five,
random values otherwise, so requests reach real objects and unknown ones. The same run is
repeated anonymously.

Reproducible and bounded: seed ``SEED`` (Schemathesis derives each operation's seed from it
and the operation's name, and generation is deterministic, so every run sends the same
requests) and ``MAX_EXAMPLES`` random examples per operation in the fuzzing phase, on top of
the examples and the coverage phase's cases: 15 on CI (the ``ci`` Hypothesis profile), which
keeps the two runs near two minutes on two cores, well inside CI's budget, while every
operation still gets random bodies beyond the coverage phase's one-field-at-a-time cases; 4
in local runs (``dev``, ``make test``), where the coverage phase's cases are most of the
requests. (Under ``dev`` Schemathesis used to take the profile's 25 instead of the 15 named
here: the test's own ``@settings`` now name it.)

The operations are tested in parts (``PARTS``, by path), each a test of its own on a world of
its own, so a parallel run (``make test``) spreads them over its workers. A long poll answers
as soon as it finds no event, as if its wait had run out (what it answers is the same;
tests/games/test_events.py tests the waiting).

The schema has no OpenAPI links (drf-spectacular writes none), so there is no link-based
stateful run; requests still change the world as they go (a hand recorded, a feed revoked),
and later operations see those changes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import settings as hypothesis_settings
from rest_framework_simplejwt.tokens import RefreshToken
from schemathesis.config import SchemathesisConfig

from clubs.models import Attendance, CalendarFeed, Evening, Invitation, Membership, Season, User
from clubs.services import evenings, people, seasons
from games import notify
from games import services as games
from games.models import Table
from tests.draws import draws
from tests.factories import UserFactory
from tests.tournaments.world import TournamentWorld, build_tournament_world
from tournaments.models import RoundSeat

pytestmark = pytest.mark.django_db

SEED = 1
#: Random examples per operation in the fuzzing phase: 15 on CI (the ``ci`` Hypothesis
#: profile), 4 in local runs (``dev``; tests/draws.py).
MAX_EXAMPLES = draws(15, least=4)
#: How often a path parameter takes a real id from the world rather than a random value.
REAL_ID_PROBABILITY = 0.8
RULES = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
MADE = {
    "game": {"type": "suit", "level": "D", "talon": True},
    "declarer": "player",
    "defence": {"bert": "play", "carl": "play"},
    "tricks": {"player": 6, "bert": 2, "carl": 2},
}
#: The parts the operations are tested in: those under each path (a regular expression), and
#: ``others``, the rest.
PARTS = {
    "evenings": r"^/api/v1/clubs/\{club_id\}/evenings",
    "clubs": r"^/api/v1/clubs/(?!\{club_id\}/evenings)",
    "tables": r"^/api/v1/tables/",
    "tournaments": r"^/api/v1/tournaments/",
}
#: Limits raised out of the way: one test sends thousands of requests from one address.
RATE_SETTINGS = ("LOGIN_RATE_PER_IP", "REGISTER_RATE_PER_IP", "USER_WRITE_RATE", "ANON_RATE_PER_IP")

CONFIG = f"""
seed = {SEED}

[generation]
mode = "all"
max-examples = {MAX_EXAMPLES}
deterministic = true

[checks]
enabled = true
# See the module docstring for why these two are off.
positive_data_acceptance.enabled = false
negative_data_rejection.enabled = false

# Erasing the account (DELETE /api/v1/me/, fresh token, no body needed) would leave the rest
# of the run signed in as an erased person; tests/clubs/test_privacy_api.py tests it.
[[operations]]
include-path = "/api/v1/me/"
include-method = "DELETE"
enabled = false
"""


@dataclass
class FuzzWorld:
    """The seated player and what they sit at, belong to and hold."""

    player: User
    tournament: TournamentWorld
    recorded: Table
    hosted: Table
    evening: Evening
    attendance: Attendance
    season: Season
    invitation: Invitation
    feed: CalendarFeed


def build_world() -> FuzzWorld:
    """The tournament world in round 1 (its ``player`` seated), plus a recorded and a hosted
    table of the player and two others, the player's membership of the tournament's club
    with an evening ahead and a season, an invitation to the club and a calendar feed."""
    world = build_tournament_world(state="playing")
    player, admin = world.users["player"], world.users["club_admin"]
    bert = UserFactory.create(username="bert")
    carl = UserFactory.create(username="carl")
    seats = [
        games.SeatSpec(key=name, kind="user", user=user)
        for name, user in (("player", player), ("bert", bert), ("carl", carl))
    ]
    recorded = games.table_create(
        user=player, name="Dienstag", mode=Table.Mode.RECORDED, rules=RULES, seats=seats,
        first_dealer="carl",
    )  # fmt: skip
    games.table_record_hand(table_id=recorded.pk, user=player, entry=MADE)
    hosted = games.table_create(
        user=player, name="Online", mode=Table.Mode.HOSTED, rules=RULES, seats=seats,
        first_dealer="carl",
    )  # fmt: skip
    games.hand_start(table_id=hosted.pk, user=player)
    Membership.objects.create(club=world.club, user=player, role=Membership.Role.MEMBER)
    starts = timezone.now() + dt.timedelta(days=3)
    evening = Evening.objects.create(
        club=world.club, title="Clubabend", starts_at=starts, ends_at=starts + dt.timedelta(hours=4)
    )
    attendance = evenings.attendance_answer(user=player, evening_id=evening.pk, answer="yes")
    today = timezone.localdate()
    season = seasons.season_create(
        user=admin, club=world.club, name="Saison", is_active=True,
        starts_on=today - dt.timedelta(days=30), ends_on=today + dt.timedelta(days=60),
    )  # fmt: skip
    invitation = people.invitation_create(club_id=world.club.pk, user=admin)
    feed = evenings.calendar_feed_create(user=player)
    return FuzzWorld(
        player=player, tournament=world, recorded=recorded, hosted=hosted, evening=evening,
        attendance=attendance, season=season, invitation=invitation, feed=feed,
    )  # fmt: skip


def ids_config(w: FuzzWorld) -> str:
    """Dictionaries of the world's ids and the path parameters that draw from them."""
    t = w.tournament
    seat = RoundSeat.objects.select_related("round_table").get(entry=t.entry, round__number=1)
    values: dict[str, list[Any]] = {
        "club_id": [t.club.pk],
        "evening_id": [w.evening.pk],
        "attendance_id": [w.attendance.pk],
        "season_id": [w.season.pk],
        "series_id": [w.recorded.series_id, w.hosted.series_id],
        "invitation_id": [w.invitation.pk],
        "code": [w.invitation.code],
        "token": [w.feed.token],
        "feed_id": [w.feed.pk],
        "user_id": [w.player.pk, t.users["director"].pk],
        "table_id": [w.recorded.pk, w.hosted.pk, seat.round_table.table_id],
        "number": [1],
        "tournament_id": [t.tournament.pk],
        "entry_id": [t.entry.pk],
        "round_number": [1],
        "table_number": [seat.round_table.number],
        "webhook_id": [t.extra["webhook"]],
    }
    lines = []
    for name, ids in values.items():
        entries = ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in ids)
        lines.append(f"[dictionaries.{name}]\nvalues = [{entries}]\n")
    lines.append("[parameters]")
    for name in values:
        binding = f'{{ dictionary = "{name}", probability = {REAL_ID_PROBABILITY} }}'
        lines.append(f'"path.{name}" = {binding}')
    return "\n".join(lines) + "\n"


def part_config(part: str) -> str:
    """Schemathesis configuration that turns off every operation outside ``part`` (a filter
    on the fixture's schema would not do: the test's own filters replace it)."""
    if part in PARTS:
        return f"\n[[operations]]\nexclude-path-regex = '{PARTS[part]}'\nenabled = false\n"
    others = "|".join(PARTS.values())
    return f"\n[[operations]]\ninclude-path-regex = '{others}'\nenabled = false\n"


def load_schema(settings: Any, world: FuzzWorld, part: str, *, signed_in: bool) -> Any:
    """The operations of ``part`` of the served schema bound to the WSGI application, signed
    in as the world's player (a JWT for the ``jwtAuth`` scheme) or anonymous, with the rate
    limits raised."""
    for name in RATE_SETTINGS:
        if hasattr(settings, name):
            setattr(settings, name, "100000/min")
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    config = CONFIG + ids_config(world) + part_config(part)
    if signed_in:
        token = RefreshToken.for_user(world.player).access_token
        config += f'\n[auth.openapi.jwtAuth]\nbearer = "{token}"\n'
    return schemathesis.openapi.from_wsgi(
        "/api/v1/schema/",
        get_wsgi_application(),
        config=SchemathesisConfig.from_str(config),
        headers={"Accept": "application/vnd.oai.openapi+json"},
    )


@pytest.fixture(params=[*PARTS, "others"])
def part(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def _no_wait(hand_id: int, changed: Callable[[], Awaitable[bool]], timeout: float) -> bool:
    """``notify.wait_for_change`` whose wait runs out at once."""
    return await changed()


@pytest.fixture
def world(db: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[FuzzWorld]:
    """The world, with Django's per-request connection closing off while the WSGI
    application is called directly (as Django's test client does): inside the test's
    transaction it would close PostgreSQL's connection and roll the world back. Long polls
    answer without waiting."""
    monkeypatch.setattr(notify, "wait_for_change", _no_wait)
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield build_world()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def player_schema(settings: Any, world: FuzzWorld, part: str) -> Any:
    return load_schema(settings, world, part, signed_in=True)


@pytest.fixture
def anonymous_schema(settings: Any, world: FuzzWorld, part: str) -> Any:
    return load_schema(settings, world, part, signed_in=False)


# The count named here, not in CONFIG: Schemathesis lets a loaded Hypothesis profile's
# ``max_examples`` (``dev``'s 25) override its configuration's, but not a test's own settings.
@schemathesis.pytest.from_fixture("player_schema").parametrize()
@hypothesis_settings(max_examples=MAX_EXAMPLES)
def test_every_operation_conforms_for_a_seated_player(case: Any) -> None:
    case.call_and_validate()


@schemathesis.pytest.from_fixture("anonymous_schema").parametrize()
@hypothesis_settings(max_examples=MAX_EXAMPLES)
def test_every_operation_conforms_anonymously(case: Any) -> None:
    case.call_and_validate()
