"""Evenings API: a club's evenings and recurring series, answers and the waitlist, check-in,
and iCalendar feeds (``docs/clubs-evenings.md``).

Each view parses its input with a serializer, finds the club through :mod:`clubs.selectors`
(a private club does not exist for non-members: 404), the evening or series through
:mod:`clubs.selectors.evenings` (another club's is 404), calls one service of
:mod:`clubs.services.evenings` and serializes the answer. Every datetime is answered in the
club's timezone (``+01:00``) next to the zone's name (``timezone``); naive input times are the
club's local time.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.db.models import QuerySet
from django.urls import path
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import calendar
from clubs.api.scoped import UTC, ClubScopedView
from clubs.models import Attendance, CalendarFeed, Club, Evening, EveningSeries, User
from clubs.selectors import evenings as selectors_evenings
from clubs.services import evenings as services
from config.api.callers import caller, signed_in
from config.api.fields import MAX_ID
from config.api.parsers import StrictJSONParser
from config.api.schema import ErrorSerializer
from config.api.text import ICalendarRenderer, JsonErrorsMixin, text_response
from config.i18n import supported
from games.api import examples
from games.api.serializers import RulesField, RulesSerializer

#: The most places an evening can have: far above any club room, within the column.
MAX_CAPACITY = 1_000
CONFLICT = OpenApiResponse(
    ErrorSerializer,
    description="evening_cancelled or evening_closed: the evening no longer changes.",
)

# ---------------------------------------------------------------------------------------------
# fields


@extend_schema_field(
    {
        "type": "string",
        "description": "ISO 8601. With an offset (2026-12-01T19:00:00+01:00, or Z) it is that "
        "instant; without one (2026-12-01T19:00) it is the club's local time.",
        "example": "2026-12-01T19:00:00",
    }
)
class LocalDateTimeField(serializers.Field[dt.datetime, Any, str, Any]):
    """An input time: aware as sent, naive for the service to read in the club's timezone."""

    default_error_messages = {
        "invalid": gettext_lazy(
            "Give an ISO 8601 date and time, e.g. 2026-12-01T19:00 or 2026-12-01T19:00:00+01:00."
        )
    }

    def to_internal_value(self, data: Any) -> dt.datetime:
        if isinstance(data, dt.datetime):
            return data
        try:
            value = parse_datetime(str(data).strip())
        except ValueError:
            value = None
        if value is None:
            self.fail("invalid")
        assert value is not None
        return value

    def to_representation(self, value: dt.datetime) -> str:
        return value.isoformat()


@extend_schema_field(OpenApiTypes.DATETIME)
class ClubDateTimeField(serializers.Field[dt.datetime, Any, str | None, Any]):
    """An answered time, with the offset of the club's timezone (``context["zone"]``)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: dt.datetime) -> str:
        zone = self.context.get("zone") or UTC
        return value.astimezone(zone).isoformat()


# ---------------------------------------------------------------------------------------------
# evenings


class EveningCountsSerializer(serializers.Serializer[dict[str, int]]):
    """How the members answered: confirmed yes (``yes``), waiting yes (``waitlisted``),
    maybe, no, and how many are checked in."""

    yes = serializers.IntegerField()
    maybe = serializers.IntegerField()
    no = serializers.IntegerField()
    waitlisted = serializers.IntegerField()
    checked_in = serializers.IntegerField()


class EveningSerializer(serializers.ModelSerializer[Evening]):
    """An evening, its effective rules, the answer counts and the caller's own answer."""

    starts_at = ClubDateTimeField()
    ends_at = ClubDateTimeField()
    created_at = ClubDateTimeField()
    updated_at = ClubDateTimeField()
    timezone = serializers.CharField(
        source="club.timezone", read_only=True, help_text="The club's timezone (IANA name)."
    )
    rules = serializers.SerializerMethodField(
        help_text="The rules the evening's tables play: its own or the club's default."
    )
    counts = serializers.SerializerMethodField()
    status = serializers.ChoiceField(
        choices=Evening.Status.choices,
        read_only=True,
        help_text="scheduled, cancelled or closed (played and settled).",
    )
    my_answer = serializers.ChoiceField(
        choices=Attendance.Answer.choices,
        allow_null=True,
        read_only=True,
        help_text="Your answer: yes, no or maybe; null when you have not answered (or are not "
        "signed in).",
    )
    my_waitlist_position = serializers.IntegerField(
        allow_null=True, read_only=True, help_text="1 for the first waiting yes; null otherwise."
    )

    class Meta:
        model = Evening
        fields = (
            "id",
            "club",
            "series",
            "title",
            "starts_at",
            "ends_at",
            "timezone",
            "place",
            "capacity",
            "notes",
            "status",
            "rules",
            "counts",
            "my_answer",
            "my_waitlist_position",
            "created_at",
            "updated_at",
        )
        read_only_fields = fields

    @extend_schema_field(RulesSerializer)
    def get_rules(self, evening: Evening) -> dict[str, Any]:
        return evening.rules if evening.rules is not None else evening.club.default_rules

    @extend_schema_field(EveningCountsSerializer)
    def get_counts(self, evening: Evening) -> dict[str, int]:
        return {
            "yes": getattr(evening, "yes_count", 0),
            "maybe": getattr(evening, "maybe_count", 0),
            "no": getattr(evening, "no_count", 0),
            "waitlisted": getattr(evening, "waitlisted_count", 0),
            "checked_in": getattr(evening, "checked_in_count", 0),
        }


