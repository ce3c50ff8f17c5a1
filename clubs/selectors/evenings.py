"""Reads for club evenings: evenings with their answer counts and the caller's own answer,
series, attendances with waitlist positions, and the evenings a calendar feed shows.

Every lookup is scoped to a club the view has already found through :mod:`clubs.selectors`
(so a private club's evenings do not exist for non-members); an evening, series or attendance
of another club is :class:`clubs.errors.ClubNotFound` (404).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db.models import (
    Case,
    CharField,
    Count,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.errors import ClubNotFound
from clubs.models import (
    Attendance,
    CalendarFeed,
    Club,
    Evening,
    EveningSeries,
    EveningTable,
    Membership,
    User,
)
from clubs.permissions import AnyUser

#: How far back calendar feeds reach.
CALENDAR_DAYS_BACK = 30


def club_zone(club: Club) -> ZoneInfo:
    """The club's timezone (UTC when its name is unknown to the system's tz database)."""
    try:
        return ZoneInfo(club.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def attendances_with_positions() -> QuerySet[Attendance]:
    """Attendances with ``waitlist_position``: 1 for the first waitlisted yes of its evening
    (by the time of the yes, then id), null for everyone not waitlisted."""
    ahead = (
        Attendance.objects.filter(evening=OuterRef("evening"), waitlisted=True)
        .filter(
            Q(answered_at__lt=OuterRef("answered_at"))
            | Q(answered_at=OuterRef("answered_at"), pk__lte=OuterRef("pk"))
        )
        .order_by()
        .values("evening")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Attendance.objects.annotate(
        waitlist_position=Case(
            When(waitlisted=True, then=Subquery(ahead, output_field=IntegerField())),
            default=None,
            output_field=IntegerField(),
        )
    )


def evenings_for_club(*, club: Club, user: AnyUser) -> QuerySet[Evening]:
    """The club's evenings, newest first, each with the counts of its answers (``yes_count``
    counts confirmed places only; ``waitlisted_count`` the waiting yes answers) and the
    caller's ``my_answer`` and ``my_waitlist_position`` (null for anonymous callers and
    people who have not answered)."""
    qs = (
        Evening.objects.filter(club=club)
        .select_related("club")
        .annotate(
            yes_count=Count(
                "attendances",
                filter=Q(attendances__answer=Attendance.Answer.YES, attendances__waitlisted=False),
            ),
            maybe_count=Count("attendances", filter=Q(attendances__answer=Attendance.Answer.MAYBE)),
            no_count=Count("attendances", filter=Q(attendances__answer=Attendance.Answer.NO)),
            waitlisted_count=Count("attendances", filter=Q(attendances__waitlisted=True)),
            checked_in_count=Count(
                "attendances", filter=Q(attendances__checked_in_at__isnull=False)
            ),
        )
        .order_by("-starts_at", "-id")
    )
    if not user.is_authenticated:
        return qs.annotate(
            my_answer=Value(None, output_field=CharField()),
            my_waitlist_position=Value(None, output_field=IntegerField()),
        )
    mine = attendances_with_positions().filter(evening=OuterRef("pk"), user_id=user.pk)
    return qs.annotate(
        my_answer=Subquery(mine.values("answer")[:1], output_field=CharField()),
        my_waitlist_position=Subquery(
            mine.values("waitlist_position")[:1],  # type: ignore[misc]
            output_field=IntegerField(),
        ),
    )


def evening_in_club(*, club: Club, evening_id: int, user: AnyUser) -> Evening:
    """One of the club's evenings with its counts; 404 when the club has no such evening."""
    evening = evenings_for_club(club=club, user=user).filter(pk=evening_id).first()
    if evening is None:
        raise ClubNotFound(_("There is no such evening."))
    return evening


def series_for_club(*, club: Club) -> QuerySet[EveningSeries]:
    """The club's series with ``upcoming_count``: their scheduled evenings still to come."""
    return (
        EveningSeries.objects.filter(club=club)
        .select_related("club")
        .annotate(
            upcoming_count=Count(
                "evenings",
                filter=Q(
                    evenings__status=Evening.Status.SCHEDULED,
                    evenings__starts_at__gte=timezone.now(),
                ),
            )
        )
        .order_by("id")
    )


def series_in_club(*, club: Club, series_id: int) -> EveningSeries:
    """One of the club's series; 404 when the club has no such series."""
    series = series_for_club(club=club).filter(pk=series_id).first()
    if series is None:
        raise ClubNotFound(_("There is no such series."))
    return series


