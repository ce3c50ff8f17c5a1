"""Cups and ranking lists (issue 42, ``docs/cups.md``): the cup, its lifecycle and
directors, its events (tournaments on this server, accepted by their directors, and imported
ones), its players, its standings (overall, side rankings, the final) with exports and a
printable page, a player's history, the caller's own cups, and a tournament's cups (where
its directors find the proposals to answer).

Views parse input with a serializer, find the cup through a selector scoped to the caller
(:mod:`tournaments.cup_selectors`: a draft or private cup does not exist for outsiders, 404;
the directors' operations answer 403 to those who see it but do not run it; who may do what is
decided in :mod:`tournaments.cup_permissions` alone), call one service
(:mod:`tournaments.services.cups`) and serialize the answer.

The standings, the final, the exports and the printable page are public for a public cup and
conditional: their ``ETag`` and ``Last-Modified`` name the cup's state (``changed_at``, the
computed and requested versions) and the names the reader reads
(:attr:`~tournaments.cup_selectors.CupNames.key`), so a client that sends them back gets a 304
while nothing changed.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import path
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.callers import caller, signed_in
from config.api.conditional import conditional_answer
from config.api.filters import IdFilter
from config.api.schema import ErrorSerializer, conditional_headers
from config.api.text import CSVRenderer, JsonErrorsMixin, csv_text, file_answer, text_response
from games.api import examples
from tournaments import cup_selectors as selectors
from tournaments.api.cup_serializers import (
    CupDirectorInputSerializer,
    CupEventInputSerializer,
    CupEventResultsSerializer,
    CupEventSerializer,
    CupFinalSerializer,
    CupImportInputSerializer,
    CupInputSerializer,
    CupLogEntrySerializer,
    CupMergeInputSerializer,
    CupPatchSerializer,
    CupPlayerHistorySerializer,
    CupPlayerPatchSerializer,
    CupPlayerSerializer,
    CupReasonSerializer,
    CupResultSerializer,
    CupResultsInputSerializer,
    CupSerializer,
    CupStandingsSerializer,
    MyCupSerializer,
    TournamentCupEventSerializer,
    ranking_name,
)
from tournaments.cup_selectors import FINAL, OVERALL, CupNames, names_for
from tournaments.errors import InvalidInput
from tournaments.models import Cup, CupEvent, CupLogEntry, CupPlayer, CupResult, CupStanding
from tournaments.selectors import tournament_for_user
from tournaments.services import cups as services

CUP_ID = OpenApiParameter("cup_id", OpenApiTypes.INT, OpenApiParameter.PATH)
TOURNAMENT_ID = OpenApiParameter("tournament_id", OpenApiTypes.INT, OpenApiParameter.PATH)
EVENT_ID = OpenApiParameter("event_id", OpenApiTypes.INT, OpenApiParameter.PATH)
PLAYER_ID = OpenApiParameter("player_id", OpenApiTypes.INT, OpenApiParameter.PATH)
USER_ID = OpenApiParameter("user_id", OpenApiTypes.INT, OpenApiParameter.PATH)
RANKING = OpenApiParameter(
    "ranking",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    description="`overall` (omitted), `final`, or a side ranking `<attribute>:<value>` "
    "(`region:Tirol`): one of the standings' `rankings`.",
    examples=[OpenApiExample("A region", value="region:Tirol")],
)
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="Not a director of the cup."),
    404: OpenApiResponse(ErrorSerializer, description="No such cup (or not visible)."),
    409: OpenApiResponse(ErrorSerializer, description="Not allowed in the cup's state."),
}
READ_ERRORS = {404: ERRORS[404]}
NOT_MODIFIED = OpenApiResponse(description="Not modified since the ETag or date sent.")

POLICY_EXAMPLE = {
    "points": {"table": [100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 24, 22, 20, 18, 16]},
    "participation": 5,
    "best_of": 6,
    "min_events": 4,
    "side_rankings": ["region", "club"],
    "tiebreaks": ["better_placings", "best_result", "latest"],
}
FINAL_EXAMPLE = {
    "qualify": {"top": 24, "min_events": 4},
    "carry": [30, 25, 21, 18, 16, 14, 12, 10, 8, 6],
    "points": {"table": [50, 40, 32, 26, 21, 17, 14, 12, 10, 8]},
}
CREATE_EXAMPLE = {
    "name": "Steirischer Kartencup 2027",
    "description": "Best 6 of the season's tournaments count; 4 to qualify for the final.",
    "season_starts_on": "2027-01-01",
    "season_ends_on": "2027-11-30",
    "rule_sets": [examples.rules_example()["variant"]],
    "is_public": True,
    "policy": POLICY_EXAMPLE,
    "final": FINAL_EXAMPLE,
}
ROLLING_EXAMPLE = {
    "name": "Rangliste",
    "rule_sets": [examples.rules_example()["variant"]],
    "policy": {
        "points": {"score": {}},
        "window": {"months": 24, "min_rounds": 36},
        "tiebreaks": ["best_result", "latest"],
    },
}
CSV_EXAMPLE = (
    "placing,name,score,rounds,region,club\n"
    "1,Maria Gruber,312,6,Tirol,Kartenrunde Lienz\n"
    "2,Franz Huber,287,6,Kärnten,\n"
    "3,Sepp Moser,251,6,Tirol,Tarockrunde Graz\n"
)
IMPORT_JSON_EXAMPLE = {
    "name": "Osttiroler Kartenturnier",
    "held_on": "2027-04-10",
    "format": "json",
    "data": {
        "results": [
            {
                "placing": 1,
                "name": "Maria Gruber",
                "score": "312",
                "rounds": 6,
                "attributes": {"region": "Tirol", "club": "Kartenrunde Lienz"},
            },
            {
                "placing": 2,
                "name": "Franz Huber",
                "score": "287",
                "rounds": 6,
                "attributes": {"region": "Kärnten"},
            },
        ]
    },
    "field_size": 38,
}
IMPORT_CSV_EXAMPLE = {
    "name": "Kärntner Frühjahrsturnier",
    "held_on": "2027-05-08",
    "format": "csv",
    "data": CSV_EXAMPLE,
}
RESULTS_EXAMPLE = {
    "format": "csv",
    "data": "placing,name,score,rounds\n1,Franz Huber,290,6\n2,Maria Gruber,287,6\n",
}


@contextmanager
def body_names(**names: str) -> Iterator[None]:
    """A refusal of the service's parameters (``tournament_id``) named as the request's body
    names the field (``tournament``)."""
    try:
        yield
    except InvalidInput as refused:
        refused.fields = {names.get(k, k): v for k, v in refused.fields.items()}
        raise


# ---------------------------------------------------------------------------------------------
# conditional answers


def _etag(cup: Cup, part: str, names: CupNames) -> str:
    state = f"{cup.changed_at.timestamp():.6f}-{cup.computed_version}-{cup.requested_version}"
    digest = hashlib.sha256(part.encode()).hexdigest()[:12]
    return f'"c{cup.pk}-{digest}-{state}-{names.key}"'


def _last_modified(cup: Cup) -> Any:
    if cup.computed_at is not None and cup.computed_at > cup.changed_at:
        return cup.computed_at
    return cup.changed_at


def conditional_response(
    request: Request | HttpRequest,
    cup: Cup,
    part: str,
    build: Callable[[], HttpResponse],
    names: CupNames,
) -> HttpResponse:
    """A 304 when the client's copy is current, else ``build()``'s answer; both with the ETag
    and Last-Modified of the cup's state and the reader's names, varying on who reads."""
    answer = conditional_answer(
        request, etag=_etag(cup, part, names), last_modified=_last_modified(cup), build=build
    )
    patch_vary_headers(answer, ("Authorization", "Cookie"))
    return answer


# ---------------------------------------------------------------------------------------------
# cups


def _cup(request: Request, cup_id: int, *, direct: bool = False) -> Cup:
    if direct:
        return selectors.cup_for_director(user=caller(request), cup_id=cup_id)
    return selectors.cup_for_user(user=caller(request), cup_id=cup_id)


def _out(cup: Cup, code: int = status.HTTP_200_OK) -> Response:
    cup = selectors.cup_loaded(cup_id=cup.pk)
    return Response(CupSerializer(cup).data, status=code)


class CupFilter(filters.FilterSet):
    """Filter cups by organising club, state or name."""

    name = filters.CharFilter(lookup_expr="icontains")
    club = IdFilter(field_name="club_id", label="Club id")

    class Meta:
        model = Cup
        fields = ("status", "club", "name")


class CupListView(generics.ListAPIView[Cup]):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = CupSerializer
    filterset_class = CupFilter
    queryset = Cup.objects.none()

    def get_queryset(self) -> QuerySet[Cup]:
        return selectors.cups_for_user(user=caller(self.request)).order_by("-created_at", "-id")

    @extend_schema(
        summary="Cups",
        description="Public cups out of the draft state, and those you run. Filter by `club`, "
        "`status` or `name`.",
        responses={200: CupSerializer(many=True)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Create a cup",
        description="A draft: you become its director. A club's cup is created by the club's "
        "owners and admins, who then run it too. The `policy` says how results become "
        "standings, `final` how the season ends (docs/cups.md).",
        request=CupInputSerializer,
        responses={201: CupSerializer, **ERRORS},
        examples=[
            OpenApiExample("Season cup with a final", value=CREATE_EXAMPLE, request_only=True),
            OpenApiExample("Rolling ranking list", value=ROLLING_EXAMPLE, request_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        data = CupInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        user = signed_in(request)
        club_id = values.pop("club", None)
        club = None
        if club_id is not None:
            # a club the caller may not see answers as one nobody uses (the service's 400)
            club = selectors.club_by_id(club_id=club_id)
            if club is None:
                raise InvalidInput.about("club", _("There is no such club."))
        values.setdefault("final", None)
        cup = services.cup_create(user=user, club=club, **values)
        return _out(cup, status.HTTP_201_CREATED)


class CupDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A cup",
        description="Public once out of the draft state (a private cup: its directors only).",
        parameters=[CUP_ID],
        responses={200: CupSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, cup_id: int) -> Response:
        return Response(CupSerializer(_cup(request, cup_id)).data)

    @extend_schema(
        summary="Change a cup",
        description="Directors. A change of the `policy` or the `final` recomputes the standings.",
        parameters=[CUP_ID],
        request=CupPatchSerializer,
        responses={200: CupSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Best 7",
                value={"policy": {**POLICY_EXAMPLE, "best_of": 7}},
                request_only=True,
            )
        ],
    )
    def patch(self, request: Request, cup_id: int) -> Response:
        cup = _cup(request, cup_id, direct=True)
        data = CupPatchSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        cup = services.cup_update(user=signed_in(request), cup=cup, **data.validated_data)
        return _out(cup)

    @extend_schema(
        summary="Delete a draft cup",
        description="Directors, and only in the draft state (409 later: finish a cup instead).",
        parameters=[CUP_ID],
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, cup_id: int) -> Response:
        cup = _cup(request, cup_id, direct=True)
        services.cup_delete(user=signed_in(request), cup=cup)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _command(name: str, summary: str, description: str, service: Any, reason: bool = False) -> Any:
    class CommandView(APIView):
        @extend_schema(
            summary=summary,
            description=description,
            parameters=[CUP_ID],
            request=CupReasonSerializer if reason else None,
            responses={200: CupSerializer, **ERRORS},
            examples=[
                OpenApiExample(
                    "Reason",
                    value={"reason": "The final's sheet of table 2 was misread."},
                    request_only=True,
                )
            ]
            if reason
            else [],
        )
        def post(self, request: Request, cup_id: int) -> Response:
            cup = _cup(request, cup_id, direct=True)
            extra: dict[str, Any] = {}
            if reason:
                data = CupReasonSerializer(data=request.data or {})
                data.is_valid(raise_exception=True)
                extra["reason"] = data.validated_data["reason"]
            return _out(service(user=signed_in(request), cup=cup, **extra))

    CommandView.__name__ = f"Cup{name.title().replace('_', '')}View"
    return CommandView


CupOpenView = _command(
    "open",
    "Open a cup",
    "draft → running: the cup is listed (if public) and its standings are computed as "
    "results come in.",
    services.cup_open,
)
CupFinishView = _command(
    "finish",
    "Finish a cup",
    "running → finished: the overall winner is published (a cup with a final needs the "
    "final's results first: 409 otherwise).",
    services.cup_finish,
)
CupReopenView = _command(
    "reopen",
    "Reopen a finished cup",
    "finished → running, for a correction after the end; audited with the reason.",
    services.cup_reopen,
    reason=True,
)


class CupDirectorListView(APIView):
    @extend_schema(
        summary="Add a cup director",
        description="Directors make another user a director of the cup (by user id).",
        parameters=[CUP_ID],
        request=CupDirectorInputSerializer,
        responses={200: CupSerializer, **ERRORS},
        examples=[OpenApiExample("Director", value={"user": 7}, request_only=True)],
    )
    def post(self, request: Request, cup_id: int) -> Response:
        cup = _cup(request, cup_id, direct=True)
        data = CupDirectorInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with body_names(director_id="user"):
            services.cup_director_add(
                user=signed_in(request), cup=cup, director_id=data.validated_data["user"]
            )
        return _out(cup)


class CupDirectorDetailView(APIView):
    @extend_schema(
        summary="Remove a cup director",
        description="404 for a user who does not direct the cup, as for an id nobody uses.",
        parameters=[CUP_ID, USER_ID],
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, cup_id: int, user_id: int) -> Response:
        cup = _cup(request, cup_id, direct=True)
        services.cup_director_remove(user=signed_in(request), cup=cup, director_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CupLogView(generics.ListAPIView[CupLogEntry]):
    serializer_class = CupLogEntrySerializer
    queryset = CupLogEntry.objects.none()

    def get_queryset(self) -> QuerySet[CupLogEntry]:
        cup = _cup(self.request, self.kwargs["cup_id"], direct=True)
        return selectors.log_of(cup=cup)

    @extend_schema(
        summary="A cup's audit log",
        description="Every command: who, when, what. Newest first. Directors only.",
        parameters=[CUP_ID],
        responses={200: CupLogEntrySerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


# ---------------------------------------------------------------------------------------------
# events and results


class CupEventFilter(filters.FilterSet):
    class Meta:
        model = CupEvent
        fields = ("status", "kind", "is_final")


def _event_results(request: Request, event: CupEvent, code: int = 200) -> Response:
    cup = selectors.cup_for_user(user=caller(request), cup_id=event.cup_id)
    event = selectors.event_for_user(user=caller(request), cup_id=cup.pk, event_id=event.pk)
    names = names_for(cup, caller(request))
    return Response(CupEventResultsSerializer(event, context={"names": names}).data, status=code)


class CupEventListView(generics.ListAPIView[CupEvent]):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = CupEventSerializer
    filterset_class = CupEventFilter
    queryset = CupEvent.objects.none()

    def get_queryset(self) -> QuerySet[CupEvent]:
        cup = _cup(self.request, self.kwargs["cup_id"])
        return selectors.events_of(cup=cup, user=caller(self.request))

    @extend_schema(
        summary="A cup's events",
        description="In date order. Everyone reads the accepted ones; the cup's directors also "
        "the proposed and declined, a tournament's directors the proposals of their "
        "tournament. Filter by `status`, `kind` or `is_final`.",
        parameters=[CUP_ID],
        responses={200: CupEventSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Add a tournament to a cup",
        description="Directors: a tournament on this server of a rule set the cup counts. It "
        "is `proposed` until one of the tournament's directors accepts it (`accepted` at once "
        "where you direct the tournament too); once it is finished its standings count.",
        parameters=[CUP_ID],
        request=CupEventInputSerializer,
        responses={201: CupEventSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Tournament", value={"tournament": 12, "is_final": False}, request_only=True
            )
        ],
    )
    def post(self, request: Request, cup_id: int) -> Response:
        cup = _cup(request, cup_id, direct=True)
        data = CupEventInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with body_names(tournament_id="tournament"):
            event = services.event_add_tournament(
                user=signed_in(request),
                cup=cup,
                tournament_id=data.validated_data["tournament"],
                is_final=data.validated_data["is_final"],
            )
        out = selectors.event_for_user(user=caller(request), cup_id=cup.pk, event_id=event.pk)
        return Response(CupEventSerializer(out).data, status=status.HTTP_201_CREATED)


class CupImportView(APIView):
    @extend_schema(
        summary="Import a tournament's results",
        description="Directors: a tournament run elsewhere, with its placings, points and "
        'rounds as CSV text or a JSON object (docs/cups.md, "Importing a tournament run '
        'elsewhere"). Players are matched by `user` id, else by name to a guest of the cup, '
        "else made guests. An error names its line. Answers the event with its results.",
        parameters=[CUP_ID],
        request=CupImportInputSerializer,
        responses={201: CupEventResultsSerializer, **ERRORS},
        examples=[
            OpenApiExample("JSON", value=IMPORT_JSON_EXAMPLE, request_only=True),
            OpenApiExample("CSV", value=IMPORT_CSV_EXAMPLE, request_only=True),
        ],
    )
    def post(self, request: Request, cup_id: int) -> Response:
        cup = _cup(request, cup_id, direct=True)
        data = CupImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = services.event_import(user=signed_in(request), cup=cup, **data.validated_data)
        return _event_results(request, event, status.HTTP_201_CREATED)


class CupEventDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A cup's event",
        description="A tournament of this server (`tournament`) or an imported one, its date, "
        "state and number of results; its results are `…/results/`. Proposals are seen only by "
        "the cup's directors and the tournament's.",
        parameters=[CUP_ID, EVENT_ID],
        responses={200: CupEventSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, cup_id: int, event_id: int) -> Response:
        event = selectors.event_for_user(user=caller(request), cup_id=cup_id, event_id=event_id)
        return Response(CupEventSerializer(event).data)

    @extend_schema(
        summary="Remove an event from a cup",
        description="Directors: its results leave the standings (recomputed).",
        parameters=[CUP_ID, EVENT_ID],
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, cup_id: int, event_id: int) -> Response:
        event = selectors.event_for_director(user=caller(request), cup_id=cup_id, event_id=event_id)
        services.event_remove(user=signed_in(request), event=event)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _decision(name: str, summary: str, description: str, service: Any) -> Any:
    class DecisionView(APIView):
        @extend_schema(
            summary=summary,
            description=description,
            parameters=[CUP_ID, EVENT_ID],
            request=None,
            responses={200: CupEventSerializer, **ERRORS},
        )
        def post(self, request: Request, cup_id: int, event_id: int) -> Response:
            user = caller(request)
            event = selectors.event_for_decision(user=user, cup_id=cup_id, event_id=event_id)
            event = service(user=signed_in(request), event=event)
            out = selectors.event_for_user(user=user, cup_id=cup_id, event_id=event.pk)
            return Response(CupEventSerializer(out).data)

    DecisionView.__name__ = f"CupEvent{name.title()}View"
    return DecisionView


CupEventAcceptView = _decision(
    "accept",
    "Accept a cup's proposal",
    "The tournament's directors: the tournament counts in the cup (its standings, once finished).",
    services.event_accept,
)
CupEventDeclineView = _decision(
    "decline",
    "Decline a cup's proposal",
    "The tournament's directors: the tournament does not count in the cup.",
    services.event_decline,
)


class CupEventResultsView(generics.ListAPIView[CupResult]):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = CupResultSerializer  # type: ignore[assignment]  # rows, made in list()
    queryset = CupResult.objects.none()

    def get_queryset(self) -> QuerySet[CupResult]:
        event = selectors.event_for_user(
            user=caller(self.request),
            cup_id=self.kwargs["cup_id"],
            event_id=self.kwargs["event_id"],
        )
        return selectors.results_of(event=event)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        cup = _cup(request, kwargs["cup_id"])
        names = names_for(cup, caller(request))
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        rows = [
            {
                "placing": r.placing,
                "player": r.player_id,
                "user": r.player.user_id,
                "name": names.name(r.player),
                "score": r.score,
                "rounds": r.rounds,
            }
            for r in page or []
        ]
        return self.get_paginated_response(rows)

    @extend_schema(
        summary="An event's results",
        description="In placing order: placing, player (named as the standings name them), "
        "the tournament's own score and rounds.",
        parameters=[CUP_ID, EVENT_ID],
        responses={200: CupResultSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Correct an import's results",
        description="Directors: the imported event's results replaced by the document sent "
        "(a tournament on this server takes its results from its own standings: 409). Answers "
        "the event with its results.",
        parameters=[CUP_ID, EVENT_ID],
        request=CupResultsInputSerializer,
        responses={200: CupEventResultsSerializer, **ERRORS},
        examples=[OpenApiExample("Correction", value=RESULTS_EXAMPLE, request_only=True)],
    )
    def put(self, request: Request, cup_id: int, event_id: int) -> Response:
        event = selectors.event_for_director(user=caller(request), cup_id=cup_id, event_id=event_id)
        data = CupResultsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = services.event_replace_results(
            user=signed_in(request), event=event, **data.validated_data
        )
        return _event_results(request, event)


# ---------------------------------------------------------------------------------------------
# players


class CupPlayerFilter(filters.FilterSet):
    name = filters.CharFilter(
        lookup_expr="icontains", label="Part of the name (among the names you may read)"
    )

    class Meta:
        model = CupPlayer
        fields = ("name",)


class CupPlayerListView(generics.ListAPIView[CupPlayer]):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = CupPlayerSerializer
    filterset_class = CupPlayerFilter
    queryset = CupPlayer.objects.none()

    def _names(self) -> CupNames:
        cup = _cup(self.request, self.kwargs["cup_id"])
        return names_for(cup, caller(self.request))

    def get_queryset(self) -> QuerySet[CupPlayer]:
        names = self._names()
        qs = selectors.players_of(cup=names.cup)
        if self.request.query_params.get("name"):
            # a search finds only the names the caller may read
            qs = qs.filter(selectors.publicly_named(names))
        return qs

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "names": self._names()}

    @extend_schema(
        summary="A cup's players",
        description="By name; `name` searches (among the names you may read). Named as the "
        "standings name them.",
        parameters=[CUP_ID],
        responses={200: CupPlayerSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


def _player_out(request: Request, cup: Cup, player_id: int) -> Response:
    player = selectors.player_in(cup=cup, player_id=player_id)
    names = names_for(cup, caller(request))
    return Response(CupPlayerSerializer(player, context={"names": names}).data)


class CupPlayerDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A cup's player",
        description="The player's name (as the standings name them), account and attributes "
        "(the side rankings read them); their history is `…/history/`.",
        parameters=[CUP_ID, PLAYER_ID],
        responses={200: CupPlayerSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, cup_id: int, player_id: int) -> Response:
        return _player_out(request, _cup(request, cup_id), player_id)

    @extend_schema(
        summary="Change a cup's player",
        description="Directors: the name, the attributes the side rankings read (replaced "
        "whole), or the account the player is (a guest found to be a member).",
        parameters=[CUP_ID, PLAYER_ID],
        request=CupPlayerPatchSerializer,
        responses={200: CupPlayerSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Attributes",
                value={"attributes": {"region": "Tirol", "club": "Tarockrunde Graz"}},
                request_only=True,
            )
        ],
    )
    def patch(self, request: Request, cup_id: int, player_id: int) -> Response:
        cup = _cup(request, cup_id, direct=True)
        player = selectors.player_in(cup=cup, player_id=player_id)
        data = CupPlayerPatchSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "user" in values:
            values["user_id"] = values.pop("user")
        with body_names(user_id="user"):
            services.player_update(user=signed_in(request), player=player, **values)
        return _player_out(request, cup, player_id)


class CupPlayerMergeView(APIView):
    @extend_schema(
        summary="Merge a duplicate player",
        description="Directors: this player's results move to `into`, who is answered; this "
        "one is merged away (409 where both have a result at one event).",
        parameters=[CUP_ID, PLAYER_ID],
        request=CupMergeInputSerializer,
        responses={200: CupPlayerSerializer, **ERRORS},
        examples=[OpenApiExample("Duplicate", value={"into": 42}, request_only=True)],
    )
    def post(self, request: Request, cup_id: int, player_id: int) -> Response:
        cup = _cup(request, cup_id, direct=True)
        player = selectors.player_in(cup=cup, player_id=player_id)
        data = CupMergeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        into = selectors.player_in(cup=cup, player_id=data.validated_data["into"])
        kept = services.player_merge(user=signed_in(request), player=player, into=into)
        return _player_out(request, cup, kept.pk)


def _ranks(history: Any, events: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored rank over time (pairs, or objects with ``event`` and ``rank``)."""
    out = []
    for item in history or []:
        if isinstance(item, dict):
            event, rank = item.get("event"), item.get("rank")
        else:
            event, rank = item[0], item[1]
        held_on = events[event]["held_on"] if event in events else None
        out.append({"event": event, "held_on": held_on, "rank": rank})
    return out