class EveningInputSerializer(serializers.Serializer[dict[str, Any]]):
    """A new evening, or (PATCH) the fields to change."""

    title = serializers.CharField(max_length=150)
    starts_at = LocalDateTimeField()
    ends_at = LocalDateTimeField(help_text="After starts_at.")
    place = serializers.CharField(max_length=200, allow_blank=True, default="")
    capacity = serializers.IntegerField(
        min_value=1,
        max_value=MAX_CAPACITY,
        allow_null=True,
        default=None,
        help_text="Places; null: unlimited.",
    )
    notes = serializers.CharField(allow_blank=True, default="")
    rules = RulesField(
        allow_null=True,
        default=None,
        help_text="The engine's rules object for the evening's tables; null: the club's.",
    )


EVENING_EXAMPLE = OpenApiExample(
    "Tuesday evening",
    value={
        "title": "Clubabend",
        "starts_at": "2026-12-01T19:00",
        "ends_at": "2026-12-01T23:00",
        "place": "Café Sperl, Gumpendorfer Straße 11",
        "capacity": 12,
        "notes": "Bring cards.",
        "rules": examples.rules_example(),
    },
    request_only=True,
)


def _moment(value: str) -> dt.datetime | dt.date:
    """A ``from``/``to`` filter value: a date or a datetime."""
    moment = parse_datetime(value)
    if moment is not None:
        return moment
    day = parse_date(value)
    if day is None:
        raise forms.ValidationError(_("Give an ISO 8601 date or date and time."))
    return day


class MomentField(forms.CharField):
    """A query value that is an ISO 8601 date or datetime."""

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if not text:
            return None
        try:
            return _moment(text)
        except ValueError:
            raise forms.ValidationError(_("Give an ISO 8601 date or date and time.")) from None


class MomentFilter(filters.CharFilter):
    field_class = MomentField


