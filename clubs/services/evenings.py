"""Writes for club evenings: evenings, recurring series, answers and the waitlist, check-in,
reminders and personal calendar feeds (``docs/clubs-evenings.md``).

Times: a datetime with an offset means that instant; a naive one is wall-clock time in the
club's timezone (``Club.timezone``). Everything is stored in UTC. A series recurs in the
club's local time, so an evening at 19:00 stays at 19:00 across daylight-saving changes.

The waitlist: at most ``capacity`` yes answers hold a place; a yes beyond that waits
(``waitlisted``) in the order of the time of the yes, and the first waiting one moves up
whenever a place frees. Every service that changes an evening's answers locks the evening
row first (``select_for_update``), so concurrent sign-ups cannot overfill it.

Views check the coarse role (members answer, managers edit) through :mod:`clubs.selectors`;
the services check what depends on the input (checking in someone else) and the evening's
state: a cancelled or closed evening refuses changes (409 ``evening_cancelled`` /
``evening_closed``). E-mails go out after the transaction commits and never fail it.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import secrets
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.rrule import rrule as RecurrenceRule  # type: ignore[import-untyped]
from dateutil.rrule import rrulestr
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from clubs import emails, live, outbox
from clubs.errors import ClubConflict, ClubNotFound, InvalidInput, NotAllowed
from clubs.models import (
    Attendance,
    CalendarFeed,
    Club,
    Evening,
    EveningSeries,
    Guest,
    Membership,
    User,
)
from clubs.permissions import role_of
from clubs.selectors.evenings import attendance_of, club_zone
from config.i18n import engine_text, language_for
from games.rulesets import parse_offered_rules

logger = logging.getLogger(__name__)

#: The fields of an evening a manager may change.
EVENING_FIELDS = ("title", "starts_at", "ends_at", "place", "capacity", "notes", "rules")
#: The fields of a series PATCH applies to the series and its future evenings.
SERIES_FIELDS = ("title", "place", "capacity", "notes")
#: The fields that fix a series' schedule: changing them needs a new series.
SERIES_SCHEDULE_FIELDS = ("rrule", "first_start", "duration_minutes")
#: RRULE parts a series may use; the time of day always comes from ``first_start``.
RRULE_PARTS = (
    "FREQ",
    "INTERVAL",
    "COUNT",
    "UNTIL",
    "BYDAY",
    "BYMONTHDAY",
    "BYYEARDAY",
    "BYWEEKNO",
    "BYMONTH",
    "BYSETPOS",
    "WKST",
)
RRULE_FREQUENCIES = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
MAX_DURATION_MINUTES = 24 * 60
#: Live calendar feeds one user may hold.
MAX_CALENDAR_FEEDS = 10

Mail = tuple[str, str, str]  # to, subject, body


# ---------------------------------------------------------------------------------------------
# time and input helpers


def local_to_utc(value: dt.datetime, zone: ZoneInfo, *, field: str) -> dt.datetime:
    """``value`` as a UTC instant: with an offset as given, naive as wall-clock time in
    ``zone``. A wall-clock time the clocks skip (spring forward) is refused; one they pass
    twice (autumn) is the first of the two."""
    if value.tzinfo is not None and value.utcoffset() is not None:
        return value.astimezone(dt.UTC)
    aware = value.replace(tzinfo=zone)
    if aware.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None) != value:
        message = _("{time} does not exist in {zone}: the clocks skip it.").format(
            time=f"{value:%Y-%m-%d %H:%M}", zone=zone.key
        )
        raise InvalidInput(message, fields={field: [message]})
    return aware.astimezone(dt.UTC)


def rules_json(rules: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The engine's rules object with every option spelled out, or None (the club's
    default rules); the engine's refusal is a 400 naming the option, in the reader's
    language."""
    if rules is None:
        return None
    try:
        return parse_offered_rules(rules).to_json()
    except engine.EngineError as e:
        at = e.at if e.at.startswith("rules") else (f"rules.{e.at}" if e.at else "rules")
        reason = engine_text(e)
        sentence = reason[:1].upper() + reason[1:]
        if not sentence.endswith("."):
            sentence += "."
        raise InvalidInput(sentence, fields={at: [reason]}) from None


