"""iCalendar feeds: a public club's calendar and members' personal feeds, parsed back with
``icalendar``."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.utils import timezone
from pytest_django import Settings
from rest_framework.test import APIClient

from clubs.calendar import calendar_ics
from clubs.models import Club, Evening, Membership
from clubs.services import evenings as services
from tests.clubs.world import build_club_world

pytestmark = pytest.mark.django_db

VIENNA = ZoneInfo("Europe/Vienna")
NEW_YORK = ZoneInfo("America/New_York")


@pytest.fixture(autouse=True)
def settings_for_feeds(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.PUBLIC_BASE_URL = "https://karten.example.org"


def evening_at(club: Club, starts: dt.datetime, title: str = "Abend", **fields: object) -> Evening:
    return Evening.objects.create(
        club=club,
        title=title,
        starts_at=starts,
        ends_at=starts + dt.timedelta(hours=4),
        **fields,
    )


def events(body: bytes) -> dict[str, icalendar.cal.Component]:
    calendar = icalendar.Calendar.from_ical(body)
    return {str(event["uid"]): event for event in calendar.walk("VEVENT")}


def test_it_gives_a_public_clubs_evenings_as_a_calendar() -> None:
    world = build_club_world(public=True)
    club = world.club
    winter = evening_at(
        club,
        dt.datetime(2026, 12, 1, 18, tzinfo=dt.UTC),
        "Advent",
        place="Café Sperl",
        notes="Bring cards.",
    )
    summer = evening_at(club, dt.datetime(2027, 6, 1, 17, tzinfo=dt.UTC), "Sommer")
    cancelled = evening_at(club, timezone.now() + dt.timedelta(days=9), "Abgesagt")
    services.evening_cancel(user=world.users["owner"], evening_id=cancelled.pk)
    recent = evening_at(club, timezone.now() - dt.timedelta(days=20), status="closed")
    old = evening_at(club, timezone.now() - dt.timedelta(days=40), status="closed")

    response = APIClient().get(f"/api/v1/clubs/{club.pk}/calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    found = events(response.content)
    uid = "evening-{}@karten.example.org".format
    assert set(found) == {uid(e.pk) for e in (world.evening, winter, summer, cancelled, recent)}
    assert uid(old.pk) not in found

    advent = found[uid(winter.pk)]
    start = advent.decoded("dtstart")
    assert start == dt.datetime(2026, 12, 1, 19, tzinfo=VIENNA)
    assert start.utcoffset() == dt.timedelta(hours=1)
    assert advent["dtstart"].params["TZID"] == "Europe/Vienna"
    assert advent.decoded("dtend").hour == 23
    assert str(advent["summary"]) == "Advent"
    assert str(advent["location"]) == "Café Sperl"
    assert "Bring cards." in str(advent["description"])
    assert str(advent["url"]) == (
        f"https://karten.example.org/api/v1/clubs/{club.pk}/evenings/{winter.pk}/"
    )
    assert str(advent["status"]) == "CONFIRMED"
    sommer = found[uid(summer.pk)].decoded("dtstart")
    assert (sommer.hour, sommer.utcoffset()) == (19, dt.timedelta(hours=2))
    assert str(found[uid(cancelled.pk)]["status"]) == "CANCELLED"
    timezones = icalendar.Calendar.from_ical(response.content).walk("VTIMEZONE")
    assert [str(tz["tzid"]) for tz in timezones] == ["Europe/Vienna"]


def test_it_answers_a_calendar_client_that_asks_for_text_calendar() -> None:
    world = build_club_world(public=True)
    response = APIClient().get(
        f"/api/v1/clubs/{world.club.pk}/calendar.ics", HTTP_ACCEPT="text/calendar"
    )
    assert response.status_code == 200
    assert response.content.startswith(b"BEGIN:VCALENDAR")


def test_it_has_no_calendar_for_a_private_club_not_even_for_members() -> None:
    world = build_club_world()
    response = world.client("owner").get(f"/api/v1/clubs/{world.club.pk}/calendar.ics")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


def test_it_keeps_an_evenings_uid_when_it_changes() -> None:
    world = build_club_world(public=True)
    path = f"/api/v1/clubs/{world.club.pk}/calendar.ics"
    before = events(APIClient().get(path).content)
    services.evening_update(
        user=world.users["owner"], evening_id=world.evening.pk, changes={"title": "Neu"}
    )
    after = events(APIClient().get(path).content)
    assert set(before) == set(after)
    assert [str(e["summary"]) for e in after.values()] == ["Neu"]


def test_it_gives_a_member_a_personal_feed_of_all_their_clubs() -> None:
    world = build_club_world()
    member = world.users["member"]
    ny = Club.objects.create(name="Manhattan Préférence", timezone="America/New_York")
    Membership.objects.create(club=ny, user=member)
    stranger = Club.objects.create(name="Fremd", is_public=True)
    ny_evening = evening_at(ny, dt.datetime(2026, 12, 3, 0, tzinfo=dt.UTC), "Thursday")
    evening_at(stranger, timezone.now() + dt.timedelta(days=2))

    client = world.client("member")
    created = client.post("/api/v1/me/calendar-feeds/")
    assert created.status_code == 201
    feed = created.json()
    assert feed["url"] == f"https://karten.example.org/api/v1/calendar/{feed['token']}.ics"
    listed = client.get("/api/v1/me/calendar-feeds/").json()
    assert [f["id"] for f in listed["results"]] == [feed["id"]]
    assert listed["results"][0]["token"] == feed["token"]

    response = APIClient().get(f"/api/v1/calendar/{feed['token']}.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    found = events(response.content)
    host = "karten.example.org"
    assert set(found) == {f"evening-{world.evening.pk}@{host}", f"evening-{ny_evening.pk}@{host}"}
    thursday = found[f"evening-{ny_evening.pk}@{host}"]
    assert thursday.decoded("dtstart") == dt.datetime(2026, 12, 2, 19, tzinfo=NEW_YORK)
    assert thursday["dtstart"].params["TZID"] == "America/New_York"
    assert str(thursday["summary"]) == "Thursday (Manhattan Préférence)"
    calendar = icalendar.Calendar.from_ical(response.content)
    assert {str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")} == {
        "Europe/Vienna",
        "America/New_York",
    }


def test_it_stops_a_revoked_feed() -> None:
    world = build_club_world()
    client = world.client("member")
    feed = client.post("/api/v1/me/calendar-feeds/").json()
    other = client.post("/api/v1/me/calendar-feeds/").json()
    assert client.delete(f"/api/v1/me/calendar-feeds/{feed['id']}/").status_code == 204
    response = APIClient().get(f"/api/v1/calendar/{feed['token']}.ics")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert APIClient().get(f"/api/v1/calendar/{other['token']}.ics").status_code == 200
    listed = client.get("/api/v1/me/calendar-feeds/").json()["results"]
    assert [f["id"] for f in listed] == [other["id"]]
    assert client.delete(f"/api/v1/me/calendar-feeds/{feed['id']}/").status_code == 404


def test_it_says_not_found_for_an_unknown_token() -> None:
    assert APIClient().get("/api/v1/calendar/no-such-token.ics").status_code == 404


def test_it_limits_the_live_feeds_of_one_member() -> None:
    world = build_club_world()
    client = world.client("member")
    for _ in range(services.MAX_CALENDAR_FEEDS):
        assert client.post("/api/v1/me/calendar-feeds/").status_code == 201
    refused = client.post("/api/v1/me/calendar-feeds/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "too_many_calendar_feeds"


def test_it_writes_utc_times_for_a_club_in_utc() -> None:
    club = Club.objects.create(name="Greenwich", timezone="UTC")
    evening = evening_at(club, dt.datetime(2026, 12, 1, 19, tzinfo=dt.UTC))
    body = calendar_ics(evenings=[evening], name=club.name)
    assert b"DTSTART:20261201T190000Z" in body
    assert b"X-WR-CALNAME:Greenwich" in body
