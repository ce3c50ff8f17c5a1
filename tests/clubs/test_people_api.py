"""Clubs and their people through the API: founding and editing clubs, members and roles,
leaving, handing over, invitations, join requests, guests and merging, and the caller's own
clubs and invitations (``docs/clubs-people.md``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from pytest_django.fixtures import DjangoCaptureOnCommitCallbacks
from rest_framework.test import APIClient

from clubs.models import Club, Guest, Invitation, JoinRequest, Membership, User
from games import services as games
from games.models import Seat
from tests.clubs.world import RULES, ClubWorld, build_club_world
from tests.factories import UserFactory
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def world() -> ClubWorld:
    return build_club_world()


@pytest.fixture
def public_world() -> ClubWorld:
    return build_club_world(public=True)


def member(world: ClubWorld, username: str, role: str = Membership.Role.MEMBER) -> User:
    user = UserFactory.create(username=username)
    Membership.objects.create(club=world.club, user=user, role=role)
    return user


def role_of(world: ClubWorld, user: User) -> str | None:
    return (
        Membership.objects.filter(club=world.club, user=user).values_list("role", flat=True).first()
    )


def club_path(world: ClubWorld, rest: str = "") -> str:
    return f"{API}/clubs/{world.club.pk}/{rest}"


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "message", "fields"}
    assert body["message"].endswith((".", "!", "?"))
    if code is not None:
        assert body["code"] == code, body
    return body


# ---------------------------------------------------------------------------------------------
# clubs


def test_it_makes_the_founder_the_owner(auth_client: APIClient, user: User) -> None:
    response = auth_client.post(
        f"{API}/clubs/",
        {"name": "Grazer Tisch", "city": "Graz", "is_public": True},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["my_role"] == "owner"
    assert body["members_count"] == 1
    assert (body["slug"], body["timezone"], body["currency"]) == (
        "grazer-tisch",
        "Europe/Vienna",
        "EUR",
    )
    assert Membership.objects.get(club_id=body["id"], user=user).role == "owner"


def test_it_spells_out_every_option_of_the_default_rules(auth_client: APIClient) -> None:
    body = auth_client.post(
        f"{API}/clubs/",
        {"name": "Runde", "default_rules": {"variant": "wien", "dealer_contribution": 20,
                                              "pot_cap": 200}},
        format="json",
    ).json()  # fmt: skip
    assert body["default_rules"] == {
        "variant": "wien",
        "dealer_contribution": 20,
        "pot_cap": 200,
        "holding_after_forehand": "rearhand",
        "invitation_tricks": "inviter",
        "pot_at_close": "carry",
    }


def test_it_makes_a_slug_from_the_name_unique_with_a_suffix(
    world: ClubWorld, auth_client: APIClient
) -> None:
    slugs = [
        auth_client.post(f"{API}/clubs/", {"name": "Wiener Runde"}, format="json").json()["slug"]
        for _ in range(2)
    ]
    assert slugs == ["wiener-runde-2", "wiener-runde-3"]


def test_a_slug_another_club_has_gets_a_suffix(world: ClubWorld, auth_client: APIClient) -> None:
    response = auth_client.post(
        f"{API}/clubs/", {"name": "Andere", "slug": "wiener-runde"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["slug"] == "wiener-runde-2"
    assert Club.objects.get(pk=world.club.pk).slug == "wiener-runde"


def test_a_private_clubs_slug_answers_as_a_public_clubs(auth_client: APIClient) -> None:
    """Whether the club with the slug is private (not to be seen) or public, founding a club
    with that slug answers alike, naming no other club."""
    Club.objects.create(name="Geheim", slug="geheim", is_public=False)
    Club.objects.create(name="Offen", slug="offen", is_public=True)
    answers = {}
    for slug in ("geheim", "offen"):
        response = auth_client.post(f"{API}/clubs/", {"name": "Neu", "slug": slug}, format="json")
        assert response.status_code == 201, response.content
        assert response.json()["slug"] == f"{slug}-2"
        answers[slug] = {k for k in response.json()}
        assert "Geheim" not in response.content.decode()
    assert answers["geheim"] == answers["offen"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("timezone", "Europe/Wien"),
        ("timezone", "Mars/Olympus"),
        ("currency", "eur"),
        ("currency", "E1R"),
        ("currency", "EURO"),
    ],
)
def test_it_refuses_a_time_zone_or_currency_that_does_not_exist(
    auth_client: APIClient, field: str, value: str
) -> None:
    response = auth_client.post(f"{API}/clubs/", {"name": "X", field: value}, format="json")
    body = assert_error(response, 400, "validation_error")
    assert list(body["fields"]) == [field]


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"variant": "wien", "dealer_contribution": 15, "pot_cap": None}, "dealer_contribution"),
        ({"variant": "wien", "dealer_contribution": 10}, "pot_cap"),
        ({"variant": "skat", "dealer_contribution": 10, "pot_cap": None}, "variant"),
        ({"variant": "wien", "dealer_contribution": 10, "pot_cap": None, "x": 1}, "x"),
    ],
)
def test_it_refuses_default_rules_the_engine_refuses_with_its_sentence(
    auth_client: APIClient, rules: dict[str, Any], field: str
) -> None:
    response = auth_client.post(
        f"{API}/clubs/", {"name": "X", "default_rules": rules}, format="json"
    )
    body = assert_error(response, 400, "validation_error")
    sentence = body["fields"][f"default_rules.{field}"][0]
    assert field.replace("_", " ") in sentence.replace("_", " ") or field in sentence
    assert sentence in body["message"]
    assert not Club.objects.filter(name="X").exists()


def test_it_refuses_anonymous_founders(api_client: APIClient) -> None:
    assert_error(api_client.post(f"{API}/clubs/", {"name": "X"}, format="json"), 401)


def test_it_lists_public_clubs_and_your_own(world: ClubWorld, public_world_other: Club) -> None:
    def names(client: APIClient, query: str = "") -> list[str]:
        response = client.get(f"{API}/clubs/{query}")
        assert response.status_code == 200
        return [c["name"] for c in response.json()["results"]]

    assert names(client_for(None)) == ["Offene Runde"]
    assert names(world.client("outsider")) == ["Offene Runde"]
    assert names(world.client("member")) == ["Offene Runde", "Wiener Runde"]
    assert names(world.client("member"), "?mine=true") == ["Wiener Runde"]
    assert names(world.client("member"), "?mine=false") == ["Offene Runde"]
    assert names(client_for(None), "?mine=true") == []
    assert names(world.client("member"), "?is_public=false") == ["Wiener Runde"]
    assert names(world.client("member"), "?city=graz") == ["Offene Runde"]
    assert names(world.client("member"), "?search=wien") == ["Wiener Runde"]


@pytest.fixture
def public_world_other(world: ClubWorld) -> Club:
    club = Club.objects.create(name="Offene Runde", slug="offen", city="Graz", is_public=True)
    Membership.objects.create(club=club, user=UserFactory.create(username="graz"), role="owner")
    return club


def test_it_shows_each_club_with_your_role_and_its_member_count(
    world: ClubWorld, public_world_other: Club
) -> None:
    results = world.client("scorer").get(f"{API}/clubs/").json()["results"]
    by_name = {c["name"]: c for c in results}
    assert by_name["Wiener Runde"]["my_role"] == "scorer"
    assert by_name["Wiener Runde"]["members_count"] == 4
    assert by_name["Offene Runde"]["my_role"] is None
    assert by_name["Offene Runde"]["members_count"] == 1


def test_it_hides_a_private_club_from_outsiders(world: ClubWorld) -> None:
    assert_error(world.client("outsider").get(club_path(world)), 404, "not_found")
    assert_error(world.client("anonymous").get(club_path(world)), 404, "not_found")
    body = world.client("member").get(club_path(world)).json()
    assert (body["name"], body["my_role"]) == ("Wiener Runde", "member")


def test_it_shows_a_public_club_to_anyone(public_world: ClubWorld) -> None:
    body = public_world.client("anonymous").get(club_path(public_world)).json()
    assert (body["name"], body["my_role"]) == ("Wiener Runde", None)


def test_it_lets_owners_and_admins_change_the_settings(world: ClubWorld) -> None:
    response = world.client("admin").patch(
        club_path(world), {"city": "Linz", "currency": "CHF", "reminder_hours": 0}, format="json"
    )
    assert response.status_code == 200, response.content
    world.club.refresh_from_db()
    assert (world.club.city, world.club.currency, world.club.reminder_hours) == ("Linz", "CHF", 0)
    assert world.club.name == "Wiener Runde"


def test_it_checks_changed_settings_as_when_founding(world: ClubWorld) -> None:
    client = world.client("owner")
    assert (
        "timezone"
        in assert_error(client.patch(club_path(world), {"timezone": "Vienna"}, format="json"), 400)[
            "fields"
        ]
    )
    body = assert_error(
        client.patch(
            club_path(world),
            {"default_rules": {"variant": "wien", "dealer_contribution": 10, "pot_cap": 15}},
            format="json",
        ),
        400,
    )
    assert list(body["fields"]) == ["default_rules.pot_cap"]
    # another club's slug: the next free one, as when founding a club
    Club.objects.create(name="Other", slug="other")
    moved = client.patch(club_path(world), {"slug": "other"}, format="json")
    assert moved.status_code == 200 and moved.json()["slug"] == "other-2"


def test_it_refuses_settings_changes_by_members_and_scorers(world: ClubWorld) -> None:
    for role in ("member", "scorer"):
        assert_error(
            world.client(role).patch(club_path(world), {"city": "X"}, format="json"),
            403,
            "permission_denied",
        )


def test_it_accepts_only_json_bodies(world: ClubWorld) -> None:
    response = world.client("owner").patch(club_path(world), {"city": "X"}, format="multipart")
    assert_error(response, 415, "unsupported_media_type")


# ---------------------------------------------------------------------------------------------
# members


def test_it_lists_the_members_with_their_roles(world: ClubWorld) -> None:
    body = world.client("member").get(club_path(world, "members/")).json()
    assert body["count"] == 4
    assert [(m["username"], m["role"]) for m in body["results"]] == [
        ("member", "member"),
        ("scorer", "scorer"),
        ("admin", "admin"),
        ("owner", "owner"),
    ]
    first = body["results"][0]
    assert set(first) == {"user_id", "username", "display_name", "role", "joined_at"}
    assert first["user_id"] == world.users["member"].pk


def test_it_filters_members_by_role(world: ClubWorld) -> None:
    body = world.client("member").get(club_path(world, "members/?role=admin")).json()
    assert [m["username"] for m in body["results"]] == ["admin"]


def test_it_hides_a_private_clubs_members_from_outsiders(world: ClubWorld) -> None:
    assert_error(world.client("outsider").get(club_path(world, "members/")), 404)


def test_a_public_club_shows_its_members_to_members_only(public_world: ClubWorld) -> None:
    body = assert_error(
        public_world.client("outsider").get(club_path(public_world, "members/")), 403
    )
    assert "members" in body["message"]


def test_an_owner_names_admins_and_owners(world: ClubWorld) -> None:
    client = world.client("owner")
    target = world.users["member"]
    for role in ("admin", "owner", "member"):
        response = client.patch(
            club_path(world, f"members/{target.pk}/"), {"role": role}, format="json"
        )
        assert response.status_code == 200, response.content
        assert response.json()["role"] == role
        assert role_of(world, target) == role


def test_an_admin_sets_member_or_scorer_on_members_and_scorers(world: ClubWorld) -> None:
    client = world.client("admin")
    path = club_path(world, f"members/{world.users['member'].pk}/")
    assert client.patch(path, {"role": "scorer"}, format="json").status_code == 200
    assert role_of(world, world.users["member"]) == "scorer"
    assert client.patch(path, {"role": "member"}, format="json").status_code == 200
    assert role_of(world, world.users["member"]) == "member"


@pytest.mark.parametrize("new_role", ["admin", "owner"])
def test_an_admin_may_not_name_admins_or_owners(world: ClubWorld, new_role: str) -> None:
    path = club_path(world, f"members/{world.users['member'].pk}/")
    body = assert_error(world.client("admin").patch(path, {"role": new_role}, format="json"), 403)
    assert "owner" in body["message"]
    assert role_of(world, world.users["member"]) == "member"


@pytest.mark.parametrize("target", ["admin", "owner"])
def test_an_admin_may_not_change_an_admin_or_an_owner(world: ClubWorld, target: str) -> None:
    other_admin = member(world, "second_admin", "admin")
    user = other_admin if target == "admin" else world.users["owner"]
    path = club_path(world, f"members/{user.pk}/")
    assert_error(world.client("admin").patch(path, {"role": "member"}, format="json"), 403)
    assert role_of(world, user) == target


@pytest.mark.parametrize("role", ["member", "scorer"])
def test_members_and_scorers_change_no_roles(world: ClubWorld, role: str) -> None:
    path = club_path(world, f"members/{world.users['member'].pk}/")
    assert_error(world.client(role).patch(path, {"role": "scorer"}, format="json"), 403)


def test_it_refuses_to_demote_the_last_owner(world: ClubWorld) -> None:
    path = club_path(world, f"members/{world.users['owner'].pk}/")
    body = assert_error(
        world.client("owner").patch(path, {"role": "admin"}, format="json"), 409, "last_owner"
    )
    assert "hand the club over" in body["message"]
    assert role_of(world, world.users["owner"]) == "owner"


def test_an_owner_steps_down_while_another_owner_remains(world: ClubWorld) -> None:
    member(world, "co_owner", "owner")
    path = club_path(world, f"members/{world.users['owner'].pk}/")
    response = world.client("owner").patch(path, {"role": "admin"}, format="json")
    assert response.status_code == 200
    assert role_of(world, world.users["owner"]) == "admin"


def test_it_refuses_a_role_that_does_not_exist(world: ClubWorld) -> None:
    path = club_path(world, f"members/{world.users['member'].pk}/")
    body = assert_error(world.client("owner").patch(path, {"role": "king"}, format="json"), 400)
    assert "role" in body["fields"]


def test_it_answers_404_for_someone_who_is_not_a_member(world: ClubWorld) -> None:
    path = club_path(world, f"members/{world.users['outsider'].pk}/")
    assert_error(world.client("owner").patch(path, {"role": "member"}, format="json"), 404)
    assert_error(world.client("owner").delete(path), 404)


def test_an_admin_removes_a_member_and_the_history_stays(world: ClubWorld) -> None:
    gone = world.users["member"]
    table = games.table_create(
        user=world.users["owner"],
        name="Donnerstag",
        mode="recorded",
        rules=RULES,
        seats=[
            games.SeatSpec(key=k, kind="user", user=world.users[k])
            for k in ("member", "scorer", "owner")
        ],
        club_id=world.club.pk,
    )
    response = world.client("admin").delete(club_path(world, f"members/{gone.pk}/"))
    assert response.status_code == 204
    assert role_of(world, gone) is None
    assert Seat.objects.filter(table=table, user=gone).exists()
    assert world.client("member").get(f"{API}/tables/{table.pk}/").status_code == 200


def test_an_admin_may_not_remove_an_admin(world: ClubWorld) -> None:
    other = member(world, "second_admin", "admin")
    assert_error(world.client("admin").delete(club_path(world, f"members/{other.pk}/")), 403)
    assert role_of(world, other) == "admin"


def test_an_owner_removes_an_admin(world: ClubWorld) -> None:
    path = club_path(world, f"members/{world.users['admin'].pk}/")
    assert world.client("owner").delete(path).status_code == 204
    assert role_of(world, world.users["admin"]) is None


def test_removing_yourself_is_leaving(world: ClubWorld) -> None:
    path = club_path(world, f"members/{world.users['scorer'].pk}/")
    assert world.client("scorer").delete(path).status_code == 204
    assert role_of(world, world.users["scorer"]) is None
    owner_path = club_path(world, f"members/{world.users['owner'].pk}/")
    assert_error(world.client("owner").delete(owner_path), 409, "last_owner")


def test_a_member_leaves(world: ClubWorld) -> None:
    assert world.client("member").post(club_path(world, "leave/")).status_code == 204
    assert role_of(world, world.users["member"]) is None
    assert_error(world.client("member").get(club_path(world)), 404)


def test_the_last_owner_cannot_leave(world: ClubWorld) -> None:
    body = assert_error(world.client("owner").post(club_path(world, "leave/")), 409, "last_owner")
    assert "transfer-ownership" in body["message"]
    member(world, "co_owner", "owner")
    assert world.client("owner").post(club_path(world, "leave/")).status_code == 204


# ---------------------------------------------------------------------------------------------
# handing the club over


@pytest.mark.parametrize(("stay_as", "then"), [("admin", "admin"), ("member", "member")])
def test_an_owner_hands_the_club_over_and_stays(world: ClubWorld, stay_as: str, then: str) -> None:
    heir = world.users["scorer"]
    response = world.client("owner").post(
        club_path(world, "transfer-ownership/"),
        {"user_id": heir.pk, "stay_as": stay_as},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["owner"]["user_id"], body["owner"]["role"]) == (heir.pk, "owner")
    assert body["you"]["role"] == then
    assert role_of(world, heir) == "owner"
    assert role_of(world, world.users["owner"]) == then


def test_an_owner_hands_over_as_admin_by_default(world: ClubWorld) -> None:
    response = world.client("owner").post(
        club_path(world, "transfer-ownership/"),
        {"user_id": world.users["member"].pk},
        format="json",
    )
    assert response.json()["you"]["role"] == "admin"


def test_an_owner_hands_the_club_over_and_leaves(world: ClubWorld) -> None:
    response = world.client("owner").post(
        club_path(world, "transfer-ownership/"),
        {"user_id": world.users["admin"].pk, "stay_as": "leave"},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["you"] is None
    assert role_of(world, world.users["owner"]) is None
    assert role_of(world, world.users["admin"]) == "owner"


def test_only_an_owner_hands_the_club_over(world: ClubWorld) -> None:
    response = world.client("admin").post(
        club_path(world, "transfer-ownership/"),
        {"user_id": world.users["admin"].pk},
        format="json",
    )
    assert_error(response, 403)
    assert role_of(world, world.users["owner"]) == "owner"


@pytest.mark.parametrize("whom", ["outsider", "owner"])
def test_the_club_goes_only_to_another_member(world: ClubWorld, whom: str) -> None:
    response = world.client("owner").post(
        club_path(world, "transfer-ownership/"),
        {"user_id": world.users[whom].pk},
        format="json",
    )
    assert "user_id" in assert_error(response, 400)["fields"]
    assert role_of(world, world.users["owner"]) == "owner"


# ---------------------------------------------------------------------------------------------
# invitations


def invite(world: ClubWorld, by: str = "owner", **body: Any) -> dict[str, Any]:
    response = world.client(by).post(club_path(world, "invitations/"), body, format="json")
    assert response.status_code == 201, response.content
    result: dict[str, Any] = response.json()
    return result


def accept(user: User, code: str) -> Any:
    return client_for(user).post(f"{API}/invitations/{code}/accept/")


def test_it_e_mails_an_invitation_with_its_link(
    world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        body = invite(world, "admin", email="anna@example.org", role="scorer")
    assert body["url"] == f"http://127.0.0.1:8000/api/v1/invitations/{body['code']}/"
    assert (body["role"], body["uses"], body["max_uses"], body["state"]) == (
        "scorer",
        0,
        1,
        "active",
    )
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["anna@example.org"]
    assert "Wiener Runde" in message.subject
    assert body["url"] in message.body
    assert body["code"] in message.body
    assert "a scorer" in message.body
    assert "(Europe/Vienna)" in message.body


def test_it_builds_links_from_the_public_base_url(
    world: ClubWorld,
    settings: Any,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    settings.PUBLIC_BASE_URL = "https://karten.example.org/"
    with django_capture_on_commit_callbacks(execute=True):
        body = invite(world, email="anna@example.org")
    assert body["url"].startswith("https://karten.example.org/api/v1/invitations/")
    assert body["url"] in mail.outbox[0].body


def test_it_sends_no_e_mail_without_an_address(
    world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        body = invite(world)
    assert body["email"] == ""
    assert mail.outbox == []


def test_it_defaults_to_one_use_for_fourteen_days(world: ClubWorld) -> None:
    body = invite(world)
    expires = dt.datetime.fromisoformat(body["expires_at"])
    assert abs(expires - (timezone.now() + dt.timedelta(days=14))) < dt.timedelta(minutes=1)
    assert (body["role"], body["max_uses"]) == ("member", 1)


def test_only_owners_invite_admins(world: ClubWorld) -> None:
    response = world.client("admin").post(
        club_path(world, "invitations/"), {"role": "admin"}, format="json"
    )
    assert "owner" in assert_error(response, 403)["message"]
    assert invite(world, "owner", role="admin")["role"] == "admin"


@pytest.mark.parametrize(
    "body",
    [
        {"role": "owner"},
        {"expires_in_days": 0},
        {"expires_in_days": 91},
        {"max_uses": 0},
        {"max_uses": 1001},
        {"email": "not-an-address"},
    ],
)
def test_it_refuses_invitations_out_of_bounds(world: ClubWorld, body: dict[str, Any]) -> None:
    response = world.client("owner").post(club_path(world, "invitations/"), body, format="json")
    assert list(assert_error(response, 400, "validation_error")["fields"]) == list(body)


def test_it_shows_invitations_and_their_codes_to_owners_and_admins_only(
    world: ClubWorld,
) -> None:
    created = invite(world)
    listed = world.client("admin").get(club_path(world, "invitations/")).json()["results"]
    assert [i["code"] for i in listed] == [created["code"]]
    for role in ("member", "scorer"):
        assert_error(world.client(role).get(club_path(world, "invitations/")), 403)


def test_it_filters_invitations_by_state(world: ClubWorld) -> None:
    active = invite(world)
    used = invite(world)
    Invitation.objects.filter(pk=used["id"]).update(uses=1)
    old = invite(world)
    Invitation.objects.filter(pk=old["id"]).update(expires_at=timezone.now())
    revoked = invite(world)
    world.client("owner").delete(club_path(world, f"invitations/{revoked['id']}/"))

    def ids(state: str) -> list[int]:
        path = club_path(world, f"invitations/?state={state}")
        return [i["id"] for i in world.client("owner").get(path).json()["results"]]

    assert ids("active") == [active["id"]]
    assert ids("used_up") == [used["id"]]
    assert ids("expired") == [old["id"]]
    assert ids("revoked") == [revoked["id"]]


def test_anyone_with_the_code_previews_the_invitation(world: ClubWorld) -> None:
    code = invite(world, role="scorer")["code"]
    response = client_for(None).get(f"{API}/invitations/{code}/")
    assert response.status_code == 200
    body = response.json()
    assert body["club"]["name"] == "Wiener Runde"
    assert (body["role"], body["valid"], body["state"]) == ("scorer", True, "active")
    assert "code" not in body


def test_a_wrong_code_is_not_found(world: ClubWorld) -> None:
    assert_error(client_for(None).get(f"{API}/invitations/nope/"), 404, "not_found")
    assert_error(accept(world.users["outsider"], "nope"), 404, "not_found")


def test_accepting_an_invitation_joins_in_its_role(world: ClubWorld) -> None:
    invitation = invite(world, role="scorer")
    response = accept(world.users["outsider"], invitation["code"])
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["club"]["id"], body["role"]) == (world.club.pk, "scorer")
    assert role_of(world, world.users["outsider"]) == "scorer"
    assert Invitation.objects.get(pk=invitation["id"]).uses == 1


def test_an_invitation_admits_as_many_people_as_it_may(world: ClubWorld) -> None:
    code = invite(world, max_uses=2)["code"]
    first, second, third = (UserFactory.create(username=f"guest{i}") for i in range(3))
    assert accept(first, code).status_code == 201
    assert accept(second, code).status_code == 201
    assert_error(accept(third, code), 409, "invitation_used_up")
    assert Invitation.objects.get(code=code).uses == 2
    assert role_of(world, third) is None
    preview = client_for(None).get(f"{API}/invitations/{code}/").json()
    assert (preview["valid"], preview["state"]) == (False, "used_up")


def test_an_expired_invitation_admits_nobody(world: ClubWorld) -> None:
    code = invite(world)["code"]
    Invitation.objects.filter(code=code).update(expires_at=timezone.now() - dt.timedelta(hours=1))
    body = assert_error(accept(world.users["outsider"], code), 409, "invitation_expired")
    assert "new one" in body["message"]
    assert role_of(world, world.users["outsider"]) is None


def test_a_revoked_invitation_admits_nobody(world: ClubWorld) -> None:
    invitation = invite(world)
    path = club_path(world, f"invitations/{invitation['id']}/")
    assert world.client("admin").delete(path).status_code == 204
    assert world.client("admin").delete(path).status_code == 204  # twice changes nothing
    assert_error(accept(world.users["outsider"], invitation["code"]), 409, "invitation_revoked")
    preview = client_for(None).get(f"{API}/invitations/{invitation['code']}/").json()
    assert (preview["valid"], preview["state"]) == (False, "revoked")


def test_revoking_needs_an_invitation_of_this_club(world: ClubWorld) -> None:
    other = Club.objects.create(name="Andere", slug="andere")
    foreign = Invitation.objects.create(
        club=other, code="foreign-code", expires_at=timezone.now() + dt.timedelta(days=1)
    )
    path = club_path(world, f"invitations/{foreign.pk}/")
    assert_error(world.client("owner").delete(path), 404)


def test_a_member_cannot_accept_an_invitation_to_their_club(world: ClubWorld) -> None:
    code = invite(world)["code"]
    assert_error(accept(world.users["member"], code), 409, "already_member")
    assert Invitation.objects.get(code=code).uses == 0
    assert role_of(world, world.users["member"]) == "member"


def test_accepting_needs_a_sign_in(world: ClubWorld) -> None:
    code = invite(world)["code"]
    assert_error(client_for(None).post(f"{API}/invitations/{code}/accept/"), 401)


def test_accepting_an_invitation_answers_a_pending_join_request(
    public_world: ClubWorld,
) -> None:
    outsider = public_world.users["outsider"]
    request = JoinRequest.objects.create(club=public_world.club, user=outsider)
    code = invite(public_world)["code"]
    assert accept(outsider, code).status_code == 201
    request.refresh_from_db()
    assert request.status == "accepted"


# ---------------------------------------------------------------------------------------------
# join requests


def test_a_join_request_from_asking_to_acceptance(
    public_world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    world = public_world
    asker = world.users["outsider"]
    with django_capture_on_commit_callbacks(execute=True):
        response = world.client("outsider").post(
            club_path(world, "join-requests/"), {"message": "Darf ich mitspielen?"}, format="json"
        )
    assert response.status_code == 201, response.content
    request = response.json()
    assert (request["status"], request["user"]["id"]) == ("pending", asker.pk)
    assert sorted(address for m in mail.outbox for address in m.to) == [
        "admin@example.com",
        "owner@example.com",
    ]
    assert "Darf ich mitspielen?" in mail.outbox[0].body
    assert f"/join-requests/{request['id']}/accept/" in mail.outbox[0].body

    assert_error(
        world.client("outsider").post(club_path(world, "join-requests/"), {}, format="json"),
        409,
        "join_request_pending",
    )
    assert_error(world.client("member").get(club_path(world, "join-requests/")), 403)
    pending = world.client("admin").get(club_path(world, "join-requests/?status=pending"))
    assert [r["id"] for r in pending.json()["results"]] == [request["id"]]

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = world.client("admin").post(
            club_path(world, f"join-requests/{request['id']}/accept/")
        )
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["decided_by"]) == ("accepted", world.users["admin"].pk)
    assert role_of(world, asker) == "member"
    assert [m.to for m in mail.outbox] == [[asker.email]]

    again = world.client("owner").post(club_path(world, f"join-requests/{request['id']}/accept/"))
    assert_error(again, 409, "join_request_decided")


def test_a_private_club_takes_no_join_requests(world: ClubWorld) -> None:
    response = world.client("outsider").post(club_path(world, "join-requests/"), {}, format="json")
    assert_error(response, 404, "not_found")
    assert not JoinRequest.objects.exists()


def test_a_member_does_not_ask_to_join(public_world: ClubWorld) -> None:
    response = public_world.client("member").post(
        club_path(public_world, "join-requests/"), {}, format="json"
    )
    assert_error(response, 409, "already_member")


def test_a_declined_user_may_ask_again(public_world: ClubWorld) -> None:
    world = public_world
    path = club_path(world, "join-requests/")
    request = world.client("outsider").post(path, {}, format="json").json()
    declined = world.client("owner").post(
        club_path(world, f"join-requests/{request['id']}/decline/")
    )
    assert declined.json()["status"] == "declined"
    assert role_of(world, world.users["outsider"]) is None
    assert world.client("outsider").post(path, {}, format="json").status_code == 201


def test_the_asker_withdraws_their_pending_request(public_world: ClubWorld) -> None:
    world = public_world
    request = (
        world.client("outsider").post(club_path(world, "join-requests/"), {}, format="json").json()
    )
    path = club_path(world, f"join-requests/{request['id']}/")
    assert_error(world.client("admin").delete(path), 403)
    assert world.client("outsider").delete(path).status_code == 204
    assert JoinRequest.objects.get(pk=request["id"]).status == "withdrawn"
    assert_error(world.client("outsider").delete(path), 409, "join_request_decided")
    accept_path = club_path(world, f"join-requests/{request['id']}/accept/")
    assert_error(world.client("admin").post(accept_path), 409, "join_request_decided")


# ---------------------------------------------------------------------------------------------
# guests


def test_scorers_add_guests_and_members_see_them(world: ClubWorld) -> None:
    response = world.client("scorer").post(
        club_path(world, "guests/"), {"name": "Onkel Franz"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["merged_into"] is None
    assert_error(
        world.client("member").post(club_path(world, "guests/"), {"name": "X"}, format="json"),
        403,
    )
    listed = world.client("member").get(club_path(world, "guests/")).json()["results"]
    assert [g["name"] for g in listed] == ["Onkel Franz"]
    assert_error(world.client("outsider").get(club_path(world, "guests/")), 404)


def test_a_guest_needs_a_name(world: ClubWorld) -> None:
    response = world.client("scorer").post(
        club_path(world, "guests/"), {"name": "   "}, format="json"
    )
    assert "name" in assert_error(response, 400)["fields"]


def guest_table(world: ClubWorld, guest: Guest, *others: str) -> int:
    table = games.table_create(
        user=world.users["owner"],
        name="Mit Gast",
        mode="recorded",
        rules=RULES,
        seats=[
            *(games.SeatSpec(key=k, kind="user", user=world.users[k]) for k in others),
            games.SeatSpec(key="franz", kind="guest", guest=guest),
        ],
        club_id=world.club.pk,
    )
    return table.pk


def merge(world: ClubWorld, guest: Guest, into: str, by: str = "admin") -> Any:
    return world.client(by).post(
        club_path(world, f"guests/{guest.pk}/merge/"),
        {"user_id": world.users[into].pk},
        format="json",
    )


def test_merging_gives_the_member_the_guests_tables(world: ClubWorld) -> None:
    guest = Guest.objects.create(club=world.club, name="Franz")
    table_id = guest_table(world, guest, "owner", "admin")
    reader = world.client("member")
    # a member reads every table of the club; the merge makes the guest's seats theirs
    assert [t["id"] for t in reader.get(f"{API}/tables/").json()["results"]] == [table_id]

    response = merge(world, guest, "member")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["merged_into"] == world.users["member"].pk
    assert body["merged_at"] is not None
    assert [t["id"] for t in reader.get(f"{API}/tables/").json()["results"]] == [table_id]
    merged = reader.get(club_path(world, "guests/?merged=true")).json()
    assert [g["id"] for g in merged["results"]] == [guest.pk]
    assert reader.get(club_path(world, "guests/?merged=false")).json()["count"] == 0


def test_a_merged_member_reads_the_guests_table(world: ClubWorld) -> None:
    guest = Guest.objects.create(club=world.club, name="Franz")
    table_id = guest_table(world, guest, "owner", "admin")
    reader = world.client("member")
    assert merge(world, guest, "member").status_code == 200
    # after leaving the club the member still reads the table the guest sat at
    Membership.objects.filter(club=world.club, user=world.users["member"]).delete()
    assert reader.get(f"{API}/tables/{table_id}/").status_code == 200


def test_a_guest_merges_once(world: ClubWorld) -> None:
    guest = Guest.objects.create(club=world.club, name="Franz")
    path = club_path(world, f"guests/{guest.pk}/merge/")
    client = world.client("owner")
    first = client.post(path, {"user_id": world.users["member"].pk}, format="json")
    assert first.status_code == 200
    response = client.post(path, {"user_id": world.users["scorer"].pk}, format="json")
    assert_error(response, 409, "already_merged")
    guest.refresh_from_db()
    assert guest.merged_into == world.users["member"]


def test_a_guest_merges_only_into_a_member(world: ClubWorld) -> None:
    guest = Guest.objects.create(club=world.club, name="Franz")
    response = world.client("owner").post(
        club_path(world, f"guests/{guest.pk}/merge/"),
        {"user_id": world.users["outsider"].pk},
        format="json",
    )
    assert "user_id" in assert_error(response, 400)["fields"]


def test_a_guest_who_sat_with_the_member_is_not_them(world: ClubWorld) -> None:
    guest = Guest.objects.create(club=world.club, name="Franz")
    guest_table(world, guest, "owner", "member")
    response = world.client("owner").post(
        club_path(world, f"guests/{guest.pk}/merge/"),
        {"user_id": world.users["member"].pk},
        format="json",
    )
    assert_error(response, 409, "seated_together")


def test_scorers_do_not_merge_guests(world: ClubWorld) -> None:
    guest = Guest.objects.create(club=world.club, name="Franz")
    response = world.client("scorer").post(
        club_path(world, f"guests/{guest.pk}/merge/"),
        {"user_id": world.users["member"].pk},
        format="json",
    )
    assert_error(response, 403)


# ---------------------------------------------------------------------------------------------
# the caller's own


def test_it_lists_my_clubs_and_my_role_in_each(world: ClubWorld, public_world_other: Club) -> None:
    Membership.objects.create(club=public_world_other, user=world.users["admin"])
    body = world.client("admin").get(f"{API}/me/clubs/").json()
    assert [(m["club"]["name"], m["role"]) for m in body["results"]] == [
        ("Offene Runde", "member"),
        ("Wiener Runde", "admin"),
    ]
    filtered = world.client("admin").get(f"{API}/me/clubs/?role=admin").json()
    assert [m["club"]["name"] for m in filtered["results"]] == ["Wiener Runde"]
    assert world.client("outsider").get(f"{API}/me/clubs/").json()["count"] == 0


def test_it_lists_invitations_sent_to_my_address(world: ClubWorld) -> None:
    outsider = world.users["outsider"]
    outsider.email = "Out.Sider@Example.com"
    outsider.email_verified_at = (
        timezone.now()
    )  # confirmed (tests/clubs/test_email_verification.py)
    outsider.save()
    mine = invite(world, email="out.sider@example.COM")
    invite(world, email="someone@example.com")
    Invitation.objects.filter(pk=invite(world, email="out.sider@example.com")["id"]).update(
        expires_at=timezone.now()
    )
    revoked = invite(world, email="out.sider@example.com")
    world.client("owner").delete(club_path(world, f"invitations/{revoked['id']}/"))
    Invitation.objects.filter(pk=invite(world, email="out.sider@example.com")["id"]).update(uses=1)

    body = world.client("outsider").get(f"{API}/me/invitations/").json()
    assert [(i["id"], i["code"], i["club"]["name"]) for i in body["results"]] == [
        (mine["id"], mine["code"], "Wiener Runde")
    ]
    assert accept(outsider, body["results"][0]["code"]).status_code == 201
    assert world.client("outsider").get(f"{API}/me/invitations/").json()["count"] == 0


def test_my_lists_need_a_sign_in(api_client: APIClient) -> None:
    assert_error(api_client.get(f"{API}/me/clubs/"), 401)
    assert_error(api_client.get(f"{API}/me/invitations/"), 401)
