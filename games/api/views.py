"""Games API: tables, their hands, ledger, audit log, score sheet and settlement; series;
worker pings.

Each view parses its input with a serializer, finds the table through a selector scoped to
the caller (a table the caller may not read does not exist: 404), checks the object
permission (writers only for writes: 403 before any service runs), calls one service or
selector and serializes the answer. ``docs/games.md`` is the specification.

Answers name a table's people as their reader reads them (:func:`games.selectors.table_names`:
everyone's name for the table's world, the public version for others): the views hand the
reader (``Reader``) or the table's names to the serializers and the sheet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Page
from django.db.models import Count, Q, QuerySet, Window
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from clubs.models import User
from config.api.callers import caller, signed_in
from config.api.filters import IdFilter
from config.api.pagination import DefaultPagination
from config.api.rule_sets import ref
from config.api.schema import ErrorSerializer
from config.api.text import TextAnswerView, file_answer, text_response
from games import idempotency, selectors, services
from games.api import examples
from games.api.serializers import (
    ActionInputSerializer,
    BalancesSerializer,
    HandAnalysisSerializer,
    HandHintSerializer,
    HandRecordSerializer,
    HandSerializer,
    ScoreSheetEntrySerializer,
    SeatBackSerializer,
    SeriesCreateSerializer,
    SeriesSerializer,
    SettlementSerializer,
    TableCreateSerializer,
    TableSerializer,
    WorkerPingSerializer,
)
from games.api.sheet import SheetCSVRenderer, score_sheet, sheet_csv, with_sentences
from games.errors import NotYourTurn
from games.hands import hand_clock, hand_timeouts
from games.models import AuditEntry, Hand, LedgerEntry, Table, TableSeries, WorkerPing
from games.permissions import TableAccess, seat_of

NO_SUCH_TABLE = gettext_lazy("There is no such table.")

CONFLICT = OpenApiResponse(ErrorSerializer, description="The table or hand does not allow it.")
TABLE_ID = OpenApiParameter("table_id", OpenApiTypes.INT, OpenApiParameter.PATH)
NUMBER = OpenApiParameter(
    "number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The hand's number."
)
IDEMPOTENCY_KEY = OpenApiParameter(
    idempotency.HEADER,
    # games/idempotency.py refuses other lengths with 400.
    {"type": "string", "minLength": 1, "maxLength": 200},
    OpenApiParameter.HEADER,
    required=False,
    description="Send the same key again (within 24 hours) to get the first answer instead "
    "of acting twice; reused with a different request it is 422 idempotency_key_reused.",
)
IDEMPOTENCY_REUSED = OpenApiResponse(
    ErrorSerializer, description="idempotency_key_reused: the key was used for another request."
)


def _request_body(request: Request) -> Any:
    data = request.data
    return data.dict() if hasattr(data, "dict") else data


def _once(request: Request, act: Callable[[], tuple[int, Any]]) -> Response:
    """Run ``act`` under the request's ``Idempotency-Key``, if it has one."""
    fingerprint = idempotency.fingerprint(
        request.method or "", request.path, _request_body(request)
    )
    code, body = idempotency.run_once(
        user=signed_in(request),
        key=request.headers.get(idempotency.HEADER),
        fingerprint=fingerprint,
        act=act,
    )
    return Response(body, status=code)


TABLE_EXAMPLES = examples.table_examples()
ENTRY_EXAMPLES = examples.entry_examples()
CORRECTION_EXAMPLES = examples.entry_examples(correction=True)
ACTION_EXAMPLES = examples.action_examples()