def _until_utc(value: str, zone: ZoneInfo) -> str:
    """An RRULE UNTIL in UTC: a date means the end of that day in the club's timezone, a
    time without ``Z`` is the club's local time."""
    try:
        if re.fullmatch(r"\d{8}", value):
            day = dt.datetime.strptime(value, "%Y%m%d")
            until = local_to_utc(day.replace(hour=23, minute=59, second=59), zone, field="rrule")
        elif re.fullmatch(r"\d{8}T\d{6}Z", value):
            until = dt.datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC)
        elif re.fullmatch(r"\d{8}T\d{6}", value):
            until = local_to_utc(dt.datetime.strptime(value, "%Y%m%dT%H%M%S"), zone, field="rrule")
        else:
            raise ValueError(value)
    except ValueError:
        raise _rrule_error(
            _(
                "UNTIL={value} is not a date (20271231) or time (20271231T190000, or with Z for "
                "UTC)."
            ).format(value=value)
        ) from None
    return until.strftime("%Y%m%dT%H%M%SZ")


def _rrule_error(message: str) -> InvalidInput:
    return InvalidInput(message, fields={"rrule": [message]})


def rrule_normalize(value: str, *, zone: ZoneInfo, first_start: dt.datetime) -> str:
    """Check an RFC 5545 RRULE value (``FREQ=WEEKLY;BYDAY=TU``, an ``RRULE:`` prefix is
    dropped) and spell it out canonically with UNTIL in UTC.

    Refused (400 on ``rrule``): anything that is not NAME=VALUE parts, DTSTART and other
    lines, BYHOUR/BYMINUTE/BYSECOND (the time of day is ``first_start``'s), FREQ more often
    than DAILY, COUNT together with UNTIL, INTERVAL or COUNT below 1, and whatever
    ``dateutil`` cannot read.
    """
    text = value.strip()
    if text.upper().startswith("RRULE:"):
        text = text[len("RRULE:") :]
    if not text or "\n" in text or "\r" in text or ":" in text:
        raise _rrule_error(_('Give one RRULE value such as "FREQ=WEEKLY;BYDAY=TU".'))
    parts: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in text.split(";"))):
        key, sep, part = item.partition("=")
        key, part = key.strip().upper(), part.strip().upper()
        if not sep or not key or not part:
            raise _rrule_error(_("{item} is not NAME=VALUE.").format(item=repr(item)))
        if key in parts:
            raise _rrule_error(_("{key} appears twice.").format(key=key))
        if key in ("BYHOUR", "BYMINUTE", "BYSECOND"):
            raise _rrule_error(
                _("{key} is not allowed: the time of day comes from first_start.").format(key=key)
            )
        if key not in RRULE_PARTS:
            raise _rrule_error(_("{key} is not a rule part evenings use.").format(key=key))
        parts[key] = part
    freq = parts.pop("FREQ", None)
    if freq is None:
        raise _rrule_error(_('FREQ is missing, e.g. "FREQ=WEEKLY;BYDAY=TU".'))
    if freq not in RRULE_FREQUENCIES:
        if freq in ("SECONDLY", "MINUTELY", "HOURLY"):
            raise _rrule_error(
                _(
                    "FREQ={freq} is too frequent: evenings repeat at most daily "
                    "(DAILY, WEEKLY, MONTHLY or YEARLY)."
                ).format(freq=freq)
            )
        raise _rrule_error(
            _("FREQ={freq} is not DAILY, WEEKLY, MONTHLY or YEARLY.").format(freq=freq)
        )
    if "COUNT" in parts and "UNTIL" in parts:
        raise _rrule_error(_("Give COUNT or UNTIL, not both."))
    for key in ("INTERVAL", "COUNT"):
        if key in parts and not (parts[key].isdigit() and int(parts[key]) >= 1):
            raise _rrule_error(_("{key} must be a whole number of at least 1.").format(key=key))
    if "UNTIL" in parts:
        parts["UNTIL"] = _until_utc(parts["UNTIL"], zone)
    normalized = ";".join([f"FREQ={freq}", *(f"{k}={v}" for k, v in parts.items())])
    try:
        rrulestr(normalized, dtstart=first_start.astimezone(zone))
    except (ValueError, TypeError) as e:
        raise _rrule_error(_("Not a valid RRULE: {reason}.").format(reason=e)) from None
    return normalized


def series_recurrence(series: EveningSeries, zone: ZoneInfo) -> RecurrenceRule:
    """The series' rule from its first start, in the club's wall-clock time."""
    rule = rrulestr(series.rrule, dtstart=series.first_start.astimezone(zone))
    assert isinstance(rule, RecurrenceRule)
    return rule


def _check_duration(minutes: int) -> None:
    if not 1 <= minutes <= MAX_DURATION_MINUTES:
        message = _("An evening lasts 1 to {most} minutes.").format(most=MAX_DURATION_MINUTES)
        raise InvalidInput(message, fields={"duration_minutes": [message]})


