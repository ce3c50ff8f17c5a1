"""Rounds of a club evening (seat rotation), its tables, closing and settling it.

Members see the rounds, tables and settlement of their club's evenings (anyone on a public
club); owners and admins plan, swap, start and discard rounds and close the evening.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import generics, permissions, serializers, status
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors
from clubs.api import seasons
from clubs.errors import ClubNotFound
from clubs.models import Club, Evening, EveningRound, EveningTable
from clubs.players import names_for, seat_player
from clubs.selectors.evenings import evening_tables_of, evening_with_club
from clubs.services import rounds
from config.api.callers import caller, signed_in
from config.api.parsers import StrictJSONParser
from config.api.schema import ErrorSerializer
from config.api.text import DataCSVRenderer, TextAnswerView, csv_text, file_answer, text_response
from games.models import Seat, Table
from games.services import BOT_LEVELS as BOT_LEVEL_CHOICES

CLUB_ID = OpenApiParameter("club_id", OpenApiTypes.INT, OpenApiParameter.PATH)
EVENING_ID = OpenApiParameter("evening_id", OpenApiTypes.INT, OpenApiParameter.PATH)
ROUND_NUMBER = OpenApiParameter(
    "round_number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The round's number."
)
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input or a seating refusal."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="Not an owner or admin of the club."),
    404: OpenApiResponse(ErrorSerializer, description="No such club, evening or round."),
    409: OpenApiResponse(ErrorSerializer, description="The evening or round does not allow it."),
}
READ_ERRORS = {404: ERRORS[404]}


def evening_for(
    request: Request, club_id: int, evening_id: int, *, manage: bool = False
) -> tuple[Club, Evening]:
    """The evening of a club the caller may see (404 otherwise); with ``manage``, a club the
    caller runs (403 when they can see it but do not)."""
    user = caller(request)
    club = (
        selectors.club_for_manager(user=user, club_id=club_id)
        if manage
        else selectors.club_for_user(user=user, club_id=club_id)
    )
    return club, evening_with_club(club=club, evening_id=evening_id)


# ---------------------------------------------------------------------------------------------
# serializers


class RoundSeatSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.CharField(
        help_text="u:<user id> or g:<guest id>; b:<n> for a bot the director asked for."
    )
    name = serializers.CharField(help_text="The player's name; a bot's is \"Bot 1 (pimc)\".")


class RoundTableSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(help_text="Table number within the round.")
    table_id = serializers.IntegerField(
        allow_null=True, help_text="The games table, once the round has started."
    )
    seats = RoundSeatSerializer(many=True, help_text="In playing order.")


class RoundPlanPartsSerializer(serializers.Serializer[dict[str, Any]]):
    """The plan's objective in its parts (``clubs.seating.Score``), compared in order."""

    repeats = serializers.FloatField(help_text="Repeated meetings (the convex penalty).")
    history = serializers.FloatField(help_text="Meetings earlier in the season, weighted.")
    balance = serializers.FloatField(help_text="Sittings at non-preferred tables, weighted.")


class RoundPlanRepeatSerializer(serializers.Serializer[dict[str, Any]]):
    """Two players who share a table in more than one round of the evening."""

    players = serializers.ListField(
        child=serializers.CharField(), min_length=2, max_length=2, help_text="Player keys."
    )
    meetings = serializers.IntegerField(min_value=2, help_text="Rounds they share a table.")
    repeats = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The meetings beyond the first (absent in older plans).",
    )
    weight = serializers.FloatField(
        help_text="The share of deals they play together (1 = one three-table)."
    )


class RoundPlanTableCountSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.CharField(help_text="A player key.")
    count = serializers.IntegerField(
        min_value=0, help_text="Sittings at a non-preferred table (a four-table) this evening."
    )


class RoundPlanBotsSerializer(serializers.Serializer[dict[str, Any]]):
    """The bots a director asked for this round."""

    count = serializers.IntegerField(min_value=1, help_text="Bots seated (b:1, b:2, …).")
    level = serializers.ChoiceField(choices=list(BOT_LEVEL_CHOICES), help_text="Their level.")


