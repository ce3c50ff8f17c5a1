"""Rounds: seat the next round (in the worker), start and close it, its tables and their
assignments, offline table totals and their confirmations, and duplicate boards."""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.callers import caller, signed_in
from config.api.schema import conditional_headers
from tournaments import selectors, services
from tournaments.api.public import NOT_MODIFIED, conditional
from tournaments.api.serializers import (
    BoardSerializer,
    ConfirmInputSerializer,
    HandAdjustInputSerializer,
    HandAdjustmentSerializer,
    RoundClockInputSerializer,
    RoundSeatingInputSerializer,
    TotalsInputSerializer,
    TotalsSerializer,
    TournamentRoundDetailSerializer,
    TournamentRoundSerializer,
    TournamentTableSerializer,
)
from tournaments.api.tournaments import ERRORS, READ_ERRORS, TOURNAMENT_ID
from tournaments.errors import TournamentNotFound
from tournaments.models import Round, RoundTable, TableTotals
from tournaments.names import Names, names_for

ROUND_NUMBER = OpenApiParameter("round_number", OpenApiTypes.INT, OpenApiParameter.PATH)
TABLE_NUMBER = OpenApiParameter("table_number", OpenApiTypes.INT, OpenApiParameter.PATH)
HAND_NUMBER = OpenApiParameter(
    "number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The hand's number."
)


def _round(request: Request, tournament_id: int, number: int, *, direct: bool = False) -> Round:
    if direct:
        t = selectors.tournament_for_director(user=caller(request), tournament_id=tournament_id)
    else:
        t = selectors.tournament_for_user(user=caller(request), tournament_id=tournament_id)
    rnd = t.rounds.filter(number=number).select_related("tournament").first()
    if rnd is None:
        raise TournamentNotFound(_("There is no such round."))
    return rnd


def round_detail(rnd: Round, names: Names) -> dict[str, Any]:
    """The round and its tables, the players as ``names``' reader reads them."""
    tables = services.round_assignments(rnd)
    progress = {p["number"]: p for p in services.table_progress(rnd)}
    for table in tables:
        found = progress.get(table["number"], {})
        table["hands_done"] = found.get("hands_done", 0)
        table["complete"] = found.get("complete", False)
    context = {"tables": tables, "names": names}
    return dict(TournamentRoundDetailSerializer(rnd, context=context).data)


class RoundListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A tournament's rounds",
        description=(
            "Every round with its status (seating, seated, playing, closed, failed). "
            "Conditional (ETag, Last-Modified, 304)."
        ),
        parameters=[TOURNAMENT_ID, *conditional_headers(by_date=True)],
        responses={200: TournamentRoundSerializer(many=True), 304: NOT_MODIFIED, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Any:
        t = selectors.tournament_for_user(user=caller(request), tournament_id=tournament_id)
        return conditional(
            request,
            t,
            "rounds",
            lambda: TournamentRoundSerializer(t.rounds.order_by("number"), many=True).data,
        )

    @extend_schema(
        summary="Seat the next round",
        description="Directors. Checks at once that the round can be seated (state, a player "
        "count that splits into tables of 3 and 4, deals that every table size divides, "
        "accounts for hosted play) and answers 202 with the round `seating`; the worker then "
        "chooses the seating and creates every table of the round in one transaction (or "
        "none: the round becomes `failed` with the reason; seat it again). Poll the round, "
        "or listen to the `round_seated` webhook. A count that cannot be split answers 409 "
        "`unsplittable` with the options: a bye, a substitute, one more or one fewer, or (a "
        "hosted tournament for points) `bots` to fill the empty seats; a tournament that "
        "seats no bots answers 409 `no_bots` saying why.",
        parameters=[TOURNAMENT_ID],
        request=RoundSeatingInputSerializer,
        responses={202: TournamentRoundDetailSerializer, **ERRORS},
        examples=[
            OpenApiExample("Default method", value={}, request_only=True),
            OpenApiExample(
                "Swiss with a bye", value={"seating": "swiss", "byes": [17]}, request_only=True
            ),
            OpenApiExample(
                "A bot for an odd count",
                value={"bots": 1, "bot_level": "heuristic"},
                request_only=True,
            ),
            OpenApiExample(
                "Starting at eight",
                value={"starts_at": "2026-12-12T20:00:00+01:00"},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        t = selectors.tournament_for_director(user=caller(request), tournament_id=tournament_id)
        data = RoundSeatingInputSerializer(data=request.data or {})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        rnd = services.round_seat(
            user=signed_in(request),
            tournament=t,
            method=values.get("seating"),
            byes=values["byes"],
            seed=values.get("seed"),
            bots=values["bots"],
            bot_level=values.get("bot_level"),
            starts_at=values.get("starts_at"),
        )
        rnd.refresh_from_db()
        names = names_for(t, caller(request))
        return Response(round_detail(rnd, names), status=status.HTTP_202_ACCEPTED)


class RoundDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A round and its table assignments",
        description="Every table with its players in seat order, the games table to play or "
        "record at, hands done and whether it is complete. Conditional (ETag, 304).",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, *conditional_headers(by_date=True)],
        responses={200: TournamentRoundDetailSerializer, 304: NOT_MODIFIED, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, round_number: int) -> Any:
        rnd = _round(request, tournament_id, round_number)
        names = names_for(rnd.tournament, caller(request))
        return conditional(
            request, rnd.tournament, f"round-{rnd.number}", lambda: round_detail(rnd, names), names
        )


def _round_command(name: str, summary: str, description: str, service: Any) -> Any:
    class RoundCommandView(APIView):
        @extend_schema(
            summary=summary,
            description=description,
            parameters=[TOURNAMENT_ID, ROUND_NUMBER],
            request=None,
            responses={200: TournamentRoundDetailSerializer, **ERRORS},
        )
        def post(self, request: Request, tournament_id: int, round_number: int) -> Response:
            rnd = _round(request, tournament_id, round_number, direct=True)
            rnd = service(user=signed_in(request), round=rnd)
            rnd.refresh_from_db()
            return Response(round_detail(rnd, names_for(rnd.tournament, caller(request))))

    RoundCommandView.__name__ = f"Round{name.title()}View"
    return RoundCommandView


RoundStartView = _round_command(
    "start", "Start a round", "Directors: seated → playing.", services.round_start
)
RoundCloseView = _round_command(
    "close",
    "Close a round",
    "Directors: playing → closed, once every table is complete (all its deals played, or its "
    "totals confirmed); closes each games table (the pot is settled as the rules say) and "
    "asks for new standings. 409 `tables_unfinished` names the tables still playing.",
    services.round_close,
)


class RoundClockView(APIView):
    @extend_schema(
        summary="Set a round's clock",
        description="Directors of a hosted tournament (409 `not_hosted` otherwise), while the "
        "round is seated or being played (409 `wrong_state`) and its clock has not run out "
        "(409 `round_clock_out`): when the round's clock runs out (`ends_at`; a moment past "
        "ends its play at the next sweep; null: no clock). A round otherwise takes the "
        "tournament's `round_minutes` from its start. Audited as `round_clock`. When the clock "
        "runs out, no table deals a further hand, each unfinished hand ends (by its "
        "double-dummy result, or a director's adjusted score: `…/hands/{number}/adjust/`) and "
        "the round closes once every table's hands have ended (docs/tournaments.md, \"Round "
        'clocks").',
        parameters=[TOURNAMENT_ID, ROUND_NUMBER],
        request=RoundClockInputSerializer,
        responses={200: TournamentRoundDetailSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Ends at ten", value={"ends_at": "2026-12-12T22:00:00+01:00"}, request_only=True
            ),
            OpenApiExample("No clock", value={"ends_at": None}, request_only=True),
        ],
    )
    def post(self, request: Request, tournament_id: int, round_number: int) -> Response:
        rnd = _round(request, tournament_id, round_number, direct=True)
        data = RoundClockInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_clock_set(
            user=signed_in(request), round=rnd, ends_at=data.validated_data["ends_at"]
        )
        rnd.refresh_from_db()
        return Response(round_detail(rnd, names_for(rnd.tournament, caller(request))))


def _link(rnd: Round, number: int) -> RoundTable:
    return selectors.round_table_of(round=rnd, number=number)


def _totals(link: RoundTable, row: TableTotals | None) -> dict[str, Any]:
    return {
        "round": link.round.number,
        "table": link.number,
        "amounts": row.amounts if row else {},
        "declarer_wins": row.declarer_wins if row else {},
        "confirmed_by": row.confirmed_by if row else [],
        "confirmed": row.confirmed if row else False,
        "version": row.version if row else 0,
    }


class TableView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A table of a round",
        description=(
            "One table of a round: the games table to record or play at, its players in seat "
            "order, hands done and whether it is complete."
        ),
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
        responses={200: TournamentTableSerializer, **READ_ERRORS},
    )
    def get(
        self, request: Request, tournament_id: int, round_number: int, table_number: int
    ) -> Response:
        rnd = _round(request, tournament_id, round_number)
        _link(rnd, table_number)
        tables = round_detail(rnd, names_for(rnd.tournament, caller(request)))["tables"]
        return Response(next(t for t in tables if t["number"] == table_number))


class HandAdjustView(APIView):
    @extend_schema(
        summary="Give a hand an adjusted score",
        description="Directors, once the round's clock has run out (409 "
        "`round_clock_running` before; `wrong_state` once the round closed), for a hand of "
        "the table still being played that the double-dummy ending did not end (409 "
        "`hand_not_pending` for a hand that ended, or was never dealt): the hand is taken "
        "back at its games table, as if never dealt (the table's audit keeps `hand_abandon`), "
        "and `amounts` count instead, in the standings, the player's results and the money "
        "settlement, compared like a board's result in duplicate scoring. Audited as "
        "`hand_adjust`; the round closes at once when this was the last hand it waited for "
        '(docs/tournaments.md, "Round clocks").',
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER, HAND_NUMBER],
        request=HandAdjustInputSerializer,
        responses={201: HandAdjustmentSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Average",
                value={
                    "amounts": {"p-7f3a2c": 0, "p-19be04": 0, "p-a2c911": 0},
                    "reason": "Cut off in the auction by the round's clock.",
                },
                request_only=True,
            )
        ],
    )
    def post(
        self,
        request: Request,
        tournament_id: int,
        round_number: int,
        table_number: int,
        number: int,
    ) -> Response:
        link = _link(_round(request, tournament_id, round_number, direct=True), table_number)
        data = HandAdjustInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.hand_adjust(
            user=signed_in(request),
            round_table=link,
            number=number,
            amounts=data.validated_data["amounts"],
            reason=data.validated_data["reason"],
        )
        return Response(HandAdjustmentSerializer(row).data, status=status.HTTP_201_CREATED)