def _check_times(starts_at: dt.datetime, ends_at: dt.datetime) -> None:
    if ends_at <= starts_at:
        message = _("An evening ends after it starts.")
        raise InvalidInput(message, fields={"ends_at": [message]})


def _locked_evening(evening_id: int) -> Evening:
    """The evening, its row locked until the transaction ends (every change to its answers
    goes through this lock)."""
    evening = (
        Evening.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=evening_id)
        .first()
    )
    if evening is None:
        raise ClubNotFound(_("There is no such evening."))
    return evening


def _ensure_open(evening: Evening) -> None:
    """409 unless the evening is scheduled: cancelled and closed evenings keep their state."""
    if evening.status == Evening.Status.CANCELLED:
        raise ClubConflict(_("The evening is cancelled."), code="evening_cancelled")
    if evening.status == Evening.Status.CLOSED:
        raise ClubConflict(_("The evening is closed."), code="evening_closed")


# ---------------------------------------------------------------------------------------------
# e-mail


def local_time_text(moment: dt.datetime, zone: ZoneInfo) -> str:
    """``Tuesday 1 December 2026, 19:00 (Europe/Vienna)`` in the active language, as the
    club's other e-mails write it (:func:`clubs.emails.when`)."""
    return emails.when(moment, zone.key)


def _send_mails(mails: Iterable[Mail]) -> None:
    for to, subject, body in mails:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to])


def _mail_on_commit(mails: list[Mail]) -> None:
    """Send after the transaction commits; a failing mail server is logged, never the
    caller's error."""
    if mails:
        transaction.on_commit(partial(_send_mails, mails), robust=True)


def _evening_lines(evening: Evening) -> str:
    zone = club_zone(evening.club)
    lines = [f"{evening.title} ({evening.club.name})", local_time_text(evening.starts_at, zone)]
    if evening.place:
        lines.append(evening.place)
    return "\n".join(lines)


def _people_answering(evening: Evening, answers: Iterable[str]) -> list[Attendance]:
    return list(
        Attendance.objects.filter(evening=evening, answer__in=list(answers), user__isnull=False)
        .exclude(user__email="")
        .select_related("user")
        .order_by("answered_at", "id")
    )


def _cancel_mails(evening: Evening) -> list[Mail]:
    """To whoever answered yes or maybe, each in their language (else the club's)."""
    mails = []
    for a in _people_answering(evening, (Attendance.Answer.YES, Attendance.Answer.MAYBE)):
        assert a.user is not None
        with translation.override(language_for(a.user, evening.club)):
            body = _("This evening is cancelled:") + f"\n\n{_evening_lines(evening)}\n"
            subject = _("Cancelled: {title}").format(title=evening.title)
        mails.append((a.user.email, subject, body))
    return mails


def _reminder_mails(evening: Evening) -> list[Mail]:
    """To the yes and maybe answers, each in their language (else the club's)."""
    mails = []
    for a in _people_answering(evening, (Attendance.Answer.YES, Attendance.Answer.MAYBE)):
        assert a.user is not None
        with translation.override(language_for(a.user, evening.club)):
            lines = [_("Reminder:") + f"\n\n{_evening_lines(evening)}\n"]
            if a.waitlisted:
                lines.append(
                    _("You are on the waitlist; you will hear from us if a place frees.") + "\n"
                )
            elif a.answer == Attendance.Answer.MAYBE:
                lines.append(_("You answered maybe; please answer yes or no.") + "\n")
            subject = _("Reminder: {title}").format(title=evening.title)
        mails.append((a.user.email, subject, "\n".join(lines)))
    return mails


# ---------------------------------------------------------------------------------------------
# the waitlist


def _confirmed_count(evening: Evening) -> int:
    return Attendance.objects.filter(
        evening=evening, answer=Attendance.Answer.YES, waitlisted=False
    ).count()


def _has_free_place(evening: Evening) -> bool:
    return evening.capacity is None or _confirmed_count(evening) < evening.capacity