def attendances_for_evening(*, evening: Evening) -> QuerySet[Attendance]:
    """Everyone who answered for or was checked in at the evening, in the order they
    answered, with their user or guest and waitlist position."""
    return (
        attendances_with_positions()
        .filter(evening=evening)
        .select_related("user", "guest")
        .order_by("answered_at", "id")
    )


def attendance_in_evening(*, evening: Evening, attendance_id: int) -> Attendance:
    """One attendance of the evening; 404 otherwise."""
    attendance = attendances_for_evening(evening=evening).filter(pk=attendance_id).first()
    if attendance is None:
        raise ClubNotFound(_("There is no such attendance."))
    return attendance


def attendance_of(*, evening_id: int, attendance_id: int) -> Attendance:
    """An attendance with its waitlist position, as the services answer it."""
    return (
        attendances_with_positions()
        .select_related("user", "guest")
        .get(pk=attendance_id, evening_id=evening_id)
    )


def calendar_evenings(
    *, club_ids: Iterable[int], now: dt.datetime | None = None
) -> QuerySet[Evening]:
    """The evenings a calendar feed lists: every evening of the clubs (cancelled ones too,
    for calendars to strike out) that started at most :data:`CALENDAR_DAYS_BACK` days ago,
    in start order."""
    since = (now or timezone.now()) - dt.timedelta(days=CALENDAR_DAYS_BACK)
    return (
        Evening.objects.filter(club_id__in=list(club_ids), starts_at__gte=since)
        .select_related("club")
        .order_by("starts_at", "id")
    )


def public_club(*, club_id: int) -> Club:
    """A public club; 404 for private and unknown ones alike (calendar subscriptions carry
    no sign-in: members of a private club subscribe to their personal feed)."""
    club = Club.objects.filter(pk=club_id, is_public=True).first()
    if club is None:
        raise ClubNotFound()
    return club


def club_ids_of(*, user_id: int) -> list[int]:
    """The clubs a user belongs to."""
    return list(Membership.objects.filter(user_id=user_id).values_list("club_id", flat=True))


def calendar_feeds_of(*, user: User) -> QuerySet[CalendarFeed]:
    """The caller's feeds that are not revoked, newest first."""
    return CalendarFeed.objects.filter(user=user, revoked_at__isnull=True).order_by(
        "-created_at", "-id"
    )


def calendar_feed_by_token(*, token: str) -> CalendarFeed:
    """The live feed with this token; 404 for unknown and revoked tokens alike."""
    feed = (
        CalendarFeed.objects.filter(token=token, revoked_at__isnull=True)
        .select_related("user")
        .first()
    )
    if feed is None:
        raise ClubNotFound(_("There is no such calendar."))
    return feed


def confirmed_count(*, evening: Evening) -> int:
    """Confirmed places taken: yes answers not waiting."""
    return Attendance.objects.filter(
        evening=evening, answer=Attendance.Answer.YES, waitlisted=False
    ).count()


def coming_evenings_of(*, user: User) -> QuerySet[Evening]:
    """Scheduled evenings of the user's clubs that have not ended, soonest first, with the
    club and the user's answer (``my_answer``, ``my_waitlisted``)."""
    mine = Attendance.objects.filter(evening=OuterRef("pk"), user=user)
    return (
        Evening.objects.filter(
            club__in=Membership.objects.filter(user=user).values("club_id"),
            status=Evening.Status.SCHEDULED,
            ends_at__gte=timezone.now(),
        )
        .select_related("club")
        .annotate(
            my_answer=Subquery(mine.values("answer")[:1]),
            my_waitlisted=Subquery(mine.values("waitlisted")[:1]),
        )
        .order_by("starts_at", "id")
    )


def evening_with_club(*, club: Club, evening_id: int) -> Evening:
    """One of the club's evenings with its club, without the counts of
    :func:`evening_in_club`; 404 when the club has no such evening."""
    evening = Evening.objects.filter(pk=evening_id, club=club).select_related("club").first()
    if evening is None:
        raise ClubNotFound(_("There is no such evening."))
    return evening


def evening_tables_of(*, evening: Evening) -> QuerySet[EveningTable]:
    """The evening's tables by round and number, with their round, games table and seats
    (each seat's user, and guest with whom they were merged into)."""
    return (
        EveningTable.objects.filter(evening=evening)
        .select_related("round", "table")
        .prefetch_related("table__seats__user", "table__seats__guest__merged_into")
        .order_by("round__number", "number", "id")
    )


def evening_tables_for_tables(*, table_ids: list[int]) -> QuerySet[EveningTable]:
    """The evening links of these games tables (those that belong to an evening), with
    their round."""
    return EveningTable.objects.filter(table_id__in=table_ids).select_related("round")