class RoundPlanSerializer(serializers.Serializer[dict[str, Any]]):
    """The seating service's explanation of a round (``clubs.seating.Plan.to_json`` with the
    evening's ``rounds_total`` and ``seed``, and the swaps made by hand)."""

    rounds = serializers.ListField(
        child=serializers.ListField(child=serializers.ListField(child=serializers.CharField())),
        help_text="The evening's rounds: those played before, this one, then those planned "
        "after it; each round its tables, each table its player keys in seat order.",
    )
    fixed_rounds = serializers.IntegerField(
        min_value=0, help_text="Rounds played before this one (this one is rounds[fixed_rounds])."
    )
    objective = serializers.FloatField(help_text="Repeats and history: lower is better.")
    objective_parts = RoundPlanPartsSerializer()
    lower_bound = serializers.FloatField(help_text="No plan's objective can be lower.")
    balance_lower_bound = serializers.FloatField(
        required=False,
        help_text="No plan's balance can be lower (absent in older plans).",
    )
    proven_optimal = serializers.BooleanField(help_text="The plan meets both lower bounds.")
    random_objective = serializers.FloatField(
        help_text="The mean objective of random seatings, for comparison."
    )
    repeats = RoundPlanRepeatSerializer(many=True)
    other_table_counts = RoundPlanTableCountSerializer(many=True)
    method = serializers.CharField(
        help_text='How the plan was found: "exact search" (proven optimal by searching every '
        'seating), "local search", the design the search started from, or "the current '
        "plan's remaining rounds\" (a re-plan that kept them)."
    )
    iterations = serializers.IntegerField(min_value=0, help_text="Search steps taken.")
    seed = serializers.IntegerField(min_value=0, help_text="The plan again from the same seed.")
    rounds_total = serializers.IntegerField(min_value=1, help_text="Rounds of the whole evening.")
    swapped = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2),
        required=False,
        help_text="Pairs of player keys swapped by hand, in order; absent without swaps.",
    )
    bots = RoundPlanBotsSerializer(
        required=False, help_text="The bots filling seats this round; absent without bots."
    )


@extend_schema_field(RoundPlanSerializer)
class RoundPlanField(serializers.JSONField):
    """A round's plan as stored (the schema names its fields)."""


class RoundSerializer(serializers.Serializer[dict[str, Any]]):
    """A round: its tables (planned groups, then the games tables) and the plan's
    explanation (objective, lower bound, random-seating objective, repeated pairs)."""

    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=EveningRound.Status.choices)
    tables = RoundTableSerializer(many=True)
    plan = RoundPlanField(
        help_text="The seating service's explanation: objective, lower_bound, "
        "random_objective, repeats, rounds_total, seed, and the rounds planned after this one."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)


def round_names(rnd: EveningRound) -> dict[str, str]:
    """The names of a round's players, and of its bots (``Bot 1 (pimc)``)."""
    levels = rounds.bot_levels_of(rnd)
    people = names_for(p for group in rnd.groups for p in group if p not in levels)
    return {**people, **{key: rounds.bot_name(key, level) for key, level in levels.items()}}


def public_names(
    club_id: int, reader: Any, names: Mapping[str, str], players: list[str]
) -> dict[str, str]:
    """``names`` (player key → name) as ``reader`` reads them in a list of the club
    (docs/privacy.md, "Names in public lists"): the club's members every name, others a
    pseudonym where the person did not agree under the club's policy. Bots keep their names."""
    people = [p for p in players if not rounds.is_bot_key(p)]
    listed = [(p, int(p[2:]) if p.startswith("u:") else None) for p in people]
    shown = seasons.names_for(club_id=club_id, reader=reader, players=listed)
    return {p: shown.row({"player": p, "name": names[p]})["name"] for p in names}


def round_data(rnd: EveningRound, reader: Any = None) -> dict[str, Any]:
    """A round as the API answers it; with ``reader``, its names as that reader reads them
    (:func:`public_names`; without: every name, for the managers' own commands)."""
    names = round_names(rnd)
    if reader is not None:
        names = public_names(rnd.evening.club_id, reader, names, list(names))
    tables = {link.number: link.table_id for link in rnd.tables.all()}
    return {
        "number": rnd.number,
        "status": rnd.status,
        "tables": [
            {
                "number": i,
                "table_id": tables.get(i),
                "seats": [{"player": p, "name": names[p]} for p in group],
            }
            for i, group in enumerate(rnd.groups, 1)
        ],
        "plan": rnd.plan,
        "created_at": rnd.created_at,
        "started_at": rnd.started_at,
    }


