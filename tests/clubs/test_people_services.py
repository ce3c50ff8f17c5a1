"""The people services on their own: the rules they keep under the club's row lock (the last
owner, an invitation's last use, one pending request), and the e-mail helpers.

The ``services``-marked tests run the races for real, with threads on PostgreSQL; the others
run the same sequences one after the other."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone
from pytest_django.fixtures import DjangoCaptureOnCommitCallbacks

from clubs import emails
from clubs.errors import ClubConflict, ClubNotFound, InvalidInput, NotAllowed
from clubs.models import Club, Guest, JoinRequest, Membership, User
from clubs.services import people
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> User:
    return UserFactory.create(username="owner")


@pytest.fixture
def club(owner: User) -> Club:
    return people.club_create(user=owner, name="Wiener Runde")


def join(club: Club, username: str, role: str = Membership.Role.MEMBER) -> User:
    user = UserFactory.create(username=username)
    Membership.objects.create(club=club, user=user, role=role)
    return user


def role_of(club: Club, user: User) -> str | None:
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


# ---------------------------------------------------------------------------------------------
# clubs


def test_club_create_makes_the_founder_owner_and_spells_out_the_rules(
    club: Club, owner: User
) -> None:
    assert role_of(club, owner) == "owner"
    assert club.slug == "wiener-runde"
    assert club.default_rules == {
        "variant": "wien",
        "dealer_contribution": 10,
        "pot_cap": None,
        "holding_after_forehand": "rearhand",
        "invitation_tricks": "inviter",
        "pot_at_close": "carry",
    }


def test_club_create_numbers_slugs_of_equal_names(club: Club, owner: User) -> None:
    assert people.club_create(user=owner, name="Wiener Runde").slug == "wiener-runde-2"
    assert people.club_create(user=owner, name="Wiener  Runde!").slug == "wiener-runde-3"
    assert people.club_create(user=owner, name="!!!").slug == "club"


def test_parse_default_rules_names_the_option_the_engine_refuses() -> None:
    with pytest.raises(InvalidInput) as refused:
        people.parse_default_rules({"variant": "wien", "dealer_contribution": 0, "pot_cap": None})
    assert list(refused.value.fields) == ["default_rules.dealer_contribution"]
    with pytest.raises(InvalidInput) as refused:
        people.parse_default_rules({})
    assert list(refused.value.fields) == ["default_rules.variant"]


def test_club_update_is_for_owners_and_admins(club: Club) -> None:
    admin = join(club, "admin", "admin")
    scorer = join(club, "scorer", "scorer")
    with pytest.raises(NotAllowed):
        people.club_update(club_id=club.pk, user=scorer, city="Graz")
    updated = people.club_update(club_id=club.pk, user=admin, city=" Graz ", is_public=True)
    assert (updated.city, updated.is_public, updated.name) == ("Graz", True, "Wiener Runde")


# ---------------------------------------------------------------------------------------------
# members


def test_two_owners_cannot_both_step_down(club: Club, owner: User) -> None:
    second = join(club, "second", "owner")
    people.membership_set_role(club_id=club.pk, user=owner, member_id=second.pk, role="admin")
    with pytest.raises(NotAllowed):  # second is an admin now
        people.membership_set_role(club_id=club.pk, user=second, member_id=owner.pk, role="admin")
    with pytest.raises(ClubConflict) as refused:
        people.membership_set_role(club_id=club.pk, user=owner, member_id=owner.pk, role="admin")
    assert refused.value.code == "last_owner"
    assert role_of(club, owner) == "owner"


def test_the_second_of_two_owners_leaving_is_refused(club: Club, owner: User) -> None:
    second = join(club, "second", "owner")
    people.club_leave(club_id=club.pk, user=second)
    with pytest.raises(ClubConflict) as refused:
        people.club_leave(club_id=club.pk, user=owner)
    assert refused.value.code == "last_owner"


def test_membership_remove_keeps_the_last_owner(club: Club, owner: User) -> None:
    with pytest.raises(ClubConflict):
        people.membership_remove(club_id=club.pk, user=owner, member_id=owner.pk)
    assert role_of(club, owner) == "owner"


def test_club_leave_needs_a_membership(club: Club) -> None:
    with pytest.raises(NotAllowed):
        people.club_leave(club_id=club.pk, user=UserFactory.create(username="stranger"))


def test_transfer_to_an_owner_only_changes_the_caller(club: Club, owner: User) -> None:
    second = join(club, "second", "owner")
    new_owner, you = people.club_transfer_ownership(
        club_id=club.pk, user=owner, to_user_id=second.pk, stay_as="member"
    )
    assert (new_owner.role, you and you.role) == ("owner", "member")


def test_transfer_refuses_an_unknown_stay_as(club: Club, owner: User) -> None:
    heir = join(club, "heir")
    with pytest.raises(InvalidInput):
        people.club_transfer_ownership(
            club_id=club.pk, user=owner, to_user_id=heir.pk, stay_as="king"
        )


# ---------------------------------------------------------------------------------------------
# invitations


def test_the_last_use_admits_one_person(club: Club, owner: User) -> None:
    invitation = people.invitation_create(club_id=club.pk, user=owner, max_uses=1)
    first, second = UserFactory.create(username="a"), UserFactory.create(username="b")
    assert people.invitation_accept(code=invitation.code, user=first).role == "member"
    with pytest.raises(ClubConflict) as refused:
        people.invitation_accept(code=invitation.code, user=second)
    assert refused.value.code == "invitation_used_up"
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert role_of(club, second) is None


def test_invitation_state_names_the_first_reason_it_is_over(club: Club, owner: User) -> None:
    invitation = people.invitation_create(club_id=club.pk, user=owner)
    assert people.invitation_state(invitation) == "active"
    invitation.uses = 1
    assert people.invitation_state(invitation) == "used_up"
    later = invitation.expires_at + dt.timedelta(seconds=1)
    assert people.invitation_state(invitation, later) == "expired"
    invitation.revoked_at = timezone.now()
    assert people.invitation_state(invitation, later) == "revoked"


def test_invitation_create_refuses_owner_invitations(club: Club, owner: User) -> None:
    with pytest.raises(InvalidInput):
        people.invitation_create(club_id=club.pk, user=owner, role="owner")


def test_invitation_codes_differ(club: Club, owner: User) -> None:
    codes = {people.invitation_create(club_id=club.pk, user=owner).code for _ in range(20)}
    assert len(codes) == 20
    assert all(len(code) >= 20 for code in codes)


def test_invitation_e_mail_waits_for_the_commit(
    club: Club, owner: User, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        people.invitation_create(club_id=club.pk, user=owner, email="anna@example.org")
    assert mail.outbox == []
    assert len(callbacks) == 1
    callbacks[0]()
    assert [m.to for m in mail.outbox] == [["anna@example.org"]]


def test_invitation_accept_refuses_a_vanished_code() -> None:
    with pytest.raises(ClubNotFound):
        people.invitation_accept(code="gone", user=UserFactory.create(username="x"))


# ---------------------------------------------------------------------------------------------
# join requests and guests


def test_join_request_withdraw_is_for_the_asker_only(club: Club, owner: User) -> None:
    people.club_update(club_id=club.pk, user=owner, is_public=True)
    asker = UserFactory.create(username="asker")
    request = people.join_request_create(club_id=club.pk, user=asker, message="  Hallo  ")
    assert request.message == "Hallo"
    with pytest.raises(NotAllowed):
        people.join_request_withdraw(club_id=club.pk, user=owner, request_id=request.pk)
    assert people.join_request_withdraw(
        club_id=club.pk, user=asker, request_id=request.pk
    ).status == (JoinRequest.Status.WITHDRAWN)


def test_join_request_create_refuses_private_clubs(club: Club) -> None:
    with pytest.raises(ClubNotFound):
        people.join_request_create(club_id=club.pk, user=UserFactory.create(username="x"))


def test_guest_merge_records_whom_and_when(club: Club, owner: User) -> None:
    guest = people.guest_create(club_id=club.pk, user=owner, name=" Franz ")
    assert guest.name == "Franz"
    into = join(club, "franz")
    merged = people.guest_merge(
        club_id=club.pk, user=owner, guest_id=guest.pk, into_user_id=into.pk
    )
    assert merged.merged_into == into
    assert merged.merged_at is not None
    with pytest.raises(ClubConflict) as refused:
        people.guest_merge(club_id=club.pk, user=owner, guest_id=guest.pk, into_user_id=into.pk)
    assert refused.value.code == "already_merged"


def test_guests_of_another_club_are_not_found(club: Club, owner: User) -> None:
    other = Club.objects.create(name="Andere", slug="andere")
    guest = Guest.objects.create(club=other, name="Franz")
    with pytest.raises(ClubNotFound):
        people.guest_merge(club_id=club.pk, user=owner, guest_id=guest.pk, into_user_id=owner.pk)


# ---------------------------------------------------------------------------------------------
# e-mail helpers


def test_send_writes_one_message_per_address_and_skips_blanks_and_repeats() -> None:
    sent = emails.send(["a@example.org", "", "A@example.org", "b@example.org"], "Hi", "Body")
    assert sent == 2
    assert [m.to for m in mail.outbox] == [["a@example.org"], ["b@example.org"]]
    assert mail.outbox[0].from_email == "Préférence <noreply@localhost>"


def test_send_on_commit_sends_nothing_without_an_address(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        emails.send_on_commit(["", "  "], emails.Mail(subject="s", body="b"))
    assert callbacks == []


def test_render_refuses_a_template_with_a_hole() -> None:
    assert emails.render("Hello {name}", {"name": "Anna"}) == "Hello Anna"
    with pytest.raises(KeyError):
        emails.render("Hello {name}", {})


def test_when_shows_the_time_in_the_clubs_zone() -> None:
    moment = dt.datetime(2025, 3, 14, 18, 30, tzinfo=dt.UTC)
    assert emails.when(moment, "Europe/Vienna") == "Friday 14 March 2025, 19:30 (Europe/Vienna)"
    assert emails.when(moment, "Nowhere/Else").endswith("18:30 (UTC)")


def test_the_invitation_mail_says_who_invites_to_what_until_when() -> None:
    message = emails.invitation_mail(
        club_name="Wiener Runde",
        role="admin",
        url="https://example.org/api/v1/invitations/abc/",
        code="abc",
        expires_at=dt.datetime(2025, 3, 14, 18, 30, tzinfo=dt.UTC),
        timezone_name="Europe/Vienna",
        inviter="Anna",
    )
    assert message.subject == "You are invited to join Wiener Runde"
    assert "Anna invites you to join Wiener Runde as an admin." in message.body
    assert "POST https://example.org/api/v1/invitations/abc/accept/" in message.body
    assert "19:30 (Europe/Vienna)" in message.body


# ---------------------------------------------------------------------------------------------
# real races (PostgreSQL)


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` in threads released at once; each result or raised exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # the loser of the race raises: an expected outcome
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_people_taking_the_last_use_at_once_let_in_one() -> None:
    owner = UserFactory.create(username="owner")
    club = people.club_create(user=owner, name="Wiener Runde")
    invitation = people.invitation_create(club_id=club.pk, user=owner, max_uses=1)
    first, second = UserFactory.create(username="a"), UserFactory.create(username="b")
    results = race(
        lambda: people.invitation_accept(code=invitation.code, user=first),
        lambda: people.invitation_accept(code=invitation.code, user=second),
    )
    joined = [r for r in results if isinstance(r, Membership)]
    refused = [r for r in results if isinstance(r, ClubConflict)]
    assert len(joined) == 1 and len(refused) == 1, results
    assert refused[0].code == "invitation_used_up"
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert Membership.objects.filter(club=club).count() == 2


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_owners_leaving_at_once_leave_one_owner() -> None:
    owner = UserFactory.create(username="owner")
    club = people.club_create(user=owner, name="Wiener Runde")
    second = join(club, "second", "owner")
    results = race(
        lambda: people.club_leave(club_id=club.pk, user=owner),
        lambda: people.club_leave(club_id=club.pk, user=second),
    )
    refused = [r for r in results if isinstance(r, ClubConflict)]
    assert len(refused) == 1 and refused[0].code == "last_owner", results
    assert Membership.objects.filter(club=club, role="owner").count() == 1
