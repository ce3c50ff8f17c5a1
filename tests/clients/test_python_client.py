"""A new app maker's first day, through the generated Python client alone (no hand-written
HTTP): sign up, sign in and refresh; found a club and invite players by link; a club
evening with answers, check-ins, seating, recorded hands at every table, a correction and
the settlement; the season's standings from the worker; a hosted table with two bots,
played to the end with ``Idempotency-Key`` and ``expected_version``; a tournament round
seated, with its public standings and their ``ETag``.

It runs against a real server (pytest-django's ``live_server``, a threaded WSGI server) in
two ways: with the tasks in the server's process (any database), and as a ``services`` test
on PostgreSQL with the broker and a real ``celery worker`` computing standings, seating the
round and moving the bots.
"""

from __future__ import annotations

import csv
import datetime as dt
import importlib
import io
import pkgutil
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest
import yaml
from django.utils import timezone

from tests.clients.conftest import PROJECT_DIR
from tests.conftest import WorkerProcess

PACKAGE = "preference_api_client"
PASSWORD = "kaffee-und-karten-7"
WAIT_SECONDS = 60.0
# One worker of a parallel run (make test) generates and installs the client once for all of
# this file's tests (the session fixture in conftest.py), rather than each worker its own.
pytestmark = pytest.mark.xdist_group("generated_client")


@dataclass
class Player:
    username: str
    user_id: int
    client: Any  # the generated AuthenticatedClient


class Api:
    """Calls operations of the generated package by tag and operationId."""

    def __init__(self, package: ModuleType, base_url: str) -> None:
        self.package = package
        self.base_url = base_url
        self.anonymous = package.Client(base_url=base_url, raise_on_unexpected_status=True)
        self.clients = [self.anonymous]

    def model(self, name: str) -> Any:
        return getattr(importlib.import_module(f"{PACKAGE}.models"), name)

    def call(self, operation: str, client: Any, status: int = 200, **arguments: Any) -> Any:
        """``operation`` is ``tag.operation_id``, e.g. ``hands.hands_act``; the answer's
        status must be ``status``; returns the parsed body."""
        module = importlib.import_module(f"{PACKAGE}.api.{operation}")
        answer = module.sync_detailed(client=client, **arguments)
        assert answer.status_code == status, (operation, answer.status_code, answer.content)
        return answer.parsed

    def signed_in(self, access: str) -> Any:
        client = self.package.AuthenticatedClient(
            base_url=self.base_url, token=access, raise_on_unexpected_status=True
        )
        self.clients.append(client)
        return client

    def close(self) -> None:
        for client in self.clients:
            client.get_httpx_client().close()

    def sign_up(self, username: str) -> Player:
        body = self.model("RegisterRequest")(username=username, password=PASSWORD)
        me = self.call("auth.accounts_register", self.anonymous, 201, body=body)
        pair = self.sign_in(username)
        return Player(username, me.id, self.signed_in(pair.access))

    def sign_in(self, username: str) -> Any:
        body = self.model("TokenObtainPairRequest")(username=username, password=PASSWORD)
        return self.call("auth.tokens_create", self.anonymous, body=body)