class RoundCreateSerializer(serializers.Serializer[dict[str, Any]]):
    rounds_total = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=rounds.MAX_ROUNDS,
        help_text="Rounds of the whole evening (default: as planned before, else 3).",
    )
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, help_text="For a reproducible plan."
    )
    forbidden = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2),
        required=False,
        default=list,
        help_text='Pairs who never share a table: [["u:3", "u:7"]].',
    )
    bots = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=rounds.MAX_BOTS,
        help_text="Bots to fill empty seats this round, one a table at most (a count that "
        "does not split into the rule set's tables, such as 5 players at tables of 3, plays "
        "with one bot); their tables are hosted "
        "(dealt and played through the API). Bots are never ranked, rated or settled as "
        "players: what they win or lose is the club's (`bots_net`). Omitted: none.",
    )
    bot_level = serializers.ChoiceField(
        choices=list(BOT_LEVEL_CHOICES),
        required=False,
        help_text="The bots' level (the rule set's own levels: GET /api/v1/rules/). "
        "Omitted: the strongest the evening's game offers.",
    )


class SwapSerializer(serializers.Serializer[dict[str, Any]]):
    a = serializers.CharField(help_text="A player key of the round.")
    b = serializers.CharField(help_text="Another player key of the round.")


class EveningPaymentSerializer(serializers.Serializer[dict[str, Any]]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "from": serializers.CharField(help_text="Player key, pot or bots (the club)."),
            "from_name": serializers.CharField(),
            "to": serializers.CharField(),
            "to_name": serializers.CharField(),
            "amount": serializers.IntegerField(help_text="Minor units (cents)."),
            "sentence": serializers.CharField(help_text='e.g. "Carl pays Anna 3.40 €".'),
        }


class PlayerNetSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.CharField()
    name = serializers.CharField()
    net = serializers.IntegerField(help_text="Minor units won (+) or lost (−) this evening.")
    score = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="Where some table of the evening scores its sitting as a whole (its rule "
        "set's `score_unit`): the player's score over those tables in `score_unit`, each "
        "sitting as it stands while its table is open; null otherwise.",
    )


class EveningSettlementSerializer(serializers.Serializer[dict[str, Any]]):
    """Each player's net over the evening's tables and the payments that settle them."""

    final = serializers.BooleanField(help_text="False until the evening is closed.")
    score_unit = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="The unit of the players' `score` (the rule set's `score_unit`); null when "
        "no table of the evening is scored as a whole. Such a sitting moves money (its price "
        "per unit) when its table closes.",
    )
    players = PlayerNetSerializer(many=True)
    pot_net = serializers.IntegerField(help_text="What the pot keeps (carried on) this evening.")
    bots_net = serializers.IntegerField(
        help_text="What the bots that filled seats won (+) or lost (−) this evening, in minor "
        "units: the club's money (the party `bots`, named the club, in the payments); 0 "
        "without bots."
    )
    payments = EveningPaymentSerializer(many=True)
    payments_proven = serializers.BooleanField(
        allow_null=True,
        help_text="True: no settlement takes fewer payments (proven by the search); false: "
        "these settle every net exactly but fewer might be possible; null: an evening "
        "closed before this was recorded.",
    )


class EveningTableSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField()
    table_id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    seats = RoundSeatSerializer(many=True)


def settlement_csv(data: Mapping[str, Any]) -> str:
    """An evening's settlement as CSV: the payments (from, to, amount, sentence), a blank
    line, then each player's net.

    The header cells (``from,to,amount,sentence``, ``player,net``) are column names that
    programs read (the OpenAPI description names them) and stay English in every language,
    as JSON keys do; the cells for people (the sentences, the pot's and the bots' names)
    speak the reader's language (:func:`clubs.services.rounds.evening_settlement`)."""
    rows: list[list[Any]] = [["from", "to", "amount", "sentence"]]
    rows += [[p["from_name"], p["to_name"], p["amount"], p["sentence"]] for p in data["payments"]]
    if data.get("score_unit"):
        rows += [[], ["player", "net", data["score_unit"]]]
        rows += [[row["name"], row["net"], row.get("score")] for row in data["players"]]
    else:
        rows += [[], ["player", "net"]]
        rows += [[row["name"], row["net"]] for row in data["players"]]
    return csv_text(rows)


