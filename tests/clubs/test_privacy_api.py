"""A person's data through the API (``docs/privacy.md``): their own export, a large one built
by the worker behind a signed link, a club manager's export of a member (audited), erasing
one's account, and the choice whether public lists show one's name."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.utils import timezone
from pytest_django.fixtures import DjangoCaptureOnCommitCallbacks
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from clubs import privacy
from clubs.api.privacy import PersonalDataProfileSerializer
from clubs.models import Club, DataRequest, Membership, User
from clubs.services import users
from games import services as games
from tests.clubs.world import RULES, ClubWorld, build_club_world
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

API = "/api/v1"
FILENAME = re.compile(r'^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.json"$')
#: A score-sheet entry at a three-seat table where carl deals (anna forehand).
MADE = {
    "game": {"type": "suit", "level": "D", "talon": True},
    "declarer": "anna",
    "defence": {"bert": "play", "carl": "play"},
    "tricks": {"anna": 6, "bert": 2, "carl": 2},
}


@pytest.fixture
def world() -> ClubWorld:
    return build_club_world()


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "message", "fields"}
    assert body["code"] == code, body
    return body


def member_export_path(world: ClubWorld, user_id: int) -> str:
    return f"{API}/clubs/{world.club.pk}/members/{user_id}/export/"


def signed_in_with_password(user: User) -> dict[str, str]:
    """The tokens an app holds after signing ``user`` in with the password now."""
    response = APIClient().post(
        f"{API}/auth/token/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 200, response.content
    tokens: dict[str, str] = response.json()
    return tokens


def bearer(access: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {access}")
    return client


def signed_in_minutes_ago(user: User, minutes: int) -> tuple[str, str]:
    """The refresh and access tokens the sign-in ``minutes`` ago gave."""
    then = timezone.now() - dt.timedelta(minutes=minutes)
    refresh = RefreshToken.for_user(user)
    refresh.set_iat(at_time=then)
    access = refresh.access_token
    access.set_iat(at_time=then)
    return str(refresh), str(access)


def table_with_a_hand(anna: User, bert: User, carl: User) -> None:
    """A recorded table where anna, bert and carl sit, with one hand on its score sheet."""
    seats = [
        games.SeatSpec(key=key, kind="user", user=user)
        for key, user in (("anna", anna), ("bert", bert), ("carl", carl))
    ]
    table = games.table_create(
        user=anna,
        name="Freitag",
        mode="recorded",
        rules=RULES,
        seats=seats,
        first_dealer="carl",
    )
    games.table_record_hand(table_id=table.pk, user=anna, entry=MADE)


# ---------------------------------------------------------------------------------------------
# my export


def test_my_export_is_a_file_with_my_profile_and_every_apps_section(world: ClubWorld) -> None:
    anna = world.users["member"]
    response = client_for(anna).get(f"{API}/me/export/")
    assert response.status_code == 200, response.content
    assert FILENAME.match(response["Content-Disposition"]), response["Content-Disposition"]
    document = response.json()
    assert document["format"] == privacy.FORMAT
    assert document["scope"] is None
    assert set(document["profile"]) == set(PersonalDataProfileSerializer().fields)
    assert document["profile"]["username"] == anna.username
    assert document["profile"]["email"] == anna.email
    assert {keeper.section for keeper in privacy.keepers()} <= set(document)


def test_my_export_is_recorded_as_done_by_me(world: ClubWorld) -> None:
    anna = world.users["member"]
    client_for(anna).get(f"{API}/me/export/")
    request = DataRequest.objects.get(subject=anna)
    assert (request.kind, request.status, request.actor, request.club) == (
        DataRequest.Kind.EXPORT,
        DataRequest.Status.DONE,
        anna,
        None,
    )
    assert request.document is None  # an export answered at once is not kept


# ---------------------------------------------------------------------------------------------
# a large export, built by the worker


@pytest.fixture
def large(monkeypatch: pytest.MonkeyPatch, world: ClubWorld) -> User:
    """The club's member, at a table with one hand, where one hand is already a large export."""
    monkeypatch.setattr(users, "EXPORT_INLINE_HANDS", 0)
    anna = world.users["member"]
    table_with_a_hand(anna, world.users["scorer"], world.users["admin"])
    return anna