def until(what: str, check: Callable[[], Any]) -> Any:
    """Ask ``check`` until it answers something true (the worker or the bots are behind)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"waited {WAIT_SECONDS:.0f} s for {what}")
        time.sleep(0.2)


def entry_for(api: Api, table: Any, declarer_tricks: int) -> Any:
    """A score-sheet entry for the table's next hand: the first active seat declares a
    spade game with the talon and both defenders play."""
    seats = [seat.key for seat in table.seats]
    active = [key for key in seats if len(seats) == 3 or key != table.next_dealer]
    declarer, *defenders = active
    rest = 10 - declarer_tricks
    return api.model("ScoreSheetEntryRequest").from_dict(
        {
            "game": {"type": "suit", "level": "S", "talon": True},
            "declarer": declarer,
            "defence": {key: "play" for key in defenders},
            "tricks": {
                declarer: declarer_tricks,
                defenders[0]: rest // 2,
                defenders[1]: rest - rest // 2,
            },
        }
    )


def a_club_evening(api: Api) -> tuple[Player, list[Player]]:
    """Sign-up to the evening's settlement and the season's standings; returns the owner
    and the other players."""
    # Sign up, sign in, refresh: the refreshed access token works.
    anna = api.sign_up("anna")
    pair = api.sign_in("anna")
    refresh = api.model("TokenRefreshRequest")(refresh=pair.refresh)
    fresh = api.call("auth.tokens_refresh", api.anonymous, body=refresh)
    assert api.call("me.me_get", api.signed_in(fresh.access)).username == "anna"

    # A club and a link for the group chat; five players join through it.
    club = api.call(
        "clubs.clubs_create",
        anna.client,
        201,
        body=api.model("ClubInputRequest").from_dict(
            {
                "name": "Wiener Runde",
                "timezone": "Europe/Vienna",
                "currency": "EUR",
                "is_public": True,
            }
        ),
    )
    link = api.call(
        "invitations.invitations_create",
        anna.client,
        201,
        club_id=club.id,
        body=api.model("InvitationCreateRequest").from_dict(
            {"role": "member", "expires_in_days": 7, "max_uses": 10}
        ),
    )
    others = [api.sign_up(name) for name in ("bert", "carl", "dora", "emil", "fritz")]
    for player in others:
        preview = api.call("invitations.invitations_get", api.anonymous, code=link.code)
        assert preview.club.name == "Wiener Runde"
        api.call("invitations.invitations_accept", player.client, 201, code=link.code)
    members = api.call("members.members_list", anna.client, club_id=club.id)
    assert members.count == 6

    # A season over this year, and tonight's evening.
    today = timezone.localdate()
    season = api.call(
        "seasons.seasons_create",
        anna.client,
        201,
        club_id=club.id,
        body=api.model("SeasonInputRequest").from_dict(
            {
                "name": "Saison",
                "starts_on": today.replace(month=1, day=1).isoformat(),
                "ends_on": today.replace(month=12, day=31).isoformat(),
                "is_active": True,
            }
        ),
    )
    starts = timezone.localtime(timezone.now() + dt.timedelta(minutes=30))
    evening = api.call(
        "evenings.evenings_create",
        anna.client,
        201,
        club_id=club.id,
        body=api.model("EveningInputRequest").from_dict(
            {
                "title": "Clubabend",
                "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
                "ends_at": (starts + dt.timedelta(hours=4)).strftime("%Y-%m-%dT%H:%M"),
                "rules": {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100},
            }
        ),
    )
    where = {"club_id": club.id, "evening_id": evening.id}

    # Everyone answers and checks in: the players themselves, anna checks in bert.
    bert = others[0]
    mine = api.call("me.my_evenings_list", bert.client)
    assert [e.id for e in mine.results] == [evening.id]
    for player in [anna, *others]:
        api.call(
            "attendance.attendances_reply",
            player.client,
            body=api.model("AnswerRequest").from_dict({"answer": "yes"}),
            **where,
        )
    for player in [anna, *others[1:]]:  # themselves: no body
        api.call("attendance.check_ins_create", player.client, 201, **where)
    api.call(
        "attendance.check_ins_create",
        anna.client,
        201,
        body=api.model("CheckInRequest")(user_id=bert.user_id),
        **where,
    )

    # Seating: one round, two tables of three, started.
    planned = api.call(
        "evening_rounds.evening_rounds_plan",
        anna.client,
        201,
        body=api.model("RoundCreateRequest").from_dict({"rounds_total": 1}),
        **where,
    )
    api.call(
        "evening_rounds.evening_rounds_start", anna.client, round_number=planned.number, **where
    )
    tables = api.call("evening_tables.evening_tables_list", anna.client, **where).results
    assert sorted(len(t.seats) for t in tables) == [3, 3]

    # Each table's first player keeps the sheet: three hands, the second corrected.
    seated = {p.username: p for p in [anna, *others]}
    for evening_table in tables:
        table_id = evening_table.table_id
        table = api.call("tables.tables_get", anna.client, table_id=table_id)
        keeper = seated[table.seats[0].username]
        mine = api.call("me.my_tables_list", keeper.client).results
        assert table_id in [t.table_id for t in mine]
        for tricks in (6, 4, 7):
            table = api.call("tables.tables_get", keeper.client, table_id=table_id)
            api.call(
                "hands.hands_create",
                keeper.client,
                201,
                table_id=table_id,
                body=entry_for(api, table, tricks),
                idempotency_key=str(uuid.uuid4()),
            )
        before = api.call("tables.tables_get_sheet", keeper.client, table_id=table_id)
        api.call(
            "hands.hands_correct",
            keeper.client,
            table_id=table_id,
            number=2,
            body=entry_for(api, table, 6),  # the declarer made six tricks, not four
        )
        after = api.call("tables.tables_get_sheet", keeper.client, table_id=table_id)
        assert len(after.rows) == 3
        assert after.rows[0].to_dict() == before.rows[0].to_dict()
        assert after.rows[1].to_dict() != before.rows[1].to_dict()
        # The same sheet as CSV, read by the generated client as text.
        text = api.call("tables.tables_get_sheet_csv", keeper.client, table_id=table_id)
        sheet = list(csv.DictReader(io.StringIO(text)))
        assert [int(row["number"]) for row in sheet] == [row.number for row in after.rows]
        last = after.rows[-1]
        assert {key: int(sheet[-1][key]) for key in last.balances.to_dict()} == (
            last.balances.to_dict()
        )
        assert int(sheet[-1]["pot"]) == last.pot

    # The evening closes with payments that settle every player's net exactly.
    settled = api.call("evenings.evenings_close", anna.client, **where)
    assert settled.final
    assert sum(row.net for row in settled.players) + settled.pot_net == 0
    paid: dict[str, int] = {}
    for payment in settled.payments:
        paid[payment.from_name] = paid.get(payment.from_name, 0) - payment.amount
        paid[payment.to_name] = paid.get(payment.to_name, 0) + payment.amount
    nets = {row.name: row.net for row in settled.players}
    assert {k: v for k, v in paid.items() if k in nets and v} == {
        k: v for k, v in nets.items() if v
    }
    assert sum(v for k, v in paid.items() if k not in nets) == settled.pot_net  # the pot
    again = api.call("evenings.evenings_get_settlement", bert.client, **where)
    assert again.to_dict() == settled.to_dict()
    text = api.call("evenings.evenings_get_settlement_csv", bert.client, **where)
    payments = list(csv.reader(io.StringIO(text)))
    assert payments[0] == ["from", "to", "amount", "sentence"]
    assert [row[3] for row in payments[1 : 1 + len(settled.payments)]] == [
        payment.sentence for payment in settled.payments
    ]

    # The evening in both calendars: the public club's and bert's personal feed.
    uid = f"UID:evening-{evening.id}@"
    club_feed = api.call("clubs.clubs_download_calendar", api.anonymous, club_id=club.id)
    assert club_feed.startswith("BEGIN:VCALENDAR") and uid in club_feed
    feed = api.call("calendars.calendar_feeds_create", bert.client, 201)
    personal = api.call("calendars.calendar_feeds_download", api.anonymous, token=feed.token)
    assert personal.startswith("BEGIN:VCALENDAR") and uid in personal

    # The worker computes the season's standings; a client holding them gets a 304.
    def computed() -> Any:
        found = api.call(
            "seasons.seasons_get_standings", bert.client, club_id=club.id, season_id=season.id
        )
        return found if found.up_to_date and found.rows else None

    standings = until("the season's standings", computed)
    assert len(standings.rows) == 6
    module = importlib.import_module(f"{PACKAGE}.api.seasons.seasons_get_standings")
    first = module.sync_detailed(client=bert.client, club_id=club.id, season_id=season.id)
    etag = first.headers["ETag"]
    unchanged = module.sync_detailed(
        client=bert.client, club_id=club.id, season_id=season.id, if_none_match=etag
    )
    assert unchanged.status_code == 304 and unchanged.parsed is None
    return anna, others


WIEN = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
KURZ = {"variant": "kurz"}
DDV = {"variant": "doppelkopf-ddv", "point_value": 10}


def a_hosted_hand(
    api: Api, anna: Player, rules: dict[str, Any] = WIEN, bots: int = 2, level: str = "random"
) -> None:
    """Anna and ``bots`` bots of ``level`` at a table of ``rules``: dealt without a body,
    played to its end, each of anna's moves sent with the version she saw and an idempotency
    key, one of them sent twice."""
    table = api.call(
        "tables.tables_create",
        anna.client,
        201,
        body=api.model("TableCreateRequest").from_dict(
            {
                "name": f"Online-Tisch ({rules['variant']})",
                "mode": "hosted",
                "rules": rules,
                "seats": [
                    {"key": "anna", "kind": "user", "user": anna.user_id},
                    *(
                        {"key": f"bot-{i}", "kind": "bot", "bot_level": level}
                        for i in range(1, bots + 1)
                    ),
                ],
            }
        ),
    )
    assert table.seats[0].user == anna.user_id  # a seat reads back the id it was written with
    play_a_hand(api, anna, table.id, repeat=True)
    balances = api.call("tables.tables_get_balances", anna.client, table_id=table.id)
    parties = balances.balances.to_dict()  # the seats and the pot: the ledger sums to zero
    seats = {"anna", *(f"bot-{i}" for i in range(1, bots + 1))}
    assert set(parties) >= {*seats, "pot"} and sum(parties.values()) == 0


def play_a_hand(api: Api, anna: Player, table_id: int, *, repeat: bool = False) -> Any:
    """Deal the table's next hand without a body and play it to its end, each of anna's moves
    sent with the version she saw and an idempotency key (with ``repeat``: one sent twice, and
    one with a stale version). Answers the hand's record."""
    hand = api.call("hands.hands_create", anna.client, 201, table_id=table_id)
    where = {"table_id": table_id, "number": hand.number}
    repeated = not repeat
    while True:

        def my_turn_or_done() -> Any:
            view = api.call("hands.hands_get_view", anna.client, **where)
            return view if view.status == "done" or view.to_act == "anna" else None

        view = until("anna's turn or the end of the hand", my_turn_or_done)
        if view.status == "done":
            break
        # Her own seat, and the cards she plays from: her own, or in Preferans's open play the
        # passer's that she sends as the whister (her own may be gone by the last trick).
        plays_from = view.hand or [c for cards in view.open_hands.to_dict().values() for c in cards]
        assert view.seat == "anna" and plays_from
        legal = view.legal
        choice = next((a for a in legal if a.to_dict() != {"call": "pass"}), legal[0])
        body = api.model("ActionInputRequest").from_dict(
            {"action": choice.to_dict(), "expected_version": view.version}
        )
        key = str(uuid.uuid4())
        moved = api.call("hands.hands_act", anna.client, body=body, idempotency_key=key, **where)
        if not repeated:
            again = api.call(
                "hands.hands_act", anna.client, body=body, idempotency_key=key, **where
            )
            assert again.version == moved.version
            stale = importlib.import_module(f"{PACKAGE}.api.hands.hands_act").sync_detailed(
                client=anna.client, body=body, idempotency_key=str(uuid.uuid4()), **where
            )
            assert stale.status_code == 409 and stale.parsed.code == "stale_version"
            repeated = True
    record = api.call("hands.hands_get_record", anna.client, **where)
    assert record.to_dict()["result"]
    return record