def _fill_places(evening: Evening) -> list[Attendance]:
    """Move the first waiting yes answers into the free places (the caller holds the
    evening's lock) and tell them by e-mail after the commit; answers who moved up."""
    waiting = (
        Attendance.objects.filter(evening=evening, waitlisted=True)
        .select_related("user")
        .order_by("answered_at", "id")
    )
    if evening.capacity is not None:
        free = evening.capacity - _confirmed_count(evening)
        if free <= 0:
            return []
        waiting = waiting[:free]
    promoted = list(waiting)
    if promoted:
        Attendance.objects.filter(pk__in=[a.pk for a in promoted]).update(
            waitlisted=False, updated_at=timezone.now()
        )
        outbox.notify(
            [a.user_id for a in promoted if a.user_id is not None],
            "moved_up",
            f"evening:{evening.pk}",
            payload={
                "path": f"/api/v1/clubs/{evening.club_id}/evenings/{evening.pk}/",
                "club_id": evening.club_id,
                "evening_id": evening.pk,
            },
            context={"where": evening.title},
        )
    return promoted


def schedule_notifications(evening: Evening) -> None:
    """(Re)schedule the evening's reminders (``clubs.outbox``, inside the change's
    transaction): "starts soon" for each yes that holds a place, "answers close" for each
    member who has not answered, both before the evening's start; a cancelled or closed
    evening has none. A moved start moves them, an answer takes its person's back."""
    key = f"evening:{evening.pk}"
    if evening.status != Evening.Status.SCHEDULED:
        outbox.withdraw("round_starts", key)
        outbox.withdraw("rsvp_closes", key)
        return
    answers = dict(
        Attendance.objects.filter(evening=evening, user__isnull=False).values_list(
            "user_id", "waitlisted"
        )
    )
    playing = list(
        Attendance.objects.filter(
            evening=evening, user__isnull=False, answer=Attendance.Answer.YES, waitlisted=False
        ).values_list("user_id", flat=True)
    )
    members = Membership.objects.filter(club_id=evening.club_id).values_list("user_id", flat=True)
    unanswered = [m for m in members if m not in answers]
    payload = {
        "path": f"/api/v1/clubs/{evening.club_id}/evenings/{evening.pk}/",
        "club_id": evening.club_id,
        "evening_id": evening.pk,
    }
    context = {"where": evening.title}
    outbox.withdraw("round_starts", key, [u for u in answers if u not in playing])
    outbox.notify(
        playing, "round_starts", key, payload=payload, context=context, moment=evening.starts_at
    )
    outbox.withdraw("rsvp_closes", key, list(answers))
    closes = local_time_text(evening.starts_at, club_zone(evening.club))
    outbox.notify(
        unanswered,
        "rsvp_closes",
        key,
        payload=payload,
        context={**context, "closes": closes},
        moment=evening.starts_at,
    )


# ---------------------------------------------------------------------------------------------
# evenings


def evening_create(
    *,
    user: User,
    club_id: int,
    title: str,
    starts_at: dt.datetime,
    ends_at: dt.datetime,
    place: str = "",
    capacity: int | None = None,
    notes: str = "",
    rules: Mapping[str, Any] | None = None,
) -> Evening:
    """A one-off evening of the club (the caller manages the club)."""
    club = Club.objects.get(pk=club_id)
    zone = club_zone(club)
    starts = local_to_utc(starts_at, zone, field="starts_at")
    ends = local_to_utc(ends_at, zone, field="ends_at")
    _check_times(starts, ends)
    with transaction.atomic():
        evening = Evening.objects.create(
            club=club,
            title=title,
            starts_at=starts,
            ends_at=ends,
            place=place,
            capacity=capacity,
            notes=notes,
            rules=rules_json(rules),
        )
        schedule_notifications(evening)
    return evening


def evening_update(*, user: User, evening_id: int, changes: Mapping[str, Any]) -> Evening:
    """Change a scheduled evening (only this one, also when it belongs to a series).

    ``changes`` holds some of :data:`EVENING_FIELDS`; ``rules`` null means the club's
    default rules. More places move waiting answers up; fewer places keep everyone who has
    one. A new start time re-arms the reminder.
    """
    unknown = set(changes) - set(EVENING_FIELDS)
    if unknown:
        raise InvalidInput(_("Cannot change {fields}.").format(fields=", ".join(sorted(unknown))))
    with transaction.atomic():
        evening = _locked_evening(evening_id)
        _ensure_open(evening)
        zone = club_zone(evening.club)
        old_start, old_capacity = evening.starts_at, evening.capacity
        for name, value in changes.items():
            if name in ("starts_at", "ends_at"):
                value = local_to_utc(value, zone, field=name)
            elif name == "rules":
                value = rules_json(value)
            setattr(evening, name, value)
        _check_times(evening.starts_at, evening.ends_at)
        if evening.starts_at != old_start:
            evening.reminder_sent_at = None
        evening.save()
        if evening.capacity != old_capacity:
            _fill_places(evening)
        schedule_notifications(evening)
        live.evening_changed(evening.pk, "changed")
    return evening