class CupPlayerHistoryView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A player's cup history",
        description="Every event the player played, counted or dropped and why (`not_best`, "
        "`outside_window`, `final`), with its points; and the rank after each event that "
        "changed it. From the stored standings (`version` of the standings).",
        parameters=[CUP_ID, PLAYER_ID],
        responses={200: CupPlayerHistorySerializer, **READ_ERRORS},
    )
    def get(self, request: Request, cup_id: int, player_id: int) -> Response:
        cup = _cup(request, cup_id)
        player = selectors.player_in(cup=cup, player_id=player_id)
        names = names_for(cup, caller(request))
        row = selectors.standing_of(cup=cup, player=player)
        events = selectors.event_names(cup=cup)
        details = row.details if row is not None else []
        return Response(
            {
                "player": CupPlayerSerializer(player, context={"names": names}).data,
                "rank": row.rank if row else None,
                "position": row.position if row else None,
                "points": row.points if row else None,
                "ranked": row.ranked if row else False,
                "events": [
                    {
                        "event": d["event"],
                        "name": events.get(d["event"], {}).get("name", ""),
                        "held_on": events.get(d["event"], {}).get("held_on"),
                        "placing": d["placing"],
                        "points": d["points"],
                        "status": d["status"],
                        "reason": d.get("reason", ""),
                    }
                    for d in details
                    if d.get("event") is not None
                ],
                "ranks": _ranks(row.history if row else [], events),
            }
        )