PREFERANS = {"variant": "preferans", "convention": "sochi", "pool_target": 20, "whist_value": 10}


def a_short_pulya(api: Api, anna: Player) -> None:
    """Anna and two bots keep a Russian Preferans pulya: two hosted deals, each scored on the
    running sheet (pool, mountain, whists, typed); closing the table settles the pulya into
    whists and, at 10 cents a whist, into money."""
    table = api.call(
        "tables.tables_create",
        anna.client,
        201,
        body=api.model("TableCreateRequest").from_dict(
            {
                "name": "Пуля",
                "mode": "hosted",
                "rules": PREFERANS,
                "seats": [
                    {"key": "anna", "kind": "user", "user": anna.user_id},
                    {"key": "bot-1", "kind": "bot", "bot_level": "random"},
                    {"key": "bot-2", "kind": "bot", "bot_level": "random"},
                ],
            }
        ),
    )
    assert (
        table.rules.to_dict()
        == api.model("PreferansRules").from_dict(table.rules.to_dict()).to_dict()
    )
    for _ in range(2):
        record = play_a_hand(api, anna, table.id)
        assert record.to_dict()["result"]["delta"] == {"anna": 0, "bot-1": 0, "bot-2": 0}
    sheet = api.call("tables.tables_get_sheet", anna.client, table_id=table.id)
    assert len(sheet.rows) == 2
    pulya = sheet.rows[-1].pulya
    assert set(pulya.pool.to_dict()) == set(pulya.mountain.to_dict()) == {"anna", "bot-1", "bot-2"}
    open_now = api.call("tables.tables_get_settlement", anna.client, table_id=table.id)
    assert open_now.score_unit == "whists" and open_now.payments == []
    scores = open_now.scores.to_dict()
    assert sum(scores.values()) == 0
    api.call("tables.tables_close", anna.client, table_id=table.id)
    closed = api.call("tables.tables_get_settlement", anna.client, table_id=table.id)
    assert closed.scores.to_dict() == scores
    assert closed.nets.to_dict() == {seat: 10 * whists for seat, whists in scores.items()}