class WindowCountPagination(DefaultPagination):
    """:class:`DefaultPagination` that reads the total from a window function on the page's
    own rows: one query for a page instead of two."""

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: Any = None
    ) -> list[Any] | None:
        size = self.get_page_size(request)
        if not size:
            return None
        raw = request.query_params.get(self.page_query_param) or "1"
        try:
            number = int(raw)
        except ValueError:
            number = 0
        if number < 1:
            raise NotFound(_("Invalid page."))
        offset = (number - 1) * size
        rows = list(queryset.annotate(_total=Window(Count("pk")))[offset : offset + size])
        total = rows[0]._total if rows else (0 if number == 1 else queryset.count())
        paginator = self.django_paginator_class(queryset, size)
        paginator.__dict__["count"] = total  # Paginator.count is a cached_property
        if number > max(paginator.num_pages, 1):
            raise NotFound(_("Invalid page."))
        self.page = Page(rows, number, paginator)
        self.request = request
        return rows


# ---------------------------------------------------------------------------------------------
# filters


class TableFilter(filters.FilterSet):
    """Filter tables by mode, status, club and series."""

    club = IdFilter(field_name="club_id", label="Club id")
    series = IdFilter(field_name="series_id", label="Series id")

    class Meta:
        model = Table
        fields = ("mode", "status", "club", "series")


class HandFilter(filters.FilterSet):
    """Filter hands by status."""

    class Meta:
        model = Hand
        fields = ("status",)


class LedgerFilter(filters.FilterSet):
    """Filter ledger rows by reason, hand number and party (payer or payee)."""

    hand = filters.NumberFilter(field_name="hand__number", label="Hand number")
    party = filters.CharFilter(method="filter_party", label="Seat key, pot or series")

    class Meta:
        model = LedgerEntry
        fields = ("reason", "hand", "party")

    def filter_party(
        self, queryset: QuerySet[LedgerEntry], name: str, value: str
    ) -> QuerySet[LedgerEntry]:
        return queryset.filter(Q(payer=value) | Q(payee=value))


class AuditFilter(filters.FilterSet):
    """Filter audit entries by action and hand number."""

    class Meta:
        model = AuditEntry
        fields = ("action", "hand_number")


# ---------------------------------------------------------------------------------------------
# tables


class TablePermissions(permissions.IsAuthenticatedOrReadOnly):
    """Anyone reads (what they may see); signed-in users write."""