class EveningFilter(filters.FilterSet):
    """Filter evenings by time (``from``, ``to``: ISO dates, the club's local days, or
    datetimes), ``status`` and ``upcoming``."""

    status = filters.ChoiceFilter(choices=Evening.Status.choices)
    upcoming = filters.BooleanFilter(
        method="filter_upcoming",
        label="true: evenings not over yet, soonest first; false: those that are over.",
    )
    zone: ZoneInfo = UTC

    class Meta:
        model = Evening
        fields = ("status",)

    def _instant(self, value: dt.datetime | dt.date, *, next_day: bool) -> dt.datetime:
        if isinstance(value, dt.datetime):
            if value.tzinfo is None:
                return value.replace(tzinfo=self.zone)
            return value
        day = value + dt.timedelta(days=1) if next_day else value
        return dt.datetime.combine(day, dt.time(), tzinfo=self.zone)

    def filter_from(
        self, queryset: QuerySet[Evening], name: str, value: dt.datetime | dt.date
    ) -> QuerySet[Evening]:
        """Evenings that end at or after the moment (a date: that day's start)."""
        return queryset.filter(ends_at__gte=self._instant(value, next_day=False))

    def filter_to(
        self, queryset: QuerySet[Evening], name: str, value: dt.datetime | dt.date
    ) -> QuerySet[Evening]:
        """Evenings that start at or before the moment (a date: on or before that day)."""
        if isinstance(value, dt.datetime):
            return queryset.filter(starts_at__lte=self._instant(value, next_day=False))
        return queryset.filter(starts_at__lt=self._instant(value, next_day=True))

    def filter_upcoming(
        self, queryset: QuerySet[Evening], name: str, value: bool
    ) -> QuerySet[Evening]:
        now = timezone.now()
        if value:
            return queryset.filter(ends_at__gt=now).order_by("starts_at", "id")
        return queryset.filter(ends_at__lte=now)


EveningFilter.base_filters["from"] = MomentFilter(
    method="filter_from",
    label="Evenings not over by then: an ISO date (the club's local day) or datetime "
    "(naive: the club's local time).",
)
EveningFilter.base_filters["to"] = MomentFilter(
    method="filter_to",
    label="Evenings starting by then: an ISO date (up to the end of that local day) or datetime.",
)


class ClubFilterBackend(filters.DjangoFilterBackend):
    """Hands the view's club timezone (``view.zone``) to the filter set, for local dates."""

    def get_filterset(self, request: Any, queryset: QuerySet[Any], view: Any) -> Any:
        filterset = super().get_filterset(request, queryset, view)
        if filterset is not None:
            filterset.zone = getattr(view, "zone", UTC)
        return filterset


# ---------------------------------------------------------------------------------------------
# series


class EveningSeriesSerializer(serializers.ModelSerializer[EveningSeries]):
    """A recurring evening: its rule, the evenings' length and details, how far its
    evenings are generated and how many are still to come."""

    first_start = ClubDateTimeField()
    generated_until = ClubDateTimeField(allow_null=True)
    created_at = ClubDateTimeField()
    timezone = serializers.CharField(
        source="club.timezone", read_only=True, help_text="The club's timezone (IANA name)."
    )
    upcoming_count = serializers.IntegerField(
        read_only=True, help_text="Scheduled evenings of the series still to come."
    )

    class Meta:
        model = EveningSeries
        fields = (
            "id",
            "club",
            "title",
            "rrule",
            "first_start",
            "duration_minutes",
            "timezone",
            "place",
            "capacity",
            "notes",
            "generated_until",
            "upcoming_count",
            "created_at",
        )
        read_only_fields = fields


class EveningSeriesCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """A new series; its evenings are generated at once."""

    title = serializers.CharField(max_length=150)
    rrule = serializers.CharField(
        max_length=500,
        help_text='An RFC 5545 RRULE value, e.g. "FREQ=WEEKLY;BYDAY=TU" (DAILY at most; no '
        "BYHOUR/BYMINUTE/BYSECOND: the time of day is first_start's).",
    )
    first_start = LocalDateTimeField(
        help_text="The first evening's start; later ones keep its local time of day."
    )
    duration_minutes = serializers.IntegerField(
        min_value=1, max_value=services.MAX_DURATION_MINUTES, default=240
    )
    place = serializers.CharField(max_length=200, allow_blank=True, default="")
    capacity = serializers.IntegerField(
        min_value=1,
        max_value=MAX_CAPACITY,
        allow_null=True,
        default=None,
        help_text="Places; null: unlimited.",
    )
    notes = serializers.CharField(allow_blank=True, default="")


class EveningSeriesUpdateSerializer(serializers.Serializer[dict[str, Any]]):
    """Changes to a series and its future evenings. The schedule fields are accepted only
    unchanged (a different one is 409 series_schedule_fixed)."""

    title = serializers.CharField(max_length=150, required=False)
    place = serializers.CharField(max_length=200, allow_blank=True, required=False)
    capacity = serializers.IntegerField(
        min_value=1, max_value=MAX_CAPACITY, allow_null=True, required=False
    )
    notes = serializers.CharField(allow_blank=True, required=False)
    rrule = serializers.CharField(max_length=500, required=False, help_text="Fixed.")
    first_start = LocalDateTimeField(required=False, help_text="Fixed.")
    duration_minutes = serializers.IntegerField(min_value=1, required=False, help_text="Fixed.")