# ---------------------------------------------------------------------------------------------
# standings, final, exports


def _ranking(request: Request, cup: Cup) -> str:
    """The ranking asked for (``?ranking=``): one of the cup's, else 400."""
    asked = request.query_params.get("ranking", "").strip()
    stored = "" if asked in ("", "overall") else asked
    if stored not in selectors.rankings_of(cup=cup):
        raise InvalidInput.about(
            "ranking",
            _("The cup has no such ranking; its standings list the rankings it has."),
            code="unknown_ranking",
        )
    return stored


def _row(row: CupStanding, names: CupNames) -> dict[str, Any]:
    return {
        "position": row.position,
        "rank": row.rank,
        "player": row.player_id,
        "user": row.player.user_id,
        "name": names.name(row.player),
        "points": row.points,
        "counted": row.counted,
        "played": row.played,
        "rounds": row.rounds,
        "average": row.average or None,
        "ranked": row.ranked,
        "qualified": row.qualified,
    }


def standings_data(cup: Cup, ranking: str, names: CupNames) -> dict[str, Any]:
    """The standings answer of ``ranking`` as ``names``' reader reads it."""
    return {
        "cup": cup.pk,
        "ranking": ranking_name(ranking),
        "rankings": [ranking_name(r) for r in selectors.rankings_of(cup=cup)],
        "final": cup.status == Cup.Status.FINISHED,
        "version": cup.computed_version,
        "requested_version": cup.requested_version,
        "computed_at": cup.computed_at,
        "up_to_date": cup.computed_version >= cup.requested_version,
        "names": names.basis,
        "rows": [_row(r, names) for r in selectors.standings_of(cup=cup, ranking=ranking)],
    }