def a_tournament_round(api: Api, anna: Player, others: list[Player]) -> None:
    """Anna directs; six players enter and check in; the round is seated (by the worker) and
    started; anyone reads the standings, and their ETag gives a 304."""
    tournament = api.call(
        "tournaments.tournaments_create",
        anna.client,
        201,
        body=api.model("TournamentInputRequest").from_dict(
            {
                "name": "Wiener Frühjahrsturnier",
                "rules": {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100},
                "rounds_planned": 2,
                "deals_per_round": 12,
            }
        ),
    )
    where = {"tournament_id": tournament.id}
    api.call("tournaments.tournaments_open_registration", anna.client, **where)
    players = [*others, api.sign_up("gerti")]
    entries = {}
    for player in players[:6]:
        entry = api.call(
            "entries.entries_create",
            player.client,
            201,
            body=api.model("EntryInputRequest").from_dict({}),
            **where,
        )
        entries[player.username] = entry
    api.call("tournaments.tournaments_open_check_in", anna.client, **where)
    for player in players[:6]:
        checked = api.call(
            "entries.entries_check_in",
            player.client,
            entry_id=entries[player.username].id,
            **where,
        )
        assert checked.status == "checked_in"
    api.call(
        "tournament_rounds.tournament_rounds_seat",
        anna.client,
        202,
        body=api.model("RoundSeatingInputRequest").from_dict({}),
        **where,
    )

    def seated() -> Any:
        found = api.call(
            "tournament_rounds.tournament_rounds_get", api.anonymous, round_number=1, **where
        )
        return found if found.status == "seated" else None

    rnd = until("the round's seating", seated)
    assert sorted(len(t.players) for t in rnd.tables) == [3, 3]
    started = api.call(
        "tournament_rounds.tournament_rounds_start", anna.client, round_number=1, **where
    )
    assert started.status == "playing"
    mine = api.call("tournaments.tournaments_get_mine", players[0].client, **where)
    assert mine.round_status == "playing" and mine.next_seat
    seated_here = [p.entry for p in mine.next_table.players]
    assert entries[players[0].username].id in seated_here and len(seated_here) == 3

    # The director records two deals at the first table; anyone follows the standings.
    table_id = rnd.tables[0].table
    for tricks in (6, 3):
        table = api.call("tables.tables_get", anna.client, table_id=table_id)
        api.call(
            "hands.hands_create",
            anna.client,
            201,
            table_id=table_id,
            body=entry_for(api, table, tricks),
            idempotency_key=str(uuid.uuid4()),
        )
    module = importlib.import_module(f"{PACKAGE}.api.tournaments.tournaments_get_standings")

    def with_results() -> Any:
        found = module.sync_detailed(client=api.anonymous, **where)
        assert found.status_code == 200
        return found if found.parsed.up_to_date and found.parsed.version else None

    first = until("the tournament's standings", with_results)
    ranked = {row.entry for row in first.parsed.rows}
    assert {p.entry for p in rnd.tables[0].players} <= ranked
    unchanged = module.sync_detailed(
        client=api.anonymous, if_none_match=first.headers["ETag"], **where
    )
    assert unchanged.status_code == 304 and unchanged.parsed is None

    # The exports: JSON typed like the standings, CSV and the hands as text.
    order = [row.entry for row in first.parsed.rows]
    exported = api.call("tournaments.tournaments_export_standings", api.anonymous, **where)
    assert [row.entry for row in exported.rows] == order
    text = api.call("tournaments.tournaments_export_standings_csv", api.anonymous, **where)
    assert [int(row["entry"]) for row in csv.DictReader(io.StringIO(text))] == order
    hands = api.call("tournaments.tournaments_export_hands", api.anonymous, **where)
    assert hands.hands
    text = api.call("tournaments.tournaments_export_hands_csv", api.anonymous, **where)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(int(r["hand"]), int(r["entry"]), int(r["amount"])) for r in rows] == [
        (hand.hand, seat.entry, seat.amount) for hand in hands.hands for seat in hand.players
    ]