class SettlementCSVRenderer(DataCSVRenderer):
    key = "payments"
    to_csv = staticmethod(settlement_csv)


# ---------------------------------------------------------------------------------------------
# views


class RoundListView(generics.GenericAPIView[Any]):
    """``GET``: the evening's rounds (paginated); ``POST``: plan the next round."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    serializer_class = RoundSerializer
    queryset = EveningRound.objects.none()

    @extend_schema(
        summary="An evening's rounds",
        parameters=[CLUB_ID, EVENING_ID],
        responses={200: RoundSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, club_id: int, evening_id: int) -> Response:
        _club, evening = evening_for(request, club_id, evening_id)
        found = evening.rounds.prefetch_related("tables").order_by("number")
        page = self.paginate_queryset(found) or []
        return self.get_paginated_response([round_data(r, request.user) for r in page])

    @extend_schema(
        summary="Plan the next round",
        description="Seats the players checked in now at tables of the rule set's shapes "
        "(its `seats` in GET /api/v1/rules/: the smallest table, with larger ones only where "
        "the count needs them), with the fewest repeated "
        "opponents this evening and in the season; a count that cannot be seated is a 400 "
        "`unsplittable` saying what would work (fewer or more players, byes, or `bots` to fill "
        "the empty seats). The round is *planned*: swap players by hand, then start it to open "
        "its tables.",
        parameters=[CLUB_ID, EVENING_ID],
        request=RoundCreateSerializer,
        responses={201: RoundSerializer, **ERRORS},
        examples=[
            OpenApiExample("Three rounds", value={"rounds_total": 3}, request_only=True),
            OpenApiExample(
                "Five players and a bot",
                value={"rounds_total": 3, "bots": 1, "bot_level": "pimc"},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, club_id: int, evening_id: int) -> Response:
        _club, evening = evening_for(request, club_id, evening_id, manage=True)
        data = RoundCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = rounds.round_plan(
            user=signed_in(request),
            evening_id=evening.pk,
            rounds_total=data.validated_data.get("rounds_total"),
            seed=data.validated_data.get("seed"),
            forbidden=data.validated_data["forbidden"],
            bots=data.validated_data["bots"],
            bot_level=data.validated_data.get("bot_level"),
        )
        return Response(round_data(rnd), status=status.HTTP_201_CREATED)


def _round(evening: Evening, number: int) -> EveningRound:
    rnd = evening.rounds.prefetch_related("tables").filter(number=number).first()
    if rnd is None:
        raise ClubNotFound(_("This evening has no round {number}.").format(number=number))
    return rnd


class RoundDetailView(APIView):
    """``GET``: one round; ``DELETE``: discard a planned round."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A round",
        parameters=[CLUB_ID, EVENING_ID, ROUND_NUMBER],
        responses={200: RoundSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, club_id: int, evening_id: int, round_number: int) -> Response:
        _club, evening = evening_for(request, club_id, evening_id)
        return Response(round_data(_round(evening, round_number), request.user))

    @extend_schema(
        summary="Discard a planned round",
        parameters=[CLUB_ID, EVENING_ID, ROUND_NUMBER],
        responses={204: None, **ERRORS},
    )
    def delete(
        self, request: Request, club_id: int, evening_id: int, round_number: int
    ) -> Response:
        _club, evening = evening_for(request, club_id, evening_id, manage=True)
        _round(evening, round_number)
        rounds.round_discard(user=signed_in(request), evening_id=evening.pk, number=round_number)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundSwapView(APIView):
    parser_classes = [StrictJSONParser]

    @extend_schema(
        summary="Swap two players of a planned round",
        description=(
            "Owners and admins exchange the seats of two players (`u:<user id>` or "
            "`g:<guest id>`, as in the round's `tables`) before the round starts; nothing "
            "else moves, and the swap is kept in the round's `plan`. A started round is 409 "
            "`round_started`."
        ),
        parameters=[CLUB_ID, EVENING_ID, ROUND_NUMBER],
        request=SwapSerializer,
        responses={200: RoundSerializer, **ERRORS},
        examples=[OpenApiExample("Swap", value={"a": "u:3", "b": "g:1"}, request_only=True)],
    )
    def post(self, request: Request, club_id: int, evening_id: int, round_number: int) -> Response:
        _club, evening = evening_for(request, club_id, evening_id, manage=True)
        _round(evening, round_number)
        data = SwapSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = rounds.round_swap(
            user=signed_in(request),
            evening_id=evening.pk,
            number=round_number,
            a=data.validated_data["a"],
            b=data.validated_data["b"],
        )
        return Response(round_data(_round(evening, rnd.number)))


