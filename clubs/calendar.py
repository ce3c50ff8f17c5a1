"""iCalendar (RFC 5545) feeds of club evenings, for phones and calendar programs to subscribe.

Every evening is one VEVENT whose UID (``evening-<id>@<host of PUBLIC_BASE_URL>``) never
changes, so an edited evening updates in place and a cancelled one is struck out
(``STATUS:CANCELLED``) instead of vanishing. Start and end carry the club's timezone
(``TZID``, with its VTIMEZONE), or UTC for a club whose timezone is UTC.

Its texts for people (a cancelled evening's summary, the description's line naming the club)
speak the reader's language (:func:`feed_language`): the feed owner's preference, else the
language the calendar program asks for (``Accept-Language``), else each evening's club's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from urllib.parse import urlsplit

import icalendar
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from clubs.models import Club, Evening, User
from clubs.selectors.evenings import club_zone
from config.i18n import language_for, supported

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


def asked_language(request: HttpRequest) -> str | None:
    """The offered language the request's ``Accept-Language`` prefers, or None when it names
    none (a calendar program that sends no such header leaves the choice to the club)."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _quality in parse_accept_lang_header(header):
        found = supported(code) if code != "*" else None
        if found:
            return found
    return None


def feed_language(*, club: Club, owner: User | None = None, asked: str | None = None) -> str:
    """The language of an evening's texts in a feed: the feed ``owner``'s preference, else
    the language the request ``asked`` for, else the club's, else the server's."""
    return supported(getattr(owner, "language", None)) or asked or language_for(None, club)


def evening_event(evening: Evening, *, with_club: bool) -> icalendar.Event:
    """One evening as a VEVENT (``with_club``: the club's name in the summary, for feeds
    that mix clubs), its texts in the active language."""
    zone = club_zone(evening.club)
    event = icalendar.Event()
    event.add("uid", evening_uid(evening))
    event.add("dtstamp", evening.updated_at)
    event.add("created", evening.created_at)
    event.add("last-modified", evening.updated_at)
    event.add("dtstart", evening.starts_at.astimezone(zone))
    event.add("dtend", evening.ends_at.astimezone(zone))
    summary = f"{evening.title} ({evening.club.name})" if with_club else evening.title
    cancelled = evening.status == Evening.Status.CANCELLED
    if cancelled:  # calendars that ignore STATUS:CANCELLED still show it
        summary = _("Cancelled: {title}").format(title=summary)
    event.add("summary", summary)
    if evening.place:
        event.add("location", evening.place)
    description = [_("This evening is cancelled.")] if cancelled else []
    if evening.notes.strip():
        description.append(evening.notes.strip())
    description.append(
        _("An evening of {club}: {url}").format(club=evening.club.name, url=evening_url(evening))
    )
    event.add("description", "\n\n".join(description))
    event.add("url", evening_url(evening))
    event.add("status", STATUS[Evening.Status(evening.status)])
    return event


def calendar_ics(
    *,
    evenings: Iterable[Evening],
    name: str,
    with_club: bool = False,
    owner: User | None = None,
    asked: str | None = None,
) -> bytes:
    """The feed: a VCALENDAR named ``name`` with one VEVENT per evening and the VTIMEZONE
    of every timezone the events use; each evening's texts in :func:`feed_language` (the
    ``owner``'s preference, the ``asked`` language, its club's)."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", icalendar.vDuration(REFRESH).to_ical().decode())
    for evening in evenings:
        with translation.override(feed_language(club=evening.club, owner=owner, asked=asked)):
            calendar.add_component(evening_event(evening, with_club=with_club))
    calendar.add_missing_timezones()
    return calendar.to_ical()