STANDINGS_EXAMPLE = {
    "cup": 3,
    "ranking": "overall",
    "rankings": ["overall", "club:Kartenrunde Lienz", "region:Tirol", "final"],
    "final": False,
    "version": 14,
    "requested_version": 14,
    "computed_at": "2027-05-08T19:02:11.120000Z",
    "up_to_date": True,
    "names": "consent",
    "rows": [
        {
            "position": 1,
            "rank": 1,
            "player": 17,
            "user": 7,
            "name": "Maria Gruber",
            "points": "420",
            "counted": 5,
            "played": 5,
            "rounds": 30,
            "average": None,
            "ranked": True,
            "qualified": True,
        },
        {
            "position": 2,
            "rank": 2,
            "player": 18,
            "user": None,
            "name": "Player 7f3a2c",
            "points": "385",
            "counted": 4,
            "played": 4,
            "rounds": 24,
            "average": None,
            "ranked": True,
            "qualified": True,
        },
    ],
}


class CupStandingsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A cup's standings",
        description="Stored by the worker whenever a result changes (coalesced): the overall "
        "ranking, a side ranking (`ranking=region:Tirol`) or the final's table "
        "(`ranking=final`); `rankings` lists those the cup has. `version` is the computation "
        "shown, `up_to_date` false while a newer one is pending. Players are named as the "
        "caller reads them (`names`). Conditional: `ETag`/`If-None-Match` and "
        "`Last-Modified`/`If-Modified-Since` → 304.",
        parameters=[CUP_ID, RANKING, *conditional_headers(by_date=True)],
        responses={200: CupStandingsSerializer, 304: NOT_MODIFIED, 400: ERRORS[400], **READ_ERRORS},
        examples=[
            OpenApiExample(
                "Mid-season", value=STANDINGS_EXAMPLE, response_only=True, status_codes=["200"]
            )
        ],
    )
    def get(self, request: Request, cup_id: int) -> HttpResponse:
        user = caller(request)
        cup = selectors.cup_for_user(user=user, cup_id=cup_id)
        return self.answer(request, cup, _ranking(request, cup), names_for(cup, user))

    @staticmethod
    def answer(
        request: Request | HttpRequest, cup: Cup, ranking: str, names: CupNames
    ) -> HttpResponse:
        return conditional_response(
            request,
            cup,
            f"standings:{ranking}",
            lambda: HttpResponse(
                standings_body(cup, ranking, names), content_type="application/json"
            ),
            names,
        )

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """Phones poll this anonymously while a season's results come in: a GET without
        credentials of a listed cup and one of its rankings is answered here, without DRF's
        request cycle (as the tournaments' standings are, ``tournaments.api.public``); every
        other request, and every error, takes the ordinary way."""
        anonymous = (
            request.method == "GET"
            and "HTTP_AUTHORIZATION" not in request.META
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
        )
        if anonymous:
            cup = selectors.cup_listed(cup_id=kwargs["cup_id"])
            asked = request.GET.get("ranking", "").strip()
            ranking = "" if asked in ("", "overall") else asked
            if cup is not None and ranking in selectors.rankings_of(cup=cup):
                names = names_for(cup, AnonymousUser(), recent=True)
                return self.answer(request, cup, ranking, names)
        return super().dispatch(request, *args, **kwargs)