@extend_schema_view(
    list=extend_schema(summary="Tables you may read"),
    retrieve=extend_schema(summary="A table"),
)
class TableViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Table],
):
    """Tables: sittings with fixed rules and 3 or 4 seats (``docs/games.md``)."""

    serializer_class = TableSerializer
    filterset_class = TableFilter
    permission_classes = [TablePermissions, TableAccess]
    lookup_url_kwarg = "table_id"
    lookup_value_converter = "id"  # as every <id:…> path: other values 404
    queryset = Table.objects.none()

    def get_queryset(self) -> QuerySet[Table]:
        return selectors.tables_with_totals(user=caller(self.request))

    def get_serializer_class(self) -> type[BaseSerializer[Any]]:
        if self.action == "create":
            return TableCreateSerializer
        return TableSerializer

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        context["reader"] = selectors.Reader(caller(self.request))
        return context

    def get_object(self) -> Table:
        """The table, when the caller may read it; else one 404 sentence, the same as for an
        id nobody uses."""
        table = self.get_queryset().filter(pk=self.kwargs["table_id"]).first()
        if table is None:
            raise NotFound(str(NO_SUCH_TABLE))
        self.check_object_permissions(self.request, table)
        return table

    @extend_schema(
        summary="Open a table",
        request=TableCreateSerializer,
        examples=TABLE_EXAMPLES,
        responses={
            201: TableSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="validation_error, rule_violation; a club or series you may not "
                "see answers as one that does not exist.",
            ),
            403: OpenApiResponse(
                ErrorSerializer,
                description="permission_denied: no role in the club, an account you may not "
                "seat (seat a guest by name), or a series you may not continue.",
            ),
        },
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Open a sitting. A seat names its account by user id, as a seat reads it back; an
        id that is unused or of someone who shares no club with you is the same field error
        (``There is no such user.``). Bad rules are the engine's sentence under
        ``rules.<option>``; the first dealer is drawn unless given. A club's table needs a
        role in the club (members open tables they sit at; owners and admins any); an account
        other than yours sits only if it is a member of the table's club (of no club: of a
        club you share), else 403: seat a guest by name. A club or series you may not see is
        400, exactly as an unused id."""
        serializer = TableCreateSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        table = services.table_open(user=signed_in(request), **serializer.to_service_kwargs())
        table = self.get_queryset().get(pk=table.pk)
        answer = TableSerializer(table, context=self.get_serializer_context())
        return Response(answer.data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Close a table",
        request=None,
        responses={
            200: SettlementSerializer,
            403: OpenApiResponse(
                ErrorSerializer,
                description="permission_denied: only the club's owners, admins and scorers or "
                "the tournament's directors close it (players: their own tables of no club).",
            ),
            409: CONFLICT,
        },
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, table_id: str | None = None) -> Response:
        """Close the sitting: the pot carries to the series or is split, as the table's rules say;
        answers each player's net and the payments, with the pot as a party when it holds
        money. Who manages the table closes it: its club's owners, admins and scorers, its
        tournament's directors; its players only their own tables outside a club or
        tournament."""
        table = self.get_object()
        closed = services.table_close(table_id=table.pk, user=signed_in(request))
        assert closed.closing is not None
        names = _party_names(table, request)
        return Response(SettlementSerializer(with_sentences(table, closed.closing, names)).data)

    @extend_schema(
        summary="Come back to your seat",
        request=None,
        responses={
            200: SeatBackSerializer,
            403: OpenApiResponse(ErrorSerializer, description="not_seated: you have no seat here."),
        },
    )
    @action(detail=True, methods=["post"])
    def back(self, request: Request, table_id: str | None = None) -> Response:
        """At a table with a clock: you are back, so the bot stops playing for your seat
        (after ``timeouts_before_away`` timeouts in a row it plays for you at once); on your
        turn your clock runs again. Acting on your turn does the same. Safe to send twice."""
        table = self.get_object()
        answer = services.seat_back(table_id=table.pk, user=signed_in(request))
        return Response(SeatBackSerializer(answer).data)

    @extend_schema(
        summary="Reopen a closed table",
        request=None,
        responses={
            200: TableSerializer,
            403: OpenApiResponse(
                ErrorSerializer,
                description="permission_denied: only the club's owners and admins or the "
                "tournament's directors reopen it (players: their own tables of no club).",
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description="table_conflict: the table is open, a later table of its series "
                "has opened, or its tournament round or club evening is closed.",
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def reopen(self, request: Request, table_id: str | None = None) -> Response:
        """Reopen a table closed by mistake: what its close did to the pot is taken back and
        hands may be recorded again (close it again when done). In the audit log as
        ``table_reopen``, with the settlement and ledger rows taken back."""
        table = self.get_object()
        services.table_reopen(table_id=table.pk, user=signed_in(request))
        table = self.get_queryset().get(pk=table.pk)
        return Response(TableSerializer(table, context=self.get_serializer_context()).data)

    @extend_schema(summary="Balances at a table", responses={200: BalancesSerializer})
    @action(detail=True, methods=["get"])
    def balances(self, request: Request, table_id: str | None = None) -> Response:
        """Every party's balance from the ledger: seats, ``pot`` and ``series``."""
        table = self.get_object()
        return Response(BalancesSerializer({"balances": services.table_balances(table)}).data)

    @extend_schema(summary="Settlement preview", responses={200: SettlementSerializer})
    @action(detail=True, methods=["get"])
    def settlement(self, request: Request, table_id: str | None = None) -> Response:
        """Who would pay whom if the table settled now (after close: what was settled)."""
        table = self.get_object()
        settled = with_sentences(
            table, services.settlement_for(table), _party_names(table, request)
        )
        return Response(SettlementSerializer(settled).data)

    @extend_schema(
        summary="Score sheet",
        description="The running score sheet: per settled hand the dealer, game, declarer, "
        "made, fallen, every seat's running balance and the pot after (hands being played "
        "are left out). The same sheet as CSV: `GET …/sheet.csv` (`tables_get_sheet_csv`).",
        responses={(200, "application/json"): ref("ScoreSheet")},
        examples=[examples.sheet_example()],
    )
    # ``?format=csv`` and ``Accept: text/csv`` still answer CSV here, as in API 1.1.0; the
    # schema documents the CSV as its own operation, TableSheetCSVView (config/api/text.py).
    @action(
        detail=True,
        methods=["get"],
        renderer_classes=[JSONRenderer, BrowsableAPIRenderer, SheetCSVRenderer],
    )
    def sheet(self, request: Request, table_id: str | None = None) -> Response:
        table = self.get_object()
        return Response(sheet_data(table, request))


