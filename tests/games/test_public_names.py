"""Names at public tables (issue 39, docs/games.md "Names in public lists"): a reader who is
not in a table's world (not seated there, not a member of its club, neither its creator nor
its director) reads a seat's player by name only where the player agreed
(``User.public_name``), or the table's club publishes names (``Club.name_policy``) and the
player did not object; elsewhere by the player's pseudonym. Seat keys are no names and stay.

The seats here have neutral keys (``p1``, ``p2``, ``g1``) and the people distinctive names,
so that an answer that leaks a name is caught by looking for it anywhere in the answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs import privacy
from clubs.models import Club, Guest, Membership, User
from games import services
from games.models import Seat, Table
from tests.factories import UserFactory
from tests.games.conftest import RULES
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

#: Score-sheet entries for the seats p1, p2 and g1 with g1 dealing (p1 forehand).
MADE = {
    "game": {"type": "suit", "level": "D", "talon": True},
    "declarer": "p1",
    "defence": {"p2": "play", "g1": "play"},
    "tricks": {"p1": 6, "p2": 2, "g1": 2},
}
FELL = {
    "game": {"type": "suit", "level": "D", "talon": True},
    "declarer": "p2",
    "defence": {"p1": "play", "g1": "play"},
    "tricks": {"p2": 4, "p1": 3, "g1": 3},
}


@dataclass
class World:
    """A public club (``Offene Runde``) whose table seats ``agreed`` (public_name true, seat
    p1), ``undecided`` (no choice, p2) and the club's guest Gustav (g1); ``ole``, an admin of
    the club, opened it and entered the second hand, ``undecided`` the first. ``objected``
    (public_name false) and ``outsider`` belong to no club."""

    users: dict[str, User]
    club: Club
    guest: Guest
    table: Table

    def client(self, role: str) -> APIClient:
        return APIClient() if role == "anonymous" else client_for(self.users[role])


def person(username: str, name: str, **choice: Any) -> User:
    return UserFactory.create(username=username, display_name=name, **choice)


@pytest.fixture
def w() -> World:
    users = {
        "agreed": person("agnesagreed", "Agnes Agreed", public_name=True),
        "undecided": person("ulrichundecided", "Ulrich Undecided"),
        "objected": person("oskarobjected", "Oskar Objected", public_name=False),
        "ole": person("oleorganiser", "Ole Organiser"),
        "outsider": person("otto", "Otto Outsider"),
    }
    club = Club.objects.create(name="Offene Runde", is_public=True)
    Membership.objects.create(club=club, user=users["ole"], role=Membership.Role.ADMIN)
    for role in ("agreed", "undecided"):
        Membership.objects.create(club=club, user=users[role])
    guest = Guest.objects.create(club=club, name="Gustav Gast")
    table = services.table_create(
        user=users["ole"],
        name="Freitag",
        mode=Table.Mode.RECORDED,
        rules=RULES,
        seats=[
            services.SeatSpec(key="p1", kind="user", user=users["agreed"]),
            services.SeatSpec(key="p2", kind="user", user=users["undecided"]),
            services.SeatSpec(key="g1", kind="guest", guest=guest, guest_name=guest.name),
        ],
        first_dealer="g1",
        club_id=club.pk,
    )
    services.table_record_hand(table_id=table.pk, user=users["undecided"], entry=MADE)
    services.table_record_hand(table_id=table.pk, user=users["ole"], entry=FELL)
    return World(users, club, guest, table)


def url(w: World, rest: str = "") -> str:
    return f"/api/v1/tables/{w.table.pk}/{rest}"


def get(w: World, role: str, rest: str = "") -> Any:
    answer = w.client(role).get(url(w, rest))
    assert answer.status_code == 200, answer.content
    return answer


def seats(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {seat["key"]: seat for seat in body["seats"]}


def pseudonym(user: User) -> str:
    return privacy.public_pseudonym(f"u:{user.pk}")


def guest_pseudonym(w: World) -> str:
    return privacy.public_pseudonym(f"g:{w.guest.pk}")


def hidden_names(w: World) -> list[str]:
    """What names Ulrich, the guest and Ole: none of it may reach the public."""
    undecided, ole = w.users["undecided"], w.users["ole"]
    return [undecided.display_name, undecided.username, "Gustav", ole.display_name, ole.username]


def assert_names_none_of(answer: Any, names: list[str]) -> None:
    text = answer.content.decode()
    for name in names:
        assert name not in text, f"{name!r} in {text}"


# ---------------------------------------------------------------------------------------------
# the public version


@pytest.mark.parametrize("reader", ["anonymous", "outsider"])
def test_the_public_reads_a_seat_by_name_only_where_its_player_agreed(
    w: World, reader: str
) -> None:
    answer = get(w, reader)
    by_key = seats(answer.json())
    agreed, undecided = w.users["agreed"], w.users["undecided"]
    assert (by_key["p1"]["name"], by_key["p1"]["username"]) == ("Agnes Agreed", agreed.username)
    assert (by_key["p2"]["name"], by_key["p2"]["username"]) == (pseudonym(undecided), None)
    assert by_key["g1"]["name"] == by_key["g1"]["guest_name"] == guest_pseudonym(w)
    # the seat keys and the account ids stay: they are no names
    assert [s["key"] for s in answer.json()["seats"]] == ["p1", "p2", "g1"]
    assert by_key["p2"]["user"] == undecided.pk
    assert answer.json()["created_by"] == pseudonym(w.users["ole"])
    assert_names_none_of(answer, hidden_names(w))


def test_the_list_of_tables_reads_as_the_table_does(w: World) -> None:
    listed = APIClient().get("/api/v1/tables/", {"club": w.club.pk}).json()["results"]
    assert [t["seats"] for t in listed] == [get(w, "anonymous").json()["seats"]]
    assert listed[0]["created_by"] == pseudonym(w.users["ole"])


def test_the_score_sheet_names_seats_as_the_table_does(w: World) -> None:
    sheet = get(w, "anonymous", "sheet/")
    names = {seat["key"]: seat["name"] for seat in sheet.json()["seats"]}
    assert names == {
        "p1": "Agnes Agreed",
        "p2": pseudonym(w.users["undecided"]),
        "g1": guest_pseudonym(w),
    }
    assert_names_none_of(sheet, hidden_names(w))
    csv = get(w, "anonymous", "sheet.csv")
    assert csv.content.decode().splitlines()[0].split(",")[6:9] == ["p1", "p2", "g1"]
    assert_names_none_of(csv, [*hidden_names(w), "Agnes"])  # the CSV names seats by key


def test_the_payments_name_players_as_the_table_does(w: World) -> None:
    answer = get(w, "anonymous", "settlement/")
    sentences = " ".join(p["sentence"] for p in answer.json()["payments"])
    assert pseudonym(w.users["undecided"]) in sentences or guest_pseudonym(w) in sentences
    assert_names_none_of(answer, hidden_names(w))


def test_the_hands_and_the_audit_log_name_accounts_as_the_table_does(w: World) -> None:
    hands = get(w, "anonymous", "hands/").json()["results"]
    undecided, ole = w.users["undecided"], w.users["ole"]
    assert [h["entered_by"] for h in hands] == [pseudonym(undecided), pseudonym(ole)]
    assert get(w, "anonymous", "hands/1/").json()["entered_by"] == pseudonym(undecided)
    audit = get(w, "anonymous", "audit/")
    assert {e["user"] for e in audit.json()["results"]} == {pseudonym(undecided), pseudonym(ole)}
    assert_names_none_of(audit, hidden_names(w))
    for rest in ("hands/1/view/", "hands/1/record/", "ledger/", "balances/"):
        assert_names_none_of(get(w, "anonymous", rest), hidden_names(w))


def test_a_club_that_publishes_names_shows_every_name_but_of_who_objected(w: World) -> None:
    Club.objects.filter(pk=w.club.pk).update(name_policy=Club.NamePolicy.PUBLISH)
    objected = w.users["objected"]
    Membership.objects.create(club=w.club, user=objected)
    # the guest turns out to be Oskar, who objected: his seat is his pseudonym
    Guest.objects.filter(pk=w.guest.pk).update(merged_into=objected)
    by_key = seats(get(w, "anonymous").json())
    assert by_key["p1"]["name"] == "Agnes Agreed"
    assert by_key["p2"]["name"] == "Ulrich Undecided"
    assert by_key["g1"]["name"] == by_key["g1"]["guest_name"] == pseudonym(objected)


def test_a_guest_of_a_club_that_publishes_names_is_named(w: World) -> None:
    Club.objects.filter(pk=w.club.pk).update(name_policy=Club.NamePolicy.PUBLISH)
    assert seats(get(w, "outsider").json())["g1"]["name"] == "Gustav Gast"
    assert get(w, "anonymous").json()["created_by"] == w.users["ole"].username


def test_a_new_choice_shows_on_the_next_read(w: World) -> None:
    undecided = w.users["undecided"]
    User.objects.filter(pk=undecided.pk).update(public_name=True)
    assert seats(get(w, "anonymous").json())["p2"]["name"] == "Ulrich Undecided"
    User.objects.filter(pk=w.users["agreed"].pk).update(public_name=False)
    assert seats(get(w, "anonymous").json())["p1"]["name"] == pseudonym(w.users["agreed"])


# ---------------------------------------------------------------------------------------------
# the table's world


@pytest.mark.parametrize("reader", ["agreed", "undecided", "ole"])
def test_players_and_members_read_every_name(w: World, reader: str) -> None:
    answer = get(w, reader)
    by_key = seats(answer.json())
    assert [by_key[k]["name"] for k in ("p1", "p2", "g1")] == [
        "Agnes Agreed",
        "Ulrich Undecided",
        "Gustav Gast",
    ]
    assert by_key["p2"]["username"] == w.users["undecided"].username
    assert answer.json()["created_by"] == w.users["ole"].username
    sheet = get(w, reader, "sheet/").json()
    assert [s["name"] for s in sheet["seats"]] == [
        "Agnes Agreed",
        "Ulrich Undecided",
        "Gustav Gast",
    ]
    hands = get(w, reader, "hands/").json()["results"]
    assert [h["entered_by"] for h in hands] == [w.users["undecided"].username, "oleorganiser"]


def test_a_person_reads_their_own_name_outside_the_tables_world(w: World) -> None:
    ole = w.users["ole"]
    Membership.objects.filter(club=w.club, user=ole).delete()
    # ole opened the table: its creator reads every name; as a mere enterer of a hand at
    # another club's table he would read only his own
    Table.objects.filter(pk=w.table.pk).update(created_by=None)
    hands = get(w, "ole", "hands/").json()["results"]
    assert [h["entered_by"] for h in hands] == [pseudonym(w.users["undecided"]), ole.username]
    assert seats(get(w, "ole").json())["p2"]["name"] == pseudonym(w.users["undecided"])


@pytest.fixture
def own_table(w: World) -> Table:
    """A public table of no club: Ulrich, Oskar and a guest known only by name, opened by
    Ulrich."""
    users = w.users
    table = services.table_create(
        user=users["undecided"],
        name="Offener Tisch",
        mode=Table.Mode.RECORDED,
        rules=RULES,
        seats=[
            services.SeatSpec(key="p1", kind="user", user=users["objected"]),
            services.SeatSpec(key="p2", kind="user", user=users["undecided"]),
            services.SeatSpec(key="g1", kind="guest", guest_name="Gerda Gast"),
        ],
        first_dealer="g1",
        is_public=True,
    )
    services.table_record_hand(table_id=table.pk, user=users["undecided"], entry=MADE)
    return table


def test_at_a_table_of_no_club_only_names_of_who_agreed_show(w: World, own_table: Table) -> None:
    body = APIClient().get(f"/api/v1/tables/{own_table.pk}/").json()
    seat = next(s for s in own_table.seats.all() if s.key == "g1")
    assert [s["name"] for s in body["seats"]] == [
        pseudonym(w.users["objected"]),
        pseudonym(w.users["undecided"]),
        privacy.public_pseudonym(f"s:{seat.pk}"),
    ]
    # its players read every name, and someone who only agreed reads theirs
    seated = client_for(w.users["objected"]).get(f"/api/v1/tables/{own_table.pk}/").json()
    assert [s["name"] for s in seated["seats"]] == [
        "Oskar Objected",
        "Ulrich Undecided",
        "Gerda Gast",
    ]


def test_a_seat_is_read_in_the_readers_language(w: World) -> None:
    body = APIClient().get(url(w), HTTP_ACCEPT_LANGUAGE="de").json()
    assert seats(body)["p2"]["name"].startswith("Spieler ")


def test_a_spectator_of_a_hosted_table_reads_no_names(w: World) -> None:
    users = w.users
    table = services.table_create(
        user=users["undecided"],
        name="Gespielt",
        mode=Table.Mode.HOSTED,
        rules=RULES,
        seats=[
            services.SeatSpec(key="p1", kind="user", user=users["agreed"]),
            services.SeatSpec(key="p2", kind="user", user=users["undecided"]),
            services.SeatSpec(key="g1", kind="bot", bot_level="random"),
        ],
        first_dealer="g1",
        is_public=True,
    )
    services.hand_start(table_id=table.pk, user=users["undecided"])
    base = f"/api/v1/tables/{table.pk}/hands/1/"
    for rest in ("", "view/"):
        answer = APIClient().get(base + rest)
        assert answer.status_code == 200, answer.content
        assert_names_none_of(answer, hidden_names(w))
    assert APIClient().get(base).json()["entered_by"] == pseudonym(users["undecided"])
    assert Seat.objects.filter(table=table).count() == 3


def test_the_names_cost_no_query_for_a_seated_reader(
    w: World, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    """A seated player's read of the hands stays the three queries of
    ``test_it_lists_a_hundred_hands_in_three_queries``: the table, its seats and the page."""
    client = APIClient()
    client.force_authenticate(w.users["agreed"])  # no query for the token's user
    with django_assert_max_num_queries(3):
        assert client.get(url(w, "hands/")).status_code == 200