_BODIES: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
_BODIES_LOCK = threading.Lock()
BODIES_CACHE_SIZE = 256


def standings_body(cup: Cup, ranking: str, names: CupNames) -> bytes:
    """:func:`standings_data` as JSON, rendered once per computation, ranking, names read
    and language, and kept by this process (the newest ``BODIES_CACHE_SIZE``)."""
    key = (
        cup.pk,
        cup.computations,
        cup.computed_version,
        cup.requested_version,
        cup.changed_at,
        cup.status,
        ranking,
        names.key,
        translation.get_language(),
    )
    with _BODIES_LOCK:
        body = _BODIES.get(key)
        if body is not None:
            _BODIES.move_to_end(key)
            return body
    body = JSONRenderer().render(standings_data(cup, ranking, names))
    with _BODIES_LOCK:
        _BODIES[key] = body
        while len(_BODIES) > BODIES_CACHE_SIZE:
            _BODIES.popitem(last=False)
    return body


def _fraction(text: str) -> Fraction:
    return Fraction(text) if text else Fraction(0)


def final_data(cup: Cup, names: CupNames) -> dict[str, Any]:
    """The final: the qualified players in cup order with their carried points and what each
    needs at every placing (the core's :func:`~tournaments.cups.needs`, on the stored
    standings), the final's table and the winner."""
    from tournaments import cups as core

    overall = list(selectors.standings_of(cup=cup, ranking=OVERALL))
    table = list(selectors.standings_of(cup=cup, ranking=FINAL))
    event = selectors.final_event_of(cup=cup)
    has_final = cup.final is not None
    field_size = 0
    contenders: list[dict[str, Any]] = []
    policy = core.parse_final(cup.final) if has_final else None
    if policy is not None and overall:
        standings = core.Standings(
            overall=tuple(
                core.Row(
                    player=r.player_id,
                    position=r.position,
                    rank=r.rank,
                    points=_fraction(r.points),
                    counted=r.counted,
                    played=r.played,
                    rounds=r.rounds,
                    average=_fraction(r.average) if r.average else None,
                    ranked=r.ranked,
                    details=(),
                )
                for r in overall
            ),
            side={},
        )
        chosen = core.qualified(policy, standings)
        field_size = max(event.field_size or 0 if event is not None else 0, len(chosen))
        # the carried points: the final's table before any result of it
        carried = {
            row.player: row.details[0].points
            for row in core.final_standings(policy, standings, (), ())
        }
        needs = core.needs(policy, standings, field_size) if field_size else {}
        by_player = {r.player_id: r for r in overall}
        for player in chosen:
            r = by_player[player]
            contenders.append(
                {
                    "player": player,
                    "name": names.name(r.player),
                    "cup_rank": r.rank,
                    "carried": core.points_text(carried.get(player, Fraction(0))),
                    "needs": [
                        {
                            "placing": n.placing,
                            "total": core.points_text(n.total),
                            "best_rank": n.best_rank,
                            "worst_rank": n.worst_rank,
                            "wins": n.wins,
                        }
                        for n in needs.get(player, ())
                    ],
                }
            )
    winner = None
    if cup.status == Cup.Status.FINISHED and cup.winner is not None:
        winner = {"player": cup.winner_id, "name": names.name(cup.winner)}
    return {
        "cup": cup.pk,
        "has_final": has_final,
        "event": event.pk if event is not None else None,
        "field_size": field_size,
        "played": event is not None and event.results.exists(),
        "version": cup.computed_version,
        "up_to_date": cup.computed_version >= cup.requested_version,
        "names": names.basis,
        "qualified": contenders,
        "table": [_row(r, names) for r in table],
        "winner": winner,
    }