def a_phone(api: Api, anna: Player) -> None:
    """Anna's app registers her phone for push, turns "your turn" off and reads what it was
    told: the evening's round seated her, and the inbox says where, typed by the schema."""
    body = api.model("DeviceRequest").from_dict(
        {"kind": "fcm", "token": "fcm-token:" + uuid.uuid4().hex, "name": "Anna's phone"}
    )
    device = api.call("devices.devices_register", anna.client, 201, body=body)
    again = api.call("devices.devices_register", anna.client, 200, body=body)
    assert again.id == device.id
    change = api.model("PatchedMeUpdateRequest").from_dict(
        {"notifications": [{"type": "your_turn", "channel": "off"}]}
    )
    me = api.call("me.me_update", anna.client, body=change)
    assert {n.type_: n.channel for n in me.notifications}["your_turn"] == "off"  # type_: a keyword

    def told() -> Any:
        items = api.call("devices.inbox_list", anna.client)
        return [item for item in items if item.type_ == "seated"]

    seated = until("the seated notification", told)
    payload = seated[0].payload
    assert payload.type_ == "seated" and payload.notification_id == seated[0].id
    assert payload.path == f"/api/v1/tables/{payload.table_id}/"
    assert api.call("devices.web_push_key_retrieve", api.anonymous).public_key is None
    api.call("devices.devices_revoke", anna.client, 204, device_id=device.id)


