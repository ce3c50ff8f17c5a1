"""A seat has one shape both ways: its account is written by user id, as it reads back, and
a seat read can be sent again. The username of API 1.1.0 is still taken as a JSON string."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Membership, User
from games.models import Table
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.conftest import RULES

Client = Callable[[User | None], APIClient]
SEAT_INPUT = ("key", "kind", "user", "guest_name", "bot_level")


@pytest.fixture(autouse=True)
def regulars(anna: User, bert: User) -> None:
    """anna and bert play in the same club, so anna may seat bert."""
    club = ClubFactory.create(name="Stammtisch")
    for user in (anna, bert):
        MembershipFactory.create(club=club, user=user)


def table_with(*seats: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {
        "name": "Friday",
        "mode": "recorded",
        "rules": RULES,
        "seats": list(seats),
        "first_dealer": seats[-1]["key"],
        **options,
    }


def open_with(client: APIClient, user: Any) -> Any:
    """Open a table seating ``user`` (as sent) beside anna and a guest."""
    body = table_with(
        {"key": "anna", "kind": "user", "user": "anna"},
        {"key": "other", "kind": "user", "user": user},
        {"key": "carl", "kind": "guest", "guest_name": "Carl G."},
    )
    return client.post("/api/v1/tables/", body, format="json")


@pytest.mark.django_db
def test_it_seats_an_account_by_id_and_reads_the_same_id_back(
    client_for: Client, anna: User, bert: User
) -> None:
    client = client_for(anna)
    body = table_with(
        {"key": "anna", "kind": "user", "user": anna.pk},
        {"key": "bert", "kind": "user", "user": bert.pk},
        {"key": "carl", "kind": "guest", "guest_name": "Carl G."},
    )
    response = client.post("/api/v1/tables/", body, format="json")
    assert response.status_code == 201, response.json()
    read = client.get(f"/api/v1/tables/{response.json()['id']}/").json()["seats"]
    assert [(s["key"], s["kind"], s["user"]) for s in read] == [
        ("anna", "user", anna.pk),
        ("bert", "user", bert.pk),
        ("carl", "guest", None),
    ]
    assert [s["username"] for s in read] == ["anna", "bert", None]
    assert read[2]["guest_name"] == "Carl G."


@pytest.mark.django_db
def test_a_seat_read_back_can_be_sent_again_as_it_is(
    client_for: Client, anna: User, bert: User
) -> None:
    client = client_for(anna)
    first = open_with(client, bert.pk).json()
    again = client.post("/api/v1/tables/", table_with(*first["seats"]), format="json")
    assert again.status_code == 201, again.json()
    assert [{k: s[k] for k in SEAT_INPUT} for s in again.json()["seats"]] == [
        {k: s[k] for k in SEAT_INPUT} for s in first["seats"]
    ]


@pytest.mark.django_db
def test_a_username_string_still_seats_an_account_as_in_api_1_1(
    client_for: Client, anna: User, bert: User
) -> None:
    response = open_with(client_for(anna), "bert")
    assert response.status_code == 201, response.json()
    assert response.json()["seats"][1]["user"] == bert.pk


@pytest.mark.django_db
def test_the_json_type_decides_a_username_of_digits_is_a_username(
    client_for: Client, anna: User, bert: User
) -> None:
    """A user named like bert's id: the string is the name, the number bert's id."""
    digits = UserFactory.create(username=str(bert.pk))
    Membership.objects.create(club=anna.memberships.get().club, user=digits)
    by_name = open_with(client_for(anna), str(bert.pk))
    by_id = open_with(client_for(anna), bert.pk)
    assert by_name.status_code == by_id.status_code == 201
    assert by_name.json()["seats"][1]["user"] == digits.pk
    assert by_id.json()["seats"][1]["user"] == bert.pk


@pytest.mark.django_db
def test_an_id_of_an_account_sharing_no_club_answers_exactly_as_an_unused_id(
    client_for: Client, anna: User, stranger: User
) -> None:
    client = client_for(anna)
    unused = max(User.objects.values_list("pk", flat=True)) + 1000
    invisible = open_with(client, stranger.pk)
    nobody = open_with(client, unused)
    assert invisible.status_code == nobody.status_code == 400
    assert invisible.json() == nobody.json()
    assert nobody.json()["code"] == "validation_error"
    assert nobody.json()["fields"] == {"seats.1.user": ["There is no such user."]}
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_at_a_club_table_an_account_seen_elsewhere_is_still_refused_by_the_club_rule(
    client_for: Client, anna: User, bert: User
) -> None:
    """bert shares a club with anna, but not the club whose table she opens: 403."""
    other = ClubFactory.create(name="Other")
    MembershipFactory.create(club=other, user=anna, role="admin")
    response = client_for(anna).post(
        "/api/v1/tables/",
        table_with(
            {"key": "anna", "kind": "user", "user": anna.pk},
            {"key": "bert", "kind": "user", "user": bert.pk},
            {"key": "carl", "kind": "guest"},
            club=other.pk,
        ),
        format="json",
    )
    assert response.status_code == 403
    assert response.json()["fields"] == {"seats": ["bert: seat a guest by name instead"]}


@pytest.mark.django_db
@pytest.mark.parametrize("user", [True, 1.5, 0, -3, 2**63, [1], {"id": 1}])
def test_a_user_that_is_no_id_is_a_field_error(client_for: Client, anna: User, user: Any) -> None:
    response = open_with(client_for(anna), user)
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"
    assert set(response.json()["fields"]) == {"seats.1.user"}