class CupFinalView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A cup's final",
        description="The qualified players in cup order with the points they carry in and "
        "what each needs: for every placing of the final, the total it gives, the best rank "
        "it may reach, the rank it is sure to reach however the others place, and whether it "
        "wins the cup (`sure`, `possible`, `no`); the final's table; the winner once the cup "
        "is finished. `field_size` is the final event's where it gives one, else the number "
        "of qualified players. Named and conditional as the standings.",
        parameters=[CUP_ID, *conditional_headers(by_date=True)],
        responses={200: CupFinalSerializer, 304: NOT_MODIFIED, **READ_ERRORS},
    )
    def get(self, request: Request, cup_id: int) -> HttpResponse:
        user = caller(request)
        cup = selectors.cup_for_user(user=user, cup_id=cup_id)
        names = names_for(cup, user)
        return conditional_response(
            request, cup, "final", lambda: Response(final_data(cup, names)), names
        )


class CupExportView(JsonErrorsMixin, APIView):
    """A cup's file (``part`` names it, ``build`` makes it), conditional like the
    standings."""

    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer]
    part = ""

    def get(self, request: Request, cup_id: int) -> HttpResponse:
        user = caller(request)
        cup = selectors.cup_for_user(user=user, cup_id=cup_id)
        ranking = _ranking(request, cup)
        names = names_for(cup, user)
        return conditional_response(
            request,
            cup,
            f"{self.part}:{ranking}",
            lambda: self.build(request, cup, ranking, names),
            names,
        )

    def build(self, request: Request, cup: Cup, ranking: str, names: CupNames) -> HttpResponse:
        raise NotImplementedError


