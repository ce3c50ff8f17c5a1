"""The caller's own view of the clubs: their coming evenings and the tables they sit at now."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import QuerySet
from django.urls import path
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Attendance, Evening
from clubs.selectors import evenings as evening_selectors
from config.api.callers import signed_in
from config.api.schema import ErrorSerializer
from games import selectors as games_selectors
from games.models import Seat, Table

UNAUTHORISED = {401: OpenApiResponse(ErrorSerializer, description="Not signed in.")}


class MyEveningSerializer(serializers.ModelSerializer[Evening]):
    """A coming evening of one of my clubs, in the club's time zone, with my answer."""

    club_name = serializers.CharField(source="club.name", read_only=True)
    timezone = serializers.CharField(source="club.timezone", read_only=True)
    starts_at = serializers.SerializerMethodField()
    ends_at = serializers.SerializerMethodField()
    my_answer = serializers.ChoiceField(
        choices=Attendance.Answer.choices,
        allow_null=True,
        read_only=True,
        help_text="Your answer: yes, no or maybe; null when you have not answered.",
    )
    my_waitlisted = serializers.BooleanField(allow_null=True, read_only=True)

    class Meta:
        model = Evening
        fields = (
            "id",
            "club",
            "club_name",
            "title",
            "starts_at",
            "ends_at",
            "timezone",
            "place",
            "status",
            "my_answer",
            "my_waitlisted",
        )
        read_only_fields = fields

    def _local(self, evening: Evening, value: Any) -> str:
        return str(value.astimezone(ZoneInfo(evening.club.timezone)).isoformat())

    def get_starts_at(self, evening: Evening) -> str:
        return self._local(evening, evening.starts_at)

    def get_ends_at(self, evening: Evening) -> str:
        return self._local(evening, evening.ends_at)


class MyEveningsView(generics.ListAPIView[Evening]):
    serializer_class = MyEveningSerializer
    queryset = Evening.objects.none()

    def get_queryset(self) -> QuerySet[Evening]:
        return evening_selectors.coming_evenings_of(user=signed_in(self.request))

    @extend_schema(
        summary="My coming evenings",
        description="Scheduled evenings of my clubs that have not ended, soonest first; the "
        "first one is my next evening.",
        responses={200: MyEveningSerializer(many=True), **UNAUTHORISED},
        examples=[
            OpenApiExample(
                "Next Monday at the café",
                response_only=True,
                status_codes=["200"],
                value={
                    "id": 3,
                    "club": 1,
                    "club_name": "Grazer Préférence-Runde",
                    "title": "Clubabend",
                    "starts_at": "2026-11-30T19:00:00+01:00",
                    "ends_at": "2026-12-01T00:00:00+01:00",
                    "timezone": "Europe/Vienna",
                    "place": "Café Sperl, Gumpendorfer Straße 11",
                    "status": "scheduled",
                    "my_answer": "yes",
                    "my_waitlisted": False,
                },
            )
        ],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class MyTableSerializer(serializers.Serializer[dict[str, Any]]):
    """An open table I sit at: where (club evening, round, table number) and my seat."""

    table_id = serializers.IntegerField()
    name = serializers.CharField()
    mode = serializers.ChoiceField(choices=Table.Mode.choices)
    seat = serializers.CharField(help_text="My seat's key.")
    position = serializers.IntegerField(help_text="My seat in playing order, from 0.")
    players = serializers.ListField(child=serializers.CharField(), help_text="In seat order.")
    club = serializers.IntegerField(allow_null=True)
    evening = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    table_number = serializers.IntegerField(allow_null=True)


class MyTablesView(generics.GenericAPIView[Any]):
    serializer_class = MyTableSerializer
    queryset = Seat.objects.none()

    @extend_schema(
        summary="Where I sit now",
        description="My open tables, newest first: at a club evening, the round and table "
        'number too ("round 2, table 4, seat 2").',
        responses={200: MyTableSerializer(many=True), **UNAUTHORISED},
        examples=[
            OpenApiExample(
                "Round 2 at the club evening",
                response_only=True,
                status_codes=["200"],
                value={
                    "table_id": 1,
                    "name": "Dienstagsrunde",
                    "mode": "recorded",
                    "seat": "anna",
                    "position": 0,
                    "players": ["Anna", "Bert", "Carl"],
                    "club": 1,
                    "evening": 1,
                    "round": 2,
                    "table_number": 1,
                },
            )
        ],
    )
    def get(self, request: Request) -> Response:
        user = signed_in(request)
        seats = self.paginate_queryset(games_selectors.open_seats_of(user=user)) or []
        table_ids = [s.table_id for s in seats]
        links = {
            link.table_id: link
            for link in evening_selectors.evening_tables_for_tables(table_ids=table_ids)
        }
        everyone: dict[int, list[str]] = {}
        for seat in games_selectors.seats_of_tables(table_ids=table_ids):
            everyone.setdefault(seat.table_id, []).append(seat.display_name)
        out = []
        for seat in seats:
            link = links.get(seat.table_id)
            out.append(
                {
                    "table_id": seat.table_id,
                    "name": seat.table.name,
                    "mode": seat.table.mode,
                    "seat": seat.key,
                    "position": seat.position,
                    "players": everyone.get(seat.table_id, []),
                    "club": seat.table.club_id,
                    "evening": link.evening_id if link else None,
                    "round": link.round.number if link and link.round else None,
                    "table_number": link.number if link else None,
                }
            )
        return self.get_paginated_response(out)


urlpatterns = [
    path("me/evenings/", MyEveningsView.as_view(), name="me-evenings"),
    path("me/tables/", MyTablesView.as_view(), name="me-tables"),
]