def _party_names(table: Table, request: Request) -> dict[str, str]:
    """Seat key → the name the caller reads for its player (:func:`selectors.table_names`)."""
    return selectors.table_names(table, caller(request)).party_names(table)


def sheet_data(table: Table, request: Request) -> dict[str, Any]:
    """The table's score sheet as its JSON answer (and the CSV's source), its seats named as
    the caller reads them."""
    hands = selectors.hands_for_table(table=table)
    return score_sheet(table, hands, _party_names(table, request))


class TableScopedMixin(generics.GenericAPIView[Any]):
    """Views under ``tables/{table_id}/``: the table from the caller's readable tables."""

    def get_table(self) -> Table:
        table = selectors.table_for_user(
            user=caller(self.request), table_id=self.kwargs["table_id"]
        )
        if table is None:
            raise NotFound(str(NO_SUCH_TABLE))
        self.check_object_permissions(self.request, table)
        return table


class TableSheetCSVView(TableScopedMixin, TextAnswerView):
    """The score sheet as CSV: its own operation, so generated clients read it as text."""

    permission_classes = [TablePermissions, TableAccess]

    @extend_schema(
        summary="Score sheet as CSV",
        description="The score sheet of `tables_get_sheet` as CSV (UTF-8, a header row): "
        "`number,dealer,game,declarer,made,fallen,<seat keys…>,pot`, one row per settled "
        "hand, balances and pot in minor units. Errors answer JSON.",
        parameters=[TABLE_ID],
        responses={(200, "text/csv"): text_response("The score sheet, one row per hand.")},
    )
    def get(self, request: Request, table_id: int) -> HttpResponse:
        table = self.get_table()
        return file_answer(
            sheet_csv(sheet_data(table, request)),
            media_type="text/csv",
            filename=f"table-{table.pk}.csv",
        )


@extend_schema(parameters=[TABLE_ID])
class TableLogView(TableScopedMixin, generics.ListAPIView[Any]):
    """A table's log, read through ``select`` (a selector taking ``table``): one view for
    the ledger and the audit log, each URL giving its ``select``, ``queryset`` (the model,
    empty), serializer, filter, ``summary`` and ``description`` through ``as_view``."""

    permission_classes = [TablePermissions, TableAccess]
    filterset_class: type[filters.FilterSet] | None = None
    select: Callable[..., QuerySet[Any]] | None = None
    summary: str | None = None
    description: str | None = None

    def get_queryset(self) -> QuerySet[Any]:
        assert self.queryset is not None and self.select is not None
        if getattr(self, "swagger_fake_view", False):
            return self.queryset.none()
        self.table = self.get_table()
        return self.select(table=self.table)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if hasattr(self, "table"):  # the audit log names who changed what
            context["table"] = self.table
            context["names"] = selectors.table_names(self.table, caller(self.request))
        return context


# ---------------------------------------------------------------------------------------------
# hands


