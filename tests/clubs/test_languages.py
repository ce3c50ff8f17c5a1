"""The clubs app in German and English (issue 38): a German request gets German sentences and an
English one English, with the same status codes, codes and field names; e-mails, reminders
and the iCal feed speak their reader's language (their preference, else the club's), not the
sender's."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import icalendar
import pytest
from django.core import mail
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks
from rest_framework.test import APIClient

from clubs.models import Evening, Guest, Invitation, JoinRequest, User
from clubs.services import evenings as evening_services
from tests import pseudo as tests_pseudo
from tests.clubs.evening_setup import check_in
from tests.clubs.world import ClubWorld, build_club_world
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LANGUAGES = ("de", "en")


@pytest.fixture
def world() -> ClubWorld:
    return build_club_world(public=True)


def club_url(world: ClubWorld, rest: str = "") -> str:
    return f"/api/v1/clubs/{world.club.pk}/{rest}"


def client_of(world: ClubWorld, user: User) -> APIClient:
    client = world.client("anonymous")
    client.force_authenticate(user)
    return client


def in_both(ask: Callable[[str], Any]) -> dict[str, Any]:
    """The answers to the same request sent in German and in English."""
    return {language: ask(language) for language in LANGUAGES}


def same_refusal(answers: dict[str, Any], status: int, code: str) -> tuple[str, str]:
    """Both answers refuse alike (status, code, field names) and each says so in its own
    language: the German and the English message."""
    german, english = answers["de"], answers["en"]
    assert german.status_code == english.status_code == status, german.content
    assert german.json()["code"] == english.json()["code"] == code
    assert set(german.json()["fields"]) == set(english.json()["fields"])
    assert german["Content-Language"] == "de" and english["Content-Language"] == "en"
    assert german.json()["message"] != english.json()["message"]
    for field, messages in german.json()["fields"].items():
        assert messages != english.json()["fields"][field], field
    return german.json()["message"], english.json()["message"]


# ---------------------------------------------------------------------------------------------
# refusals


def test_a_second_join_request_is_refused_in_the_callers_language(world: ClubWorld) -> None:
    outsider = client_of(world, world.users["outsider"])
    assert outsider.post(club_url(world, "join-requests/"), {}, format="json").status_code == 201
    answers = in_both(
        lambda language: outsider.post(
            club_url(world, "join-requests/"), {}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    german, english = same_refusal(answers, 409, "join_request_pending")
    assert english == (
        "You have asked to join already; wait for the answer or withdraw that request."
    )
    assert german == (
        "Sie haben bereits um Beitritt gebeten; warten Sie auf die Antwort oder ziehen Sie die "
        "Anfrage zurück."
    )
    assert JoinRequest.objects.count() == 1


def test_a_member_changing_the_clubs_settings_is_refused_in_their_language(
    world: ClubWorld,
) -> None:
    member = world.client("member")
    answers = in_both(
        lambda language: member.patch(
            club_url(world), {"city": "Graz"}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    german, english = same_refusal(answers, 403, "permission_denied")
    assert "owners and admins" in english
    assert "Inhaber und Admins" in german


def test_an_answer_to_a_cancelled_evening_is_refused_in_the_callers_language(
    world: ClubWorld,
) -> None:
    evening_services.evening_cancel(user=world.users["owner"], evening_id=world.evening.pk)
    member = world.client("member")
    path = club_url(world, f"evenings/{world.evening.pk}/attendance/")
    answers = in_both(
        lambda language: member.put(
            path, {"answer": "yes"}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    german, english = same_refusal(answers, 409, "evening_cancelled")
    assert (german, english) == ("Der Abend ist abgesagt.", "The evening is cancelled.")


def test_a_wrong_answer_names_the_same_field_in_both_languages(world: ClubWorld) -> None:
    member = world.client("member")
    path = club_url(world, f"evenings/{world.evening.pk}/attendance/")
    answers = in_both(
        lambda language: member.put(
            path, {"answer": "perhaps"}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    same_refusal(answers, 400, "validation_error")
    assert set(answers["de"].json()["fields"]) == {"answer"}


def test_an_unsplittable_round_is_refused_in_the_directors_language(world: ClubWorld) -> None:
    check_in(world.evening, *(world.users[r] for r in ("member", "scorer", "admin", "owner")))
    check_in(world.evening, Guest.objects.create(club=world.club, name="Gast"))
    admin = world.client("admin")
    path = club_url(world, f"evenings/{world.evening.pk}/rounds/")
    answers = in_both(
        lambda language: admin.post(path, {}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    )
    german, english = same_refusal(answers, 400, "unsplittable")
    assert set(answers["de"].json()["fields"]) == {"players"}
    assert english.startswith(
        "5 players cannot sit at tables of 3 and 4: with 6 you get two tables of 3, with 4 one "
        "table of 4, or give one player a bye. Or let one bot fill the empty seats"
    )
    assert german.startswith(
        "5 Spieler können nicht an Tischen zu 3 und 4 sitzen: mit 6: zwei Tische zu 3, mit 4: "
        "ein Tisch zu 4, oder ein Spieler setzt aus. Oder lassen Sie einen Bot"
    )


def test_the_saved_preference_beats_the_requests_language(world: ClubWorld) -> None:
    evening_services.evening_cancel(user=world.users["owner"], evening_id=world.evening.pk)
    member = world.users["member"]
    member.language = "de"
    member.save(update_fields=["language"])
    answer = world.client("member").put(
        club_url(world, f"evenings/{world.evening.pk}/attendance/"),
        {"answer": "yes"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 409
    assert answer.json()["message"] == "Der Abend ist abgesagt."


# ---------------------------------------------------------------------------------------------
# e-mails


def confirmed_user(username: str, email: str, language: str) -> User:
    user: User = UserFactory.create(username=username, email=email, language=language)
    user.email_verified_at = timezone.now()
    user.save(update_fields=["email_verified_at"])
    return user


def invite(world: ClubWorld, email: str, accept_language: str = "en") -> None:
    answer = world.client("owner").post(
        club_url(world, "invitations/"),
        {"email": email, "role": "scorer"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=accept_language,
    )
    assert answer.status_code == 201, answer.content
    assert answer["Content-Language"] == accept_language


def test_an_invitation_speaks_the_invitees_language_not_the_inviters(
    world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    confirmed_user("anna", "anna@example.org", "de")
    world.users["owner"].language = "en"
    world.users["owner"].save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        invite(world, "ANNA@example.org")
    [message] = mail.outbox
    assert message.subject == "Einladung zu Wiener Runde"
    assert "Owner lädt Sie ein, Wiener Runde als Schreiber beizutreten." in message.body
    assert "Die Einladung gilt bis " in message.body
    expires = timezone.now() + dt.timedelta(days=14)
    local = expires.astimezone(dt.timezone(dt.timedelta(hours=1))).strftime("%d.%m.%Y")
    summer = expires.astimezone(dt.timezone(dt.timedelta(hours=2))).strftime("%d.%m.%Y")
    assert local in message.body or summer in message.body  # 23.11.2026, 19:30
    assert "invites you" not in message.body


def test_an_invitation_to_an_address_without_an_account_speaks_the_clubs_language(
    world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    world.club.language = "de"
    world.club.save(update_fields=["language"])
    confirmed_user("bert", "bert@example.org", "en")
    with django_capture_on_commit_callbacks(execute=True):
        invite(world, "neu@example.org")
        invite(world, "bert@example.org", accept_language="de")
    by_address = {m.to[0]: m for m in mail.outbox}
    assert by_address["neu@example.org"].subject == "Einladung zu Wiener Runde"
    assert by_address["bert@example.org"].subject == "You are invited to join Wiener Runde"
    assert "as a scorer" in by_address["bert@example.org"].body


def test_an_unconfirmed_address_does_not_choose_the_language(
    world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    UserFactory.create(username="mallory", email="carla@example.org", language="de")
    with django_capture_on_commit_callbacks(execute=True):
        invite(world, "carla@example.org")
    assert mail.outbox[0].subject == "You are invited to join Wiener Runde"


def test_a_join_request_tells_each_manager_in_their_language(
    world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    world.users["admin"].language = "de"
    world.users["admin"].save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = world.client("outsider").post(
            club_url(world, "join-requests/"), {"message": "Hallo!"}, format="json"
        )
    assert answer.status_code == 201
    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {world.users["admin"].email, world.users["owner"].email}
    assert (
        by_address[world.users["admin"].email].subject == "Outsider möchte Wiener Runde beitreten"
    )
    assert "Die Nachricht dazu: „Hallo!“" in by_address[world.users["admin"].email].body
    assert by_address[world.users["owner"].email].subject == "Outsider asks to join Wiener Runde"


def test_a_reminder_speaks_the_clubs_language_to_a_member_without_one(
    world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    world.club.language = "de"
    world.club.reminder_hours = 24
    world.club.save(update_fields=["language", "reminder_hours"])
    english = world.users["scorer"]
    english.language = "en"
    english.save(update_fields=["language"])
    starts = timezone.now() + dt.timedelta(hours=20)
    Evening.objects.filter(pk=world.evening.pk).update(
        title="Abend", starts_at=starts, ends_at=starts + dt.timedelta(hours=4)
    )
    for role, answer in (("member", "maybe"), ("scorer", "maybe")):
        client_of(world, world.users[role]).put(
            club_url(world, f"evenings/{world.evening.pk}/attendance/"),
            {"answer": answer},
            format="json",
        )
    with django_capture_on_commit_callbacks(execute=True):
        assert evening_services.evening_reminders_send() == 1
    by_address = {m.to[0]: m for m in mail.outbox}
    german = by_address[world.users["member"].email]
    assert german.subject == "Erinnerung: Abend"
    assert "bitte antworten Sie mit Ja oder Nein" in german.body
    local = starts.astimezone(evening_services.club_zone(world.club))
    assert local.strftime("%d.%m.%Y, %H:%M (Europe/Vienna)") in german.body
    other = by_address[english.email]
    assert other.subject == "Reminder: Abend"
    assert "please answer yes or no" in other.body


# ---------------------------------------------------------------------------------------------
# the iCal feed


def feed_events(body: bytes) -> dict[int, icalendar.cal.Component]:
    calendar = icalendar.Calendar.from_ical(body)
    return {int(str(e["uid"]).split("-")[1].split("@")[0]): e for e in calendar.walk("VEVENT")}


@pytest.mark.parametrize(
    ("owner_language", "summary", "line"),
    [
        ("de", "Abgesagt: Clubabend (Wiener Runde)", "Ein Abend von Wiener Runde: "),
        ("en", "Cancelled: Clubabend (Wiener Runde)", "An evening of Wiener Runde: "),
    ],
)
def test_a_personal_feed_speaks_its_owners_language(
    world: ClubWorld, owner_language: str, summary: str, line: str
) -> None:
    evening_services.evening_cancel(user=world.users["owner"], evening_id=world.evening.pk)
    member = world.users["member"]
    member.language = owner_language
    member.save(update_fields=["language"])
    feed = world.client("member").post("/api/v1/me/calendar-feeds/").json()
    other = "en" if owner_language == "de" else "de"
    answer = APIClient().get(f"/api/v1/calendar/{feed['token']}.ics", HTTP_ACCEPT_LANGUAGE=other)
    assert answer.status_code == 200
    assert answer["Content-Language"] == owner_language
    event = feed_events(answer.content)[world.evening.pk]
    assert str(event["summary"]) == summary
    assert line in str(event["description"])
    assert str(event["status"]) == "CANCELLED"


def test_a_clubs_feed_speaks_the_asked_language_else_the_clubs(world: ClubWorld) -> None:
    world.club.language = "de"
    world.club.save(update_fields=["language"])
    evening_services.evening_cancel(user=world.users["owner"], evening_id=world.evening.pk)
    path = club_url(world, "calendar.ics")
    unasked = APIClient().get(path)
    assert unasked["Content-Language"] == "de"
    event = feed_events(unasked.content)[world.evening.pk]
    assert str(event["summary"]) == "Abgesagt: Clubabend"
    asked = APIClient().get(path, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert asked["Content-Language"] == "en"
    assert str(feed_events(asked.content)[world.evening.pk]["summary"]) == "Cancelled: Clubabend"


# ---------------------------------------------------------------------------------------------
# the pseudo-locale: no English sentence left


PSEUDO = "en-xa"
#: Refusals of the clubs' own sentences: (role, method, path under the club, body). (Those of
#: DRF's serializers come from DRF's catalogs, German included, which the pseudo-locale lacks.)
REFUSALS = [
    ("member", "patch", "", {"city": "Graz"}),
    ("owner", "patch", "", {"timezone": "Mars/Olympus"}),
    ("owner", "patch", "", {"currency": "eur"}),
    ("admin", "post", "invitations/", {"role": "admin"}),
    (
        "owner",
        "post",
        "evenings/",
        {"title": "X", "starts_at": "2027-01-01T20:00", "ends_at": "2027-01-01T19:00"},
    ),
    ("owner", "post", "evenings/", {"title": "X", "starts_at": "morgen", "ends_at": "übermorgen"}),
    (
        "owner",
        "post",
        "evening-series/",
        {"title": "X", "rrule": "FREQ=HOURLY", "first_start": "2027-01-05T19:00"},
    ),
    (
        "owner",
        "post",
        "evening-series/",
        {"title": "X", "rrule": "BYHOUR=3;FREQ=WEEKLY", "first_start": "2027-01-05T19:00"},
    ),
    ("member", "get", "evenings/999999/", None),
    ("member", "post", "evenings/{evening}/check-ins/", {"guest_name": "Onkel Fritz"}),
    ("owner", "post", "evenings/{evening}/check-ins/", {"guest_id": 999999}),
    ("admin", "post", "evenings/{evening}/rounds/", {"rounds_total": 2}),
    (
        "admin",
        "post",
        "seasons/",
        {"name": "S", "starts_on": "2027-02-01", "ends_on": "2027-01-01"},
    ),
    (
        "admin",
        "post",
        "seasons/",
        {
            "name": "S",
            "starts_on": "2027-01-01",
            "ends_on": "2027-02-01",
            "league_points": {"3": [1, 2, 3]},
        },
    ),
    ("owner", "post", "transfer-ownership/", {"user_id": 999999}),
]


@pytest.mark.parametrize(("role", "method", "path", "body"), REFUSALS)
def test_a_refusal_in_the_pseudo_locale_has_no_english_sentence(
    world: ClubWorld, role: str, method: str, path: str, body: dict[str, Any] | None
) -> None:
    check_in(world.evening, *(world.users[r] for r in ("member", "scorer", "admin", "owner")))
    check_in(world.evening, Guest.objects.create(club=world.club, name="Gast"))
    ask = getattr(world.client(role), method)
    answer = ask(
        club_url(world, path.format(evening=world.evening.pk)),
        body,
        format="json",
        HTTP_ACCEPT_LANGUAGE=PSEUDO,
    )
    assert 400 <= answer.status_code < 500, answer.content
    refusal = answer.json()
    assert refusal["message"].startswith("⟦"), refusal
    for field, messages in refusal["fields"].items():
        assert all(m.startswith("⟦") for m in messages), (field, refusal)


# ---------------------------------------------------------------------------------------------
# e-mails and feeds in the pseudo-locale: no English sentence left


def world_data(world: ClubWorld) -> list[str]:
    """The names the world's texts may show: the club's, the evening's, the people's."""
    people = [u.display_name or u.username for u in world.users.values()]
    names = [u.username for u in world.users.values()]
    return [world.club.name, world.evening.title, "Vienna", *people, *names]


def test_the_e_mails_in_the_pseudo_locale_have_no_english_sentence(
    world: ClubWorld, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    for role in ("admin", "member"):  # the recipients; the owner sends in English
        world.users[role].language = tests_pseudo.PSEUDO
        world.users[role].save(update_fields=["language"])
    confirmed_user("anna", "anna@example.org", tests_pseudo.PSEUDO)
    starts = timezone.now() + dt.timedelta(hours=20)
    Evening.objects.filter(pk=world.evening.pk).update(
        starts_at=starts, ends_at=starts + dt.timedelta(hours=4)
    )
    world.club.reminder_hours = 24
    world.club.save(update_fields=["reminder_hours"])
    client_of(world, world.users["member"]).put(
        club_url(world, f"evenings/{world.evening.pk}/attendance/"),
        {"answer": "maybe"},
        format="json",
    )
    with django_capture_on_commit_callbacks(execute=True):
        invite(world, "anna@example.org")
        world.client("outsider").post(
            club_url(world, "join-requests/"), {"message": "Hallo"}, format="json"
        )
        assert evening_services.evening_reminders_send() == 1
    pseudo_mails = [m for m in mail.outbox if m.to[0] != world.users["owner"].email]
    assert len(pseudo_mails) >= 3
    codes = [i.code for i in Invitation.objects.all()]
    data = [*world_data(world), *codes, "anna", "Hallo", "Outsider"]
    for message in pseudo_mails:
        assert not tests_pseudo.english_left(message.subject, data), message.subject
        left = tests_pseudo.english_left(message.body, data)
        assert not left, (left, message.body)


def test_a_feed_in_the_pseudo_locale_has_no_english_sentence(world: ClubWorld) -> None:
    evening_services.evening_cancel(user=world.users["owner"], evening_id=world.evening.pk)
    member = world.users["member"]
    member.language = tests_pseudo.PSEUDO
    member.save(update_fields=["language"])
    feed = world.client("member").post("/api/v1/me/calendar-feeds/").json()
    answer = APIClient().get(f"/api/v1/calendar/{feed['token']}.ics")
    event = feed_events(answer.content)[world.evening.pk]
    for part in ("summary", "description"):
        text = str(event[part])
        assert not tests_pseudo.english_left(text, world_data(world)), text