def _file_name(cup: Cup, ranking: str, suffix: str) -> str:
    part = "" if not ranking else "-" + "".join(c if c.isalnum() else "-" for c in ranking)
    return f"{cup.slug}-standings{part}.{suffix}"


STANDINGS_EXPORT = (
    "One row per player (position, rank, player and user ids, name, points, counted, played, "
    "rounds, average, ranked, qualified), values exact as in the standings, players named as "
    "in the standings; `ranking` as the standings'. Conditional like the standings."
)


def _export_schema(summary: str, description: str, ok: Any) -> Any:
    return extend_schema(
        summary=summary,
        description=description,
        parameters=[CUP_ID, RANKING, *conditional_headers(by_date=True)],
        responses={**ok, 304: NOT_MODIFIED, 400: ERRORS[400], **READ_ERRORS},
    )


class CupStandingsJSONExportView(CupExportView):
    part = "standings.json"

    @_export_schema(
        "Export a cup's standings as JSON",
        STANDINGS_EXPORT + " The answer of `cups_get_standings`, as a file.",
        {(200, "application/json"): CupStandingsSerializer},
    )
    def get(self, request: Request, cup_id: int) -> HttpResponse:
        return super().get(request, cup_id)

    def build(self, request: Request, cup: Cup, ranking: str, names: CupNames) -> HttpResponse:
        body = JSONRenderer().render(standings_data(cup, ranking, names))
        answer = HttpResponse(body, content_type="application/json")
        answer["Content-Disposition"] = f'attachment; filename="{_file_name(cup, ranking, "json")}"'
        return answer


CSV_COLUMNS = [
    "position",
    "rank",
    "player",
    "user",
    "name",
    "points",
    "counted",
    "played",
    "rounds",
    "average",
    "ranked",
    "qualified",
]


class CupStandingsCSVExportView(CupExportView):
    part = "standings.csv"
    renderer_classes = [CSVRenderer]

    @_export_schema(
        "Export a cup's standings as CSV",
        STANDINGS_EXPORT + " UTF-8 with a header row (the JSON's keys); errors answer JSON.",
        {(200, "text/csv"): text_response(",".join(CSV_COLUMNS))},
    )
    def get(self, request: Request, cup_id: int) -> HttpResponse:
        return super().get(request, cup_id)

    def build(self, request: Request, cup: Cup, ranking: str, names: CupNames) -> HttpResponse:
        # machine column names in every language, as the tournaments' files
        rows: list[list[Any]] = [CSV_COLUMNS]
        for r in standings_data(cup, ranking, names)["rows"]:
            rows.append(
                [
                    "" if r[c] is None else (str(r[c]).lower() if isinstance(r[c], bool) else r[c])
                    for c in CSV_COLUMNS
                ]
            )
        return file_answer(
            csv_text(rows), media_type="text/csv", filename=_file_name(cup, ranking, "csv")
        )


#: What the printable page says about the names it shows, by basis.
NAMES_NOTES = {
    selectors.CONSENT: gettext_lazy(
        "Names appear only of players who agreed; the others appear under a pseudonym."
    ),
    selectors.PUBLISH: gettext_lazy(
        "The club publishes its players' names; a player may object in their profile and then "
        "appears under a pseudonym."
    ),
    selectors.INSIDER: gettext_lazy(
        "You see every name because you run this cup or belong to its club; the public page "
        "shows a pseudonym for each player whose name may not be published."
    ),
}