class RoundStartView(APIView):
    @extend_schema(
        summary="Start a round: open its tables",
        description="Creates one games table per planned table, all in one transaction; the "
        "answer names each table's id. A table is recorded, or hosted where a bot fills a seat "
        "(deal its hands at `/api/v1/tables/{table_id}/hands/`; the bots move by themselves).",
        parameters=[CLUB_ID, EVENING_ID, ROUND_NUMBER],
        request=None,
        responses={200: RoundSerializer, **ERRORS},
    )
    def post(self, request: Request, club_id: int, evening_id: int, round_number: int) -> Response:
        _club, evening = evening_for(request, club_id, evening_id, manage=True)
        _round(evening, round_number)
        rounds.round_start(user=signed_in(request), evening_id=evening.pk, number=round_number)
        return Response(round_data(_round(evening, round_number)))


class EveningTablesView(generics.GenericAPIView[Any]):
    permission_classes = [permissions.AllowAny]
    serializer_class = EveningTableSerializer
    queryset = EveningTable.objects.none()

    @extend_schema(
        summary="An evening's tables",
        description="Every games table of the evening with its round, number and seats; "
        "open them at `/api/v1/tables/{table_id}/`.",
        parameters=[CLUB_ID, EVENING_ID],
        responses={200: EveningTableSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, club_id: int, evening_id: int) -> Response:
        _club, evening = evening_for(request, club_id, evening_id)
        links = evening_tables_of(evening=evening)
        out = []
        for link in self.paginate_queryset(links) or []:
            seats = [_seat_entry(seat) for seat in link.table.seats.all()]
            names = {seat["player"]: seat["name"] for seat in seats}
            shown = public_names(evening.club_id, request.user, names, list(names))
            seats = [{**seat, "name": shown[seat["player"]]} for seat in seats]
            out.append(
                {
                    "round": link.round.number if link.round else None,
                    "number": link.number,
                    "table_id": link.table_id,
                    "name": link.table.name,
                    "status": link.table.status,
                    "seats": seats,
                }
            )
        return self.get_paginated_response(out)


def _seat_entry(seat: Seat) -> dict[str, str]:
    """A seat of an evening's table: its player, or the bot that fills it (``b:1``)."""
    info = seat_player(seat)
    if info is None:
        key = rounds.bot_key(int(seat.key.rsplit("-", 1)[-1])) if seat.key[-1:].isdigit() else "b:?"
        return {"player": key, "name": rounds.bot_name(key, seat.bot_level)}
    return {"player": info.key, "name": info.name}


class EveningCloseView(APIView):
    @extend_schema(
        summary="Close and settle an evening",
        description="Closes every open table of the evening (its rules' closing applied: a pot "
        "shared or carried on) and "
        "settles each player's net over the whole evening; a table with a hand being played "
        "or awaiting confirmation refuses (409) and nothing closes.",
        parameters=[CLUB_ID, EVENING_ID],
        request=None,
        responses={200: EveningSettlementSerializer, **ERRORS},
    )
    def post(self, request: Request, club_id: int, evening_id: int) -> Response:
        _club, evening = evening_for(request, club_id, evening_id, manage=True)
        closed = rounds.evening_close(
            user=signed_in(request), evening_id=evening.pk, currency=settings.CURRENCY_SYMBOL
        )
        return Response(closed.settlement)


class EveningSettlementView(APIView):
    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer, SettlementCSVRenderer, BrowsableAPIRenderer]

    @extend_schema(
        summary="An evening's settlement",
        description="Each player's net over the evening and the fewest payments that settle "
        "it, as amounts and sentences (as CSV: `…/settlement.csv`, `evenings_get_settlement_csv`). "
        "Provisional (`final: false`) until the evening is closed. Members only, also on "
        "public clubs.",
        parameters=[CLUB_ID, EVENING_ID],
        responses={
            (200, "application/json"): EveningSettlementSerializer,
            **READ_ERRORS,
        },
        examples=[
            OpenApiExample(
                "Three players and the pot",
                response_only=True,
                status_codes=["200"],
                media_type="application/json",
                value={
                    "final": True,
                    "players": [
                        {"player": "u:8", "name": "Gerti", "net": 2270},
                        {"player": "u:2", "name": "Anna", "net": 560},
                        {"player": "u:4", "name": "Carl", "net": -3030},
                    ],
                    "pot_net": 200,
                    "bots_net": 0,
                    "payments": [
                        {
                            "from": "u:4",
                            "from_name": "Carl",
                            "to": "u:8",
                            "to_name": "Gerti",
                            "amount": 2270,
                            "sentence": "Carl pays Gerti 22.70 €",
                        },
                        {
                            "from": "u:4",
                            "from_name": "Carl",
                            "to": "u:2",
                            "to_name": "Anna",
                            "amount": 560,
                            "sentence": "Carl pays Anna 5.60 €",
                        },
                        {
                            "from": "u:4",
                            "from_name": "Carl",
                            "to": "pot",
                            "to_name": "the pot",
                            "amount": 200,
                            "sentence": "Carl pays 2.00 € into the pot (kept by the club)",
                        },
                    ],
                    "payments_proven": True,
                },
            )
        ],
    )
    def get(self, request: Request, club_id: int, evening_id: int) -> Response:
        return Response(self.settlement(request, club_id, evening_id)[1])

    @staticmethod
    def settlement(request: Request, club_id: int, evening_id: int) -> tuple[Evening, Any]:
        selectors.club_for_member(user=caller(request), club_id=club_id)
        _club, evening = evening_for(request, club_id, evening_id)
        return evening, rounds.evening_settlement(evening, settings.CURRENCY_SYMBOL)