SERIES_EXAMPLE = OpenApiExample(
    "Every Tuesday",
    value={
        "title": "Dienstagsrunde",
        "rrule": "FREQ=WEEKLY;BYDAY=TU",
        "first_start": "2026-12-01T19:00",
        "duration_minutes": 240,
        "place": "Café Sperl",
        "capacity": 12,
        "notes": "",
    },
    request_only=True,
)


# ---------------------------------------------------------------------------------------------
# attendance


class AttendeeUserSerializer(serializers.ModelSerializer[User]):
    class Meta:
        model = User
        fields = ("id", "username", "display_name")
        read_only_fields = fields


class AttendeeGuestSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)


class AttendanceSerializer(serializers.ModelSerializer[Attendance]):
    """A member's answer (or a guest checked in): ``user`` or ``guest`` is set, and its id
    is ``user_id`` or ``guest_id`` as a check-in takes it."""

    user = AttendeeUserSerializer(read_only=True, allow_null=True)
    user_id = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="``user.id``: check in with it."
    )
    guest = AttendeeGuestSerializer(read_only=True, allow_null=True)
    guest_id = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="``guest.id``: check in with it."
    )
    waitlist_position = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="1 for the first waiting yes; null otherwise."
    )
    answered_at = ClubDateTimeField()
    checked_in_at = ClubDateTimeField(allow_null=True)
    left_at = ClubDateTimeField(allow_null=True, help_text="Left the evening early.")

    class Meta:
        model = Attendance
        fields = (
            "id",
            "evening",
            "user",
            "user_id",
            "guest",
            "guest_id",
            "answer",
            "waitlisted",
            "waitlist_position",
            "answered_at",
            "checked_in_at",
            "left_at",
        )
        read_only_fields = fields


class AnswerSerializer(serializers.Serializer[dict[str, Any]]):
    answer = serializers.ChoiceField(choices=Attendance.Answer.choices)


class AttendanceFilter(filters.FilterSet):
    """Filter attendances by answer, waitlisted and checked_in."""

    checked_in = filters.BooleanFilter(
        field_name="checked_in_at", lookup_expr="isnull", exclude=True, label="Checked in."
    )

    class Meta:
        model = Attendance
        fields = ("answer", "waitlisted", "checked_in")


class CheckInSerializer(serializers.Serializer[dict[str, Any]]):
    """Who to check in: no body (or ``{}``) for yourself, or at most one of ``user_id``,
    ``guest_id`` (as an attendance reads them back) and ``guest_name``. One object with
    optional fields rather than a ``oneOf``, so the body can be left out: openapi-python-client
    0.29 cannot leave out an optional ``oneOf`` body."""

    user_id = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="A member: yourself, or anyone for scorers and managers.",
    )
    guest_id = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text="A guest of the club."
    )
    guest_name = serializers.CharField(
        max_length=150, required=False, help_text="Creates a guest of the club."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) > 1:
            raise serializers.ValidationError(
                _("Name at most one of user_id, guest_id and guest_name.")
            )
        return attrs


# ---------------------------------------------------------------------------------------------
# calendar feeds


class CalendarFeedSerializer(serializers.ModelSerializer[CalendarFeed]):
    """A personal feed: subscribe to ``url``; anyone with it sees your clubs' evenings."""

    url = serializers.SerializerMethodField(help_text="The feed's secret address.")

    class Meta:
        model = CalendarFeed
        fields = ("id", "url", "token", "created_at")
        read_only_fields = fields

    def get_url(self, feed: CalendarFeed) -> str:
        base = settings.PUBLIC_BASE_URL.rstrip("/")
        return f"{base}/api/v1/calendar/{feed.token}.ics"


