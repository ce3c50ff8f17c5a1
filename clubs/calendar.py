"""iCalendar (RFC 5545) feeds of club evenings, for phones and calendar programs to subscribe.

Every evening is one VEVENT whose UID (``evening-<id>@<host of PUBLIC_BASE_URL>``) never
changes, so an edited evening updates in place and a cancelled one is struck out
(``STATUS:CANCELLED``) instead of vanishing. Start and end carry the club's timezone
(``TZID``, with its VTIMEZONE), or UTC for a club whose timezone is UTC.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from urllib.parse import urlsplit

import icalendar
from django.conf import settings

from clubs.models import Evening
from clubs.selectors.evenings import club_zone

PRODID = "-//Preference//Club evenings//EN"
#: How often subscribers should fetch the feed again.
REFRESH = dt.timedelta(hours=1)
STATUS = {
    Evening.Status.SCHEDULED: "CONFIRMED",
    Evening.Status.CLOSED: "CONFIRMED",
    Evening.Status.CANCELLED: "CANCELLED",
}


def host() -> str:
    """The host part of :setting:`PUBLIC_BASE_URL`, the domain of every UID."""
    return urlsplit(settings.PUBLIC_BASE_URL).hostname or "localhost"


def evening_uid(evening: Evening) -> str:
    return f"evening-{evening.pk}@{host()}"


def evening_url(evening: Evening) -> str:
    base = settings.PUBLIC_BASE_URL.rstrip("/")
    return f"{base}/api/v1/clubs/{evening.club_id}/evenings/{evening.pk}/"


def evening_event(evening: Evening, *, with_club: bool) -> icalendar.Event:
    """One evening as a VEVENT (``with_club``: the club's name in the summary, for feeds
    that mix clubs)."""
    zone = club_zone(evening.club)
    event = icalendar.Event()
    event.add("uid", evening_uid(evening))
    event.add("dtstamp", evening.updated_at)
    event.add("created", evening.created_at)
    event.add("last-modified", evening.updated_at)
    event.add("dtstart", evening.starts_at.astimezone(zone))
    event.add("dtend", evening.ends_at.astimezone(zone))
    event.add("summary", f"{evening.title} ({evening.club.name})" if with_club else evening.title)
    if evening.place:
        event.add("location", evening.place)
    description = [evening.notes.strip()] if evening.notes.strip() else []
    description.append(f"{evening.club.name}: {evening_url(evening)}")
    event.add("description", "\n\n".join(description))
    event.add("url", evening_url(evening))
    event.add("status", STATUS[Evening.Status(evening.status)])
    return event


def calendar_ics(*, evenings: Iterable[Evening], name: str, with_club: bool = False) -> bytes:
    """The feed: a VCALENDAR named ``name`` with one VEVENT per evening and the VTIMEZONE
    of every timezone the events use."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", icalendar.vDuration(REFRESH).to_ical().decode())
    for evening in evenings:
        calendar.add_component(evening_event(evening, with_club=with_club))
    calendar.add_missing_timezones()
    return calendar.to_ical()
