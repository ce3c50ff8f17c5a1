"""What a caller may not see answers as what does not exist (``docs/security.md``, API1), also
where an id comes in a query filter or a request body: for every such id of the OpenAPI schema
(generated in the test), the id of an object the caller may not see and an id nobody uses get
the same status and the same body (with the id itself left out of the comparison).

``test_every_id_of_the_schema_has_a_case`` fails when an operation gains an id parameter or a
body id without a case here. Ids in paths are the permission matrices' (``tests/*/matrix_*``:
a hidden object answers 404 there, as a missing one)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from clubs.models import Club, Evening, Guest, Invitation, Membership, User
from games.models import TableSeries
from tests.factories import UserFactory
from tests.openapi import generated_schema
from tournaments import services as tournaments
from tournaments.models import Cup, CupPlayer, Entry, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100}
ID_NAMES = {"club", "series", "user", "guest", "player", "byes", "entry", "tournament", "table"}
"""Names of query parameters and body fields that carry an id (besides ``…_id``)."""


@dataclass
class World:
    """``mallory`` (the caller) owns her club, with an evening, a guest and a member; she
    directs her own tournament, in check-in with six entrants. Hidden from her: the private
    club ``geheim`` (its series, guest, invitation and private tournament with its entries)
    and ``stefan``, who shares no club with her."""

    mallory: User
    club: Club
    evening: Evening
    guest: Guest
    tournament: Tournament
    hidden_club: Club
    hidden_series: TableSeries
    hidden_guest: Guest
    hidden_entry: Entry
    stranger: User
    cup: Cup
    cup_player: CupPlayer

    def client(self, anonymous: bool = False) -> APIClient:
        client = APIClient()
        if not anonymous:
            token = RefreshToken.for_user(self.mallory).access_token
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client


@pytest.fixture
def world() -> World:
    mallory = UserFactory.create(username="mallory")
    club = Club.objects.create(name="Mallorys Runde", slug="mallorys-runde", default_rules=RULES)
    Membership.objects.create(club=club, user=mallory, role=Membership.Role.OWNER)
    member = UserFactory.create(username="mitglied")
    Membership.objects.create(club=club, user=member)
    starts = timezone.now() + dt.timedelta(days=1)
    evening = Evening.objects.create(
        club=club, title="Clubabend", starts_at=starts, ends_at=starts + dt.timedelta(hours=4)
    )
    guest = Guest.objects.create(club=club, name="Onkel Fritz")
    t = tournaments.tournament_create(user=mallory, name="Mallorys Open", rules=RULES)
    tournaments.tournament_open_registration(user=mallory, tournament=t)
    for i in range(6):
        tournaments.entry_add(user=mallory, tournament=t, name=f"Spieler {i}")
    tournaments.tournament_open_check_in(user=mallory, tournament=t)

    gustav = UserFactory.create(username="gustav", email="stefan@example.org")
    hidden_club = Club.objects.create(name="Geheimbund", slug="geheimbund", default_rules=RULES)
    Membership.objects.create(club=hidden_club, user=gustav, role=Membership.Role.OWNER)
    stranger = UserFactory.create(username="stefan")
    Membership.objects.create(club=hidden_club, user=stranger)
    Invitation.objects.create(
        club=hidden_club, code="geheim", expires_at=starts + dt.timedelta(days=9)
    )
    hidden_series = TableSeries.objects.create(name="Geheime Serie", club=hidden_club)
    hidden_guest = Guest.objects.create(club=hidden_club, name="Geheimer Gast")
    hidden_t = tournaments.tournament_create(
        user=gustav, name="Geheimturnier", club_id=hidden_club.pk, rules=RULES, is_public=False
    )
    tournaments.tournament_open_registration(user=gustav, tournament=hidden_t)
    hidden_entry = tournaments.entry_add(user=gustav, tournament=hidden_t, player_id=stranger.pk)
    assert hidden_entry is not None
    cup = tournaments.cup_create(
        user=mallory,
        club=None,
        name="Mallorys Cup",
        rule_sets=[RULES["variant"]],
        policy={"points": {"table": [3, 2, 1]}},
        final=None,
    )
    tournaments.event_import(
        user=mallory,
        cup=cup,
        name="Auswärts",
        held_on=dt.date(2026, 5, 1),
        data={"results": [{"placing": 1, "name": "Gast"}]},
        format="json",
    )
    return World(
        mallory=mallory,
        club=club,
        evening=evening,
        guest=guest,
        tournament=t,
        hidden_club=hidden_club,
        hidden_series=hidden_series,
        hidden_guest=hidden_guest,
        hidden_entry=hidden_entry,
        stranger=stranger,
        cup=cup,
        cup_player=CupPlayer.objects.get(cup=cup),
    )


def unused(model: Any) -> int:
    return (model.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 10_000


@dataclass(frozen=True)
class Case:
    """One id of the schema: ``method path``, where (``query`` or ``body``) and its name
    (dotted through a body: ``seats.[].user``); ``call`` sends it with an id."""

    method: str
    path: str
    where: str
    name: str
    hidden: Callable[[World], int]
    unused: Callable[[], int]
    call: Callable[[World, APIClient, Any], Any]
    anonymous_too: bool = False
    as_text: Callable[[int], str] = str

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.method, self.path, self.where, self.name)


def get(path: Callable[[World], str], param: str) -> Callable[[World, APIClient, Any], Any]:
    return lambda w, c, value: c.get(path(w), {param: value})


def post(
    path: Callable[[World], str], body: Callable[[World, Any], dict[str, Any]]
) -> Callable[[World, APIClient, Any], Any]:
    return lambda w, c, value: c.post(path(w), body(w, value), format="json")


def table(w: World, **more: Any) -> dict[str, Any]:
    return {
        "name": "Dienstagsrunde",
        "mode": "recorded",
        "rules": RULES,
        "seats": [
            {"key": "mallory", "kind": "user", "user": w.mallory.pk},
            {"key": "bert", "kind": "guest", "guest_name": "Bert"},
            {"key": "carl", "kind": "guest", "guest_name": "Carl"},
        ],
        **more,
    }


def seated(w: World, value: Any) -> dict[str, Any]:
    body = table(w)
    body["seats"][1] = {"key": "bert", "kind": "user", "user": value}
    return body


V1 = "/api/v1/"
CLUB = V1 + "clubs/{club_id}/"
EVENING = CLUB + "evenings/{evening_id}/"
T = V1 + "tournaments/{tournament_id}/"
CUP = V1 + "cups/{cup_id}/"


def at_cup(w: World) -> str:
    return f"{V1}cups/{w.cup.pk}/"


def cup_body(w: World, club: Any) -> dict[str, Any]:
    return {
        "name": "Cup",
        "rule_sets": [RULES["variant"]],
        "policy": {"points": {"table": [3, 2, 1]}},
        "club": club,
    }


def at_club(w: World) -> str:
    return f"{V1}clubs/{w.club.pk}/"


CASES = [
    # cups
    Case(
        "GET",
        V1 + "cups/",
        "query",
        "club",
        lambda w: w.hidden_club.pk,
        lambda: unused(Club),
        get(lambda w: V1 + "cups/", "club"),
        anonymous_too=True,
    ),
    Case(
        "POST",
        V1 + "cups/",
        "body",
        "club",
        lambda w: w.hidden_club.pk,
        lambda: unused(Club),
        post(lambda w: V1 + "cups/", cup_body),
    ),
    Case(
        "POST",
        CUP + "events/",
        "body",
        "tournament",
        lambda w: w.hidden_entry.tournament_id,
        lambda: unused(Tournament),
        post(lambda w: at_cup(w) + "events/", lambda w, v: {"tournament": v}),
    ),
    Case(
        "POST",
        CUP + "directors/",
        "body",
        "user",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        post(lambda w: at_cup(w) + "directors/", lambda w, v: {"user": v}),
    ),
    Case(
        "PATCH",
        CUP + "players/{player_id}/",
        "body",
        "user",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        lambda w, c, v: c.patch(
            f"{at_cup(w)}players/{w.cup_player.pk}/", {"user": v}, format="json"
        ),
    ),
    # query filters
    Case(
        "GET",
        V1 + "tables/",
        "query",
        "club",
        lambda w: w.hidden_club.pk,
        lambda: unused(Club),
        get(lambda w: V1 + "tables/", "club"),
        anonymous_too=True,
    ),
    Case(
        "GET",
        V1 + "tables/",
        "query",
        "series",
        lambda w: w.hidden_series.pk,
        lambda: unused(TableSeries),
        get(lambda w: V1 + "tables/", "series"),
        anonymous_too=True,
    ),
    Case(
        "GET",
        V1 + "tournaments/",
        "query",
        "club",
        lambda w: w.hidden_club.pk,
        lambda: unused(Club),
        get(lambda w: V1 + "tournaments/", "club"),
        anonymous_too=True,
    ),
    Case(
        "GET",
        V1 + "me/invitations/",
        "query",
        "club",
        lambda w: w.hidden_club.pk,
        lambda: unused(Club),
        get(lambda w: V1 + "me/invitations/", "club"),
    ),
    Case(
        "GET",
        CLUB + "ratings/history/",
        "query",
        "player",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        get(lambda w: at_club(w) + "ratings/history/", "player"),
        anonymous_too=True,
        as_text=lambda pk: f"u:{pk}",
    ),
    # body ids
    Case(
        "POST",
        V1 + "series/",
        "body",
        "club",
        lambda w: w.hidden_club.pk,
        lambda: unused(Club),
        post(lambda w: V1 + "series/", lambda w, v: {"name": "Serie", "club": v}),
    ),
    Case(
        "POST",
        V1 + "tables/",
        "body",
        "club",
        lambda w: w.hidden_club.pk,
        lambda: unused(Club),
        post(lambda w: V1 + "tables/", lambda w, v: table(w, club=v)),
    ),
    Case(
        "POST",
        V1 + "tables/",
        "body",
        "series",
        lambda w: w.hidden_series.pk,
        lambda: unused(TableSeries),
        post(lambda w: V1 + "tables/", lambda w, v: table(w, series=v)),
    ),
    Case(
        "POST",
        V1 + "tables/",
        "body",
        "seats.[].user",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        post(lambda w: V1 + "tables/", seated),
    ),
    Case(
        "POST",
        V1 + "tournaments/",
        "body",
        "club",
        lambda w: w.hidden_club.pk,
        lambda: unused(Club),
        post(lambda w: V1 + "tournaments/", lambda w, v: {"name": "Herbstturnier", "club": v}),
    ),
    Case(
        "POST",
        T + "directors/",
        "body",
        "user",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        post(lambda w: f"{V1}tournaments/{w.tournament.pk}/directors/", lambda w, v: {"user": v}),
    ),
    Case(
        "POST",
        T + "entries/",
        "body",
        "user",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        post(lambda w: f"{V1}tournaments/{w.tournament.pk}/entries/", lambda w, v: {"user": v}),
    ),
    Case(
        "POST",
        T + "rounds/",
        "body",
        "byes.[]",
        lambda w: w.hidden_entry.pk,
        lambda: unused(Entry),
        post(lambda w: f"{V1}tournaments/{w.tournament.pk}/rounds/", lambda w, v: {"byes": [v]}),
    ),
    Case(
        "POST",
        EVENING + "check-ins/",
        "body",
        "user_id",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        post(
            lambda w: f"{at_club(w)}evenings/{w.evening.pk}/check-ins/",
            lambda w, v: {"user_id": v},
        ),
    ),
    Case(
        "POST",
        EVENING + "check-ins/",
        "body",
        "guest_id",
        lambda w: w.hidden_guest.pk,
        lambda: unused(Guest),
        post(
            lambda w: f"{at_club(w)}evenings/{w.evening.pk}/check-ins/",
            lambda w, v: {"guest_id": v},
        ),
    ),
    Case(
        "POST",
        CLUB + "guests/{guest_id}/merge/",
        "body",
        "user_id",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        post(lambda w: f"{at_club(w)}guests/{w.guest.pk}/merge/", lambda w, v: {"user_id": v}),
    ),
    Case(
        "POST",
        CLUB + "transfer-ownership/",
        "body",
        "user_id",
        lambda w: w.stranger.pk,
        lambda: unused(User),
        post(lambda w: at_club(w) + "transfer-ownership/", lambda w, v: {"user_id": v}),
    ),
]


def without(node: Any, value: str) -> Any:
    """``node`` with the id sent (a number, or inside text) written ``<id>``."""
    if isinstance(node, dict):
        return {k: without(v, value) for k, v in node.items()}
    if isinstance(node, list):
        return [without(v, value) for v in node]
    if isinstance(node, int) and not isinstance(node, bool) and str(node) == value:
        return "<id>"
    if isinstance(node, str):
        return re.sub(rf"(?<![0-9]){re.escape(value)}(?![0-9])", "<id>", node)
    return node


def comparable(answer: Any, value: str) -> tuple[int, Any]:
    """The status and what a caller reads of the body, with the id sent written ``<id>``; of a
    created object only its fields' names (its own id and times differ anyway)."""
    body = answer.json() if answer.content else None
    if isinstance(body, dict) and "id" in body and answer.status_code in (200, 201):
        return answer.status_code, sorted(body)
    return answer.status_code, without(body, value)