class HandListView(TableScopedMixin, generics.ListAPIView[Hand]):
    """A table's hands (public information); POST records or deals the next one."""

    serializer_class = HandSerializer
    filterset_class = HandFilter
    pagination_class = WindowCountPagination
    optional_body_methods = frozenset({"POST"})  # a hosted table deals without a body
    permission_classes = [TablePermissions, TableAccess]
    queryset = Hand.objects.none()
    table: Table

    def get_queryset(self) -> QuerySet[Hand]:
        if getattr(self, "swagger_fake_view", False):
            return Hand.objects.none()
        self.table = self.get_table()
        return selectors.hands_for_table(table=self.table)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if hasattr(self, "table"):
            context["table"] = self.table
            context["names"] = selectors.table_names(self.table, caller(self.request))
        return context

    @extend_schema(parameters=[TABLE_ID], summary="A table's hands")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Record or deal the next hand",
        parameters=[TABLE_ID, IDEMPOTENCY_KEY],
        request=ScoreSheetEntrySerializer,
        examples=ENTRY_EXAMPLES,
        responses={201: HandSerializer, 409: CONFLICT, 422: IDEMPOTENCY_REUSED},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Recorded table: the body is a score-sheet entry (form 1 without the common part;
        the server fills it in and the engine settles it). Hosted table: no body; the server
        deals the next hand and publishes its commitment."""
        user = signed_in(request)
        table_id = self.kwargs["table_id"]
        mode = selectors.mode_if_seated(user=user, table_id=table_id)
        if mode is None:  # not a player: 404 if unreadable, 403 unless a club admin/director
            table = self.get_table()
            mode = table.mode

        def act() -> tuple[int, Any]:
            if mode == Table.Mode.HOSTED:
                hand = services.hand_start(table_id=table_id, user=user)
            else:
                hand = services.table_record_hand(table_id=table_id, user=user, entry=request.data)
            return 201, hand_data(hand.table, hand, user)

        return _once(request, act)


def hand_data(table: Table, hand: Hand, reader: User | AnonymousUser) -> Any:
    """``hand``'s public information (:class:`HandSerializer`) as ``reader`` reads it."""
    names = selectors.table_names(table, reader)
    return HandSerializer(hand, context={"table": table, "names": names}).data


class HandScopedMixin(TableScopedMixin):
    """Views under ``tables/{table_id}/hands/{number}/``."""

    def get_hand(self) -> tuple[Table, Hand]:
        hand = selectors.hand_for_user(
            user=caller(self.request),
            table_id=self.kwargs["table_id"],
            number=self.kwargs["number"],
        )
        if hand is None:
            raise NotFound(_("There is no such hand."))
        self.check_object_permissions(self.request, hand.table)
        return hand.table, hand