def evening_cancel(*, user: User, evening_id: int) -> Evening:
    """Cancel a scheduled evening; whoever answered yes or maybe hears by e-mail."""
    with transaction.atomic():
        evening = _locked_evening(evening_id)
        _ensure_open(evening)
        evening.status = Evening.Status.CANCELLED
        evening.save(update_fields=["status", "updated_at"])
        _mail_on_commit(_cancel_mails(evening))
        schedule_notifications(evening)
        live.evening_changed(evening.pk, "cancelled")
    return evening


# ---------------------------------------------------------------------------------------------
# series


def _generate(series: EveningSeries, *, now: dt.datetime) -> int:
    """Create the series' evenings that start after ``generated_until`` (and not in the
    past) up to :setting:`EVENING_SERIES_WEEKS_AHEAD` weeks from ``now``, then move
    ``generated_until`` there. Every start is generated once: an evening edited, moved or
    cancelled since is never created again. The caller holds the series' lock."""
    zone = club_zone(series.club)
    horizon = now + dt.timedelta(weeks=settings.EVENING_SERIES_WEEKS_AHEAD)
    done = series.generated_until
    if done is not None and done >= horizon:
        return 0
    low = max(done, now) if done is not None else now
    starts = [
        start.astimezone(dt.UTC)
        for start in series_recurrence(series, zone).between(low, horizon, inc=True)
        if done is None or start > done
    ]
    duration = dt.timedelta(minutes=series.duration_minutes)
    created = Evening.objects.bulk_create(
        Evening(
            club_id=series.club_id,
            series=series,
            title=series.title,
            starts_at=start,
            ends_at=start + duration,
            place=series.place,
            capacity=series.capacity,
            notes=series.notes,
        )
        for start in starts
    )
    for evening in created:
        evening.club = series.club
        schedule_notifications(evening)
    series.generated_until = horizon
    series.save(update_fields=["generated_until"])
    return len(starts)


def evening_series_create(
    *,
    user: User,
    club_id: int,
    title: str,
    rrule: str,
    first_start: dt.datetime,
    duration_minutes: int = 240,
    place: str = "",
    capacity: int | None = None,
    notes: str = "",
    now: dt.datetime | None = None,
) -> EveningSeries:
    """A recurring evening and its evenings from now to
    :setting:`EVENING_SERIES_WEEKS_AHEAD` weeks ahead (the beat task adds the later ones).
    The first evening is the rule's first occurrence at or after ``first_start``, at its
    local time of day."""
    club = Club.objects.get(pk=club_id)
    zone = club_zone(club)
    first = local_to_utc(first_start, zone, field="first_start")
    normalized = rrule_normalize(rrule, zone=zone, first_start=first)
    _check_duration(duration_minutes)
    with transaction.atomic():
        series = EveningSeries.objects.create(
            club=club,
            title=title,
            rrule=normalized,
            first_start=first,
            duration_minutes=duration_minutes,
            place=place,
            capacity=capacity,
            notes=notes,
            created_by=user,
        )
        _generate(series, now=now or timezone.now())
    return series


def _locked_series(series_id: int) -> EveningSeries:
    series = (
        EveningSeries.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=series_id)
        .first()
    )
    if series is None:
        raise ClubNotFound(_("There is no such series."))
    return series


def series_extend(*, series_id: int, now: dt.datetime | None = None) -> int:
    """Generate the series' evenings up to the horizon; answers how many were created. Safe
    to run twice and concurrently (the series row is locked; ``generated_until`` only
    grows). A series deleted meanwhile creates nothing."""
    with transaction.atomic():
        try:
            series = _locked_series(series_id)
        except ClubNotFound:
            return 0
        return _generate(series, now=now or timezone.now())


def series_extend_all(*, now: dt.datetime | None = None) -> int:
    """Beat: extend every series whose evenings do not reach the horizon yet, each in its
    own transaction; answers the number of evenings created."""
    now = now or timezone.now()
    horizon = now + dt.timedelta(weeks=settings.EVENING_SERIES_WEEKS_AHEAD)
    ids = EveningSeries.objects.filter(
        Q(generated_until__isnull=True) | Q(generated_until__lt=horizon)
    ).values_list("pk", flat=True)
    return sum(series_extend(series_id=series_id, now=now) for series_id in list(ids))