class TotalsView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="An offline table's totals",
        description=(
            "In a tournament whose results are table totals: the totals entered for this "
            "table, by seat key, with who confirmed them and the `version` to confirm."
        ),
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
        responses={200: TotalsSerializer, **READ_ERRORS},
    )
    def get(
        self, request: Request, tournament_id: int, round_number: int, table_number: int
    ) -> Response:
        link = _link(_round(request, tournament_id, round_number), table_number)
        return Response(_totals(link, selectors.table_totals_of(round_table=link)))

    @extend_schema(
        summary="Enter an offline table's totals",
        description="For tournaments whose tables play fully offline (`results: totals`). A "
        "player at the table enters every seat's total (they sum to zero); every other "
        "player then confirms that version. A director's entry counts at once (after the "
        "round closed too: a correction, audited with the values before).",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
        request=TotalsInputSerializer,
        responses={200: TotalsSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Totals",
                value={
                    "amounts": {"p-3e4437": 340, "p-5171f4": -120, "p-b4b856": -220},
                    "declarer_wins": {"p-3e4437": 5, "p-5171f4": 2, "p-b4b856": 1},
                },
                request_only=True,
            )
        ],
    )
    def put(
        self, request: Request, tournament_id: int, round_number: int, table_number: int
    ) -> Response:
        link = _link(_round(request, tournament_id, round_number), table_number)
        data = TotalsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.totals_enter(
            user=signed_in(request),
            round_table=link,
            amounts=data.validated_data["amounts"],
            declarer_wins=data.validated_data["declarer_wins"],
        )
        return Response(_totals(link, row))


class TotalsConfirmView(APIView):
    @extend_schema(
        summary="Confirm an offline table's totals",
        description="A player at the table confirms the version they checked; 409 "
        "`stale_version` when the totals changed since.",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
        request=ConfirmInputSerializer,
        responses={200: TotalsSerializer, **ERRORS},
        examples=[OpenApiExample("Confirm", value={"version": 1}, request_only=True)],
    )
    def post(
        self, request: Request, tournament_id: int, round_number: int, table_number: int
    ) -> Response:
        link = _link(_round(request, tournament_id, round_number), table_number)
        data = ConfirmInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.totals_confirm(
            user=signed_in(request), round_table=link, version=data.validated_data["version"]
        )
        return Response(_totals(link, row))


class BoardListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A duplicate round's boards",
        description="Every board's commitment (SHA-256 of salt and deck order) from the "
        "start; its deck and salt once every table of the round finished it, so anyone can "
        "check the deal (`python -m engine verify`). Empty for other scorings.",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER],
        responses={200: BoardSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, round_number: int) -> Response:
        rnd = _round(request, tournament_id, round_number)
        boards = selectors.boards_of(round=rnd)
        return Response(BoardSerializer(boards, many=True).data)


R = "tournaments/<id:tournament_id>/rounds/"
N = R + "<num:round_number>/"
TBL = N + "tables/<num:table_number>/"

urlpatterns = [
    path(R, RoundListView.as_view(), name="t-rounds"),
    path(N, RoundDetailView.as_view(), name="t-round"),
    path(N + "start/", RoundStartView.as_view(), name="t-round-start"),
    path(N + "close/", RoundCloseView.as_view(), name="t-round-close"),
    path(N + "clock/", RoundClockView.as_view(), name="t-round-clock"),
    path(N + "boards/", BoardListView.as_view(), name="t-round-boards"),
    path(TBL, TableView.as_view(), name="t-round-table"),
    path(TBL + "totals/", TotalsView.as_view(), name="t-totals"),
    path(TBL + "hands/<id:number>/adjust/", HandAdjustView.as_view(), name="t-hand-adjust"),
    path(TBL + "totals/confirm/", TotalsConfirmView.as_view(), name="t-totals-confirm"),
]