def run_everything(package: ModuleType, base_url: str) -> None:
    api = Api(package, base_url)
    try:
        anna, others = a_club_evening(api)
        a_phone(api, anna)
        a_hosted_hand(api, anna)
        a_hosted_hand(api, anna, KURZ)  # a rule set beyond wien: its rules and actions
        a_short_pulya(api, anna)  # points, a running sheet, settled at the close
        a_hosted_hand(api, anna, DDV, bots=3, level="heuristic")  # four seats, announcements
        a_tournament_round(api, anna, others)
    finally:
        api.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_the_generated_client_runs_an_evening_a_hosted_hand_and_a_tournament_round(
    generated_client: ModuleType, live_server: Any, settings: Any
) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    run_everything(generated_client, live_server.url)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_generated_client_works_with_the_worker_behind_the_server(
    generated_client: ModuleType,
    live_server: Any,
    celery_worker_process: WorkerProcess,
) -> None:
    run_everything(generated_client, live_server.url)


def test_every_generated_module_imports_and_every_operation_has_its_function(
    generated_client: ModuleType,
) -> None:
    """The first thing an app maker does: import the operations (a schema that documents a
    body twice once made modules fail at import with ``NameError``)."""
    schema = yaml.safe_load((PROJECT_DIR / "docs" / "openapi.yaml").read_text())
    expected = {
        f"{operation['tags'][0].replace(' ', '_')}.{operation['operationId']}"
        for item in schema["paths"].values()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    }
    api = importlib.import_module(f"{PACKAGE}.api")
    found = set()
    for info in pkgutil.walk_packages(api.__path__, prefix=f"{PACKAGE}.api."):
        module = importlib.import_module(info.name)
        if hasattr(module, "sync_detailed"):
            found.add(info.name.removeprefix(f"{PACKAGE}.api."))
    assert found == expected