def series_update(
    *,
    user: User,
    series_id: int,
    changes: Mapping[str, Any],
    now: dt.datetime | None = None,
) -> EveningSeries:
    """Change the series' title, place, capacity or notes, and the same field of its future
    scheduled evenings that still have the series' old value (an evening edited on its own
    keeps its edit). The schedule (rrule, first_start, duration_minutes) is fixed: sending a
    different one is 409 ``series_schedule_fixed``; create a new series instead."""
    now = now or timezone.now()
    with transaction.atomic():
        series = _locked_series(series_id)
        zone = club_zone(series.club)
        for name in SERIES_SCHEDULE_FIELDS:
            if name not in changes:
                continue
            value = changes[name]
            if name == "first_start":
                same = local_to_utc(value, zone, field=name) == series.first_start
            elif name == "rrule":
                same = rrule_normalize(value, zone=zone, first_start=series.first_start) == (
                    series.rrule
                )
            else:
                same = value == series.duration_minutes
            if not same:
                raise ClubConflict(
                    _(
                        "A series keeps its schedule: create a new series (and delete this one) "
                        "to change rrule, first_start or duration_minutes."
                    ),
                    code="series_schedule_fixed",
                )
        edits = {
            name: changes[name]
            for name in SERIES_FIELDS
            if name in changes and changes[name] != getattr(series, name)
        }
        if not edits:
            return series
        old = {name: getattr(series, name) for name in edits}
        evenings = Evening.objects.select_for_update(of=("self",)).filter(
            series=series, status=Evening.Status.SCHEDULED, starts_at__gt=now
        )
        for evening in evenings.select_related("club"):
            changed = [n for n in edits if getattr(evening, n) == old[n]]
            if not changed:
                continue
            for name in changed:
                setattr(evening, name, edits[name])
            evening.save(update_fields=[*changed, "updated_at"])
            if "capacity" in changed:
                _fill_places(evening)
        for name, value in edits.items():
            setattr(series, name, value)
        series.save(update_fields=list(edits))
    return series


def series_delete(*, user: User, series_id: int, now: dt.datetime | None = None) -> int:
    """Cancel the series' future scheduled evenings (their yes and maybe answers hear by
    e-mail) and delete the series; past evenings keep their history without a series.
    Answers how many evenings were cancelled."""
    now = now or timezone.now()
    with transaction.atomic():
        series = _locked_series(series_id)
        evenings = list(
            Evening.objects.select_for_update(of=("self",))
            .select_related("club")
            .filter(series=series, status=Evening.Status.SCHEDULED, starts_at__gt=now)
        )
        mails: list[Mail] = []
        for evening in evenings:
            evening.status = Evening.Status.CANCELLED
            evening.save(update_fields=["status", "updated_at"])
            mails.extend(_cancel_mails(evening))
        series.delete()
        _mail_on_commit(mails)
    return len(evenings)


# ---------------------------------------------------------------------------------------------
# answers


def attendance_answer(
    *, user: User, evening_id: int, answer: str, now: dt.datetime | None = None
) -> Attendance:
    """The caller's yes, no or maybe for a scheduled evening of their club.

    A yes takes a free place or waits (in the order of the yes); answering yes again keeps
    the place in line. A confirmed yes turning into no or maybe frees its place for the
    first waiting answer, who is told by e-mail.
    """
    if answer not in Attendance.Answer.values:
        message = _("Answer yes, no or maybe.")
        raise InvalidInput(message, fields={"answer": [message]})
    with transaction.atomic():
        evening = _locked_evening(evening_id)
        now = now or timezone.now()  # after the lock: the line follows the order of the yes
        _ensure_open(evening)
        if role_of(user, evening.club_id) is None:
            raise NotAllowed(_("Only the club's members answer for its evenings."))
        attendance = Attendance.objects.filter(evening=evening, user=user).first()
        if attendance is None:
            attendance = Attendance.objects.create(
                evening=evening,
                user=user,
                answer=answer,
                answered_at=now,
                waitlisted=answer == Attendance.Answer.YES and not _has_free_place(evening),
            )
        elif attendance.answer != answer:
            had_place = attendance.answer == Attendance.Answer.YES and not attendance.waitlisted
            attendance.answer = answer
            attendance.answered_at = now
            attendance.waitlisted = False
            if answer == Attendance.Answer.YES:
                attendance.waitlisted = not _has_free_place(evening)
            attendance.save()
            if had_place:
                _fill_places(evening)
        schedule_notifications(evening)
        live.evening_changed(evening.pk, "attendance_changed")
    return attendance_of(evening_id=evening_id, attendance_id=attendance.pk)