class HandDetailView(HandScopedMixin):
    """One hand: its public information; recorded hands are corrected or deleted here."""

    serializer_class = HandSerializer
    permission_classes = [TablePermissions, TableAccess]
    queryset = Hand.objects.none()

    @extend_schema(parameters=[TABLE_ID, NUMBER], summary="A hand")
    def get(self, request: Request, table_id: int, number: int) -> Response:
        table, hand = self.get_hand()
        return Response(hand_data(table, hand, caller(request)))

    @extend_schema(
        summary="Correct a recorded hand",
        parameters=[TABLE_ID, NUMBER],
        request=ScoreSheetEntrySerializer,
        examples=CORRECTION_EXAMPLES,
        responses={200: HandSerializer, 409: CONFLICT},
    )
    def put(self, request: Request, table_id: int, number: int) -> Response:
        """Replace the entry; this hand and every later one are recomputed (dealer, pot,
        stake, settlement, ledger). A later hand that no longer settles: 409
        ``later_hand_invalid``, nothing written."""
        table, _ = self.get_hand()
        hand = services.hand_edit(
            table_id=table.pk, number=number, user=signed_in(request), entry=request.data
        )
        return Response(hand_data(table, hand, caller(request)))

    @extend_schema(
        summary="Delete a recorded hand",
        parameters=[TABLE_ID, NUMBER],
        request=None,
        responses={204: None, 409: CONFLICT},
    )
    def delete(self, request: Request, table_id: int, number: int) -> Response:
        """Remove the hand; later hands move up and are recomputed."""
        table, _ = self.get_hand()
        services.hand_delete(table_id=table.pk, number=number, user=signed_in(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class HandConfirmView(HandScopedMixin):
    """A second seated player confirms a pending entry."""

    serializer_class = HandSerializer
    permission_classes = [TablePermissions, TableAccess]
    queryset = Hand.objects.none()

    @extend_schema(
        summary="Confirm a recorded hand",
        parameters=[TABLE_ID, NUMBER],
        request=None,
        responses={200: HandSerializer, 409: CONFLICT},
    )
    def post(self, request: Request, table_id: int, number: int) -> Response:
        table, _ = self.get_hand()
        hand = services.hand_confirm(table_id=table.pk, number=number, user=signed_in(request))
        return Response(hand_data(table, hand, caller(request)))


def seat_view(table: Table, hand: Hand, user: User | AnonymousUser) -> dict[str, Any]:
    """The hand as ``user`` may see it: hosted, the engine's view for the caller's seat (a
    spectator's when not seated), with result and proof after the end (while a deal source
    withholds the board: what the seat saw during play, the result and a null proof);
    recorded, the complete entry and its result."""
    head = {
        "mode": table.mode,
        "variant": table.rules["variant"],
        "number": hand.number,
        "status": hand.status,
    }
    if table.mode == Table.Mode.RECORDED:
        entry = {**services.hand_common(table, hand), **(hand.entry or {})}
        return {**head, "version": hand.version, "entry": entry, "result": hand.result}
    seat = seat_of(user, table)
    withheld = services.hand_withheld(table, hand)
    seen = services.hand_view(table, hand, seat.key if seat else None, withheld=withheld)
    out = {**head, **seen}
    out["version"] = hand.version
    out["clock"] = hand_clock(table, hand, timezone.now())
    out["timeouts"] = hand_timeouts(hand)
    if hand.status == Hand.Status.DONE:
        out["result"] = hand.result
        out["proof"] = services.hand_proof(table, hand, withheld=withheld)
    return out


#: A hosted hand as the caller's seat sees it on its turn: its cards only, the others' counts.
HAND_VIEW_EXAMPLE = examples.hand_view_example()


class HandSeatView(HandScopedMixin):
    """The hand from the caller's seat."""

    permission_classes = [TablePermissions, TableAccess]
    queryset = Hand.objects.none()

    @extend_schema(
        summary="The hand as you see it",
        parameters=[TABLE_ID, NUMBER],
        responses={200: ref("HandView")},
        examples=[HAND_VIEW_EXAMPLE],
    )
    def get(self, request: Request, table_id: int, number: int) -> Response:
        """Your seat's view (own cards, public actions, ``legal`` on your turn); non-players
        get the spectator view. After the hand: everything, with result and proof; while the
        board is still being played at other tables (duplicate), only what you saw during
        play, the result and a null proof. At a table with a clock the view carries each
        person's clock (``clock``) and the actions a timeout policy played (``timeouts``)."""
        table, hand = self.get_hand()
        if services.flags_due_on_read(table, hand):
            table, hand = self.get_hand()
        return Response(seat_view(table, hand, caller(request)))


class HandActionView(HandScopedMixin):
    """A seated player's move in a hosted hand."""

    serializer_class = ActionInputSerializer
    permission_classes = [TablePermissions]  # the seat is checked below (403 not_seated)
    queryset = Hand.objects.none()

    @extend_schema(
        summary="Act in a hosted hand",
        parameters=[TABLE_ID, NUMBER, IDEMPOTENCY_KEY],
        request=ActionInputSerializer,
        examples=[*ACTION_EXAMPLES, HAND_VIEW_EXAMPLE],
        responses={
            200: OpenApiResponse(ref("HandView"), description="Your new view and version."),
            403: OpenApiResponse(ErrorSerializer, description="not_seated or not_your_turn."),
            409: OpenApiResponse(ErrorSerializer, description="hand_over or stale_version."),
            422: IDEMPOTENCY_REUSED,
        },
    )
    def post(self, request: Request, table_id: int, number: int) -> Response:
        """Checked in order: the hand is being played (409 ``hand_over``), the version (409
        ``stale_version``), your seat and turn (403), then the rules (400
        ``rule_violation`` with the rule in words)."""
        user = signed_in(request)
        if selectors.mode_if_seated(user=user, table_id=table_id) is None:
            # not a player here: 404 for a table the caller may not read, else 403
            self.get_hand()
            raise NotYourTurn(_("You have no seat at this table."), code="not_seated")
        serializer = ActionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)

        def act() -> tuple[int, Any]:
            hand = services.hand_apply_action(
                table_id=table_id,
                number=number,
                user=user,
                action=serializer.validated_data["action"],
                expected_version=serializer.validated_data["expected_version"],
                lag_ms=serializer.validated_data["lag_ms"],
            )
            return 200, seat_view(hand.table, hand, user)

        return _once(request, act)


class HandRecordView(HandScopedMixin):
    """The complete record of a finished hand."""

    serializer_class = HandRecordSerializer
    permission_classes = [TablePermissions, TableAccess]
    queryset = Hand.objects.none()

    @extend_schema(
        summary="A hand's complete record",
        parameters=[TABLE_ID, NUMBER],
        responses={
            200: HandRecordSerializer,
            409: OpenApiResponse(
                ErrorSerializer, description="hand_in_progress or board_not_revealed."
            ),
        },
    )
    def get(self, request: Request, table_id: int, number: int) -> Response:
        """Hosted: the full record (form 2) with its proof, once the hand is over (409
        ``hand_in_progress`` before; 409 ``board_not_revealed`` while the same board is still
        being played at other tables). Recorded: the complete score-sheet entry."""
        table, hand = self.get_hand()
        if table.mode == Table.Mode.HOSTED:
            record = services.hand_full_record(table, hand)
        else:
            record = {
                **services.hand_common(table, hand),
                **(hand.entry or {}),
            }
        body = {
            "mode": table.mode,
            "number": hand.number,
            "status": hand.status,
            "record": record,
            "result": hand.result,
            "timeouts": hand_timeouts(hand),
        }
        return Response(body)


class HandHintView(HandScopedMixin):
    """A hint for a seated player: the move a bot would make for the seat."""

    serializer_class = HandHintSerializer
    permission_classes = [TablePermissions]  # the seat is checked below (403 not_seated)
    queryset = Hand.objects.none()

    @extend_schema(
        summary="A hint for your move",
        parameters=[TABLE_ID, NUMBER],
        responses={
            200: HandHintSerializer,
            403: OpenApiResponse(ErrorSerializer, description="not_seated or not_your_turn."),
            409: OpenApiResponse(ErrorSerializer, description="hints_off or hand_over."),
        },
    )
    def get(self, request: Request, table_id: int, number: int) -> Response:
        """What a bot would send for your seat now, from your seat's view alone (never from
        cards you cannot see): the strongest level the rule set has (``pimc``, else
        ``heuristic``), thinking at most half a second. Only at tables created with
        ``hints: true`` (409 ``hints_off``), on your turn (403 ``not_your_turn``)."""
        if not request.user.is_authenticated:
            raise NotAuthenticated(_("Sign in to ask for a hint."))
        user = signed_in(request)
        table, hand = self.get_hand()
        seat = seat_of(user, table)
        if seat is None:
            raise NotYourTurn(_("You have no seat at this table."), code="not_seated")
        return Response(services.hand_hint(table, hand, seat))


class HandAnalysisView(HandScopedMixin):
    """Where a finished hand went wrong: the double-dummy analysis."""

    serializer_class = HandAnalysisSerializer
    permission_classes = [TablePermissions, TableAccess]
    queryset = Hand.objects.none()

    @extend_schema(
        summary="A finished hand's double-dummy analysis",
        parameters=[TABLE_ID, NUMBER],
        responses={
            200: HandAnalysisSerializer,
            202: HandAnalysisSerializer,
            409: OpenApiResponse(
                ErrorSerializer,
                description="hand_in_progress, board_not_revealed, or no_deal (a hand recorded "
                "from its score sheet, without the cards).",
            ),
        },
    )
    def get(self, request: Request, table_id: int, number: int) -> Response:
        """The double-dummy result of the deal as dealt and, for every card played, the
        tricks it gave away against best play, with the cards that would have kept them.
        Computed once by a worker: 202 ``pending`` until it is there (ask again), then 200.
        Only once the hand may be read in full (409 ``hand_in_progress`` before the end, 409
        ``board_not_revealed`` while a duplicate board is still played elsewhere); a
        recorded hand needs its full record (409 ``no_deal`` for a score-sheet entry)."""
        table, hand = self.get_hand()
        analysis = services.hand_analysis(table, hand)
        if analysis is None:
            return Response(
                {"status": "pending", "analysis": None}, status=status.HTTP_202_ACCEPTED
            )
        return Response({"status": "done", "analysis": with_timeouts(hand, analysis)})


def with_timeouts(hand: Hand, analysis: dict[str, Any]) -> dict[str, Any]:
    """``analysis`` with each card marked ``by_timeout`` when a timeout policy played it: the
    card is a value of the timed-out action of its seat (a card is played once a hand)."""
    timed = [hand.actions[t["action"]] for t in hand_timeouts(hand)]
    cards = [
        {
            **card,
            "by_timeout": any(
                a.get("seat") == card["seat"] and card["card"] in a.values() for a in timed
            ),
        }
        for card in analysis.get("cards", ())
    ]
    return {**analysis, "cards": cards}


# ---------------------------------------------------------------------------------------------
# series


@extend_schema_view(
    list=extend_schema(summary="Series you may read"),
    retrieve=extend_schema(summary="A series"),
)
class SeriesViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[TableSeries],
):
    """Series of sittings sharing a carried pot, with the pot the series holds."""

    serializer_class = SeriesSerializer
    permission_classes = [TablePermissions]
    lookup_url_kwarg = "series_id"
    lookup_value_converter = "id"  # as every <id:…> path: other values 404
    queryset = TableSeries.objects.none()

    def get_queryset(self) -> QuerySet[TableSeries]:
        return selectors.series_for_user(user=caller(self.request))

    @extend_schema(
        summary="Start a series",
        request=SeriesCreateSerializer,
        responses={201: SeriesSerializer},
        examples=[
            OpenApiExample(
                "Tuesday evenings", value={"name": "Dienstagsrunde 2026"}, request_only=True
            )
        ],
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = SeriesCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        series = services.table_series_create(
            user=signed_in(request),
            name=serializer.validated_data["name"],
            club_id=serializer.validated_data["club"],
        )
        series = self.get_queryset().get(pk=series.pk)
        return Response(SeriesSerializer(series).data, status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------------
# worker pings


class WorkerPingFilter(filters.FilterSet):
    """Filter pings by status."""

    class Meta:
        model = WorkerPing
        fields = ("status",)


@extend_schema_view(
    list=extend_schema(summary="My worker pings"),
    retrieve=extend_schema(summary="A worker ping"),
)
class WorkerPingViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[WorkerPing]
):
    """The signed-in user's worker pings."""

    serializer_class = WorkerPingSerializer
    filterset_class = WorkerPingFilter
    lookup_url_kwarg = "ping_id"
    lookup_value_converter = "id"  # as every <id:…> path: other values 404
    queryset = WorkerPing.objects.none()

    def get_queryset(self) -> QuerySet[WorkerPing]:
        user = self.request.user
        if not isinstance(user, User):
            return WorkerPing.objects.none()
        return selectors.worker_pings_for_user(user=user)

    @extend_schema(
        summary="Ask a worker to answer", request=None, responses={201: WorkerPingSerializer}
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Create a ping; a worker completes it after the transaction commits."""
        assert isinstance(request.user, User)
        ping = services.ping_create(user=request.user)
        return Response(WorkerPingSerializer(ping).data, status=status.HTTP_201_CREATED)