def test_hidden_and_unused_ids_answer_alike(world: World) -> None:
    differ = []
    for case in CASES:
        for anonymous in (False, True) if case.anonymous_too else (False,):
            answers = {}
            for label, pk in (("hidden", case.hidden(world)), ("unused", case.unused())):
                # a query carries text; a body the id as JSON has it (an integer)
                value = case.as_text(pk) if case.where == "query" else pk
                answer = case.call(world, world.client(anonymous), value)
                answers[label] = comparable(answer, str(value))
            if answers["hidden"] != answers["unused"]:
                who = "anonymous" if anonymous else "signed in"
                differ.append(f"{' '.join(case.key)} ({who}): {answers}")
    assert not differ, "hidden and unused ids answer differently:\n" + "\n".join(differ)


def schema_ids() -> set[tuple[str, str, str, str]]:
    """Every query parameter and request-body field of the schema that carries an id."""
    schema = generated_schema()
    components = schema["components"]["schemas"]
    found: set[tuple[str, str, str, str]] = set()

    def is_id(name: str) -> bool:
        return name.endswith("_id") or name in ID_NAMES

    def walk(node: dict[str, Any], at: list[str], out: set[str], seen: tuple[str, ...]) -> None:
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                walk(components[name], at, out, (*seen, name))
            return
        for key in ("oneOf", "anyOf", "allOf"):
            for alternative in node.get(key, []):
                walk(alternative, at, out, seen)
        for name, prop in node.get("properties", {}).items():
            walk(prop, [*at, name], out, seen)
        if node.get("type") == "array":
            walk(node.get("items", {}), [*at, "[]"], out, seen)
        if node.get("type") in ("integer", "string") and at:
            names = [part for part in at if part != "[]"]
            if is_id(names[-1]) and (node.get("type") == "integer" or not node.get("enum")):
                out.add(".".join(at))

    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query" and is_id(parameter["name"]):
                    found.add((method.upper(), path, "query", parameter["name"]))
            content = operation.get("requestBody", {}).get("content", {})
            body = content.get("application/json", {}).get("schema")
            if body is not None:
                names: set[str] = set()
                walk(body, [], names, ())
                found |= {(method.upper(), path, "body", name) for name in names}
    return found