def attendance_remove_member(*, club_id: int, user_id: int, now: dt.datetime | None = None) -> int:
    """A member leaves or is removed: drop their answers to the club's future scheduled
    evenings (not where they are checked in) and move waiting answers up into the places
    they held. Answers how many answers were dropped. (For the membership services.)"""
    now = now or timezone.now()
    evening_ids = list(
        Attendance.objects.filter(
            user_id=user_id,
            evening__club_id=club_id,
            evening__status=Evening.Status.SCHEDULED,
            evening__starts_at__gt=now,
            checked_in_at__isnull=True,
        ).values_list("evening_id", flat=True)
    )
    dropped = 0
    for evening_id in evening_ids:
        with transaction.atomic():
            evening = _locked_evening(evening_id)
            deleted, _by_kind = Attendance.objects.filter(
                evening=evening, user_id=user_id, checked_in_at__isnull=True
            ).delete()
            dropped += deleted
            if deleted:
                _fill_places(evening)
    return dropped


# ---------------------------------------------------------------------------------------------
# check-in


def checkin_create(
    *,
    user: User,
    evening_id: int,
    user_id: int | None = None,
    guest_id: int | None = None,
    guest_name: str | None = None,
    now: dt.datetime | None = None,
) -> tuple[Attendance, bool]:
    """Check someone in: the caller (nothing named, or their own ``user_id``), another
    member (``user_id``), a guest of the club (``guest_id``) or a new guest
    (``guest_name``); only scorers and managers check in others. Whoever is checked in has
    a yes and a place, also past the capacity: they are there. Checking in someone who is
    already in changes nothing; someone who had left comes back. Answers the attendance and
    whether it was checked in now."""
    named = [x for x in (user_id, guest_id, guest_name) if x is not None]
    if len(named) > 1:
        raise InvalidInput(_("Name at most one of user_id, guest_id and guest_name."))
    with transaction.atomic():
        evening = _locked_evening(evening_id)
        now = now or timezone.now()
        _ensure_open(evening)
        role = role_of(user, evening.club_id)
        if role is None:
            raise NotAllowed(_("Only the club's members check in."))
        someone_else = (
            guest_id is not None or guest_name is not None or user_id not in (None, user.pk)
        )
        if someone_else and role not in Membership.SCORERS:
            raise NotAllowed(_("Members check in themselves; scorers and admins check in others."))
        lookup: dict[str, Any]
        if guest_name is not None:
            name = guest_name.strip()
            if not name:
                raise InvalidInput(
                    _("A guest needs a name."),
                    fields={"guest_name": [_("This field may not be blank.")]},
                )
            guest = Guest.objects.create(club_id=evening.club_id, name=name, created_by=user)
            lookup = {"guest": guest}
        elif guest_id is not None:
            found = Guest.objects.filter(pk=guest_id, club_id=evening.club_id).first()
            if found is None:
                message = _("The club has no such guest.")
                raise InvalidInput(message, fields={"guest_id": [message]})
            if found.merged_into_id is not None:
                message = _("This guest is now a member: check in the member.")
                raise InvalidInput(message, fields={"guest_id": [message]})
            lookup = {"guest": found}
        else:
            target = user.pk if user_id is None else user_id
            if not Membership.objects.filter(club_id=evening.club_id, user_id=target).exists():
                message = _("Not a member of this club (check in a guest instead).")
                raise InvalidInput(message, fields={"user_id": [message]})
            lookup = {"user_id": target}
        attendance = Attendance.objects.filter(evening=evening, **lookup).first()
        if attendance is not None and attendance.checked_in_at and attendance.left_at is None:
            return attendance_of(evening_id=evening_id, attendance_id=attendance.pk), False
        if attendance is None:
            attendance = Attendance(
                evening=evening, answer=Attendance.Answer.YES, answered_at=now, **lookup
            )
        elif attendance.answer != Attendance.Answer.YES:
            attendance.answer = Attendance.Answer.YES
            attendance.answered_at = now
        attendance.waitlisted = False
        attendance.checked_in_at = now
        attendance.left_at = None
        attendance.save()
        live.evening_changed(evening.pk, "attendance_changed")
    return attendance_of(evening_id=evening_id, attendance_id=attendance.pk), True


def _checked_in_attendance(evening: Evening, attendance_id: int) -> Attendance:
    attendance = Attendance.objects.filter(pk=attendance_id, evening=evening).first()
    if attendance is None:
        raise ClubNotFound(_("There is no such attendance."))
    if attendance.checked_in_at is None:
        raise ClubConflict(_("Not checked in."), code="not_checked_in")
    return attendance


