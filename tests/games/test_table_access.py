"""Who may open, seat, read, close and reopen a table, per role and per kind of table
(``games/permissions.py``; docs/games.md "Permissions", docs/clubs.md "Who may do what").

Kinds: a private club's table (its members anna, bert, carl seated), a tournament round's
table (no club; anna, bert, carl seated, ``director`` runs it), the players' own table (no
club, no group) and a public club's table. Roles: ``anonymous``, ``outsider`` (signed in, in
no club), ``member``, ``scorer``, ``admin``, ``owner`` of the private club, ``seated`` (anna),
``director`` of the tournament.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import Club, Guest, Membership, User
from games import services
from games.models import AuditEntry, LedgerEntry, Table
from tests.factories import UserFactory
from tests.games.conftest import FELL, MADE, RULES
from tournaments.models import Round, RoundTable, Tournament

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "member", "scorer", "admin", "owner", "seated", "director")
CLUB_ROLES = {
    "owner": Membership.Role.OWNER,
    "admin": Membership.Role.ADMIN,
    "scorer": Membership.Role.SCORER,
    "member": Membership.Role.MEMBER,
}
NO_SUCH_TABLE = {"code": "not_found", "message": "There is no such table.", "fields": {}}


@dataclass
class Tables:
    users: dict[str, User]
    club: Club
    public_club: Club
    round: Round
    club_table: Table
    round_table: Table
    own_table: Table

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            client.force_authenticate(self.users["anna" if role == "seated" else role])
        return client


def seats(*users: User) -> list[services.SeatSpec]:
    return [services.SeatSpec(key=u.username, kind="user", user=u) for u in users]


@pytest.fixture
def w() -> Tables:
    names = ("anna", "bert", "carl", "outsider", "director", *CLUB_ROLES)
    users = {name: UserFactory.create(username=name) for name in names}
    club = Club.objects.create(name="Hinterzimmer")
    for name, role in CLUB_ROLES.items():
        Membership.objects.create(club=club, user=users[name], role=role)
    for name in ("anna", "bert", "carl"):
        Membership.objects.create(club=club, user=users[name])
    public_club = Club.objects.create(name="Offene Runde", is_public=True)
    players = [users["anna"], users["bert"], users["carl"]]
    common: dict[str, Any] = {"mode": "recorded", "rules": RULES, "first_dealer": "carl"}
    club_table = services.table_create(
        user=users["admin"], name="club", seats=seats(*players), club_id=club.pk, **common
    )
    tournament = Tournament.objects.create(name="Cup")
    tournament.directors.add(users["director"])
    rnd = Round.objects.create(tournament=tournament, number=1)
    round_table = services.table_create(
        user=users["director"], name="round", seats=seats(*players), **common
    )
    RoundTable.objects.create(round=rnd, number=1, table=round_table)
    own_table = services.table_create(
        user=users["anna"], name="own", seats=seats(*players), **common
    )
    for table in (club_table, round_table, own_table):
        services.table_record_hand(table_id=table.pk, user=users["anna"], entry=MADE)
    return Tables(users, club, public_club, rnd, club_table, round_table, own_table)


def close(w: Tables, role: str, table: Table) -> Any:
    return w.client(role).post(f"/api/v1/tables/{table.pk}/close/")


def reopen(w: Tables, role: str, table: Table) -> Any:
    return w.client(role).post(f"/api/v1/tables/{table.pk}/reopen/")


# ---------------------------------------------------------------------------------------------
# close


CLOSE_CLUB_TABLE = {
    "anonymous": 401,
    "outsider": 404,
    "member": 403,
    "scorer": 200,
    "admin": 200,
    "owner": 200,
    "seated": 403,
    "director": 404,
}
CLOSE_ROUND_TABLE = {
    "anonymous": 401,
    "outsider": 404,
    "member": 404,
    "scorer": 404,
    "admin": 404,
    "owner": 404,
    "seated": 403,
    "director": 200,
}
CLOSE_OWN_TABLE = {**CLOSE_ROUND_TABLE, "seated": 200, "director": 404}


@pytest.mark.parametrize("role", ROLES)
def test_it_lets_only_the_clubs_owners_admins_and_scorers_close_a_club_table(
    w: Tables, role: str
) -> None:
    response = close(w, role, w.club_table)
    assert response.status_code == CLOSE_CLUB_TABLE[role], response.json()
    w.club_table.refresh_from_db()
    assert (w.club_table.status == "closed") == (response.status_code == 200)


@pytest.mark.parametrize("role", ROLES)
def test_it_lets_only_the_directors_close_a_tournament_round_table(w: Tables, role: str) -> None:
    response = close(w, role, w.round_table)
    assert response.status_code == CLOSE_ROUND_TABLE[role], response.json()


@pytest.mark.parametrize("role", ROLES)
def test_it_lets_the_players_close_their_own_table_of_no_club(w: Tables, role: str) -> None:
    assert close(w, role, w.own_table).status_code == CLOSE_OWN_TABLE[role]


def test_it_refuses_a_seated_player_closing_a_round_table_with_a_sentence(w: Tables) -> None:
    error = close(w, "seated", w.round_table).json()
    assert error["code"] == "permission_denied"
    assert "directors" in error["message"]
    w.round_table.refresh_from_db()
    assert w.round_table.status == "open"
    # the director can still record there
    services.table_record_hand(table_id=w.round_table.pk, user=w.users["director"], entry=FELL)


# ---------------------------------------------------------------------------------------------
# reopen


REOPEN_CLUB_TABLE = {**CLOSE_CLUB_TABLE, "scorer": 403}


@pytest.mark.parametrize("role", ROLES)
def test_it_lets_the_clubs_owners_and_admins_reopen_a_closed_club_table(
    w: Tables, role: str
) -> None:
    services.table_close(table_id=w.club_table.pk, user=w.users["admin"])
    response = reopen(w, role, w.club_table)
    assert response.status_code == REOPEN_CLUB_TABLE[role], response.json()
    if response.status_code == 200:
        assert response.json()["status"] == "open"
        assert response.json()["closing"] is None


@pytest.mark.parametrize("role", ROLES)
def test_it_lets_the_directors_reopen_a_round_table(w: Tables, role: str) -> None:
    services.table_close(table_id=w.round_table.pk, user=w.users["director"])
    assert reopen(w, role, w.round_table).status_code == CLOSE_ROUND_TABLE[role]


def test_reopening_gives_the_pot_back_to_the_table_and_is_audited(w: Tables) -> None:
    table = w.club_table
    services.table_record_hand(table_id=table.pk, user=w.users["scorer"], entry=FELL)
    pot = services.table_balances(table)["pot"]
    assert pot > 0
    services.table_close(table_id=table.pk, user=w.users["scorer"])
    assert services.series_pot(table.series) == pot

    assert reopen(w, "admin", table).status_code == 200

    table.refresh_from_db()
    assert table.status == "open" and table.closed_at is None
    assert services.table_balances(table)["pot"] == pot
    assert services.series_pot(table.series) == 0
    assert not LedgerEntry.objects.filter(table=table, reason="carry_out").exists()
    entry = AuditEntry.objects.filter(table=table, action="table_reopen").get()
    assert entry.user == w.users["admin"]
    assert entry.before["ledger"] == [
        {"from": "pot", "to": "series", "amount": pot, "why": "carry_out"}
    ]
    audit = w.client("admin").get(f"/api/v1/tables/{table.pk}/audit/").json()["results"]
    assert audit[0]["action"] == "table_reopen"
    # the table plays on and closes again
    services.table_record_hand(table_id=table.pk, user=w.users["scorer"], entry=FELL)
    assert close(w, "admin", table).status_code == 200


def test_reopening_takes_back_a_split_pot(w: Tables) -> None:
    table = services.table_create(
        user=w.users["anna"],
        name="split",
        mode="recorded",
        rules={**RULES, "pot_at_close": "split"},
        seats=seats(w.users["anna"], w.users["bert"], w.users["carl"]),
        first_dealer="carl",
    )
    services.table_record_hand(table_id=table.pk, user=w.users["anna"], entry=MADE)
    before = services.table_balances(table)
    services.table_close(table_id=table.pk, user=w.users["anna"])
    assert reopen(w, "seated", table).status_code == 200
    assert services.table_balances(table) == before
    assert not LedgerEntry.objects.filter(table=table, reason="split").exists()


def test_it_refuses_to_reopen_an_open_table(w: Tables) -> None:
    response = reopen(w, "admin", w.club_table)
    assert response.status_code == 409
    assert response.json()["code"] == "table_conflict"


def test_it_keeps_the_tables_of_a_closed_round_closed(w: Tables) -> None:
    services.table_close(table_id=w.round_table.pk, user=w.users["director"])
    Round.objects.filter(pk=w.round.pk).update(status=Round.Status.CLOSED)
    response = reopen(w, "director", w.round_table)
    assert response.status_code == 409
    assert response.json()["message"].startswith("Round 1 of this tournament is closed")
    w.round_table.refresh_from_db()
    assert w.round_table.status == "closed"


def test_it_refuses_to_reopen_when_a_later_table_of_the_series_has_opened(w: Tables) -> None:
    services.table_close(table_id=w.own_table.pk, user=w.users["anna"])
    services.table_create(
        user=w.users["anna"],
        name="next",
        mode="recorded",
        rules=RULES,
        seats=seats(w.users["anna"], w.users["bert"], w.users["carl"]),
        series_id=w.own_table.series_id,
    )
    response = reopen(w, "seated", w.own_table)
    assert response.status_code == 409
    assert "later table" in response.json()["message"]


# ---------------------------------------------------------------------------------------------
# create and seat


def new_table(club: int | None = None, *players: str) -> dict[str, Any]:
    names = list(players) or ["x", "y", "z"]
    seat_list: list[dict[str, Any]] = [
        {"key": n, "kind": "user", "user": n} if n in players else {"key": n, "kind": "guest"}
        for n in names
    ]
    while len(seat_list) < 3:
        seat_list.append({"key": f"g{len(seat_list)}", "kind": "guest"})
    return {"name": "t", "mode": "recorded", "rules": RULES, "seats": seat_list, "club": club}


CREATE_IN_CLUB_UNSEATED = {
    "anonymous": 401,
    "outsider": 400,
    "member": 403,
    "scorer": 403,
    "admin": 201,
    "owner": 201,
    "seated": 403,
    "director": 400,
}


@pytest.mark.parametrize("role", ROLES)
def test_it_lets_only_the_clubs_owners_and_admins_open_a_club_table_they_do_not_sit_at(
    w: Tables, role: str
) -> None:
    response = w.client(role).post("/api/v1/tables/", new_table(w.club.pk), format="json")
    assert response.status_code == CREATE_IN_CLUB_UNSEATED[role], response.json()


@pytest.mark.parametrize("role", ["member", "scorer", "admin", "owner", "seated"])
def test_it_lets_a_member_open_a_club_table_they_sit_at(w: Tables, role: str) -> None:
    me = "anna" if role == "seated" else role
    body = new_table(w.club.pk, me, "bert")
    response = w.client(role).post("/api/v1/tables/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["club"] == w.club.pk


def test_an_outsider_cannot_attach_a_table_to_a_private_club_by_sitting_at_it(w: Tables) -> None:
    body = new_table(w.club.pk, "outsider")
    response = w.client("outsider").post("/api/v1/tables/", body, format="json")
    unused = w.client("outsider").post("/api/v1/tables/", new_table(999_999, "outsider"), "json")
    assert response.status_code == 400
    assert response.json() == unused.json()
    assert response.json()["fields"] == {"club": ["There is no such club."]}
    assert not Table.objects.filter(club=w.club, created_by=w.users["outsider"]).exists()


def test_a_non_member_cannot_open_a_public_clubs_table(w: Tables) -> None:
    body = new_table(w.public_club.pk, "outsider")
    response = w.client("outsider").post("/api/v1/tables/", body, format="json")
    assert response.status_code == 403
    assert response.json()["fields"] == {"club": ["not a member"]}


def test_it_refuses_to_seat_an_account_that_shares_no_club_with_the_caller(w: Tables) -> None:
    """By username (API 1.1.0's form) as by id: exactly as a username nobody has, so a
    username tells nothing about who has an account (tests/config/test_existence_oracles.py)."""
    body = new_table(None, "anna", "outsider")
    response = w.client("seated").post("/api/v1/tables/", body, format="json")
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "validation_error"
    assert error["fields"] == {"seats.1.user": ["There is no such user."]}
    assert not Table.objects.filter(seats__user=w.users["outsider"]).exists()


def test_it_seats_an_account_that_shares_a_club_with_the_caller(w: Tables) -> None:
    body = new_table(None, "anna", "bert", "carl")
    assert w.client("seated").post("/api/v1/tables/", body, format="json").status_code == 201


def test_at_a_club_table_it_seats_only_members_of_that_club(w: Tables) -> None:
    Membership.objects.create(club=w.public_club, user=w.users["outsider"])
    Membership.objects.create(club=w.public_club, user=w.users["admin"])
    body = new_table(w.club.pk, "outsider")
    response = w.client("admin").post("/api/v1/tables/", body, format="json")
    assert response.status_code == 403
    assert "member of this table's club" in response.json()["message"]


# ---------------------------------------------------------------------------------------------
# a table of no club its creator does not sit at


GUESTS = [
    {"key": k, "kind": "guest", "guest_name": k.capitalize()} for k in ("anna", "bert", "carl")
]
CREATOR_ROLES = (*ROLES, "creator")
#: At a table of no club and no group that only guests sit at, its creator is its organiser:
#: reads it, records and corrects its hands, closes and reopens it; nobody else exists for it.
MANAGE_GUESTS_TABLE = {**dict.fromkeys(CREATOR_ROLES, 404), "anonymous": 401, "creator": 200}


def guests_table(w: Tables) -> Table:
    """A table of no club that three guests sit at, opened through the API by ``creator``."""
    w.users.setdefault("creator", UserFactory.create(username="creator"))
    body = {"name": "Kaffeehaus", "mode": "recorded", "rules": RULES, "seats": GUESTS,
            "first_dealer": "carl"}  # fmt: skip
    response = w.client("creator").post("/api/v1/tables/", body, format="json")
    assert response.status_code == 201, response.json()
    return Table.objects.get(pk=response.json()["id"])


@pytest.mark.parametrize("role", CREATOR_ROLES)
def test_the_creator_of_a_table_of_guests_records_corrects_closes_and_reopens_it(
    w: Tables, role: str
) -> None:
    table = guests_table(w)
    client = w.client(role)
    base = f"/api/v1/tables/{table.pk}/"
    expected = MANAGE_GUESTS_TABLE[role]
    read = client.get(base)
    assert read.status_code == (404 if expected == 401 else expected)
    recorded = client.post(base + "hands/", MADE, format="json")
    assert recorded.status_code == (201 if expected == 200 else expected), recorded.json()
    if expected != 200:
        assert not table.hands.exists()
        services.table_record_hand(table_id=table.pk, user=w.users["creator"], entry=MADE)
    corrected = client.put(base + "hands/1/", FELL, format="json")
    assert corrected.status_code == expected, corrected.json()
    closed = client.post(base + "close/")
    assert closed.status_code == expected, closed.json()
    if expected != 200:
        services.table_close(table_id=table.pk, user=w.users["creator"])
    assert client.post(base + "reopen/").status_code == expected


def test_the_creator_of_a_tournament_rounds_table_manages_it_only_as_a_director(
    w: Tables,
) -> None:
    """A round's table of no club is grouped: its directors manage it, not whoever opened it."""
    table = services.table_create(
        user=w.users["outsider"], name="round", mode="recorded", rules=RULES,
        seats=[services.SeatSpec(key=g["key"], kind="guest", guest_name=g["guest_name"])
               for g in GUESTS],
        first_dealer="carl",
    )  # fmt: skip
    RoundTable.objects.create(round=w.round, number=2, table=table)
    refused = w.client("outsider").post(f"/api/v1/tables/{table.pk}/hands/", MADE, format="json")
    assert refused.status_code == 403
    assert close(w, "outsider", table).status_code == 403
    assert close(w, "director", table).status_code == 200


# ---------------------------------------------------------------------------------------------
# ids that must not tell a private thing from a missing one


def test_the_club_filter_answers_alike_for_a_private_and_an_unused_club(w: Tables) -> None:
    client = w.client("outsider")
    private = client.get("/api/v1/tables/", {"club": w.club.pk})
    unused = client.get("/api/v1/tables/", {"club": 999_999})
    assert private.status_code == unused.status_code == 200
    assert (
        private.json()
        == unused.json()
        == {
            "count": 0,
            "next": None,
            "previous": None,
            "results": [],
        }
    )


def test_the_series_filter_answers_alike_for_a_private_and_an_unused_series(w: Tables) -> None:
    client = w.client("outsider")
    private = client.get("/api/v1/tables/", {"series": w.own_table.series_id})
    unused = client.get("/api/v1/tables/", {"series": 999_999})
    assert private.status_code == unused.status_code == 200
    assert private.json() == unused.json()


def test_a_series_body_answers_alike_for_a_private_and_an_unused_club(w: Tables) -> None:
    client = w.client("outsider")
    private = client.post("/api/v1/series/", {"name": "s", "club": w.club.pk}, format="json")
    unused = client.post("/api/v1/series/", {"name": "s", "club": 999_999}, format="json")
    assert private.status_code == unused.status_code == 400
    assert private.json() == unused.json()


def test_a_table_body_answers_alike_for_a_private_and_an_unused_series(w: Tables) -> None:
    client = w.client("outsider")
    private = client.post(
        "/api/v1/tables/", {**new_table(), "series": w.own_table.series_id}, format="json"
    )
    unused = client.post("/api/v1/tables/", {**new_table(), "series": 999_999}, format="json")
    assert private.status_code == unused.status_code == 400
    assert private.json() == unused.json()


# ---------------------------------------------------------------------------------------------
# read


READ_CLUB_TABLE = {
    "anonymous": 404,
    "outsider": 404,
    "member": 200,
    "scorer": 200,
    "admin": 200,
    "owner": 200,
    "seated": 200,
    "director": 404,
}


@pytest.mark.parametrize("suffix", ["", "sheet/", "hands/", "ledger/"])
@pytest.mark.parametrize("role", ROLES)
def test_every_member_reads_the_clubs_tables_and_others_get_one_sentence(
    w: Tables, role: str, suffix: str
) -> None:
    response = w.client(role).get(f"/api/v1/tables/{w.club_table.pk}/{suffix}")
    assert response.status_code == READ_CLUB_TABLE[role]
    if response.status_code == 404:
        assert response.json() == NO_SUCH_TABLE
        unused = w.client(role).get(f"/api/v1/tables/999999/{suffix}")
        assert unused.json() == NO_SUCH_TABLE


@pytest.mark.parametrize("role", ROLES)
def test_anyone_reads_a_public_clubs_tables_and_sheets(w: Tables, role: str) -> None:
    Membership.objects.create(club=w.public_club, user=w.users["admin"], role="admin")
    table = services.table_create(
        user=w.users["admin"],
        name="open evening",
        mode="recorded",
        rules=RULES,
        seats=[services.SeatSpec(key=k, kind="guest", guest_name=k) for k in ("x", "y", "z")],
        first_dealer="z",
        club_id=w.public_club.pk,
    )
    client = w.client(role)
    assert client.get(f"/api/v1/tables/{table.pk}/").status_code == 200
    assert client.get(f"/api/v1/tables/{table.pk}/sheet/").status_code == 200
    listed = client.get("/api/v1/tables/", {"club": w.public_club.pk}).json()
    assert [t["id"] for t in listed["results"]] == [table.pk]


def test_a_member_who_is_not_seated_sees_a_club_hand_as_a_spectator(w: Tables) -> None:
    users = w.users
    table = services.table_create(
        user=users["admin"],
        name="hosted",
        mode="hosted",
        rules=RULES,
        seats=seats(users["anna"], users["bert"], users["carl"]),
        first_dealer="carl",
        club_id=w.club.pk,
    )
    hand = services.hand_start(table_id=table.pk, user=users["admin"])
    response = w.client("member").get(f"/api/v1/tables/{table.pk}/hands/1/view/")
    assert response.status_code == 200
    view = response.json()
    spectator = services.hand_view(table, hand, None, withheld=False)
    assert view["hand"] == spectator["hand"]
    assert view["seat"] is None
    shown = {c for c in engine.PIQUET.codes if f'"{c}"' in response.content.decode()}
    assert not shown
    record = w.client("member").get(f"/api/v1/tables/{table.pk}/hands/1/record/")
    assert record.status_code == 409


@pytest.mark.parametrize("value", ["1e308", "99999999999999999999", "0", "x"])
def test_it_refuses_an_id_filter_that_is_no_id_with_a_400(w: Tables, value: str) -> None:
    response = w.client("outsider").get("/api/v1/tables/", {"club": value})
    assert response.status_code == 400
    assert "club" in response.json()["fields"]


# The list filters by the read rule written as a query (games.selectors._readable); a table's
# own address loads the table and asks games.permissions.can_read. The two must never differ:
# a table listed but answering 404, or read but never listed.
@pytest.mark.parametrize("role", [*ROLES, "merged", "staff"])
def test_a_table_reads_exactly_when_the_list_shows_it(w: Tables, role: str) -> None:
    users = w.users
    users["merged"] = UserFactory.create(username="merged")  # in no club: only a guest's seat
    users["staff"] = UserFactory.create(username="staff", is_staff=True)
    Membership.objects.create(club=w.public_club, user=users["admin"], role="admin")
    guest = Guest.objects.create(club=w.club, name="Berti", merged_into=users["merged"])
    guests = [services.SeatSpec(key=k, kind="guest", guest_name=k) for k in ("x", "y")]
    common: dict[str, Any] = {"mode": "recorded", "rules": RULES, "first_dealer": "x"}
    extra = [
        services.table_create(
            user=users["admin"], name="public club", seats=[*guests, seats(users["bert"])[0]],
            club_id=w.public_club.pk, **common,
        ),
        services.table_create(
            user=users["outsider"], name="public", seats=seats(users["outsider"]) + guests,
            is_public=True, **common,
        ),
        services.table_create(
            user=users["admin"], name="guest night", club_id=w.club.pk, **common,
            seats=[*guests, services.SeatSpec(key="berti", kind="guest", guest=guest)],
        ),
    ]  # fmt: skip
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(users["anna" if role == "seated" else role])
    listed = {t["id"] for t in client.get("/api/v1/tables/", {"page_size": 200}).json()["results"]}
    tables = [w.club_table, w.round_table, w.own_table, *extra]
    read = {t.pk for t in tables if client.get(f"/api/v1/tables/{t.pk}/").status_code == 200}
    assert read == listed & {t.pk for t in tables}
    assert {extra[0].pk, extra[1].pk} <= read  # public: everybody reads them