def built_export(
    anna: User, capture: DjangoCaptureOnCommitCallbacks
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ask for anna's export (202), let the worker build it; the 202 body and the status."""
    client = client_for(anna)
    with capture(execute=True):
        response = client.get(f"{API}/me/export/")
    assert response.status_code == 202, response.content
    accepted = response.json()
    status = client.get(accepted["url"])
    assert status.status_code == 200, status.content
    return accepted, status.json()


@pytest.mark.usefixtures("eager_tasks")
def test_a_large_export_is_built_by_the_worker_and_downloaded_by_its_link(
    large: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    accepted, status = built_export(large, django_capture_on_commit_callbacks)
    assert accepted["status"] == "pending"
    assert accepted["download_url"] is None
    assert status["id"] == accepted["id"]
    assert status["status"] == "ready"
    assert status["expires_at"] is not None
    download = APIClient().get(status["download_url"])  # the link alone, no sign-in
    assert download.status_code == 200, download.content
    assert FILENAME.match(download["Content-Disposition"])
    document = download.json()
    assert document["format"] == privacy.FORMAT
    assert document["profile"]["username"] == large.username
    request = DataRequest.objects.get(pk=accepted["id"])
    assert (request.subject, request.actor, request.status) == (large, large, "ready")


@pytest.mark.usefixtures("eager_tasks")
def test_asking_again_while_an_export_is_built_answers_the_same_one(large: User) -> None:
    client = client_for(large)
    first = client.get(f"{API}/me/export/")
    again = client.get(f"{API}/me/export/")
    assert (first.status_code, again.status_code) == (202, 202)
    assert first.json()["id"] == again.json()["id"]
    assert DataRequest.objects.filter(subject=large).count() == 1


@pytest.mark.usefixtures("eager_tasks")
def test_a_tampered_or_old_download_link_is_not_found_like_an_unknown_export(
    large: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    _, status = built_export(large, django_capture_on_commit_callbacks)
    export_id = status["id"]
    base = f"{API}/me/exports/{export_id}/download/"
    signature = status["download_url"].split("signature=", 1)[1]
    tampered = signature[:-1] + ("A" if signature[-1] != "A" else "B")
    an_hour_ago = timezone.now() - dt.timedelta(seconds=users.EXPORT_LINK_SECONDS + 60)
    old = users.export_link_signature(export_id, signed_at=an_hour_ago)
    unknown = APIClient().get(
        f"{API}/me/exports/{export_id + 1000}/download/?signature={signature}"
    )
    expected = assert_error(unknown, 404, "not_found")
    for bad in (tampered, old, ""):
        response = APIClient().get(f"{base}?signature={bad}")
        assert assert_error(response, 404, "not_found") == expected
    assert APIClient().get(f"{base}?signature={signature}").status_code == 200


@pytest.mark.usefixtures("eager_tasks")
def test_an_export_past_its_keeping_time_is_expired_and_not_downloaded(
    large: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    _, status = built_export(large, django_capture_on_commit_callbacks)
    DataRequest.objects.filter(pk=status["id"]).update(
        expires_at=timezone.now() - dt.timedelta(minutes=1)
    )
    later = client_for(large).get(status["url"]).json()
    assert (later["status"], later["download_url"]) == ("expired", None)
    assert_error(APIClient().get(status["download_url"]), 404, "not_found")


@pytest.mark.usefixtures("eager_tasks")
def test_only_the_person_sees_their_exports_status(
    large: User,
    world: ClubWorld,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    _, status = built_export(large, django_capture_on_commit_callbacks)
    theirs = client_for(world.users["owner"]).get(status["url"])
    unknown = client_for(world.users["owner"]).get(f"{API}/me/exports/{status['id'] + 1000}/")
    assert assert_error(theirs, 404, "not_found") == assert_error(unknown, 404, "not_found")


# ---------------------------------------------------------------------------------------------
# a club manager's export of a member


@pytest.mark.parametrize(
    ("role", "status"),
    [("owner", 200), ("admin", 200), ("scorer", 403), ("member", 403), ("outsider", 404)],
)
def test_the_clubs_owners_and_admins_export_a_members_data(
    world: ClubWorld, role: str, status: int
) -> None:
    target = world.users["member"]
    response = world.client(role).get(member_export_path(world, target.pk))
    assert response.status_code == status, response.content
    if status == 200:
        assert response["Content-Disposition"].startswith('attachment; filename="personal-data-')
        document = response.json()
        assert document["scope"] == {"club": world.club.pk}
        assert document["profile"]["username"] == target.username
    else:
        code = "permission_denied" if status == 403 else "not_found"
        assert_error(response, status, code)


def test_a_members_export_is_recorded_with_the_manager_and_the_club(world: ClubWorld) -> None:
    target, admin = world.users["member"], world.users["admin"]
    world.client("admin").get(member_export_path(world, target.pk))
    request = DataRequest.objects.get(subject=target)
    assert (request.kind, request.status, request.actor, request.club) == (
        DataRequest.Kind.EXPORT,
        DataRequest.Status.DONE,
        admin,
        world.club,
    )


def test_a_refused_members_export_is_not_recorded(world: ClubWorld) -> None:
    world.client("scorer").get(member_export_path(world, world.users["member"].pk))
    assert not DataRequest.objects.exists()


def test_a_user_who_is_not_a_member_is_not_found_like_an_unknown_one(world: ClubWorld) -> None:
    client = world.client("owner")
    stranger = client.get(member_export_path(world, world.users["outsider"].pk))
    unknown = client.get(member_export_path(world, 999_999))
    assert assert_error(stranger, 404, "not_found") == assert_error(unknown, 404, "not_found")


# ---------------------------------------------------------------------------------------------
# erasing my account


@pytest.fixture
def hilde(world: ClubWorld) -> User:
    """A member of the club with a name, an address and a login that can be looked for."""
    user = UserFactory.create(
        username="hildegard",
        email="hildegard@example.org",
        display_name="Hildegard Brunner",
        first_name="Hildegard",
        last_name="Brunner",
    )
    Membership.objects.create(club=world.club, user=user)
    return user


def test_a_wrong_password_erases_nothing(hilde: User) -> None:
    response = client_for(hilde).delete(f"{API}/me/", {"password": "not-my-password-1"})
    body = assert_error(response, 400, "password_wrong")
    assert body["fields"]["password"]
    hilde.refresh_from_db()
    assert (hilde.username, hilde.erased_at, hilde.is_active) == ("hildegard", None, True)
    assert not DataRequest.objects.exists()


def test_the_refusal_speaks_the_readers_language(hilde: User) -> None:
    client = client_for(hilde)
    response = client.delete(
        f"{API}/me/", {"password": "nicht-mein-passwort-1"}, HTTP_ACCEPT_LANGUAGE="de"
    )
    body = assert_error(response, 400, "password_wrong")
    assert body["message"] == "Das Passwort ist falsch; Ihr Konto wurde nicht gelöscht."
    assert body["fields"]["password"] == ["Falsches Passwort."]


def test_my_password_erases_me_my_tokens_and_my_name_in_my_club(
    world: ClubWorld, hilde: User
) -> None:
    tokens = signed_in_with_password(hilde)
    old_refresh, old_access = signed_in_minutes_ago(hilde, 60)
    response = bearer(old_access).delete(f"{API}/me/", {"password": DEFAULT_PASSWORD})
    assert response.status_code == 204, response.content
    assert response.content == b""

    assert bearer(tokens["access"]).get(f"{API}/me/").status_code == 401
    for refresh in (tokens["refresh"], old_refresh):
        refused = APIClient().post(f"{API}/auth/token/refresh/", {"refresh": refresh})
        assert refused.status_code == 401, refused.content
    members = world.client("owner").get(f"{API}/clubs/{world.club.pk}/members/")
    assert members.status_code == 200
    text = members.content.decode().casefold()
    for name in ("hildegard", "brunner", "hildegard@example.org"):
        assert name not in text
    request = DataRequest.objects.get(subject=hilde)
    assert (request.kind, request.status, request.actor) == ("erasure", "done", hilde)


def test_a_fresh_sign_in_erases_me_without_the_password(hilde: User) -> None:
    tokens = signed_in_with_password(hilde)
    response = bearer(tokens["access"]).delete(f"{API}/me/")
    assert response.status_code == 204, response.content
    hilde.refresh_from_db()
    assert hilde.erased_at is not None
    assert hilde.username != "hildegard"


@pytest.mark.parametrize("refreshed", [False, True], ids=["signed-in", "refreshed"])
def test_a_sign_in_older_than_ten_minutes_asks_for_the_password(
    hilde: User, refreshed: bool
) -> None:
    refresh, access = signed_in_minutes_ago(hilde, 11)
    if refreshed:  # a new access token from the old sign-in is no new sign-in
        answer = APIClient().post(f"{API}/auth/token/refresh/", {"refresh": refresh})
        assert answer.status_code == 200, answer.content
        access = answer.json()["access"]
    response = bearer(access).delete(f"{API}/me/")
    body = assert_error(response, 403, "sign_in_again")
    assert "password" in body["message"]
    hilde.refresh_from_db()
    assert hilde.erased_at is None


def test_the_last_owner_of_a_club_is_not_erased(world: ClubWorld) -> None:
    owner = world.users["owner"]
    response = world.client("owner").delete(f"{API}/me/", {"password": DEFAULT_PASSWORD})
    body = assert_error(response, 409, "last_owner")
    assert world.club.name in body["message"]
    owner.refresh_from_db()
    assert (owner.username, owner.erased_at, owner.is_active) == ("owner", None, True)
    assert Membership.objects.filter(club=world.club, user=owner, role="owner").exists()
    assert Club.objects.filter(pk=world.club.pk).exists()
    assert not DataRequest.objects.exists()


# ---------------------------------------------------------------------------------------------
# my name in public lists


def test_i_choose_whether_public_lists_show_my_name(world: ClubWorld) -> None:
    client = world.client("member")
    assert client.get(f"{API}/me/").json()["public_name"] is None
    for choice in (True, False, None):
        answer = client.patch(f"{API}/me/", {"public_name": choice})
        assert answer.status_code == 200, answer.content
        assert answer.json()["public_name"] is choice
        assert client.get(f"{API}/me/").json()["public_name"] is choice
    client.patch(f"{API}/me/", {"public_name": False})
    client.patch(f"{API}/me/", {"display_name": "Anna K."})
    assert client.get(f"{API}/me/").json()["public_name"] is False
