"""The strict schema check over every registered rule set: every JSON body the API answers
about a rule set's tables documents each of its keys in the schema.

For each rule set the engine offers (``engine.rule_sets()``, read when the tests are
collected, so a rule set the test suite registers is included; the inner loop runs wien
only, ``tests/rule_sets.py``), real tables are driven through the API as a client would, on
deals the way the engine's conformance suite draws them (the rule set's example rules, each
number of seats its table allows, a shuffled deck dealt the rule set's way, the engine's
random bot):

- recorded tables, one per example rules: score-sheet entries posted and edited, then the
  table, its hands, a hand, its record, the running sheet, the ledger, the balances, the
  audit log, the settlement and the close;
- a hosted table of seated players, one hand played out: the views of the seat to act and
  the move answers throughout, every seat's and a spectator's view and the events (the long
  poll's bodies; the websocket sends the same ones, ``games.live``) early in each phase, the
  hand and the hand list at each change of phase, and at the end all of them;
- a hosted table where bots play the other seats (the task the API sends after a move);
- a club evening and a tournament round, with entries recorded at their tables: their
  reads, settlements, standings and the tournament's JSON exports.

Every answer is checked by :mod:`tests.config.strict_schema`: against the response schema
its operation documents in the generated schema (whatever component that is), every object
closed unless it declares ``additionalProperties`` itself. A key the schema does not
document fails, named by its path in the body. (What an object that declares
``additionalProperties: {}`` holds, such as an event's ``action``, is not checked.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from clubs.models import User
from games.models import Table
from games.random_entries import random_entry
from tests.clubs.evening_setup import an_evening_of
from tests.clubs.evening_setup import record as record_entries
from tests.clubs.world import build_club_world
from tests.config.strict_schema import (
    Findings,
    StrictClient,
    StrictValidator,
    closed,
    messages,
    strict_schema,
)
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.rule_sets import every_rule_set
from tests.tournaments.setup import make_field
from tests.tournaments.setup import play as tournament_play
from tests.tournaments.setup import seat as tournament_seat
from tests.tournaments.test_every_rule_set import round_complete
from tournaments.models import RoundTable

pytestmark = pytest.mark.django_db

PLAYERS = ("anna", "bert", "carl", "dave", "emil", "fritz")
MAX_MOVES = 300

#: The operations whose answers a rule set's tables must have shown the check.
MUST_CHECK = (
    "GET /api/v1/tables/{table_id}/hands/{number}/view/ 200",
    "POST /api/v1/tables/{table_id}/hands/{number}/actions/ 200",
    "GET /api/v1/tables/{table_id}/hands/{number}/events/ 200",
    "GET /api/v1/tables/{table_id}/hands/{number}/record/ 200",
    "GET /api/v1/tables/{table_id}/hands/{number}/ 200",
    "GET /api/v1/tables/{table_id}/hands/ 200",
    "POST /api/v1/tables/{table_id}/hands/ 201",
    "PUT /api/v1/tables/{table_id}/hands/{number}/ 200",
    "GET /api/v1/tables/{table_id}/sheet/ 200",
    "GET /api/v1/tables/{table_id}/ledger/ 200",
    "GET /api/v1/tables/{table_id}/settlement/ 200",
    "POST /api/v1/tables/{table_id}/close/ 200",
)


@pytest.fixture
def findings() -> Findings:
    return Findings()


@pytest.fixture
def users(db: None) -> dict[str, User]:
    """The players, members of one club (so that anna may seat them at her tables)."""
    club = ClubFactory.create()
    players = {name: UserFactory.create(username=name) for name in PLAYERS}
    for user in players.values():
        MembershipFactory.create(club=club, user=user)
    return players


@pytest.fixture
def clients(findings: Findings, users: dict[str, User]) -> dict[str | None, StrictClient]:
    """A checked client signed in as each player, and an anonymous one (key None)."""
    out: dict[str | None, StrictClient] = {None: StrictClient(findings)}
    for name, user in users.items():
        out[name] = StrictClient(findings)
        out[name].force_authenticate(user)
    return out


def table_url(table_id: int, tail: str = "") -> str:
    return f"/api/v1/tables/{table_id}/{tail}"


def hand_url(table_id: int, number: int, tail: str = "") -> str:
    return table_url(table_id, f"hands/{number}/{tail}")


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (status, response.content[:500])
    return response.json()


def open_table(
    client: StrictClient,
    users: dict[str, User],
    rules: dict[str, Any],
    seats: int,
    mode: str = Table.Mode.RECORDED,
    bots: int = 0,
) -> int:
    """A public table opened through the API: the first ``seats - bots`` players seated as
    themselves, the rest bots; the last seat deals first."""
    names = PLAYERS[:seats]
    specs = [
        {"key": name, "kind": "user", "user": users[name].pk}
        if i < seats - bots
        else {"key": name, "kind": "bot", "bot_level": "random"}
        for i, name in enumerate(names)
    ]
    body = {
        "name": "Strict table",
        "mode": mode,
        "rules": rules,
        "seats": specs,
        "first_dealer": names[-1],
        "is_public": True,
    }
    table_id: int = ok(client.post("/api/v1/tables/", body, format="json"), 201)["id"]
    return table_id


def read_all(client: StrictClient, table_id: int, numbers: list[int]) -> None:
    """Every read of a table and its hands that a client of the table makes."""
    for tail in ("", "hands/", "sheet/", "ledger/", "balances/", "audit/", "settlement/"):
        ok(client.get(table_url(table_id, tail)))
    for number in numbers:
        ok(client.get(hand_url(table_id, number)))
        ok(client.get(hand_url(table_id, number, "record/")))


def read_results(client: StrictClient, table_id: int) -> None:
    """The reads that carry a rule set's own keys: hands with results, sheet, ledger."""
    for tail in ("hands/", "sheet/", "ledger/"):
        ok(client.get(table_url(table_id, tail)))