def checkin_undo(*, user: User, evening_id: int, attendance_id: int) -> Attendance:
    """Take back a check-in made by mistake (managers); the answer stays."""
    with transaction.atomic():
        evening = _locked_evening(evening_id)
        _ensure_open(evening)
        attendance = _checked_in_attendance(evening, attendance_id)
        attendance.checked_in_at = None
        attendance.left_at = None
        attendance.save(update_fields=["checked_in_at", "left_at", "updated_at"])
        live.evening_changed(evening.pk, "attendance_changed")
    return attendance_of(evening_id=evening_id, attendance_id=attendance.pk)


def checkin_leave(
    *, user: User, evening_id: int, attendance_id: int, now: dt.datetime | None = None
) -> Attendance:
    """Someone checked in leaves early (members for themselves, scorers and managers for
    anyone); later rounds are planned without them. Leaving twice keeps the first time."""
    now = now or timezone.now()
    with transaction.atomic():
        evening = _locked_evening(evening_id)
        _ensure_open(evening)
        attendance = _checked_in_attendance(evening, attendance_id)
        if attendance.user_id != user.pk and role_of(user, evening.club_id) not in (
            Membership.SCORERS
        ):
            raise NotAllowed(_("Members mark only themselves as gone."))
        if attendance.left_at is None:
            attendance.left_at = now
            attendance.save(update_fields=["left_at", "updated_at"])
            live.evening_changed(evening.pk, "attendance_changed")
    return attendance_of(evening_id=evening_id, attendance_id=attendance.pk)


# ---------------------------------------------------------------------------------------------
# reminders


def evening_reminders_send(*, now: dt.datetime | None = None) -> int:
    """Beat: remind the yes and maybe answers of every scheduled evening that starts within
    its club's ``reminder_hours`` (clubs with 0 send none) and has not been reminded.

    Each evening is claimed in its own transaction (``select_for_update(skip_locked)``,
    ``reminder_sent_at`` set) and its mails go out after the commit, so two runs never
    remind twice. Answers how many evenings were reminded.
    """
    now = now or timezone.now()
    hours = (
        Club.objects.filter(reminder_hours__gt=0)
        .order_by()
        .values_list("reminder_hours", flat=True)
        .distinct()
    )
    due = Q()
    for h in hours:
        due |= Q(club__reminder_hours=h, starts_at__lte=now + dt.timedelta(hours=h))
    if not due:
        return 0
    candidates = list(
        Evening.objects.filter(
            due,
            status=Evening.Status.SCHEDULED,
            reminder_sent_at__isnull=True,
            starts_at__gt=now,
        ).values_list("pk", flat=True)
    )
    sent = 0
    for evening_id in candidates:
        with transaction.atomic():
            evening = (
                Evening.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("club")
                .filter(
                    pk=evening_id, status=Evening.Status.SCHEDULED, reminder_sent_at__isnull=True
                )
                .first()
            )
            if evening is None:
                continue
            evening.reminder_sent_at = now
            evening.save(update_fields=["reminder_sent_at"])
            _mail_on_commit(_reminder_mails(evening))
            sent += 1
    return sent


# ---------------------------------------------------------------------------------------------
# calendar feeds


def calendar_feed_create(*, user: User) -> CalendarFeed:
    """A secret feed of the evenings of the caller's clubs; at most
    :data:`MAX_CALENDAR_FEEDS` live ones (409 ``too_many_calendar_feeds``)."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        live = CalendarFeed.objects.filter(user=user, revoked_at__isnull=True).count()
        if live >= MAX_CALENDAR_FEEDS:
            raise ClubConflict(
                ngettext(
                    "You have {count} calendar feed; revoke one first.",
                    "You have {count} calendar feeds; revoke one first.",
                    live,
                ).format(count=live),
                code="too_many_calendar_feeds",
            )
        return CalendarFeed.objects.create(user=user, token=secrets.token_urlsafe(32))


def calendar_feed_revoke(*, user: User, feed_id: int, now: dt.datetime | None = None) -> None:
    """Revoke one of the caller's feeds: its address answers 404 from now on."""
    updated = CalendarFeed.objects.filter(pk=feed_id, user=user, revoked_at__isnull=True).update(
        revoked_at=now or timezone.now()
    )
    if not updated:
        raise ClubNotFound(_("There is no such calendar feed."))
