"""Permission-matrix rows for evenings, series, answers, check-in and calendar feeds.

Public clubs show their evenings, series and calendar to anyone; who answered stays among
members. Members answer and check in for themselves; scorers and managers check in anyone;
managers edit, cancel and undo check-ins.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from clubs.models import Attendance, CalendarFeed
from clubs.services import evenings
from tests.clubs.world import (
    MANAGERS_WRITE,
    MEMBERS_READ,
    MEMBERS_WRITE,
    PUBLIC_MANAGERS_WRITE,
    PUBLIC_MEMBERS_WRITE,
    PUBLIC_READ,
    ClubWorld,
    Row,
    statuses,
    with_status,
)

C = "/api/v1/clubs/{club}/"
E = C + "evenings/{evening}/"
S = C + "evening-series/{series}/"


def new_evening(world: ClubWorld, role: str) -> dict[str, Any]:
    return {"title": "Extra", "starts_at": "2027-01-12T19:00", "ends_at": "2027-01-12T23:00"}


def new_series(world: ClubWorld, role: str) -> dict[str, Any]:
    return {"title": "Dienstag", "rrule": "FREQ=WEEKLY;BYDAY=TU", "first_start": "2027-01-05T19:00"}


def a_series(world: ClubWorld) -> None:
    series = evenings.evening_series_create(
        user=world.users["owner"],
        club_id=world.club.pk,
        title="Donnerstag",
        rrule="FREQ=WEEKLY;BYDAY=TH",
        first_start=timezone.now() + dt.timedelta(days=1),
    )
    world.extra["series"] = series.pk


def member_checked_in(world: ClubWorld) -> None:
    now = timezone.now()
    attendance = Attendance.objects.create(
        evening=world.evening,
        user=world.users["member"],
        answer="yes",
        answered_at=now,
        checked_in_at=now,
    )
    world.extra["attendance"] = attendance.pk


def member_feed(world: ClubWorld) -> None:
    feed = CalendarFeed.objects.create(user=world.users["member"], token="matrix-token-0123456789")
    world.extra["feed"] = feed.pk
    world.extra["token"] = feed.token


def yes(world: ClubWorld, role: str) -> dict[str, str]:
    return {"answer": "yes"}


def nobody(world: ClubWorld, role: str) -> dict[str, str]:
    return {}


def new_guest(world: ClubWorld, role: str) -> dict[str, str]:
    return {"guest_name": "Onkel Fritz"}


def place(world: ClubWorld, role: str) -> dict[str, str]:
    return {"place": "Café Hawelka"}


SCORERS_WRITE = statuses(anonymous=401, outsider=404, member=403)
PUBLIC_SCORERS_WRITE = statuses(anonymous=401, outsider=403, member=403)
# who answered is the members' business, also on a public club
PUBLIC_MEMBERS_ONLY = statuses(anonymous=403, outsider=403)
SIGNED_IN = statuses(anonymous=401)

ROWS = [
    # evenings
    Row("get", C + "evenings/", MEMBERS_READ),
    Row("get", C + "evenings/", PUBLIC_READ, public=True),
    Row("post", C + "evenings/", with_status(MANAGERS_WRITE, 201), body=new_evening),
    Row(
        "post",
        C + "evenings/",
        with_status(PUBLIC_MANAGERS_WRITE, 201),
        body=new_evening,
        public=True,
    ),
    Row("get", E, MEMBERS_READ),
    Row("get", E, PUBLIC_READ, public=True),
    Row("patch", E, MANAGERS_WRITE, body=place),
    Row("patch", E, PUBLIC_MANAGERS_WRITE, body=place, public=True),
    Row("post", E + "cancel/", MANAGERS_WRITE),
    Row("post", E + "cancel/", PUBLIC_MANAGERS_WRITE, public=True),
    # answers
    Row("put", E + "attendance/", MEMBERS_WRITE, body=yes),
    Row("put", E + "attendance/", PUBLIC_MEMBERS_WRITE, body=yes, public=True),
    Row("get", E + "attendances/", MEMBERS_READ),
    Row("get", E + "attendances/", PUBLIC_MEMBERS_ONLY, public=True),
    # check-in: yourself, then someone else (a new guest)
    Row("post", E + "check-ins/", with_status(MEMBERS_WRITE, 201), body=nobody),
    Row("post", E + "check-ins/", with_status(PUBLIC_MEMBERS_WRITE, 201), body=nobody, public=True),
    Row("post", E + "check-ins/", with_status(SCORERS_WRITE, 201), body=new_guest),
    Row(
        "post",
        E + "check-ins/",
        with_status(PUBLIC_SCORERS_WRITE, 201),
        body=new_guest,
        public=True,
    ),
    Row(
        "delete",
        E + "check-ins/{attendance}/",
        with_status(MANAGERS_WRITE, 204),
        setup=member_checked_in,
    ),
    Row(
        "delete",
        E + "check-ins/{attendance}/",
        with_status(PUBLIC_MANAGERS_WRITE, 204),
        setup=member_checked_in,
        public=True,
    ),
    # the member leaves: themselves, or marked by a scorer or manager
    Row("post", E + "check-ins/{attendance}/leave/", MEMBERS_WRITE, setup=member_checked_in),
    Row(
        "post",
        E + "check-ins/{attendance}/leave/",
        PUBLIC_MEMBERS_WRITE,
        setup=member_checked_in,
        public=True,
    ),
    # series
    Row("get", C + "evening-series/", MEMBERS_READ, setup=a_series),
    Row("get", C + "evening-series/", PUBLIC_READ, setup=a_series, public=True),
    Row("post", C + "evening-series/", with_status(MANAGERS_WRITE, 201), body=new_series),
    Row(
        "post",
        C + "evening-series/",
        with_status(PUBLIC_MANAGERS_WRITE, 201),
        body=new_series,
        public=True,
    ),
    Row("get", S, MEMBERS_READ, setup=a_series),
    Row("get", S, PUBLIC_READ, setup=a_series, public=True),
    Row("patch", S, MANAGERS_WRITE, setup=a_series, body=place),
    Row("patch", S, PUBLIC_MANAGERS_WRITE, setup=a_series, body=place, public=True),
    Row("delete", S, with_status(MANAGERS_WRITE, 204), setup=a_series),
    Row("delete", S, with_status(PUBLIC_MANAGERS_WRITE, 204), setup=a_series, public=True),
    # calendars: a private club has none (its members subscribe to their personal feed)
    Row("get", C + "calendar.ics", statuses(rest=404)),
    Row("get", C + "calendar.ics", PUBLIC_READ, public=True),
    Row("get", "/api/v1/me/calendar-feeds/", SIGNED_IN, setup=member_feed),
    Row("post", "/api/v1/me/calendar-feeds/", with_status(SIGNED_IN, 201)),
    # a feed is its owner's alone
    Row(
        "delete",
        "/api/v1/me/calendar-feeds/{feed}/",
        statuses(anonymous=401, member=204, rest=404),
        setup=member_feed,
    ),
    # the token is the secret: no sign-in
    Row("get", "/api/v1/calendar/{token}.ics", PUBLIC_READ, setup=member_feed),
]