def close(client: StrictClient, table_id: int) -> None:
    ok(client.post(table_url(table_id, "close/")))
    ok(client.get(table_url(table_id, "settlement/")))


def play_recorded(
    rs: Any, clients: dict[str | None, StrictClient], users: dict[str, User], rng: random.Random
) -> None:
    """A recorded table per example rules, with each number of seats in turn, and entries
    written as the engine's random bot plays a shuffled deal: at the first table two entries,
    the second one edited, and every read; at the others one entry, edited, and the reads
    with results."""
    anna = clients["anna"]
    for i, rules in enumerate(rs.examples):
        seats = rs.table.seats[i % len(rs.table.seats)]
        table_id = open_table(anna, users, rules, seats)
        table = Table.objects.get(pk=table_id)
        hands = [1, 2] if i == 0 else [1]
        for _ in hands:
            entry = random_entry(table, rng)
            ok(anna.post(table_url(table_id, "hands/"), entry, format="json"), 201)
        edited = random_entry(table, rng, hands[-1])
        ok(anna.put(hand_url(table_id, hands[-1]), edited, format="json"))
        if i == 0:
            read_all(anna, table_id, hands)
            read_all(clients[None], table_id, hands[-1:])
        else:
            read_results(anna, table_id)
        close(anna, table_id)


def play_hosted(
    rs: Any, clients: dict[str | None, StrictClient], users: dict[str, User], rng: random.Random
) -> None:
    """A hosted table of seated players, its first hand played to the end with random legal
    moves. Before each move the view of the seat to act, and the move's answer; for the first
    moves of each phase (enough for each seat to act once in it) every seat's and the
    spectator's view and the newest events; the hand and the hand list at each change of
    phase; at the end every view, all events for every viewer and every read."""
    seats = min(rs.table.seats)
    table_id = open_table(clients["anna"], users, rs.examples[0], seats, Table.Mode.HOSTED)
    viewers = [*PLAYERS[:seats], None]
    to_act = ok(clients["anna"].post(table_url(table_id, "hands/")), 201).get("to_act")
    phase, into_phase = None, 0
    for _ in range(MAX_MOVES):
        watchers = viewers if into_phase <= seats else [to_act]
        views = {v: ok(clients[v].get(hand_url(table_id, 1, "view/"))) for v in watchers}
        now = views[watchers[0]]
        if into_phase <= seats:
            after = max(now["version"] - 1, 0)
            ok(clients[None].get(hand_url(table_id, 1, f"events/?after={after}&wait=0")))
        if now["phase"] != phase:
            ok(clients[None].get(hand_url(table_id, 1)))
            ok(clients[None].get(table_url(table_id, "hands/")))
        if now["status"] == "done":
            break
        if not views.get(to_act, {}).get("legal"):  # no single seat to act: look at all
            views = {v: ok(clients[v].get(hand_url(table_id, 1, "view/"))) for v in viewers}
            to_act = next(s for s in PLAYERS[:seats] if views[s].get("legal"))
        body = {"action": rng.choice(views[to_act]["legal"]), "expected_version": now["version"]}
        answer = ok(clients[to_act].post(hand_url(table_id, 1, "actions/"), body, format="json"))
        into_phase = into_phase + 1 if answer["phase"] == now["phase"] else 0
        phase, to_act = now["phase"], answer.get("to_act")
    else:
        raise AssertionError("the hand did not end")
    for viewer in viewers:
        ok(clients[viewer].get(hand_url(table_id, 1, "view/")))
        ok(clients[viewer].get(hand_url(table_id, 1, "events/?after=0&wait=0")))
    read_all(clients["anna"], table_id, [1])
    read_all(clients[None], table_id, [1])
    close(clients["anna"], table_id)


