"""Whose language an answer speaks (``config/i18n.py``): the signed-in user's saved preference,
else the request's ``Accept-Language``, else English; a club's texts for a member without a
preference speak the club's language. Every answer names its language (``Content-Language``)
and varies on ``Accept-Language``; codes, field names and enum values never change."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory
from django.utils import translation
from rest_framework.test import APIClient

from clubs.models import Club, User
from config.api.conditional import conditional_answer
from config.i18n import language_for
from tests.factories import DEFAULT_PASSWORD, ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def signed_in(user: User, **headers: str) -> APIClient:
    """A client that signs in as ``user`` with a real token, as a phone does."""
    client = APIClient(headers=headers)
    answer = client.post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['access']}")
    return client


def refusal(client: APIClient) -> Any:
    """A refusal every caller can provoke: a club's language the server does not offer."""
    return client.post("/api/v1/clubs/", {"name": "Runde", "language": "xx"}, format="json")


@pytest.mark.parametrize(
    ("sent", "spoken"),
    [("de", "de"), ("de-AT,de;q=0.9,en;q=0.5", "de"), ("en-GB", "en"), ("fr", "en"), ("", "en")],
)
def test_an_anonymous_caller_is_answered_in_the_language_it_asks_for(
    sent: str, spoken: str
) -> None:
    headers = {"Accept-Language": sent} if sent else {}
    answer = APIClient(headers=headers).get("/api/v1/me/")
    assert answer.status_code == 401
    assert answer.json()["code"] == "not_authenticated"
    assert answer["Content-Language"] == spoken
    assert "Accept-Language" in answer["Vary"]
    english = APIClient().get("/api/v1/me/").json()["message"]
    assert (answer.json()["message"] == english) == (spoken == "en")


def test_a_german_refusal_keeps_its_code_and_field_names() -> None:
    user = UserFactory.create()
    german = refusal(signed_in(user, **{"Accept-Language": "de"}))
    english = refusal(signed_in(user, **{"Accept-Language": "en"}))
    assert german.status_code == english.status_code == 400
    assert german.json()["code"] == english.json()["code"]
    assert set(german.json()["fields"]) == set(english.json()["fields"]) == {"language"}
    assert german.json()["message"] != english.json()["message"]
    assert german["Content-Language"] == "de"


def test_the_saved_preference_beats_the_requests_language() -> None:
    user = UserFactory.create(language="de")
    answer = refusal(signed_in(user, **{"Accept-Language": "en"}))
    assert answer["Content-Language"] == "de"
    german = refusal(signed_in(UserFactory.create(), **{"Accept-Language": "de"}))
    english = refusal(signed_in(UserFactory.create(), **{"Accept-Language": "en"}))
    assert answer.json() == german.json() != english.json()


def test_a_user_saves_and_clears_their_language_on_me() -> None:
    user = UserFactory.create()
    client = signed_in(user)
    assert client.get("/api/v1/me/").json()["language"] is None
    saved = client.patch("/api/v1/me/", {"language": "de"}, format="json")
    assert saved.status_code == 200 and saved.json()["language"] == "de"
    user.refresh_from_db()
    assert user.language == "de"
    wrong = client.patch("/api/v1/me/", {"language": "klingon"}, format="json")
    assert wrong.status_code == 400 and set(wrong.json()["fields"]) == {"language"}
    cleared = client.patch("/api/v1/me/", {"language": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["language"] is None


def test_a_new_club_speaks_its_founders_language_unless_told() -> None:
    user = UserFactory.create()
    german = signed_in(user, **{"Accept-Language": "de"})
    made = german.post("/api/v1/clubs/", {"name": "Wiener Runde"}, format="json")
    assert made.status_code == 201 and made.json()["language"] == "de"
    told = german.post("/api/v1/clubs/", {"name": "Vienna", "language": "en"}, format="json")
    assert told.json()["language"] == "en"
    changed = german.patch(f"/api/v1/clubs/{made.json()['id']}/", {"language": "en"}, format="json")
    assert changed.status_code == 200 and changed.json()["language"] == "en"


def test_a_text_without_a_request_speaks_the_recipients_then_the_clubs_language() -> None:
    club = ClubFactory.create(language="de")
    assert language_for(UserFactory.create(language="en"), club) == "en"
    assert language_for(UserFactory.create(), club) == "de"
    assert language_for(UserFactory.create(), Club(language="")) == "en"
    assert language_for(None, None) == "en"


def test_an_etag_names_the_language_of_its_answer() -> None:
    from django.http import HttpResponse

    tags = {}
    for language in ("en", "de"):
        with translation.override(language):
            answer = conditional_answer(
                RequestFactory().get("/"), etag='"state-7"', build=lambda: HttpResponse("x")
            )
        tags[language] = answer["ETag"]
    assert tags["en"] != tags["de"]
    assert all(tag.startswith('"state-7') and tag.endswith('"') for tag in tags.values())


def test_the_admin_speaks_the_signed_in_users_language() -> None:
    from django.test import Client

    staff = UserFactory.create(is_staff=True, is_superuser=True, language="de")
    client = Client(headers={"Accept-Language": "en"})
    client.force_login(staff)
    page = client.get("/admin/")
    assert page.status_code == 200
    assert page["Content-Language"] == "de"
    assert 'lang="de"' in page.content.decode()
