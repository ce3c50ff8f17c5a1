"""The request examples of the schema snapshot (docs/openapi.yaml) are real requests: sent in
order to the API, each is answered with its operation's success status. The ids the
examples name (users 3, 7 and 42, guest 1, entry 17) are given to the rows the tests make;
the table, entry and correction examples name their rule set in their ``rules`` (every rule
set's are sent), the action examples are checked against the engine's vocabulary, the
refresh example is a placeholder token. A last test checks that no documented request
example is left out."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import jsonschema
import pytest
from django.core.management.color import no_style
from django.db import connection
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken, RefreshToken

import engine
from clubs.models import Club, Guest, Membership, User
from clubs.services.users import email_verification_token
from games import services as games
from tests.factories import UserFactory
from tests.openapi import committed_schema
from tests.tournaments.setup import RULES, make_field, play, seat
from tournaments import services as tournament_services
from tournaments.models import Cup, CupPlayer, Entry, Round, RoundTable, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return committed_schema()


def examples(schema: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The documented request examples of one operation, by name."""
    body = schema["paths"][path][method]["requestBody"]["content"]["application/json"]
    found = {name: example["value"] for name, example in body["examples"].items()}
    assert found, f"{method} {path} documents no example"
    return found


def send(client: APIClient, method: str, path: str, body: Any, status: int) -> Any:
    answer = getattr(client, method)(path, body, format="json")
    assert answer.status_code == status, (method, path, body, answer.content)
    return answer.json()