class EveningSettlementCSVView(TextAnswerView):
    """The settlement as CSV: its own operation, so generated clients read it as text."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="An evening's settlement as CSV",
        description="The settlement of `evenings_get_settlement` as CSV (UTF-8): the payments "
        "(`from,to,amount,sentence`, amounts in minor units), a blank line, then each player's "
        "net (`player,net`; with a third column of scores named by their unit, the rule "
        "set's `score_unit`, where a table is scored as a whole). Members only, also on "
        "public clubs; errors answer JSON.",
        parameters=[CLUB_ID, EVENING_ID],
        responses={(200, "text/csv"): text_response("The payments, then each player's net.")},
    )
    def get(self, request: Request, club_id: int, evening_id: int) -> HttpResponse:
        evening, data = EveningSettlementView.settlement(request, club_id, evening_id)
        filename = f"evening-{evening.pk}-settlement.csv"
        return file_answer(settlement_csv(data), media_type="text/csv", filename=filename)


EVENING = "clubs/<id:club_id>/evenings/<id:evening_id>/"
ROUND = EVENING + "rounds/<num:round_number>/"

urlpatterns = [
    path(EVENING + "rounds/", RoundListView.as_view(), name="evening-rounds"),
    path(ROUND, RoundDetailView.as_view(), name="evening-round"),
    path(ROUND + "swap/", RoundSwapView.as_view(), name="evening-round-swap"),
    path(ROUND + "start/", RoundStartView.as_view(), name="evening-round-start"),
    path(EVENING + "tables/", EveningTablesView.as_view(), name="evening-tables"),
    path(EVENING + "close/", EveningCloseView.as_view(), name="evening-close"),
    path(EVENING + "settlement/", EveningSettlementView.as_view(), name="evening-settlement"),
    path(
        EVENING + "settlement.csv",
        EveningSettlementCSVView.as_view(),
        name="evening-settlement-csv",
    ),
]
