"""Tournaments: the tournament itself, its lifecycle commands, directors, audit log and
entries (``docs/tournaments.md``).

Views parse input with a serializer, find the tournament through a selector scoped to the
caller (a draft or private tournament does not exist for outsiders: 404; directors'
operations answer 403 to those who may see it but not run it), call one service (which checks
again under the tournament's row lock) and serialize the answer.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.http import HttpResponse
from django.urls import path
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.callers import caller, signed_in
from config.api.filters import IdFilter
from config.api.schema import ErrorSerializer, conditional_headers
from games.api import examples
from tournaments import selectors, services
from tournaments.api.invitations import TournamentInvitationSentSerializer, invitation_sent
from tournaments.api.serializers import (
    DirectorInputSerializer,
    EntryInputSerializer,
    EntrySerializer,
    LogEntrySerializer,
    ReasonSerializer,
    TournamentInputSerializer,
    TournamentPatchSerializer,
    TournamentSerializer,
    WarnSerializer,
)
from tournaments.models import Entry, Invitation, LogEntry, Round, Tournament

TOURNAMENT_ID = OpenApiParameter("tournament_id", OpenApiTypes.INT, OpenApiParameter.PATH)
ENTRY_ID = OpenApiParameter("entry_id", OpenApiTypes.INT, OpenApiParameter.PATH)
USER_ID = OpenApiParameter("user_id", OpenApiTypes.INT, OpenApiParameter.PATH)
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="Not a director of the tournament."),
    404: OpenApiResponse(ErrorSerializer, description="No such tournament (or not visible)."),
    409: OpenApiResponse(ErrorSerializer, description="Not allowed in the current state."),
}
READ_ERRORS = {404: ERRORS[404]}
CREATE_EXAMPLE = {
    "name": "Grazer Frühjahrsturnier",
    "venue": "Café Promenade, Erzherzog-Johann-Allee 1",
    "starts_on": "2027-03-13",
    "rules": examples.rules_example(),
    "rounds_planned": 4,
    "deals_per_round": 24,
    "seating": "fewest_repeats",
    "scoring": "table_rank",
    "results": "recorded",
    "tiebreaks": ["declarer_wins", "best_round", "lots"],
    "capacity": 48,
    "prizes": [10000, 5000, 2500],
}


def _tournament(request: Request, tournament_id: int, *, direct: bool = False) -> Tournament:
    if direct:
        return selectors.tournament_for_director(user=caller(request), tournament_id=tournament_id)
    return selectors.tournament_for_user(user=caller(request), tournament_id=tournament_id)


def _out(t: Tournament, code: int = status.HTTP_200_OK) -> Response:
    t.refresh_from_db()
    return Response(TournamentSerializer(t).data, status=code)


class TournamentFilter(filters.FilterSet):
    """Filter tournaments by state, organising club or name."""

    name = filters.CharFilter(lookup_expr="icontains")
    club = IdFilter(field_name="club_id", label="Club id")

    class Meta:
        model = Tournament
        fields = ("status", "club", "name")


class TournamentListView(generics.ListAPIView[Tournament]):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    queryset = Tournament.objects.none()

    def get_queryset(self) -> QuerySet[Tournament]:
        return (
            selectors.tournaments_for_user(user=caller(self.request))
            .annotate(
                entries_count=Count(
                    "entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN), distinct=True
                ),
                rounds_played=Count(
                    "rounds", filter=Q(rounds__status=Round.Status.CLOSED), distinct=True
                ),
            )
            .prefetch_related("directors")
            .order_by("-starts_on", "-created_at", "-id")
        )

    @extend_schema(
        summary="Tournaments",
        description="Public tournaments out of the draft state, and those you run or entered.",
        responses={200: TournamentSerializer(many=True)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Create a tournament",
        description="A draft: you become its director. A club's tournament is created by the "
        "club's owners and admins, who then run it too.",
        request=TournamentInputSerializer,
        responses={201: TournamentSerializer, **ERRORS},
        examples=[OpenApiExample("Tournament", value=CREATE_EXAMPLE, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        data = TournamentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        club_id = values.pop("club", None)
        t = services.tournament_create(user=signed_in(request), club_id=club_id, **values)
        return _out(t, status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A tournament",
        description="Public once out of the draft state. Answers carry `ETag` and "
        "`Last-Modified`; send them back (`If-None-Match`) for a 304 while nothing changed.",
        parameters=[TOURNAMENT_ID, *conditional_headers(by_date=True)],
        responses={
            200: TournamentSerializer,
            304: OpenApiResponse(description="Not modified."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        from tournaments.api.public import conditional

        t = _tournament(request, tournament_id)
        return conditional(request, t, "info", lambda: TournamentSerializer(t).data)

    @extend_schema(
        summary="Change a tournament",
        description="Directors. The format (rules, rounds, deals, seating, scoring, results, "
        "tiebreaks, lots seed) is fixed once the first round is seated; the time control "
        "changes at any time and applies to the rounds seated after (each round's tables keep "
        "the clock they were seated with).",
        parameters=[TOURNAMENT_ID],
        request=TournamentPatchSerializer,
        responses={200: TournamentSerializer, **ERRORS},
        examples=[OpenApiExample("Venue", value={"venue": "Café Landtmann"}, request_only=True)],
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        t = _tournament(request, tournament_id, direct=True)
        data = TournamentPatchSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        t = services.tournament_update(user=signed_in(request), tournament=t, **data.validated_data)
        return _out(t)

    @extend_schema(
        summary="Delete a draft tournament",
        description=(
            "Directors only, and only in the draft state (409 `wrong_state` later: finish a "
            "tournament instead, so its record stays)."
        ),
        parameters=[TOURNAMENT_ID],
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, tournament_id: int) -> Response:
        t = _tournament(request, tournament_id, direct=True)
        services.tournament_delete(user=signed_in(request), tournament=t)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _command(name: str, summary: str, description: str, service: Any, reason: bool = False) -> Any:
    class CommandView(APIView):
        @extend_schema(
            summary=summary,
            description=description,
            parameters=[TOURNAMENT_ID],
            request=ReasonSerializer if reason else None,
            responses={200: TournamentSerializer, **ERRORS},
            examples=[
                OpenApiExample(
                    "Reason", value={"reason": "Table 4's sheet was misread."}, request_only=True
                )
            ]
            if reason
            else [],
        )
        def post(self, request: Request, tournament_id: int) -> Response:
            t = _tournament(request, tournament_id, direct=True)
            extra: dict[str, Any] = {}
            if reason:
                data = ReasonSerializer(data=request.data or {})
                data.is_valid(raise_exception=True)
                extra["reason"] = data.validated_data["reason"]
            return _out(service(user=signed_in(request), tournament=t, **extra))

    CommandView.__name__ = f"{name.title().replace('_', '')}View"
    return CommandView


OpenRegistrationView = _command(
    "open_registration",
    "Open registration",
    "draft → registration: players enter (up to the capacity, then the waitlist) until the "
    "entry deadline.",
    services.tournament_open_registration,
)
OpenCheckInView = _command(
    "open_check_in",
    "Open check-in",
    "registration → check-in: entries close (directors still add players); entrants check "
    "in. Seating the first round starts the tournament.",
    services.tournament_open_check_in,
)
FinishView = _command(
    "finish",
    "Finish the tournament",
    "running → finished, once no round is open: final standings with the prizes; webhooks "
    "hear `tournament_finished`.",
    services.tournament_finish,
)
ReopenView = _command(
    "reopen",
    "Reopen a finished tournament",
    "finished → running, for a correction after the end; audited with the reason.",
    services.tournament_reopen,
    reason=True,
)


class DirectorListView(APIView):
    @extend_schema(
        summary="Add a director",
        description=(
            "A director makes another user a director (by user id), at once (200, in the "
            "tournament's log) when the user is themselves or already plays with them: at a "
            "club's tournament a member of that club, at a tournament of no club someone who "
            "shares a club with them. Anyone else is asked (202 `invited`) and becomes a "
            "director by accepting (`POST /api/v1/me/tournament-invitations/{invitation_id}/"
            "accept/`); an id no active account has answers the same 202."
        ),
        parameters=[TOURNAMENT_ID],
        request=DirectorInputSerializer,
        responses={
            200: TournamentSerializer,
            202: OpenApiResponse(
                TournamentInvitationSentSerializer, description="Asked to accept."
            ),
            **ERRORS,
        },
        examples=[OpenApiExample("Director", value={"user": 7}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        t = _tournament(request, tournament_id, direct=True)
        data = DirectorInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user_id = data.validated_data["user"]
        if not services.director_add(user=signed_in(request), tournament=t, director_id=user_id):
            return Response(
                invitation_sent(user_id=user_id, role=Invitation.Role.DIRECTOR),
                status=status.HTTP_202_ACCEPTED,
            )
        return _out(t)


class DirectorDetailView(APIView):
    @extend_schema(
        summary="Remove a director",
        description="A tournament keeps at least one director. 404 for a user who does not "
        "direct it, as for an id nobody uses.",
        parameters=[TOURNAMENT_ID, USER_ID],
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, tournament_id: int, user_id: int) -> Response:
        t = _tournament(request, tournament_id, direct=True)
        services.director_remove(user=signed_in(request), tournament=t, director_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogView(generics.ListAPIView[LogEntry]):
    serializer_class = LogEntrySerializer
    queryset = LogEntry.objects.none()

    def get_queryset(self) -> QuerySet[LogEntry]:
        t = _tournament(self.request, self.kwargs["tournament_id"], direct=True)
        return selectors.log_of(tournament=t)

    @extend_schema(
        summary="The audit log",
        description="Every command: who, when, what, with the values before and after "
        "(corrections included). Newest first. Directors only.",
        parameters=[TOURNAMENT_ID],
        responses={200: LogEntrySerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


# ---------------------------------------------------------------------------------------------
# entries


class EntryFilter(filters.FilterSet):
    class Meta:
        model = Entry
        fields = ("status",)


class EntryListView(generics.ListAPIView[Entry]):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = EntrySerializer
    filterset_class = EntryFilter
    queryset = Entry.objects.none()

    def get_queryset(self) -> QuerySet[Entry]:
        t = _tournament(self.request, self.kwargs["tournament_id"])
        return selectors.entries_of(tournament=t)

    @extend_schema(
        summary="A tournament's entries",
        description="In order of entry; filter by `status` (the waitlist is "
        "`status=waitlisted`, in its order). Conditional like the tournament.",
        parameters=[TOURNAMENT_ID, *conditional_headers(by_date=True)],
        responses={
            200: EntrySerializer(many=True),
            304: OpenApiResponse(description="Not modified since the ETag or date sent."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:  # type: ignore[override]
        from tournaments.api.public import conditional_response

        t = _tournament(request, self.kwargs["tournament_id"])
        query = sorted((k, v) for k, vs in request.query_params.lists() for v in vs)
        return conditional_response(
            request,
            t,
            f"entries-{hashlib.sha256(repr(query).encode()).hexdigest()[:16]}",
            lambda: super(EntryListView, self).get(request, *args, **kwargs),
        )

    @extend_schema(
        summary="Enter, or add a player",
        description="Without a body: enter yourself (registration must be open and the "
        "deadline not passed; past the capacity you are waitlisted). Directors add a player by "
        "`user` or `name` at any time before the end; while the tournament runs that is a late "
        "entry, between rounds. An account enters at once (201) when it is the director's own "
        "or already plays with them: at a club's tournament a member of that club, at a "
        "tournament of no club someone who shares a club with the director. Anyone else is "
        "asked (202 `invited`) and enters by accepting (`POST /api/v1/me/tournament-"
        "invitations/{invitation_id}/accept/`); an id no active account has answers the same "
        "202.",
        parameters=[TOURNAMENT_ID],
        request=EntryInputSerializer,
        responses={
            201: EntrySerializer,
            202: OpenApiResponse(
                TournamentInvitationSentSerializer, description="Asked to accept."
            ),
            **ERRORS,
        },
        examples=[
            OpenApiExample("Enter yourself", value={}, request_only=True),
            OpenApiExample("Add a substitute", value={"name": "Franz Huber"}, request_only=True),
        ],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        t = _tournament(request, tournament_id)
        data = EntryInputSerializer(data=request.data or {})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user = signed_in(request)
        if "user" not in values and not values.get("name"):
            entry = services.entry_register(user=user, tournament=t)
        else:
            added = services.entry_add(
                user=user,
                tournament=t,
                player_id=values.get("user"),
                name=values.get("name", ""),
                checked_in=values["checked_in"],
            )
            if added is None:
                return Response(
                    invitation_sent(user_id=values["user"], role=Invitation.Role.ENTRANT),
                    status=status.HTTP_202_ACCEPTED,
                )
            entry = added
        return Response(
            EntrySerializer(entry, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


def _entry(request: Request, tournament_id: int, entry_id: int) -> Entry:
    t = _tournament(request, tournament_id)
    return selectors.entry_in_tournament(tournament=t, entry_id=entry_id)


class EntryDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="An entry",
        description=(
            "A player's entry: name, status (registered, waitlisted, checked in, withdrawn) "
            "and when it changed. Public once the tournament is out of the draft state."
        ),
        parameters=[TOURNAMENT_ID, ENTRY_ID],
        responses={200: EntrySerializer, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        entry = _entry(request, tournament_id, entry_id)
        return Response(EntrySerializer(entry, context={"request": request}).data)


class EntryCheckInView(APIView):
    @extend_schema(
        summary="Check in",
        description="The player, or a director for them: during check-in, or between rounds "
        "(then they play from the next round).",
        parameters=[TOURNAMENT_ID, ENTRY_ID],
        request=None,
        responses={200: EntrySerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        entry = _entry(request, tournament_id, entry_id)
        entry = services.entry_check_in(user=signed_in(request), entry=entry)
        return Response(EntrySerializer(entry, context={"request": request}).data)


class EntryWithdrawView(APIView):
    @extend_schema(
        summary="Withdraw",
        description="The player, or a director: before the first round or between rounds. "
        "Rounds played keep counting; a freed place goes to the first on the waitlist.",
        parameters=[TOURNAMENT_ID, ENTRY_ID],
        request=ReasonSerializer,
        responses={200: EntrySerializer, **ERRORS},
        examples=[OpenApiExample("Ill", value={"reason": "Ill"}, request_only=True)],
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        entry = _entry(request, tournament_id, entry_id)
        data = ReasonSerializer(data=request.data or {})
        data.is_valid(raise_exception=True)
        entry = services.entry_withdraw(
            user=signed_in(request), entry=entry, reason=data.validated_data["reason"]
        )
        return Response(EntrySerializer(entry, context={"request": request}).data)


class EntryWarnView(APIView):
    @extend_schema(
        summary="Warn a player",
        description="Directors, while the tournament runs (409 `wrong_state` otherwise): a "
        "warning, after timeouts at the player's table (the log's `timeout` entries) or for "
        "their conduct, kept in the tournament's log as `entry_warn` with the reason, the "
        "open round and the entry's count of warnings (`warnings`). The player is not "
        "notified. Answers the log entry.",
        parameters=[TOURNAMENT_ID, ENTRY_ID],
        request=WarnSerializer,
        responses={201: LogEntrySerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Timeouts", value={"reason": "Three timeouts in round 2."}, request_only=True
            )
        ],
    )
    def post(self, request: Request, tournament_id: int, entry_id: int) -> Response:
        entry = _entry(request, tournament_id, entry_id)
        data = WarnSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.entry_warn(
            user=signed_in(request), entry=entry, reason=data.validated_data["reason"]
        )
        return Response(LogEntrySerializer(row).data, status=status.HTTP_201_CREATED)


T = "tournaments/<id:tournament_id>/"

urlpatterns = [
    path("tournaments/", TournamentListView.as_view(), name="tournaments"),
    path(T, TournamentDetailView.as_view(), name="tournament"),
    path(T + "open-registration/", OpenRegistrationView.as_view(), name="t-open-registration"),
    path(T + "open-check-in/", OpenCheckInView.as_view(), name="t-open-check-in"),
    path(T + "finish/", FinishView.as_view(), name="t-finish"),
    path(T + "reopen/", ReopenView.as_view(), name="t-reopen"),
    path(T + "directors/", DirectorListView.as_view(), name="t-directors"),
    path(T + "directors/<id:user_id>/", DirectorDetailView.as_view(), name="t-director"),
    path(T + "log/", LogView.as_view(), name="t-log"),
    path(T + "entries/", EntryListView.as_view(), name="t-entries"),
    path(T + "entries/<id:entry_id>/", EntryDetailView.as_view(), name="t-entry"),
    path(T + "entries/<id:entry_id>/check-in/", EntryCheckInView.as_view(), name="t-check-in"),
    path(T + "entries/<id:entry_id>/withdraw/", EntryWithdrawView.as_view(), name="t-withdraw"),
    path(T + "entries/<id:entry_id>/warn/", EntryWarnView.as_view(), name="t-warn"),
]