def signed_in(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {AccessToken.for_user(user)}")
    return client


def test_the_account_and_table_examples_are_accepted(schema: dict[str, Any]) -> None:
    anonymous = APIClient()
    (register,) = examples(schema, "post", "/api/v1/auth/register/").values()
    send(anonymous, "post", "/api/v1/auth/register/", register, 201)
    (sign_in,) = examples(schema, "post", "/api/v1/auth/token/").values()
    assert sign_in["username"] == register["username"]
    send(anonymous, "post", "/api/v1/auth/token/", sign_in, 200)

    anna = User.objects.get(username=register["username"])
    client = signed_in(anna)
    for body in examples(schema, "patch", "/api/v1/me/").values():
        send(client, "patch", "/api/v1/me/", body, 200)
    for body in examples(schema, "post", "/api/v1/series/").values():
        send(client, "post", "/api/v1/series/", body, 201)

    tables = examples(schema, "post", "/api/v1/tables/")
    # A seat names its account by id: the examples seat the caller, user 3.
    (pk,) = {seat["user"] for body in tables.values() for seat in body["seats"] if "user" in seat}
    client = signed_in(User.objects.filter(pk=pk).first() or UserFactory.create(pk=pk))
    ids_past(User)
    made = [send(client, "post", "/api/v1/tables/", body, 201) for body in tables.values()]
    recorded = [t for t in made if t["mode"] == "recorded"]
    # a recorded table of each rule set the examples show: it takes the entries of its rules
    by_variant = {t["rules"]["variant"]: t for t in recorded}
    assert len(by_variant) == len(recorded)
    assert set(by_variant) == {t["rules"]["variant"] for t in made}
    entries = examples(schema, "post", "/api/v1/tables/{table_id}/hands/")
    corrections = examples(schema, "put", "/api/v1/tables/{table_id}/hands/{number}/")
    for found in (entries, corrections):  # an entry names its table's rules
        assert {body["rules"]["variant"] for body in found.values()} == set(by_variant)
    for body in entries.values():
        table = by_variant[body["rules"]["variant"]]
        send(client, "post", f"/api/v1/tables/{table['id']}/hands/", body, 201)
    for body in corrections.values():
        table = by_variant[body["rules"]["variant"]]
        send(client, "put", f"/api/v1/tables/{table['id']}/hands/1/", body, 200)


def test_the_action_examples_are_actions_of_the_record_vocabulary(schema: dict[str, Any]) -> None:
    """An action names no rule set: each example is an action of a rule set whose tables the
    table examples open, read back unchanged by its vocabulary."""
    variants = {
        body["rules"]["variant"] for body in examples(schema, "post", "/api/v1/tables/").values()
    }
    path = "/api/v1/tables/{table_id}/hands/{number}/actions/"
    for name, body in examples(schema, "post", path).items():
        data = {**body["action"], "seat": "anna"}
        readers = []
        for variant in sorted(variants):
            deck = engine.rule_set(variant).deck
            try:
                action = engine.action_from_json(data, deck, name, variant=variant)
            except engine.EngineError:
                continue
            if engine.action_to_json(action, deck) == data:
                readers.append(variant)
        assert readers, f"{name}: no rule set of the table examples reads {data}"
        assert isinstance(body["expected_version"], int)


def named(schema: dict[str, Any], method: str, path: str, name: str) -> Any:
    found = examples(schema, method, path)
    assert name in found, f"{method} {path}: no example {name!r}, only {sorted(found)}"
    return found[name]


def every(
    schema: dict[str, Any], client: APIClient, method: str, template: str, path: str, status: int
) -> list[Any]:
    """Send each documented example of ``method template`` to ``path``."""
    return [
        send(client, method, path, body, status)
        for body in examples(schema, method, template).values()
    ]


def ids_past(model: Any) -> None:
    """Move the model's id sequence past the ids given by hand (PostgreSQL; SQLite does it
    by itself)."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [model]):
            cursor.execute(sql)


def test_the_refresh_example_is_the_shape_of_a_refresh(schema: dict[str, Any]) -> None:
    """The documented token is a placeholder (401 ``token_not_valid``); a real refresh token
    in the same body is accepted."""
    path = "/api/v1/auth/token/refresh/"
    (body,) = examples(schema, "post", path).values()
    answer = send(APIClient(), "post", path, body, 401)
    assert answer["code"] == "token_not_valid"
    real = RefreshToken.for_user(UserFactory.create())
    send(APIClient(), "post", path, {**body, "refresh": str(real)}, 200)


def test_the_sign_out_and_confirmation_examples_are_their_shape(schema: dict[str, Any]) -> None:
    """Placeholders too (401 ``token_not_valid``, 400 ``token_invalid``); real tokens in the
    same bodies are accepted."""
    revoke = "/api/v1/auth/token/revoke/"
    (body,) = examples(schema, "post", revoke).values()
    assert send(APIClient(), "post", revoke, body, 401)["code"] == "token_not_valid"
    real = RefreshToken.for_user(UserFactory.create())
    assert (
        APIClient().post(revoke, {**body, "refresh": str(real)}, format="json").status_code == 204
    )
    verify = "/api/v1/auth/email/verify/"
    (body,) = examples(schema, "post", verify).values()
    assert send(APIClient(), "post", verify, body, 400)["code"] == "token_invalid"
    token = email_verification_token(UserFactory.create())
    send(APIClient(), "post", verify, {**body, "token": token}, 200)


@pytest.mark.usefixtures("eager_tasks")
def test_the_club_evening_and_season_examples_are_accepted(schema: dict[str, Any]) -> None:
    """Clubs, invitations, join requests, members, guests, evening series and evenings,
    answers, check-ins, rounds and a swap, seasons and a hand-over, with the ids the
    examples name (users 3, 7 and 42, guest 1)."""
    # the ids the examples name first, then the sequence past them: an account made before
    # could take one of them (the sequence goes on from earlier tests of this process)
    users = {pk: UserFactory.create(pk=pk, username=f"example-{pk}") for pk in (3, 7, 42)}
    ids_past(User)
    owner = UserFactory.create(username="olga")
    client = signed_in(owner)

    (club,) = every(schema, client, "post", "/api/v1/clubs/", "/api/v1/clubs/", 201)
    base = f"/api/v1/clubs/{club['id']}/"
    every(schema, client, "patch", CLUB, base, 200)
    every(schema, client, "post", CLUB + "invitations/", base + "invitations/", 201)
    for pk in (3, 7):
        Membership.objects.create(club_id=club["id"], user=users[pk], role="member")
    asking = signed_in(users[42])
    (request,) = every(
        schema, asking, "post", CLUB + "join-requests/", base + "join-requests/", 201
    )
    send(client, "post", base + f"join-requests/{request['id']}/accept/", {}, 200)
    for body in examples(schema, "patch", CLUB + "members/{user_id}/").values():
        send(client, "patch", base + "members/7/", body, 200)

    Guest.objects.create(pk=1, club_id=club["id"], name="Tante Mitzi")
    ids_past(Guest)
    (guest,) = every(schema, client, "post", CLUB + "guests/", base + "guests/", 201)
    every(
        schema,
        client,
        "post",
        CLUB + "guests/{guest_id}/merge/",
        base + f"guests/{guest['id']}/merge/",
        200,
    )

    (series,) = every(
        schema, client, "post", CLUB + "evening-series/", base + "evening-series/", 201
    )
    every(
        schema,
        client,
        "patch",
        CLUB + "evening-series/{series_id}/",
        base + f"evening-series/{series['id']}/",
        200,
    )
    (evening,) = every(schema, client, "post", CLUB + "evenings/", base + "evenings/", 201)
    night = base + f"evenings/{evening['id']}/"
    every(schema, client, "patch", EVENING, night, 200)
    every(schema, signed_in(users[3]), "put", EVENING + "attendance/", night + "attendance/", 200)
    every(schema, client, "post", EVENING + "check-ins/", night + "check-ins/", 201)  # olga too
    for body in ({"user_id": 3}, {"user_id": 42}, {"guest_id": 1}):
        send(client, "post", night + "check-ins/", body, 201)
    planned = send(
        client,
        "post",
        night + "rounds/",
        named(schema, "post", EVENING + "rounds/", "ThreeRounds"),
        201,
    )
    (swapped,) = every(
        schema,
        client,
        "post",
        EVENING + "rounds/{round_number}/swap/",
        night + "rounds/1/swap/",
        200,
    )

    def seats(answer: dict[str, Any]) -> dict[str, tuple[int, int]]:
        return {
            seat["player"]: (table["number"], i)
            for table in answer["tables"]
            for i, seat in enumerate(table["seats"])
        }

    before, after = seats(planned), seats(swapped)
    assert (after["u:3"], after["g:1"]) == (before["g:1"], before["u:3"])

    # the same round again with a bot
    assert client.delete(night + "rounds/1/").status_code == 204
    bot = named(schema, "post", EVENING + "rounds/", "FivePlayersAndABot")
    with_bot = send(client, "post", night + "rounds/", bot, 201)
    assert with_bot["plan"]["bots"] == {"count": 1, "level": "pimc"}

    (season,) = every(schema, client, "post", CLUB + "seasons/", base + "seasons/", 201)
    every(
        schema,
        client,
        "patch",
        CLUB + "seasons/{season_id}/",
        base + f"seasons/{season['id']}/",
        200,
    )
    every(schema, client, "post", CLUB + "transfer-ownership/", base + "transfer-ownership/", 200)
    assert Membership.objects.get(club_id=club["id"], user_id=42).role == "owner"


@pytest.mark.django_db(transaction=True)  # seating runs on commit
@pytest.mark.usefixtures("eager_tasks")
def test_the_tournament_and_webhook_examples_are_accepted(
    schema: dict[str, Any], settings: Any
) -> None:
    """A tournament from its example, changed, a director added (user 7), entries (one of
    them entry 17), a withdrawal, a Swiss round with entry 17 on a bye, webhooks; a second
    tournament seated by the default method, played, finished and reopened; a third whose
    table (anna, bert, carl) enters and confirms its totals, the example's seat keys standing
    for the table's."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True  # no DNS lookups of example.org here
    users = {pk: UserFactory.create(pk=pk, username=f"example-{pk}") for pk in (7, 42)}
    ids_past(User)  # before any account whose id the sequence gives (see the test above)
    director = UserFactory.create(username="dirk")
    client = signed_in(director)
    # user 7 plays in a club with dirk, who therefore makes them a director at once (200)
    club = Club.objects.create(name="Stammtisch", slug="stammtisch")
    for person in (director, users[7]):
        Membership.objects.create(club=club, user=person)

    (t,) = every(schema, client, "post", "/api/v1/tournaments/", "/api/v1/tournaments/", 201)
    base = f"/api/v1/tournaments/{t['id']}/"
    every(schema, client, "patch", TOURNAMENT, base, 200)
    every(schema, client, "post", TOURNAMENT + "directors/", base + "directors/", 200)
    send(client, "post", base + "open-registration/", {}, 200)
    Entry.objects.create(
        pk=17, tournament_id=t["id"], user=users[42], name="example-42", status="registered"
    )
    ids_past(Entry)
    entrant = UserFactory.create()
    yourself, substitute = examples(schema, "post", TOURNAMENT + "entries/").values()
    send(signed_in(entrant), "post", base + "entries/", yourself, 201)
    send(client, "post", base + "entries/", substitute, 201)
    for _ in range(5):
        send(signed_in(UserFactory.create()), "post", base + "entries/", {}, 201)
    leaving = Entry.objects.filter(tournament_id=t["id"]).order_by("-pk").first()
    assert leaving is not None
    every(
        schema,
        signed_in(leaving.user),
        "post",
        TOURNAMENT + "entries/{entry_id}/withdraw/",
        base + f"entries/{leaving.pk}/withdraw/",
        200,
    )
    send(client, "post", base + "open-check-in/", {}, 200)
    for entry in Entry.objects.filter(tournament_id=t["id"]).exclude(pk=leaving.pk):
        send(client, "post", base + f"entries/{entry.pk}/check-in/", {}, 200)
    swiss = named(schema, "post", TOURNAMENT + "rounds/", "SwissWithABye")
    seated = send(client, "post", base + "rounds/", swiss, 202)
    assert seated["byes"] == [17]
    every(
        schema,
        client,
        "post",
        TOURNAMENT + "entries/{entry_id}/warn/",
        base + "entries/17/warn/",
        201,
    )

    (hook,) = every(schema, client, "post", TOURNAMENT + "webhooks/", base + "webhooks/", 201)
    every(
        schema,
        client,
        "patch",
        TOURNAMENT + "webhooks/{webhook_id}/",
        base + f"webhooks/{hook['id']}/",
        200,
    )

    f = make_field(6)
    default = named(schema, "post", TOURNAMENT + "rounds/", "DefaultMethod")
    rnd = f.post("rounds/", default, status=202)
    f.post(f"rounds/{rnd['number']}/start/")
    play(f, rnd["number"], random.Random(15))
    f.post(f"rounds/{rnd['number']}/close/")
    f.post("finish/")
    every(schema, f.boss(), "post", TOURNAMENT + "reopen/", f.url + "reopen/", 200)

    timed = make_field(6)
    at_eight = named(schema, "post", TOURNAMENT + "rounds/", "StartingAtEight")
    rnd = timed.post("rounds/", at_eight, status=202)
    assert rnd["starts_at"] == "2026-12-12T19:00:00Z"

    # a hosted round with a clock, cut off in its first hand's auction: the director sets the
    # clock, then gives the hand an adjusted score (the example's seat keys standing for the
    # table's)
    cut = make_field(3, results="hosted", deals_per_round=3, rounds_planned=1, round_minutes=90)
    seat(cut)
    clock = TOURNAMENT + "rounds/{round_number}/clock/"
    for body in examples(schema, "post", clock).values():  # "No clock" last
        send(cut.boss(), "post", cut.url + "rounds/1/clock/", body, 200)
    send(cut.boss(), "post", cut.url + "rounds/1/clock/", {"ends_at": "2026-12-12T22:00:00Z"}, 200)
    link = RoundTable.objects.get(round__tournament_id=cut.tournament_id, round__number=1)
    games.hand_start(table_id=link.table_id, user=None)
    ran = Round.objects.get(pk=link.round_id)
    assert ran.ends_at is not None
    assert (
        tournament_services.round_clock_run(
            round_id=ran.pk, now=ran.ends_at + dt.timedelta(seconds=1)
        )
        is False
    )  # the hand waits for the director
    keys = list(link.table.seats.order_by("position").values_list("key", flat=True))
    (average,) = examples(schema, "post", ROUND_TABLE + "hands/{number}/adjust/").values()
    ours = dict(zip(average["amounts"], keys, strict=True))
    body = {**average, "amounts": {ours[k]: v for k, v in average["amounts"].items()}}
    send(cut.boss(), "post", cut.url + "rounds/1/tables/1/hands/1/adjust/", body, 201)

    players = [
        UserFactory.create(username=n, display_name=n.title()) for n in ("anna", "bert", "carl")
    ]
    boss = signed_in(director)
    third = send(
        boss,
        "post",
        "/api/v1/tournaments/",
        {"name": "Totals", "results": "totals", "rules": RULES, "deals_per_round": 12},
        201,
    )
    url = f"/api/v1/tournaments/{third['id']}/"
    send(boss, "post", url + "open-registration/", {}, 200)
    for player in players:
        send(signed_in(player), "post", url + "entries/", {}, 201)
    send(boss, "post", url + "open-check-in/", {}, 200)
    for entry in Entry.objects.filter(tournament_id=third["id"]):
        send(boss, "post", url + f"entries/{entry.pk}/check-in/", {}, 200)
    send(boss, "post", url + "rounds/", {}, 202)
    send(boss, "post", url + "rounds/1/start/", {}, 200)
    totals = url + "rounds/1/tables/1/totals/"
    # the example's seat keys stand for the table's own (a seated round's keys are the
    # players' pseudonym codes): the same totals, sent under this table's keys
    keys = [
        p["seat"] for p in send(boss, "get", url + "rounds/1/", None, 200)["tables"][0]["players"]
    ]
    for body in examples(schema, "put", ROUND_TABLE + "totals/").values():
        ours = dict(zip(body["amounts"], keys, strict=True))
        body = {field: {ours[k]: v for k, v in by_seat.items()} for field, by_seat in body.items()}
        send(boss, "put", totals, body, 200)
    every(
        schema,
        signed_in(players[1]),
        "post",
        ROUND_TABLE + "totals/confirm/",
        totals + "confirm/",
        200,
    )


@pytest.mark.usefixtures("eager_tasks")
def test_the_cup_webhook_examples_are_accepted(schema: dict[str, Any], settings: Any) -> None:
    """A cup's director registers the documented webhook and changes it by each example."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True  # no DNS lookups of example.org here
    director = UserFactory.create(username="cuppa")
    cup = Cup.objects.create(name="Tarock-Cup", slug="tarock-cup", status="running", policy={})
    cup.directors.add(director)
    client = signed_in(director)
    base = f"/api/v1/cups/{cup.pk}/webhooks/"
    (hook,) = every(schema, client, "post", CUP_WEBHOOKS, base, 201)
    every(schema, client, "patch", CUP_WEBHOOKS + "{webhook_id}/", base + f"{hook['id']}/", 200)


@pytest.mark.usefixtures("eager_tasks")
def test_the_cup_examples_are_accepted(schema: dict[str, Any]) -> None:
    """Both documented cups (a season with a final, a rolling list); the season changed, user
    7 made its director, opened, tournament 12 added (its director is the cup's), both
    imports, a correction, a player's attributes, a duplicate merged into player 42; the
    rolling list finished and reopened with the reason."""
    olga = UserFactory.create(username="olga")
    seven = User.objects.filter(pk=7).first() or UserFactory.create(pk=7, username="example-7")
    ids_past(User)
    # user 7 plays in a club with olga, who may therefore make them a director (a cup's
    # director names only people they play with: tournaments.cup_permissions.may_name)
    club = Club.objects.create(name="Kartenrunde Lienz", slug="kartenrunde-lienz")
    for person in (olga, seven):
        Membership.objects.create(club=club, user=person)
    client = signed_in(olga)
    season, rolling = every(schema, client, "post", "/api/v1/cups/", "/api/v1/cups/", 201)
    base = f"/api/v1/cups/{season['id']}/"
    every(schema, client, "patch", CUP, base, 200)
    (changed,) = every(schema, client, "post", CUP + "directors/", base + "directors/", 200)
    assert seven.pk in changed["directors"]
    send(client, "post", base + "open/", None, 200)
    t = Tournament.objects.create(
        pk=12,
        name="Grazer Open",
        slug="grazer-open",
        rules=engine.house_rules(),  # the examples' rule set
        status="registration",
    )
    t.directors.add(olga)
    ids_past(Tournament)
    (event,) = every(schema, client, "post", CUP + "events/", base + "events/", 201)
    assert event["tournament"] == 12 and event["status"] == "accepted"
    imported = every(schema, client, "post", CUP + "imports/", base + "imports/", 201)
    path = CUP + "events/{event_id}/results/"
    every(schema, client, "put", path, base + f"events/{imported[-1]['id']}/results/", 200)
    player = CupPlayer.objects.filter(cup_id=season["id"], name="Sepp Moser").get()
    CupPlayer.objects.create(pk=42, cup_id=season["id"], name="Sepp Moser (Konto)")
    ids_past(CupPlayer)
    path = CUP + "players/{player_id}/"
    every(schema, client, "patch", path, base + f"players/{player.pk}/", 200)
    merge = base + f"players/{player.pk}/merge/"
    (kept,) = every(schema, client, "post", path + "merge/", merge, 200)
    assert kept["id"] == 42
    other = f"/api/v1/cups/{rolling['id']}/"
    send(client, "post", other + "open/", None, 200)
    season_results = {"results": [{"placing": 1, "name": "Anna", "score": "50", "rounds": 36}]}
    played = {"name": "Saison", "held_on": "2027-05-01", "format": "json", "data": season_results}
    send(client, "post", other + "imports/", played, 201)
    send(client, "post", other + "finish/", None, 200)
    every(schema, client, "post", CUP + "reopen/", other + "reopen/", 200)


def test_the_device_examples_register_and_again_are_the_same_devices(
    schema: dict[str, Any],
) -> None:
    """Each documented device (an iPhone, an Android phone, a browser) registers (201); an
    app registering again at its next start gets the same device (200)."""
    client = signed_in(UserFactory.create())
    bodies = examples(schema, "post", "/api/v1/me/devices/").values()
    first = [send(client, "post", "/api/v1/me/devices/", body, 201)["id"] for body in bodies]
    again = [send(client, "post", "/api/v1/me/devices/", body, 200)["id"] for body in bodies]
    assert again == first and len(set(first)) == 3


CLUB = "/api/v1/clubs/{club_id}/"
EVENING = CLUB + "evenings/{evening_id}/"
TOURNAMENT = "/api/v1/tournaments/{tournament_id}/"
ROUND_TABLE = TOURNAMENT + "rounds/{round_number}/tables/{table_number}/"
CUP_WEBHOOKS = "/api/v1/cups/{cup_id}/webhooks/"
CUP = "/api/v1/cups/{cup_id}/"


def test_every_request_example_of_the_schema_is_sent_by_these_tests(
    schema: dict[str, Any],
) -> None:
    """A new example (or a new operation with one) needs a place in the tests above."""
    documented = {
        (method, path)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if "examples"
        in operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    }
    assert documented == SENT


SENT = {
    ("post", "/api/v1/auth/register/"),
    ("post", "/api/v1/auth/token/"),
    ("post", "/api/v1/auth/token/refresh/"),
    ("post", "/api/v1/auth/token/revoke/"),
    ("post", "/api/v1/auth/email/verify/"),
    ("patch", "/api/v1/me/"),
    ("post", "/api/v1/me/devices/"),
    ("post", "/api/v1/series/"),
    ("post", "/api/v1/tables/"),
    ("post", "/api/v1/tables/{table_id}/hands/"),
    ("put", "/api/v1/tables/{table_id}/hands/{number}/"),
    ("post", "/api/v1/tables/{table_id}/hands/{number}/actions/"),
    ("post", "/api/v1/clubs/"),
    ("patch", CLUB),
    ("post", CLUB + "invitations/"),
    ("post", CLUB + "join-requests/"),
    ("patch", CLUB + "members/{user_id}/"),
    ("post", CLUB + "guests/"),
    ("post", CLUB + "guests/{guest_id}/merge/"),
    ("post", CLUB + "evening-series/"),
    ("patch", CLUB + "evening-series/{series_id}/"),
    ("post", CLUB + "evenings/"),
    ("patch", EVENING),
    ("put", EVENING + "attendance/"),
    ("post", EVENING + "check-ins/"),
    ("post", EVENING + "rounds/"),
    ("post", EVENING + "rounds/{round_number}/swap/"),
    ("post", CLUB + "seasons/"),
    ("patch", CLUB + "seasons/{season_id}/"),
    ("post", CLUB + "transfer-ownership/"),
    ("post", "/api/v1/tournaments/"),
    ("patch", TOURNAMENT),
    ("post", TOURNAMENT + "directors/"),
    ("post", TOURNAMENT + "entries/"),
    ("post", TOURNAMENT + "entries/{entry_id}/withdraw/"),
    ("post", TOURNAMENT + "entries/{entry_id}/warn/"),
    ("post", TOURNAMENT + "rounds/{round_number}/clock/"),
    ("post", ROUND_TABLE + "hands/{number}/adjust/"),
    ("post", TOURNAMENT + "rounds/"),
    ("post", TOURNAMENT + "webhooks/"),
    ("patch", TOURNAMENT + "webhooks/{webhook_id}/"),
    ("post", TOURNAMENT + "reopen/"),
    ("put", ROUND_TABLE + "totals/"),
    ("post", ROUND_TABLE + "totals/confirm/"),
    ("post", CUP_WEBHOOKS),
    ("patch", CUP_WEBHOOKS + "{webhook_id}/"),
    ("post", "/api/v1/cups/"),
    ("patch", CUP),
    ("post", CUP + "directors/"),
    ("post", CUP + "reopen/"),
    ("post", CUP + "events/"),
    ("post", CUP + "imports/"),
    ("put", CUP + "events/{event_id}/results/"),
    ("patch", CUP + "players/{player_id}/"),
    ("post", CUP + "players/{player_id}/merge/"),
}


#: Keys whose value maps names to schemas (OpenAPI's ``components`` maps ``schemas``).
_SCHEMA_MAPS = ("properties", "patternProperties", "definitions", "schemas")


def as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema → JSON Schema: ``nullable`` becomes a ``null`` alternative. A map of
    names to schemas (``properties``, ``schemas``) is not a schema: a property called
    ``nullable`` (RuleOption has one) stays a property."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {
        key: (
            {name: as_json_schema(schema) for name, schema in value.items()}
            if key in _SCHEMA_MAPS and isinstance(value, dict)
            else as_json_schema(value)
        )
        for key, value in node.items()
        if key != "nullable"
    }
    if node.get("nullable"):
        if "type" in converted and "enum" not in converted:
            converted["type"] = [converted["type"], "null"]
        else:
            converted = {"anyOf": [converted, {"type": "null"}]}
    return converted


def test_every_documented_response_example_fits_its_schema(schema: dict[str, Any]) -> None:
    """App makers read the response examples as what the API answers; each one validates
    against the schema of its status and media type."""
    components = as_json_schema(schema["components"])
    checked = 0
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            for status, response in operation["responses"].items():
                body = response.get("content", {}).get("application/json", {})
                for name, example in body.get("examples", {}).items():
                    target = {**as_json_schema(body["schema"]), "components": components}
                    problems = [
                        e.message
                        for e in jsonschema.Draft7Validator(target).iter_errors(example["value"])
                    ]
                    assert not problems, (method, path, status, name, problems[:3])
                    checked += 1
    assert checked >= 8