class CupPrintView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Printable cup standings",
        description="One HTML page for a notice board, readable on a phone and on paper: the "
        "ranking asked for (`ranking`, as the standings'), players named as in the standings "
        "with a sentence saying on which basis. Conditional like the standings.",
        parameters=[CUP_ID, RANKING, *conditional_headers(by_date=True)],
        responses={
            (200, "text/html"): OpenApiTypes.STR,
            304: NOT_MODIFIED,
            400: ERRORS[400],
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, cup_id: int) -> HttpResponse:
        user = caller(request)
        cup = selectors.cup_for_user(user=user, cup_id=cup_id)
        ranking = _ranking(request, cup)
        names = names_for(cup, user)
        return conditional_response(
            request, cup, f"print:{ranking}", lambda: self.page(request, cup, ranking, names), names
        )

    @staticmethod
    def page(request: Request, cup: Cup, ranking: str, names: CupNames) -> HttpResponse:
        data = standings_data(cup, ranking, names)
        rolling = any(r["average"] is not None for r in data["rows"])
        attribute, _sep, value = ranking.partition(":")
        return render(
            request._request,
            "tournaments/cup_print.html",
            {
                "cup": cup,
                "ranking": ranking,
                "side": (attribute, value) if value else None,
                "rows": data["rows"],
                "rolling": rolling,
                "final": data["final"],
                "as_of": cup.computed_at,
                "names_note": NAMES_NOTES[names.basis],
                "winner": final_data(cup, names)["winner"] if data["final"] else None,
            },
        )


# ---------------------------------------------------------------------------------------------
# a tournament's cups


class TournamentCupsView(generics.ListAPIView[CupEvent]):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = TournamentCupEventSerializer
    filterset_class = CupEventFilter
    queryset = CupEvent.objects.none()

    def get_queryset(self) -> QuerySet[CupEvent]:
        user = caller(self.request)
        t = tournament_for_user(user=user, tournament_id=self.kwargs["tournament_id"])
        return selectors.tournament_cup_events(user=user, tournament=t)

    @extend_schema(
        summary="A tournament's cups",
        description="The cups' events of this tournament, newest first, each with its cup "
        "(`cup`, `cup_name`, `cup_status`). Its directors read every one, `proposed`, "
        "`accepted` or `declined`, also of a cup they may not see otherwise, and answer a "
        "proposal at `/api/v1/cups/{cup_id}/events/{event_id}/accept/` (or `…/decline/`) "
        "with the row's `cup` and `id`; everyone else reads the accepted ones of cups they "
        "may see, and a cup's directors every one of their cup. Filter by `status`, `kind` or "
        "`is_final`.",
        parameters=[TOURNAMENT_ID],
        responses={
            200: TournamentCupEventSerializer(many=True),
            404: OpenApiResponse(
                ErrorSerializer, description="No such tournament (or not visible)."
            ),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


# ---------------------------------------------------------------------------------------------
# mine


class MyCupsView(generics.ListAPIView[CupPlayer]):
    serializer_class = MyCupSerializer  # type: ignore[assignment]  # rows, made in list()
    queryset = CupPlayer.objects.none()

    def get_queryset(self) -> QuerySet[CupPlayer]:
        return selectors.my_cup_players(user=signed_in(self.request))

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset()) or []
        rows = [
            {
                "cup": p.cup_id,
                "name": p.cup.name,
                "slug": p.cup.slug,
                "status": p.cup.status,
                "player": p.pk,
                "rank": getattr(p, "rank", None),
                "points": getattr(p, "points", None),
                "counted": getattr(p, "counted", None),
                "played": getattr(p, "played", None),
                "ranked": getattr(p, "ranked", None),
            }
            for p in page
        ]
        return self.get_paginated_response(rows)

    @extend_schema(
        summary="My cups",
        description="The cups you play in (also a draft or a private one: a cup's players see "
        "it), newest first, with your rank and points now; "
        "`…/cups/{cup_id}/players/{player_id}/history/` has your history.",
        responses={200: MyCupSerializer(many=True), 401: ERRORS[401]},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


C = "cups/<id:cup_id>/"
E = C + "events/<id:event_id>/"
P = C + "players/<id:player_id>/"

urlpatterns = [
    path("cups/", CupListView.as_view(), name="cups"),
    path(C, CupDetailView.as_view(), name="cup"),
    path(C + "open/", CupOpenView.as_view(), name="cup-open"),
    path(C + "finish/", CupFinishView.as_view(), name="cup-finish"),
    path(C + "reopen/", CupReopenView.as_view(), name="cup-reopen"),
    path(C + "directors/", CupDirectorListView.as_view(), name="cup-directors"),
    path(C + "directors/<id:user_id>/", CupDirectorDetailView.as_view(), name="cup-director"),
    path(C + "log/", CupLogView.as_view(), name="cup-log"),
    path(C + "events/", CupEventListView.as_view(), name="cup-events"),
    path(C + "imports/", CupImportView.as_view(), name="cup-imports"),
    path(E, CupEventDetailView.as_view(), name="cup-event"),
    path(E + "accept/", CupEventAcceptView.as_view(), name="cup-event-accept"),
    path(E + "decline/", CupEventDeclineView.as_view(), name="cup-event-decline"),
    path(E + "results/", CupEventResultsView.as_view(), name="cup-event-results"),
    path(C + "players/", CupPlayerListView.as_view(), name="cup-players"),
    path(P, CupPlayerDetailView.as_view(), name="cup-player"),
    path(P + "merge/", CupPlayerMergeView.as_view(), name="cup-player-merge"),
    path(P + "history/", CupPlayerHistoryView.as_view(), name="cup-player-history"),
    path(C + "standings/", CupStandingsView.as_view(), name="cup-standings"),
    path(C + "standings/print/", CupPrintView.as_view(), name="cup-print"),
    path(C + "final/", CupFinalView.as_view(), name="cup-final"),
    path(
        C + "export/standings.csv",
        CupStandingsCSVExportView.as_view(),
        name="cup-export-standings-csv",
    ),
    path(
        C + "export/standings.json",
        CupStandingsJSONExportView.as_view(),
        name="cup-export-standings",
    ),
    path("me/cups/", MyCupsView.as_view(), name="me-cups"),
    path(
        "tournaments/<id:tournament_id>/cups/", TournamentCupsView.as_view(), name="tournament-cups"
    ),
]