ICAL_RESPONSE = text_response(
    "An iCalendar (RFC 5545) feed: one VEVENT per evening from 30 days ago on, "
    "UID evening-<id>@<host>, cancelled ones STATUS:CANCELLED.",
)


# ---------------------------------------------------------------------------------------------
# views


class EveningListView(ClubScopedView, generics.ListAPIView[Evening]):
    """A club's evenings; managers add one."""

    serializer_class = EveningSerializer
    filterset_class = EveningFilter
    filter_backends = [ClubFilterBackend]
    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    queryset = Evening.objects.none()

    def get_queryset(self) -> QuerySet[Evening]:
        if self.schema_only():
            return Evening.objects.none()
        club = self.read_club()
        return selectors_evenings.evenings_for_club(club=club, user=caller(self.request))

    @extend_schema(
        summary="A club's evenings",
        description="Newest first (``upcoming=true``: soonest first). Public clubs: anyone; "
        "private clubs: members.",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Add an evening",
        request=EveningInputSerializer,
        responses={201: EveningSerializer},
        examples=[EVENING_EXAMPLE],
    )
    def post(self, request: Request, club_id: int) -> Response:
        """Managers. Times without an offset are the club's local time."""
        club = self.manager_club()
        serializer = EveningInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        evening = services.evening_create(
            user=signed_in(request), club_id=club.pk, **serializer.validated_data
        )
        evening = selectors_evenings.evening_in_club(
            club=club, evening_id=evening.pk, user=caller(request)
        )
        return Response(self.out(EveningSerializer, evening), status=status.HTTP_201_CREATED)


class EveningDetailView(ClubScopedView):
    """One evening."""

    serializer_class = EveningSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    queryset = Evening.objects.none()

    @extend_schema(summary="An evening", responses={200: EveningSerializer})
    def get(self, request: Request, club_id: int, evening_id: int) -> Response:
        return Response(self.out(EveningSerializer, self.evening(self.read_club())))

    @extend_schema(
        summary="Change an evening",
        request=EveningInputSerializer,
        responses={200: EveningSerializer, 409: CONFLICT},
        examples=[
            OpenApiExample(
                "Later and bigger",
                value={"starts_at": "2026-12-01T19:30", "capacity": 16},
                request_only=True,
            )
        ],
    )
    def patch(self, request: Request, club_id: int, evening_id: int) -> Response:
        """Managers. Changes only this evening, also in a series. More places move waiting
        answers up; a new start re-arms the reminder. ``rules: null`` means the club's."""
        club = self.manager_club()
        evening = self.evening(club)
        serializer = EveningInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        services.evening_update(
            user=signed_in(request), evening_id=evening.pk, changes=serializer.validated_data
        )
        return Response(self.out(EveningSerializer, self.evening(club)))


class EveningCancelView(ClubScopedView):
    """Cancel an evening."""

    serializer_class = EveningSerializer
    queryset = Evening.objects.none()

    @extend_schema(
        summary="Cancel an evening",
        request=None,
        responses={200: EveningSerializer, 409: CONFLICT},
    )
    def post(self, request: Request, club_id: int, evening_id: int) -> Response:
        """Managers. Whoever answered yes or maybe hears by e-mail; calendars strike it out."""
        club = self.manager_club()
        evening = self.evening(club)
        services.evening_cancel(user=signed_in(request), evening_id=evening.pk)
        return Response(self.out(EveningSerializer, self.evening(club)))


class SeriesListView(ClubScopedView, generics.ListAPIView[EveningSeries]):
    """A club's recurring evenings; managers start one."""

    serializer_class = EveningSeriesSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    queryset = EveningSeries.objects.none()

    def get_queryset(self) -> QuerySet[EveningSeries]:
        if self.schema_only():
            return EveningSeries.objects.none()
        return selectors_evenings.series_for_club(club=self.read_club())

    @extend_schema(summary="A club's evening series")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Start an evening series",
        request=EveningSeriesCreateSerializer,
        responses={201: EveningSeriesSerializer},
        examples=[SERIES_EXAMPLE],
    )
    def post(self, request: Request, club_id: int) -> Response:
        """Managers. Generates the evenings from now to EVENING_SERIES_WEEKS_AHEAD weeks
        ahead at once (later ones follow), at first_start's local time of day."""
        club = self.manager_club()
        serializer = EveningSeriesCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        series = services.evening_series_create(
            user=signed_in(request), club_id=club.pk, **serializer.validated_data
        )
        series = selectors_evenings.series_in_club(club=club, series_id=series.pk)
        return Response(self.out(EveningSeriesSerializer, series), status=status.HTTP_201_CREATED)