NOT_IDS = {
    # ``kind: user`` seats are swept through ``seats.[].user``; a seat's key names a seat
    ("POST", V1 + "tables/", "body", "seats.[].key"),
}


def test_every_id_of_the_schema_has_a_case() -> None:
    ids = schema_ids()
    cases = {case.key for case in CASES}
    missing = ids - cases - NOT_IDS
    assert not missing, f"add a case for each id: {sorted(missing)}"
    stale = cases - ids
    assert not stale, f"cases for ids the schema does not have: {sorted(stale)}"


@pytest.mark.parametrize("resource", ["clubs", "tournaments"])
def test_a_hidden_objects_slug_answers_as_a_visible_ones(world: World, resource: str) -> None:
    """Asking for the slug of a club or tournament the caller may not see (a private club, a
    private tournament) answers as for one they may see: the next free slug, naming nobody."""
    if resource == "clubs":
        visible = Club.objects.create(name="Offen", slug="offen", is_public=True).slug
        hidden = world.hidden_club.slug
    else:
        visible = world.tournament.slug
        hidden = Tournament.objects.get(name="Geheimturnier").slug
    answers = {}
    for label, slug in (("visible", visible), ("hidden", hidden)):
        answer = world.client().post(
            f"{V1}{resource}/", {"name": "Neu", "slug": slug}, format="json"
        )
        assert answer.status_code == 201, answer.content
        assert answer.json()["slug"] == f"{slug}-2"
        assert "Geheim" not in answer.content.decode()
        answers[label] = sorted(answer.json())
    assert answers["visible"] == answers["hidden"]


def test_a_seats_username_answers_as_one_nobody_has(world: World) -> None:
    """A seat's ``user`` as a username (API 1.1.0's form, still accepted): the username of
    someone who shares no club with the caller answers as one nobody has."""
    answers = {}
    for label, username in (("hidden", world.stranger.username), ("unused", "niemand-xyz")):
        body = table(world)
        body["seats"][1] = {"key": "bert", "kind": "user", "user": username}
        answer = world.client().post(f"{V1}tables/", body, format="json")
        answers[label] = comparable(answer, username)
    assert answers["hidden"] == answers["unused"], answers
