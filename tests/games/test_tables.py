"""Tables: open, read, list and filter; who sees what."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import Membership, User
from games import services
from games.models import Table
from tests.factories import ClubFactory, MembershipFactory
from tests.games.conftest import RULES

Client = Callable[[User | None], APIClient]


@pytest.fixture(autouse=True)
def regulars(anna: User, bert: User) -> None:
    """anna and bert play in the same club, so anna may seat bert by username."""
    club = ClubFactory.create(name="Stammtisch")
    for user in (anna, bert):
        MembershipFactory.create(club=club, user=user)


def body(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Friday",
        "mode": "recorded",
        "rules": RULES,
        "seats": [
            {"key": "anna", "kind": "user", "user": "anna"},
            {"key": "bert", "kind": "user", "user": "bert"},
            {"key": "carl", "kind": "guest", "guest_name": "Carl G."},
        ],
        "first_dealer": "carl",
    }
    data.update(overrides)
    return data


@pytest.mark.django_db
def test_it_opens_a_table_with_seats_rules_and_the_given_first_dealer(
    client_for: Client, anna: User, bert: User
) -> None:
    response = client_for(anna).post("/api/v1/tables/", body(), format="json")
    assert response.status_code == 201, response.json()
    table = response.json()
    assert table["mode"] == "recorded"
    assert table["status"] == "open"
    assert table["rules"] == engine.parse_rules(RULES).to_json()
    assert [(s["key"], s["position"], s["kind"]) for s in table["seats"]] == [
        ("anna", 0, "user"),
        ("bert", 1, "user"),
        ("carl", 2, "guest"),
    ]
    assert table["seats"][0]["username"] == "anna"
    assert table["seats"][0]["user"] == anna.pk
    assert table["seats"][2]["name"] == "Carl G."
    assert table["seats"][2]["username"] is None
    assert table["first_dealer"] == "carl"
    assert table["dealer_draw"] is None
    assert table["next_dealer"] == "carl"
    assert table["pot"] == 0
    assert table["opening_pot"] == 0
    assert table["hands_count"] == 0
    assert table["series"] is not None
    assert table["closing"] is None


@pytest.mark.django_db
def test_it_draws_the_first_dealer_when_none_is_given(
    client_for: Client, anna: User, bert: User
) -> None:
    data = body()
    del data["first_dealer"]
    response = client_for(anna).post("/api/v1/tables/", data, format="json")
    assert response.status_code == 201, response.json()
    table = response.json()
    draw = table["dealer_draw"]
    assert set(draw) == {"anna", "bert", "carl"}
    assert len(set(draw.values())) == 3
    assert table["first_dealer"] == engine.draw_first_dealer(draw, variant="wien")
    assert table["next_dealer"] == table["first_dealer"]


@pytest.mark.django_db
def test_it_rejects_bad_rules_with_the_engines_sentence(
    client_for: Client, anna: User, bert: User
) -> None:
    response = client_for(anna).post(
        "/api/v1/tables/", body(rules={**RULES, "dealer_contribution": 15}), format="json"
    )
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "rule_violation"
    assert "divisible by 10" in error["message"]
    assert error["fields"]["rules.dealer_contribution"] == [error["message"]]


@pytest.mark.django_db
def test_it_rejects_an_unknown_username_as_a_field_error(client_for: Client, anna: User) -> None:
    seats = body()["seats"]
    seats[1] = {"key": "bert", "kind": "user", "user": "nobody"}
    response = client_for(anna).post("/api/v1/tables/", body(seats=seats), format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"
    assert "seats.1.user" in response.json()["fields"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("seats", "field"),
    [
        ([{"key": "anna", "kind": "user", "user": "anna"}, {"key": "b", "kind": "guest"}], "seats"),
        (
            [
                {"key": "anna", "kind": "user", "user": "anna"},
                {"key": "anna", "kind": "guest"},
                {"key": "carl", "kind": "guest"},
            ],
            "seats",
        ),
        (
            [
                {"key": "anna", "kind": "user", "user": "anna"},
                {"key": "pot", "kind": "guest"},
                {"key": "carl", "kind": "guest"},
            ],
            "seats",
        ),
        (
            [
                {"key": "anna", "kind": "user", "user": "anna"},
                {"key": "bert", "kind": "user"},
                {"key": "carl", "kind": "guest"},
            ],
            "seats",
        ),
    ],
    ids=["two-seats", "duplicate-key", "reserved-key", "user-seat-without-user"],
)
def test_it_rejects_bad_seats(
    client_for: Client, anna: User, seats: list[dict[str, Any]], field: str
) -> None:
    data = body(seats=seats, first_dealer=None)
    response = client_for(anna).post("/api/v1/tables/", data, format="json")
    assert response.status_code == 400
    assert field in response.json()["fields"]


@pytest.mark.django_db
def test_it_rejects_a_bot_at_a_recorded_table(client_for: Client, anna: User, bert: User) -> None:
    seats = body()["seats"]
    seats[2] = {"key": "carl", "kind": "bot", "bot_level": "random"}
    response = client_for(anna).post("/api/v1/tables/", body(seats=seats), format="json")
    assert response.status_code == 400
    assert "Bots play only at hosted tables" in response.json()["message"]
    assert response.json()["fields"]["seats"] == ["carl: no bot here"]


@pytest.mark.django_db
def test_it_accepts_a_bot_at_a_hosted_table(client_for: Client, anna: User, bert: User) -> None:
    seats = body()["seats"]
    seats[2] = {"key": "carl", "kind": "bot", "bot_level": "random"}
    response = client_for(anna).post(
        "/api/v1/tables/", body(seats=seats, mode="hosted"), format="json"
    )
    assert response.status_code == 201
    assert response.json()["seats"][2]["bot_level"] == "random"


@pytest.mark.django_db
def test_it_rejects_a_first_dealer_who_is_not_seated(
    client_for: Client, anna: User, bert: User
) -> None:
    response = client_for(anna).post("/api/v1/tables/", body(first_dealer="zoe"), format="json")
    assert response.status_code == 400
    assert "first_dealer" in response.json()["fields"]


@pytest.mark.django_db
def test_it_requires_authentication_to_open_a_table(client_for: Client) -> None:
    assert client_for(None).post("/api/v1/tables/", body(), format="json").status_code == 401


@pytest.mark.django_db
def test_it_lists_only_tables_the_user_may_read(
    client_for: Client, make_table: Callable[..., Table], anna: User, stranger: User
) -> None:
    private = make_table(name="private")
    public = make_table(name="public", is_public=True)
    mine = client_for(anna).get("/api/v1/tables/").json()
    assert {t["id"] for t in mine["results"]} == {private.pk, public.pk}
    theirs = client_for(stranger).get("/api/v1/tables/").json()
    assert [t["id"] for t in theirs["results"]] == [public.pk]
    anonymous = client_for(None).get("/api/v1/tables/").json()
    assert [t["id"] for t in anonymous["results"]] == [public.pk]
    assert set(mine) == {"count", "next", "previous", "results"}


@pytest.mark.django_db
def test_it_hides_a_private_table_from_others_with_404(
    client_for: Client, recorded: Table, stranger: User
) -> None:
    assert client_for(stranger).get(f"/api/v1/tables/{recorded.pk}/").status_code == 404
    assert client_for(None).get(f"/api/v1/tables/{recorded.pk}/").status_code == 404
    assert client_for(stranger).post(f"/api/v1/tables/{recorded.pk}/close/").status_code == 404


@pytest.mark.django_db
def test_it_shows_a_public_table_to_anyone_but_lets_only_writers_change_it(
    client_for: Client, make_table: Callable[..., Table], stranger: User
) -> None:
    table = make_table(is_public=True)
    assert client_for(None).get(f"/api/v1/tables/{table.pk}/").status_code == 200
    response = client_for(stranger).post(f"/api/v1/tables/{table.pk}/close/")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert client_for(None).post(f"/api/v1/tables/{table.pk}/close/").status_code == 401


@pytest.mark.django_db
def test_it_lets_staff_and_every_club_member_read_the_clubs_private_tables(
    client_for: Client, make_table: Callable[..., Table], anna: User, stranger: User
) -> None:
    club = ClubFactory.create()
    MembershipFactory.create(club=club, user=anna)
    table = make_table(club_id=club.pk)
    admin = MembershipFactory.create(club=club, role=Membership.Role.ADMIN).user
    member = MembershipFactory.create(club=club).user
    staff = User.objects.create(username="staff", is_staff=True)
    assert client_for(admin).get(f"/api/v1/tables/{table.pk}/").status_code == 200
    assert client_for(staff).get(f"/api/v1/tables/{table.pk}/").status_code == 200
    assert client_for(member).get(f"/api/v1/tables/{table.pk}/").status_code == 200
    assert client_for(stranger).get(f"/api/v1/tables/{table.pk}/").status_code == 404
    listed = client_for(admin).get("/api/v1/tables/", {"club": club.pk}).json()
    assert [t["id"] for t in listed["results"]] == [table.pk]


@pytest.mark.django_db
def test_it_filters_tables_by_mode_status_and_series(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    recorded = make_table()
    hosted = make_table(mode="hosted")
    client = client_for(anna)
    by_mode = client.get("/api/v1/tables/", {"mode": "hosted"}).json()["results"]
    assert [t["id"] for t in by_mode] == [hosted.pk]
    by_series = client.get("/api/v1/tables/", {"series": recorded.series_id}).json()["results"]
    assert [t["id"] for t in by_series] == [recorded.pk]
    assert client.get("/api/v1/tables/", {"status": "closed"}).json()["count"] == 0


@pytest.mark.django_db
def test_it_lists_tables_in_a_constant_number_of_queries(
    client_for: Client,
    make_table: Callable[..., Table],
    anna: User,
    django_assert_max_num_queries: Any,
) -> None:
    for _ in range(10):
        make_table()
    client = client_for(anna)
    with django_assert_max_num_queries(4):
        response = client.get("/api/v1/tables/")
    assert response.json()["count"] == 10


@pytest.mark.django_db
def test_it_refuses_to_continue_someone_elses_series(
    client_for: Client, make_table: Callable[..., Table], stranger: User
) -> None:
    public = make_table(is_public=True)
    data = body(
        series=public.series_id,
        seats=[
            {"key": "s", "kind": "user", "user": "stranger"},
            {"key": "x", "kind": "guest"},
            {"key": "y", "kind": "guest"},
        ],
        first_dealer=None,
    )
    response = client_for(stranger).post("/api/v1/tables/", data, format="json")
    assert response.status_code == 403
    assert "series" in response.json()["fields"]


@pytest.mark.django_db
def test_it_creates_and_lists_series(
    client_for: Client, anna: User, bert: User, stranger: User
) -> None:
    response = client_for(anna).post("/api/v1/series/", {"name": "Fridays"}, format="json")
    assert response.status_code == 201
    series = response.json()
    assert series["pot"] == 0
    assert series["created_by"] == "anna"
    assert [s["id"] for s in client_for(anna).get("/api/v1/series/").json()["results"]] == [
        series["id"]
    ]
    assert client_for(stranger).get(f"/api/v1/series/{series['id']}/").status_code == 404
    table = (
        client_for(anna).post("/api/v1/tables/", body(series=series["id"]), format="json").json()
    )
    assert table["series"] == series["id"]


@pytest.mark.django_db
def test_it_refuses_a_club_series_to_non_members(client_for: Client, anna: User) -> None:
    club = ClubFactory.create(is_public=True)
    response = client_for(anna).post(
        "/api/v1/series/", {"name": "Club nights", "club": club.pk}, format="json"
    )
    assert response.status_code == 403


@pytest.mark.django_db
def test_a_bot_without_a_level_plays_at_the_first_level(
    client_for: Client, anna: User, bert: User
) -> None:
    """``BotSeat.bot_level`` is optional: the server seats the bot at ``BOT_LEVELS[0]``."""
    seats = body()["seats"]
    seats[2] = {"key": "carl", "kind": "bot"}
    response = client_for(anna).post(
        "/api/v1/tables/", body(seats=seats, mode="hosted"), format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["seats"][2]["bot_level"] == services.BOT_LEVELS[0]
    assert response.json()["seats"][0]["bot_level"] == ""


@pytest.mark.django_db
def test_it_refuses_a_bot_level_it_does_not_know(
    client_for: Client, anna: User, bert: User
) -> None:
    seats = body()["seats"]
    seats[2] = {"key": "carl", "kind": "bot", "bot_level": "grandmaster"}
    response = client_for(anna).post(
        "/api/v1/tables/", body(seats=seats, mode="hosted"), format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"
    assert "seats" in response.json()["fields"]