class SeriesDetailView(ClubScopedView):
    """One series."""

    serializer_class = EveningSeriesSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    queryset = EveningSeries.objects.none()

    def series(self, club: Club) -> EveningSeries:
        return selectors_evenings.series_in_club(club=club, series_id=self.kwargs["series_id"])

    @extend_schema(summary="An evening series", responses={200: EveningSeriesSerializer})
    def get(self, request: Request, club_id: int, series_id: int) -> Response:
        return Response(self.out(EveningSeriesSerializer, self.series(self.read_club())))

    @extend_schema(
        summary="Change an evening series",
        request=EveningSeriesUpdateSerializer,
        responses={
            200: EveningSeriesSerializer,
            409: OpenApiResponse(
                ErrorSerializer,
                description="series_schedule_fixed: a different rrule, first_start or "
                "duration; create a new series.",
            ),
        },
        examples=[
            OpenApiExample(
                "Moving house", value={"place": "Café Hawelka", "capacity": 8}, request_only=True
            )
        ],
    )
    def patch(self, request: Request, club_id: int, series_id: int) -> Response:
        """Managers. Changes the series and the same fields of its future scheduled
        evenings that were not edited on their own."""
        club = self.manager_club()
        series = self.series(club)
        serializer = EveningSeriesUpdateSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        services.series_update(
            user=signed_in(request), series_id=series.pk, changes=serializer.validated_data
        )
        return Response(self.out(EveningSeriesSerializer, self.series(club)))

    @extend_schema(summary="End an evening series", request=None, responses={204: None})
    def delete(self, request: Request, club_id: int, series_id: int) -> Response:
        """Managers. Cancels the series' future scheduled evenings and deletes it; past
        evenings stay, without a series."""
        club = self.manager_club()
        series = self.series(club)
        services.series_delete(user=signed_in(request), series_id=series.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AttendanceView(ClubScopedView):
    """The caller's own answer for an evening."""

    serializer_class = AttendanceSerializer
    parser_classes = [StrictJSONParser]
    queryset = Attendance.objects.none()

    @extend_schema(
        summary="Answer for an evening",
        request=AnswerSerializer,
        responses={200: AttendanceSerializer, 409: CONFLICT},
        examples=[OpenApiExample("Coming", value={"answer": "yes"}, request_only=True)],
    )
    def put(self, request: Request, club_id: int, evening_id: int) -> Response:
        """Members, for themselves. A yes past the capacity waits (``waitlisted``, with its
        ``waitlist_position``) and moves up by itself when a place frees."""
        evening = self.evening(self.member_club())
        serializer = AnswerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attendance = services.attendance_answer(
            user=signed_in(request),
            evening_id=evening.pk,
            answer=serializer.validated_data["answer"],
        )
        return Response(self.out(AttendanceSerializer, attendance))


class AttendanceListView(ClubScopedView, generics.ListAPIView[Attendance]):
    """Who answered and who is there."""

    serializer_class = AttendanceSerializer
    filterset_class = AttendanceFilter
    permission_classes = [AllowAny]
    queryset = Attendance.objects.none()

    def get_queryset(self) -> QuerySet[Attendance]:
        if self.schema_only():
            return Attendance.objects.none()
        evening = self.evening(self.member_club())
        return selectors_evenings.attendances_for_evening(evening=evening)

    @extend_schema(
        summary="An evening's attendances",
        description="Members (the counts are public on the evening of a public club).",
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class CheckInListView(ClubScopedView):
    """Check someone in."""

    serializer_class = AttendanceSerializer
    parser_classes = [StrictJSONParser]
    queryset = Attendance.objects.none()
    optional_body_methods = frozenset({"POST"})  # no body: yourself

    @extend_schema(
        summary="Check in",
        request=CheckInSerializer,
        responses={
            201: OpenApiResponse(AttendanceSerializer, description="Checked in now."),
            200: OpenApiResponse(AttendanceSerializer, description="Was checked in already."),
            409: CONFLICT,
        },
        examples=[
            OpenApiExample("Yourself", value={}, request_only=True),
            OpenApiExample("A member", value={"user_id": 7}, request_only=True),
            OpenApiExample("A new guest", value={"guest_name": "Onkel Fritz"}, request_only=True),
        ],
    )
    def post(self, request: Request, club_id: int, evening_id: int) -> Response:
        """Yourself: no body (or ``{}``, or your own ``user_id``). Scorers and managers
        check in others: a member (``user_id``), a guest (``guest_id``) or a new guest
        (``guest_name``), at most one of them. Whoever is checked in has a yes and a
        place, also past the capacity."""
        evening = self.evening(self.member_club())
        serializer = CheckInSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        attendance, created = services.checkin_create(
            user=signed_in(request), evening_id=evening.pk, **serializer.validated_data
        )
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(self.out(AttendanceSerializer, attendance), status=code)


NOT_CHECKED_IN = OpenApiResponse(
    ErrorSerializer,
    description="not_checked_in, evening_cancelled or evening_closed.",
)


class CheckInDetailView(ClubScopedView):
    """Undo a check-in."""

    serializer_class = AttendanceSerializer
    queryset = Attendance.objects.none()

    @extend_schema(
        summary="Undo a check-in",
        request=None,
        responses={204: None, 409: NOT_CHECKED_IN},
    )
    def delete(
        self, request: Request, club_id: int, evening_id: int, attendance_id: int
    ) -> Response:
        """Managers. The answer stays; only the check-in (and any leaving) goes."""
        evening = self.evening(self.manager_club())
        attendance = selectors_evenings.attendance_in_evening(
            evening=evening, attendance_id=attendance_id
        )
        services.checkin_undo(
            user=signed_in(request), evening_id=evening.pk, attendance_id=attendance.pk
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class CheckInLeaveView(ClubScopedView):
    """Someone leaves early."""

    serializer_class = AttendanceSerializer
    queryset = Attendance.objects.none()

    @extend_schema(
        summary="Leave early",
        request=None,
        responses={200: AttendanceSerializer, 409: NOT_CHECKED_IN},
    )
    def post(self, request: Request, club_id: int, evening_id: int, attendance_id: int) -> Response:
        """Members for themselves, scorers and managers for anyone: later rounds are seated
        without them. Leaving twice keeps the first time."""
        evening = self.evening(self.member_club())
        attendance = selectors_evenings.attendance_in_evening(
            evening=evening, attendance_id=attendance_id
        )
        attendance = services.checkin_leave(
            user=signed_in(request), evening_id=evening.pk, attendance_id=attendance.pk
        )
        return Response(self.out(AttendanceSerializer, attendance))


class CalendarView(JsonErrorsMixin, generics.GenericAPIView[Any]):
    """An iCalendar answer; errors stay JSON."""

    renderer_classes = [ICalendarRenderer]
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    queryset = Evening.objects.none()

    def ics(self, body: bytes, filename: str) -> Response:
        response = Response(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        response["Cache-Control"] = "private, max-age=300"
        return response


class ClubCalendarView(CalendarView):
    """A public club's evenings as a calendar."""

    @extend_schema(
        summary="A club's calendar",
        responses={(200, "text/calendar"): ICAL_RESPONSE},
    )
    def get(self, request: Request, club_id: int) -> Response:
        """Public clubs, for anyone to subscribe; private clubs: 404 (members subscribe to
        their personal feed)."""
        club = selectors_evenings.public_club(club_id=club_id)
        evenings = selectors_evenings.calendar_evenings(club_ids=[club.pk])
        asked = calendar.asked_language(request)
        body = calendar.calendar_ics(evenings=evenings, name=club.name, asked=asked)
        response = self.ics(body, "club.ics")
        response["Content-Language"] = calendar.feed_language(club=club, asked=asked)
        return response


class PersonalCalendarView(CalendarView):
    """The evenings of all clubs of a feed's owner."""

    @extend_schema(
        summary="Your personal calendar",
        responses={(200, "text/calendar"): ICAL_RESPONSE},
    )
    def get(self, request: Request, token: str) -> Response:
        """No sign-in: the token is the secret. Revoked and unknown tokens: 404."""
        feed = selectors_evenings.calendar_feed_by_token(token=token)
        evenings = selectors_evenings.calendar_evenings(
            club_ids=selectors_evenings.club_ids_of(user_id=feed.user_id)
        )
        body = calendar.calendar_ics(
            evenings=evenings,
            name="Préférence",
            with_club=True,
            owner=feed.user,
            asked=calendar.asked_language(request),
        )
        response = self.ics(body, "evenings.ics")
        preferred = supported(feed.user.language)
        if preferred:  # else each evening speaks its club's language
            response["Content-Language"] = preferred
        return response


class CalendarFeedListView(generics.ListAPIView[CalendarFeed]):
    """The caller's personal calendar feeds."""

    serializer_class = CalendarFeedSerializer
    permission_classes = [IsAuthenticated]
    queryset = CalendarFeed.objects.none()

    def get_queryset(self) -> QuerySet[CalendarFeed]:
        if getattr(self, "swagger_fake_view", False):
            return CalendarFeed.objects.none()
        return selectors_evenings.calendar_feeds_of(user=signed_in(self.request))

    @extend_schema(summary="Your calendar feeds")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Create a calendar feed",
        request=None,
        responses={
            201: CalendarFeedSerializer,
            409: OpenApiResponse(
                ErrorSerializer, description="too_many_calendar_feeds: revoke one first."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        """A secret address with the evenings of all your clubs, for your phone's calendar."""
        feed = services.calendar_feed_create(user=signed_in(request))
        return Response(CalendarFeedSerializer(feed).data, status=status.HTTP_201_CREATED)


class CalendarFeedDetailView(generics.GenericAPIView[CalendarFeed]):
    """Revoke a feed."""

    serializer_class = CalendarFeedSerializer
    permission_classes = [IsAuthenticated]
    queryset = CalendarFeed.objects.none()

    @extend_schema(summary="Revoke a calendar feed", request=None, responses={204: None})
    def delete(self, request: Request, feed_id: int) -> Response:
        """Its address answers 404 from now on."""
        services.calendar_feed_revoke(user=signed_in(request), feed_id=feed_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


E = "clubs/<id:club_id>/evenings/<id:evening_id>/"

urlpatterns = [
    path("clubs/<id:club_id>/evenings/", EveningListView.as_view(), name="club-evenings"),
    path(E, EveningDetailView.as_view(), name="club-evening"),
    path(E + "cancel/", EveningCancelView.as_view(), name="club-evening-cancel"),
    path(E + "attendance/", AttendanceView.as_view(), name="club-evening-attendance"),
    path(E + "attendances/", AttendanceListView.as_view(), name="club-evening-attendances"),
    path(E + "check-ins/", CheckInListView.as_view(), name="club-evening-check-ins"),
    path(
        E + "check-ins/<id:attendance_id>/",
        CheckInDetailView.as_view(),
        name="club-evening-check-in",
    ),
    path(
        E + "check-ins/<id:attendance_id>/leave/",
        CheckInLeaveView.as_view(),
        name="club-evening-check-in-leave",
    ),
    path(
        "clubs/<id:club_id>/evening-series/", SeriesListView.as_view(), name="club-evening-series"
    ),
    path(
        "clubs/<id:club_id>/evening-series/<id:series_id>/",
        SeriesDetailView.as_view(),
        name="club-evening-series-detail",
    ),
    path("clubs/<id:club_id>/calendar.ics", ClubCalendarView.as_view(), name="club-calendar"),
    path("me/calendar-feeds/", CalendarFeedListView.as_view(), name="calendar-feeds"),
    path(
        "me/calendar-feeds/<id:feed_id>/",
        CalendarFeedDetailView.as_view(),
        name="calendar-feed",
    ),
    path("calendar/<slug:token>.ics", PersonalCalendarView.as_view(), name="calendar-feed-ics"),
]
