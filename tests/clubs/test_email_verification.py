"""Confirming e-mail addresses: a new or changed address starts unconfirmed and gets a signed
link; only a confirmed address shows and accepts the invitations sent to it; a confirmed
address belongs to one account in any case; confirmation e-mails are limited per account."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks
from rest_framework.test import APIClient

from clubs.models import Club, Membership, User
from clubs.services import people
from clubs.services.users import email_verification_token
from tests.factories import ClubFactory, UserFactory
from tests.helpers import client_for

pytestmark = pytest.mark.django_db
API = "/api/v1"
VERIFY = f"{API}/auth/email/verify/"
RESEND = f"{API}/me/email/resend/"


def token_in(message: Any) -> str:
    found = re.search(r"Confirmation code: (\S+)", message.body)
    assert found, message.body
    return found.group(1)


def confirm(user: User) -> None:
    user.email_verified_at = timezone.now()
    user.save(update_fields=["email_verified_at"])


@pytest.fixture
def private_club() -> Club:
    club: Club = ClubFactory(name="Geheime Runde", is_public=False)
    Membership.objects.create(club=club, user=UserFactory(username="olga"), role="owner")
    return club


def invite(club: Club, email: str) -> str:
    owner = club.memberships.get(role="owner").user
    return people.invitation_create(club_id=club.pk, user=owner, email=email).code


def change_email(
    client: APIClient, email: str, capture: DjangoCaptureOnCommitCallbacks
) -> dict[str, Any]:
    with capture(execute=True):
        response = client.patch(f"{API}/me/", {"email": email}, format="json")
    assert response.status_code == 200, response.json()
    body: dict[str, Any] = response.json()
    return body


# ---------------------------------------------------------------------------------------------
# stealing an invitation


def test_it_refuses_to_show_invitations_to_an_address_typed_in_without_confirming(
    private_club: Club, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    anna = UserFactory(username="anna", email="anna@example.org")
    confirm(anna)
    invite(private_club, "anna@example.org")
    mallory = UserFactory(username="mallory", email="mallory@example.org")

    body = change_email(client_for(mallory), "ANNA@example.org", django_capture_on_commit_callbacks)

    assert body["email_verified"] is False
    assert client_for(mallory).get(f"{API}/me/invitations/").json()["count"] == 0
    # the confirmation went to the address, which mallory cannot read
    assert [m.to for m in mail.outbox] == [["ANNA@example.org"]]
    # the invitee still sees and accepts it
    mine = client_for(anna).get(f"{API}/me/invitations/").json()["results"]
    assert len(mine) == 1
    accepted = client_for(anna).post(f"{API}/invitations/{mine[0]['code']}/accept/")
    assert accepted.status_code == 201, accepted.json()


def test_it_refuses_an_addressed_invitation_to_anyone_but_its_confirmed_addressee(
    private_club: Club, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    code = invite(private_club, "anna@example.org")
    mallory = UserFactory(username="mallory", email="mallory@example.org")
    change_email(client_for(mallory), "anna@example.org", django_capture_on_commit_callbacks)

    refused = client_for(mallory).post(f"{API}/invitations/{code}/accept/")

    assert refused.status_code == 403
    body = refused.json()
    assert body["code"] == "invitation_for_another_address"
    assert "confirm" in body["message"]
    assert not Membership.objects.filter(club=private_club, user=mallory).exists()
    # the invitation is untouched: the invitee, once confirmed, gets in
    anna = UserFactory(username="anna", email="Anna@Example.org")
    confirm(anna)
    assert client_for(anna).post(f"{API}/invitations/{code}/accept/").status_code == 201


def test_an_account_from_before_confirmation_sees_no_invitations_until_it_confirms(
    private_club: Club, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    old = UserFactory(username="bert", email="bert@example.org")  # stored, never confirmed
    invite(private_club, "bert@example.org")
    client = client_for(old)
    assert client.get(f"{API}/me/").json()["email_verified"] is False
    assert client.get(f"{API}/me/invitations/").json()["count"] == 0

    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(RESEND).status_code == 204
    assert mail.outbox[-1].to == ["bert@example.org"]
    confirmed = APIClient().post(VERIFY, {"token": token_in(mail.outbox[-1])}, format="json")

    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["email_verified"] is True
    assert client.get(f"{API}/me/invitations/").json()["count"] == 1


# ---------------------------------------------------------------------------------------------
# confirming


def test_it_confirms_an_address_with_the_e_mailed_token(
    user: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    client = client_for(user)
    change_email(client, "neu@example.org", django_capture_on_commit_callbacks)
    message = mail.outbox[-1]
    assert message.to == ["neu@example.org"]
    assert "http://127.0.0.1:8000/api/v1/auth/email/verify/" in message.body

    confirmed = APIClient().post(VERIFY, {"token": token_in(message)}, format="json")

    assert confirmed.status_code == 200, confirmed.json()
    assert client.get(f"{API}/me/").json()["email_verified"] is True
    # the same link twice changes nothing
    again = APIClient().post(VERIFY, {"token": token_in(message)}, format="json")
    assert again.status_code == 200


def test_it_refuses_an_expired_token(user: User, settings: Any) -> None:
    settings.EMAIL_VERIFICATION_MAX_AGE_SECONDS = 3600
    token = email_verification_token(user, issued_at=timezone.now() - dt.timedelta(hours=2))

    refused = APIClient().post(VERIFY, {"token": token}, format="json")

    assert refused.status_code == 400
    assert refused.json()["code"] == "token_expired"
    assert "new one" in refused.json()["message"]
    user.refresh_from_db()
    assert user.email_verified_at is None


def test_it_refuses_a_token_for_an_address_changed_since(
    user: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    old_token = email_verification_token(user)
    change_email(client_for(user), "other@example.org", django_capture_on_commit_callbacks)

    refused = APIClient().post(VERIFY, {"token": old_token}, format="json")

    assert refused.status_code == 400
    assert refused.json()["code"] == "token_invalid"
    user.refresh_from_db()
    assert user.email_verified_at is None


def test_it_refuses_a_damaged_token() -> None:
    refused = APIClient().post(VERIFY, {"token": "eyJ1IjoxfQ:forged:sig"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "token_invalid"
    assert refused.json()["fields"]["token"]


def test_it_refuses_to_confirm_an_address_another_account_confirmed_in_any_case(
    user: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    owner = UserFactory(username="anna", email="anna@example.org")
    confirm(owner)
    change_email(client_for(user), "Anna@Example.ORG", django_capture_on_commit_callbacks)

    refused = APIClient().post(VERIFY, {"token": token_in(mail.outbox[-1])}, format="json")

    assert refused.status_code == 409
    assert refused.json()["code"] == "email_taken"
    user.refresh_from_db()
    assert user.email_verified_at is None


def test_saving_an_address_answers_alike_whether_another_account_has_it(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    confirm(UserFactory(username="anna", email="anna@example.org"))
    answers = []
    for name, address in (("t", "anna@example.org"), ("f", "nobody@example.org")):
        client = client_for(UserFactory(username=name, display_name="Same"))
        with django_capture_on_commit_callbacks(execute=True):
            response = client.patch(f"{API}/me/", {"email": address}, format="json")
        body = response.json()
        answers.append((response.status_code, body["email_verified"], body["display_name"]))
    assert answers[0] == answers[1] == (200, False, "Same")
    # both addresses were sent a confirmation: only the one to anna can end in email_taken
    assert [m.to for m in mail.outbox] == [["anna@example.org"], ["nobody@example.org"]]


def test_changing_only_the_letter_case_keeps_the_confirmation(
    user: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    confirm(user)
    body = change_email(client_for(user), user.email.upper(), django_capture_on_commit_callbacks)
    assert body["email_verified"] is True
    assert mail.outbox == []


def test_a_new_account_starts_unconfirmed_and_gets_a_confirmation(
    api_client: APIClient, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(
            f"{API}/auth/register/",
            {"username": "zoe", "password": "a-long-pass-99", "email": "zoe@example.org"},
            format="json",
        )
    assert response.status_code == 201, response.json()
    assert response.json()["email_verified"] is False
    assert [m.to for m in mail.outbox] == [["zoe@example.org"]]
    confirmed = api_client.post(VERIFY, {"token": token_in(mail.outbox[0])}, format="json")
    assert confirmed.status_code == 200
    assert User.objects.get(username="zoe").email_verified_at is not None


# ---------------------------------------------------------------------------------------------
# sending again, and its limit


def test_it_refuses_to_resend_without_an_address_or_when_confirmed(user: User) -> None:
    confirm(user)
    already = client_for(user).post(RESEND)
    assert already.status_code == 409
    assert already.json()["code"] == "email_verified"
    user.email = ""
    user.save(update_fields=["email"])
    none = client_for(user).post(RESEND)
    assert none.status_code == 400
    assert none.json()["code"] == "no_email"


def test_it_refuses_more_confirmation_e_mails_than_the_limit(
    user: User, settings: Any, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    settings.EMAIL_VERIFICATION_RATE = "2/hour"
    client = client_for(user)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(RESEND).status_code == 204
        assert (
            client.patch(f"{API}/me/", {"email": "b@example.org"}, format="json").status_code == 200
        )
        refused = client.post(RESEND)
        changed = client.patch(f"{API}/me/", {"email": "c@example.org"}, format="json")

    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert "confirmation e-mails" in refused.json()["message"]
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert changed.status_code == 429
    user.refresh_from_db()
    assert user.email == "b@example.org"  # the refused change changed nothing
    assert len(mail.outbox) == 2
    # another account has its own count
    other = client_for(UserFactory(username="other"))
    assert other.post(RESEND).status_code == 204