def play_with_bots(
    rs: Any,
    clients: dict[str | None, StrictClient],
    users: dict[str, User],
    rng: random.Random,
    capture: Any,
) -> None:
    """A hosted table, as many seats as it allows, where anna plays and bots play the rest
    (the task the API sends after commit, run here): anna's view after each of her moves."""
    seats = max(rs.table.seats)
    rules = rs.examples[-1]
    anna = clients["anna"]
    table_id = open_table(anna, users, rules, seats, Table.Mode.HOSTED, bots=seats - 1)
    with capture(execute=True):
        ok(anna.post(table_url(table_id, "hands/")), 201)
    for _ in range(MAX_MOVES):
        view = ok(anna.get(hand_url(table_id, 1, "view/")))
        if view["status"] == "done":
            break
        assert view.get("legal"), "the bots stopped before anna's turn"
        body = {"action": rng.choice(view["legal"]), "expected_version": view["version"]}
        with capture(execute=True):
            ok(anna.post(hand_url(table_id, 1, "actions/"), body, format="json"))
    else:
        raise AssertionError("the hand did not end")
    ok(clients[None].get(hand_url(table_id, 1, "view/")))
    read_results(anna, table_id)


@every_rule_set()
def test_every_answer_about_a_rule_sets_tables_documents_each_of_its_keys(
    rs: Any,
    findings: Findings,
    clients: dict[str | None, StrictClient],
    users: dict[str, User],
    eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Recorded tables, a hosted table of players and one of bots: no answer about them has a
    key the schema does not document, or a value it does not allow."""
    rng = random.Random(f"strict {rs.name}")
    play_recorded(rs, clients, users, rng)
    play_hosted(rs, clients, users, rng)
    play_with_bots(rs, clients, users, rng, django_capture_on_commit_callbacks)
    missing = [op for op in MUST_CHECK if op not in findings.checked]
    assert not missing, f"answers the check never saw: {missing}"
    assert not findings.problems, f"{rs.name}: undocumented or wrong\n{findings.report()}"


@every_rule_set()
@pytest.mark.django_db(transaction=True)
def test_a_tournament_round_of_each_rule_set_exports_only_documented_keys(
    rs: Any, findings: Findings, eager_tasks: None, settings: Any
) -> None:
    """One table of a rule set's smallest size plays a tournament round by score-sheet
    entries (the random bot's), then the round is closed and the tournament finished: its
    rounds, table, totals, standings, settlement, a player's results and the JSON exports
    (every hand with its result) document each of their keys."""
    settings.STANDINGS_COALESCE_SECONDS = 0
    seats = min(rs.table.seats)
    deals = rs.round_deals or 12  # as tests/tournaments/test_every_rule_set.py plays them
    rules = dict(rs.examples[0])
    if rs.point_price is not None:  # playing for money needs the price of a score unit
        rules.setdefault(rs.point_price, 10)
    f = make_field(
        seats,
        rules=rules,
        rounds_planned=1,
        deals_per_round=deals,
        scoring="balance",
        real_money=True,
    )
    director = StrictClient(findings)
    director.force_authenticate(f.director)
    f.clients[f.director.pk] = director
    tournament_seat(f)
    rng = random.Random(f"strict tournament {rs.name}")
    tournament_play(f, 1, rng)
    for link in RoundTable.objects.filter(round__tournament=f.tournament):
        while not round_complete(link.table):  # the DDV's Pflichtsoli
            entry = random_entry(link.table, rng)
            ok(director.post(table_url(link.table_id, "hands/"), entry, format="json"), 201)
    f.post("rounds/1/close/")
    f.post("finish/")
    entry_id = f.get("entries/")["results"][0]["id"]
    for tail in (
        "",
        "rounds/",
        "rounds/1/",
        "rounds/1/boards/",
        "rounds/1/tables/1/",
        "rounds/1/tables/1/totals/",
        "standings/",
        "settlement/",
        f"entries/{entry_id}/results/",
        "export/hands.json",
        "export/standings.json",
    ):
        f.get(tail)
    assert "GET /api/v1/tournaments/{tournament_id}/export/hands.json 200" in findings.checked
    assert not findings.problems, f"{rs.name}: undocumented or wrong\n{findings.report()}"


@every_rule_set()
@pytest.mark.django_db(transaction=True)
def test_a_club_evening_of_each_rule_set_answers_only_documented_keys(
    rs: Any, findings: Findings, eager_tasks: None
) -> None:
    """A club evening whose round seats the rule set's tables, two entries recorded at each:
    the evening, its tables and round, the season and its standings (the rule set's
    statistics), the close and the settlement document each of their keys."""
    w = build_club_world()
    tables = an_evening_of(w, rs.examples[0])
    rng = random.Random(f"strict evening {rs.name}")
    for table in tables:
        record_entries(w, table, 2, rng)
    owner = StrictClient(findings)
    owner.force_authenticate(w.users["owner"])
    club = f"/api/v1/clubs/{w.club.pk}/"
    evening = f"{club}evenings/{w.evening.pk}/"
    season = f"{club}seasons/{w.extra['season']}/"
    for path in (evening, evening + "tables/", evening + "rounds/", evening + "rounds/1/"):
        ok(owner.get(path))
    ok(owner.post(evening + "close/"))
    for path in (evening + "settlement/", season, season + "standings/", "/api/v1/me/evenings/"):
        ok(owner.get(path))
    assert "GET /api/v1/clubs/{club_id}/seasons/{season_id}/standings/ 200" in findings.checked
    assert not findings.problems, f"{rs.name}: undocumented or wrong\n{findings.report()}"


# ---------------------------------------------------------------------------------------------


def test_the_check_reports_a_key_the_schema_does_not_document(
    clients: dict[str | None, StrictClient], users: dict[str, User]
) -> None:
    """A real hand view passes; the same body with a key added at the top, inside its result
    and inside one of the result's transfers fails, naming each key by its path; a new key in
    a map (``delta`` by seat) is no undocumented key."""
    rs = engine.rule_sets()[0]
    anna = clients["anna"]
    table_id = open_table(anna, users, rs.examples[0], min(rs.table.seats))
    entry = random_entry(Table.objects.get(pk=table_id), random.Random(1))
    ok(anna.post(table_url(table_id, "hands/"), entry, format="json"), 201)
    path = hand_url(table_id, 1, "view/")
    body = ok(anna.get(path))
    check = strict_schema()
    assert check.problems("GET", path, 200, body) == []

    body["shown_to_nobody"] = 1
    body["result"]["secret"] = {"why": "undocumented"}
    body["result"]["transfers"][0]["note"] = "undocumented"
    body["result"]["delta"]["somebody"] = 0
    problems = check.problems("GET", path, 200, body)
    assert sorted(p.split(" (")[0] for p in problems) == [
        "$.result.secret: undocumented key",
        "$.result.transfers[0].note: undocumented key",
        "$.shown_to_nobody: undocumented key",
    ], problems


def test_a_discriminator_chooses_the_alternative_that_the_body_is_checked_against() -> None:
    """With a discriminator, a body is checked against the alternative its value names (a
    key of another alternative is undocumented there), and a value that names none fails."""
    circle, square = "#/components/schemas/Circle", "#/components/schemas/Square"
    shapes = {
        "Shape": {
            "oneOf": [{"$ref": circle}, {"$ref": square}],
            "discriminator": {
                "propertyName": "kind",
                "mapping": {"circle": circle, "square": square},
            },
        },
        "Circle": {"properties": {"kind": {"type": "string"}, "radius": {"type": "integer"}}},
        "Square": {"properties": {"kind": {"type": "string"}, "side": {"type": "integer"}}},
    }
    components = {"schemas": {name: closed(node, name) for name, node in shapes.items()}}
    validator = StrictValidator({"$ref": "#/components/schemas/Shape", "components": components})

    def problems(body: dict[str, Any]) -> list[str]:
        return [line for error in validator.iter_errors(body) for line in messages(error)]

    assert problems({"kind": "circle", "radius": 2}) == []
    assert problems({"kind": "circle", "radius": 2, "side": 3}) == [
        "$.side: undocumented key (Circle)"
    ]
    assert problems({"kind": "hexagon", "side": 3}) == [
        "$: the discriminator 'kind' is 'hexagon', which names none of the alternatives"
    ]
