"""What players, spectators and club sites read without signing in: standings, a player's
results, exports (CSV, JSON, a printable page); and the caller's own tournament.

Every answer names players as its reader reads them (:mod:`tournaments.names`): insiders
every name, the public only the names the players' choices and the club's policy allow, and a
person their own.

Phones poll these during a round, so answers carry an ``ETag`` and ``Last-Modified`` naming
the tournament's state (its ``changed_at`` and the standings version) and the names the reader
reads (:attr:`~tournaments.names.Names.key`); a client that sends them back
(``If-None-Match`` / ``If-Modified-Since``) gets a 304 without a body while nothing changed.
They vary on ``Authorization`` and ``Cookie``: who reads decides which names show. The
standings are rendered once per computation (and names) and kept in this process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import path
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import generics, permissions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.permissions import AnyUser
from config.api.callers import caller, signed_in
from config.api.conditional import conditional_answer
from config.api.schema import conditional_headers
from config.api.text import CSVRenderer, JsonErrorsMixin, csv_text, file_answer, text_response
from tournaments import permissions as tperms
from tournaments import scoring, selectors, services
from tournaments.api.serializers import (
    EntrySerializer,
    HandsExportSerializer,
    MyTournamentSerializer,
    PlayerResultsSerializer,
    TournamentSerializer,
    TournamentSettlementSerializer,
    TournamentStandingRowSerializer,
    TournamentStandingsSerializer,
)
from tournaments.api.tournaments import ENTRY_ID, ERRORS, READ_ERRORS, TOURNAMENT_ID
from tournaments.errors import NotAllowed, TournamentNotFound
from tournaments.models import Entry, Tournament
from tournaments.names import CONSENT, INSIDER, PUBLISH, Names, names_for, opponents
from tournaments.selectors import hands_export, player_rounds, score_unit
from tournaments.services.common import local_time
from tournaments.services.standings import entrant_rows

NOT_MODIFIED = OpenApiResponse(description="Not modified since the ETag or date sent.")
#: A standings row's stored columns: the serializer's fields but the display name, which is read
#: from the entries (:mod:`tournaments.names`) when the answer is rendered.
STANDING_FIELDS = tuple(
    name for name in TournamentStandingRowSerializer.Meta.fields if name != "display_name"
)


def _etag(t: Tournament, part: str, names: Names) -> str:
    state = f"{t.changed_at.timestamp():.6f}-{t.computed_version}"
    return f'"t{t.pk}-{part}-{state}-{names.key}"'


def reader(request: Request | HttpRequest) -> AnyUser:
    """Who reads: the caller of a DRF request; anonymous for a plain request, which only the
    standings' fast path (requests without credentials) answers."""
    return caller(request) if isinstance(request, Request) else AnonymousUser()


def conditional_response(
    request: Request | HttpRequest,
    t: Tournament,
    part: str,
    build: Callable[[], HttpResponse],
    names: Names | None = None,
) -> HttpResponse:
    """A 304 when the client's copy is current, else the answer ``build()`` makes (JSON, CSV
    or HTML); both with the ETag and Last-Modified of the tournament's state and the
    ``names`` the answer shows (the reader's, :func:`~tournaments.names.names_for`, when not
    given), and ``Vary: Authorization, Cookie``. ``part`` names the answer (and anything else
    it depends on, such as its query) within the ETag."""
    if names is None:
        names = names_for(t, reader(request))
    answer = conditional_answer(
        request, etag=_etag(t, part, names), last_modified=t.changed_at, build=build
    )
    patch_vary_headers(answer, ("Authorization", "Cookie"))
    return answer


def conditional(
    request: Request,
    t: Tournament,
    part: str,
    build: Callable[[], Any],
    names: Names | None = None,
) -> HttpResponse:
    """:func:`conditional_response` for a JSON answer: ``build()`` gives its data."""
    return conditional_response(request, t, part, lambda: Response(build()), names)


# ---------------------------------------------------------------------------------------------
# standings

_BODIES: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
_LOCK = threading.Lock()
CACHE_SIZE = 256
_ROWS_SQL = (
    "SELECT position, rank, entry_id, user_id, name, points, rounds, by_round, tiebreaks, "
    "movement, prize, pending FROM tournaments_standingrow WHERE tournament_id = %s "
    "ORDER BY position"
)


def _json(value: Any) -> Any:
    """JSON columns come back as text from some databases."""
    import json

    return json.loads(value) if isinstance(value, str) else value


def standings_rows(t: Tournament, names: Names) -> list[dict[str, Any]]:
    """The stored standings' rows (the entrants before a first result), each player as
    ``names``' reader reads them."""
    with connection.cursor() as cursor:
        cursor.execute(_ROWS_SQL, [t.pk])
        out = []
        for row in cursor.fetchall():
            item = dict(zip(STANDING_FIELDS, row, strict=True))
            item["by_round"] = _json(item["by_round"])
            item["tiebreaks"] = _json(item["tiebreaks"])
            out.append(item)
    if out:
        return [names.player({**row, "display_name": row["name"]}) for row in out]
    # until a first result is stored, the standings list the entrants, by the names read
    rows = [
        names.player({**row, "display_name": row["name"]})
        for row in entrant_rows(selectors.entries_of(tournament=t))
    ]
    rows.sort(key=lambda row: (row["display_name"].casefold(), row["entry"]))
    return [{**row, "position": position} for position, row in enumerate(rows, 1)]


def amount_unit(t: Tournament) -> str:
    """What a table's amounts (and ``balance`` points) are counted in: the rule set's score
    unit where it scores a table's deals together (``RuleSet.score_unit``), else ``cents``."""
    return score_unit(t) or "cents"


def standings_body(t: Tournament, names: Names) -> bytes:
    """The standings answer, rendered once per computation, names (their
    :attr:`~tournaments.names.Names.key`) and language, and kept in this process. Nothing in
    it is a sentence today, but an answer in German is another representation (its ETag says
    so too; and the pseudonyms are the language's words): a sentence added to it later must
    not reach an English reader from the cache."""
    key = (
        t.pk,
        t.computed_at,
        t.computed_version,
        t.requested_version,
        t.status,
        t.changed_at,
        names.key,
        translation.get_language(),
    )
    with _LOCK:
        body = _BODIES.get(key)
    if body is None:
        body = JSONRenderer().render(
            {
                "tournament": t.pk,
                "scoring": t.scoring,
                "unit": amount_unit(t),
                "tiebreaks": list(t.tiebreaks),
                "final": t.status == Tournament.Status.FINISHED,
                "as_of": t.computed_at,
                "version": t.computed_version,
                "requested_version": t.requested_version,
                "up_to_date": t.computed_version >= t.requested_version,
                "names": names.basis,
                "rows": standings_rows(t, names),
            }
        )
        with _LOCK:
            _BODIES[key] = body
            while len(_BODIES) > CACHE_SIZE:
                _BODIES.popitem(last=False)
    return body


class StandingsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A tournament's standings",
        description="Stored by the worker after each result (coalesced): rank, points, each "
        "tiebreak's value, points by round, movement since the previous round and, once "
        "finished, the prizes. The lots draw breaks ties only in the final standings and shows "
        "only where it decided a placing. Before the first result: the entrants, no points. "
        "`up_to_date` is false while a recomputation is pending. Players are named as the "
        "caller reads them (`names`): those who run the tournament and members of its club "
        "read every name; everyone else reads a name only where its player agreed (or the "
        "club publishes names and the player did not object), else a pseudonym; everyone "
        "reads their own. "
        "Conditional: `ETag`/`If-None-Match` and `Last-Modified`/`If-Modified-Since` → 304.",
        parameters=[TOURNAMENT_ID, *conditional_headers(by_date=True)],
        responses={200: TournamentStandingsSerializer, 304: NOT_MODIFIED, **READ_ERRORS},
        examples=[
            OpenApiExample(
                "After the first round",
                response_only=True,
                status_codes=["200"],
                value={
                    "tournament": 1,
                    "scoring": "table_rank",
                    "unit": "cents",
                    "tiebreaks": ["declarer_wins", "best_round", "lots"],
                    "final": False,
                    "as_of": "2026-11-24T18:41:46.236184Z",
                    "version": 29,
                    "requested_version": 29,
                    "up_to_date": True,
                    "names": "consent",
                    "rows": [
                        {
                            "position": 1,
                            "rank": 1,
                            "entry": 6,
                            "user": 7,
                            "name": "franz",
                            "display_name": "Franz Huber",
                            "points": "5/2",
                            "rounds": 1,
                            "by_round": {"1": "5/2"},
                            "tiebreaks": {"declarer_wins": "1", "best_round": "5/2"},
                            "movement": None,
                            "prize": 0,
                            "pending": 0,
                        },
                        {
                            "position": 2,
                            "rank": 2,
                            "entry": 3,
                            "user": 4,
                            "name": "Player 7f3a2c",
                            "display_name": "Player 7f3a2c",
                            "points": "2",
                            "rounds": 1,
                            "by_round": {"1": "2"},
                            "tiebreaks": {},
                            "movement": None,
                            "prize": 0,
                            "pending": 0,
                        },
                    ],
                },
            )
        ],
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        user = caller(request)
        t = selectors.tournament_polled(user=user, tournament_id=tournament_id)
        return self.answer(request, t, names_for(t, user))

    @staticmethod
    def answer(request: Request | HttpRequest, t: Tournament, names: Names) -> HttpResponse:
        return conditional_response(
            request,
            t,
            "standings",
            lambda: HttpResponse(standings_body(t, names), content_type="application/json"),
            names,
        )

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """Hundreds of phones poll this anonymously during a round: a GET without credentials
        on a listed tournament is answered here, without DRF's request cycle (negotiation,
        authentication, throttles; the benchmark showed it cost more than the answer). Every
        other request, and every error, takes the ordinary way."""
        anonymous = (
            request.method == "GET"
            and "HTTP_AUTHORIZATION" not in request.META
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
        )
        if anonymous:
            t = selectors.tournament_listed(tournament_id=kwargs["tournament_id"])
            if t is not None:
                return self.answer(request, t, names_for(t, AnonymousUser(), recent=True))
        return super().dispatch(request, *args, **kwargs)


class RecomputeView(APIView):
    @extend_schema(
        summary="Recompute the standings",
        description="Directors: ask the worker to compute the standings from scratch.",
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={202: TournamentSerializer, **ERRORS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        t = selectors.tournament_for_director(user=caller(request), tournament_id=tournament_id)
        services.request_standings(t.pk)
        t.refresh_from_db()
        return Response(TournamentSerializer(t).data, status=status.HTTP_202_ACCEPTED)


# ---------------------------------------------------------------------------------------------
# a player's results, my tournament


def _results(t: Tournament, entry: Entry, names: Names) -> dict[str, Any]:
    row = selectors.standing_of(tournament=t, entry=entry)
    others = opponents(names, entry.pk)
    return {
        "entry": EntrySerializer(entry, context={"names": names}).data,
        "rank": row["rank"] if row else None,
        "points": row["points"] if row else None,
        "rounds": [
            {
                **r,
                "seat": names.seat(entry.pk, r["seat"]),
                "opponents": others.get(r["games_table"], []),
            }
            for r in player_rounds(t, entry)
        ],
    }


class PlayerResultsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A player's results",
        description="Per round: table, seat, opponents, the amount won there and the round's "
        "points; the rank and points now. Duplicate boards count once every table finished "
        "them. Players named as in the standings. Conditional like the standings.",
        parameters=[TOURNAMENT_ID, ENTRY_ID, *conditional_headers(by_date=True)],
        responses={200: PlayerResultsSerializer, 304: NOT_MODIFIED, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int, entry_id: int) -> HttpResponse:
        user = caller(request)
        t = selectors.tournament_for_user(user=user, tournament_id=tournament_id)
        entry = selectors.entry_in_tournament(tournament=t, entry_id=entry_id)
        names = names_for(t, user)
        return conditional(
            request, t, f"results-{entry.pk}", lambda: _results(t, entry, names), names
        )


class MyTournamentView(APIView):
    @extend_schema(
        summary="My tournament",
        description="Your entry, your table and seat in the open round (null between "
        "rounds), your results so far and your rank; the other players named as in the "
        "standings.",
        parameters=[TOURNAMENT_ID],
        responses={200: MyTournamentSerializer, **ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        user = signed_in(request)
        t = selectors.tournament_for_user(user=user, tournament_id=tournament_id)
        entry = selectors.entry_of_user(tournament=t, user=user)
        if entry is None:
            raise TournamentNotFound(_("You have not entered this tournament."))
        names = names_for(t, user)
        out = _results(t, entry, names)
        out.update(next_table=None, next_seat=None, round_status=None)
        rnd = selectors.unfinished_round_of(tournament=t)
        if rnd is not None:
            out["round_status"] = rnd.status
            mine = selectors.round_seat_of(round=rnd, entry=entry)
            if mine is not None:
                tables = services.round_assignments(rnd)
                table = next(x for x in tables if x["number"] == mine.round_table.number)
                out["next_table"] = {**table, "players": names.players(table["players"])}
                out["next_seat"] = mine.seat
        return Response(out)


class MyTournamentsView(generics.ListAPIView[Tournament]):
    serializer_class = TournamentSerializer
    queryset = Tournament.objects.none()

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.entered_tournaments(user=signed_in(self.request))

    @extend_schema(
        summary="My tournaments",
        description="Tournaments you entered, newest first; `…/tournaments/{tournament_id}/me/` "
        "has your table, seat, results and rank in one.",
        responses={200: TournamentSerializer(many=True), 401: ERRORS[401]},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


# ---------------------------------------------------------------------------------------------
# exports


def _csv(rows: list[list[Any]], filename: str) -> HttpResponse:
    return file_answer(csv_text(rows), media_type="text/csv", filename=filename)


def _json_file(body: bytes, filename: str) -> HttpResponse:
    answer = HttpResponse(body, content_type="application/json")
    answer["Content-Disposition"] = f'attachment; filename="{filename}"'
    return answer


def _export_schema(summary: str, description: str, ok: Any) -> Any:
    return extend_schema(
        summary=summary,
        description=description,
        parameters=[TOURNAMENT_ID, *conditional_headers(by_date=True)],
        responses={**ok, 304: NOT_MODIFIED, **READ_ERRORS},
    )


# Each file is an operation of its own (config/api/text.py): `…/standings.csv` and
# `…/standings.json` (as are the hands), so a generated client reads each as what it is.
STANDINGS_EXPORT = (
    "One row per player (position, rank, name, points, rounds, each tiebreak, movement, prize, "
    "pending boards), values exact as in the standings; players by display name (the CSV's "
    "`name`, the JSON's `display_name`), named as in the standings. Conditional like the "
    "standings."
)
HANDS_EXPORT = (
    "Every settled hand of every round: round, table, hand, dealer, players by seat (by "
    "display name: the CSV's `name`, the JSON's `display_name`; named as in the standings, "
    "and where a name is hidden its seat key, made from the name, reads `player-` and the "
    "pseudonym's code), declarer, game, made and each seat's amount (`hand-record.md` result "
    "fields). A deal of a rule set that scores a "
    "sitting as a whole (its `score_unit`) moves no money (`amount` 0): its table's sitting "
    "counts as a whole, as the standings count it. Never a deal: hosted deals are read at "
    "the table once the rules reveal them; duplicate boards appear once every table finished "
    "them. Conditional like the standings."
)


def _hands(t: Tournament, names: Names) -> list[dict[str, Any]]:
    """Every counted hand (:func:`~tournaments.selectors.hands_export`), its players, and
    their seat keys wherever they stand, as ``names``' reader reads them."""
    out = []
    for h in hands_export(t):
        seats = {p["seat"]: names.seat(p["entry"], p["seat"]) for p in h["players"]}
        out.append(
            {
                **h,
                "dealer": seats.get(h["dealer"], h["dealer"]),
                "declarer": seats.get(h["declarer"], h["declarer"]),
                "players": names.players(h["players"]),
            }
        )
    return out


class ExportView(JsonErrorsMixin, APIView):
    """A tournament's file (``part`` names it, ``build`` makes it), conditional like the
    standings."""

    permission_classes = [permissions.AllowAny]
    renderer_classes = [JSONRenderer]
    part = ""

    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        user = caller(request)
        t = selectors.tournament_for_user(user=user, tournament_id=tournament_id)
        names = names_for(t, user)
        return conditional_response(request, t, self.part, lambda: self.build(t, names), names)

    def build(self, t: Tournament, names: Names) -> HttpResponse:
        raise NotImplementedError


class StandingsJSONExportView(ExportView):
    part = "standings.json"

    @_export_schema(
        "Export the standings as JSON",
        STANDINGS_EXPORT + " The answer of `tournaments_get_standings`, as a file.",
        {(200, "application/json"): TournamentStandingsSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        return super().get(request, tournament_id)

    def build(self, t: Tournament, names: Names) -> HttpResponse:
        return _json_file(standings_body(t, names), f"{t.slug}-standings.json")


class StandingsCSVExportView(ExportView):
    part = "standings.csv"
    renderer_classes = [CSVRenderer]

    @_export_schema(
        "Export the standings as CSV",
        STANDINGS_EXPORT + " UTF-8 with a header row; a last column, `unit`, names on every "
        "row what a table's amounts and so `balance` points count in (the standings' `unit`: "
        "`cents`, or the rule set's `score_unit`). Errors answer JSON.",
        {(200, "text/csv"): text_response("The standings, one row per player.")},
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        return super().get(request, tournament_id)

    def build(self, t: Tournament, names: Names) -> HttpResponse:
        # The header row names the columns as the JSON names its keys, in every language:
        # programs read these files by their column names (the schema documents them), and a
        # spreadsheet reads them as well as any word. Not translated.
        header = [
            "position",
            "rank",
            "entry",
            "name",
            "points",
            "rounds",
            *t.tiebreaks,
            "movement",
            "prize",
            "pending",
            "unit",  # last: the columns before it keep their places
        ]
        unit = amount_unit(t)
        body = [header] + [
            [
                r["position"],
                r["rank"],
                r["entry"],
                r["display_name"],
                r["points"],
                r["rounds"],
                *[r["tiebreaks"].get(name, "") for name in t.tiebreaks],
                "" if r["movement"] is None else r["movement"],
                r["prize"],
                r["pending"],
                unit,
            ]
            for r in standings_rows(t, names)
        ]
        return _csv(body, f"{t.slug}-standings.csv")


class HandsJSONExportView(ExportView):
    part = "hands.json"

    @_export_schema(
        "Export every hand as JSON",
        HANDS_EXPORT,
        {(200, "application/json"): HandsExportSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        return super().get(request, tournament_id)

    def build(self, t: Tournament, names: Names) -> HttpResponse:
        body = JSONRenderer().render({"tournament": t.pk, "hands": _hands(t, names)})
        return _json_file(body, f"{t.slug}-hands.json")


class HandsCSVExportView(ExportView):
    part = "hands.csv"
    renderer_classes = [CSVRenderer]

    @_export_schema(
        "Export every hand as CSV",
        HANDS_EXPORT + " One row per seat of a hand, UTF-8 with a header row; errors answer JSON.",
        {
            (200, "text/csv"): text_response(
                "round,table,hand,dealer,declarer,game,made,seat,entry,name,amount"
            )
        },
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        return super().get(request, tournament_id)

    def build(self, t: Tournament, names: Names) -> HttpResponse:
        # machine column names, in every language (as the standings file's)
        header = [
            "round",
            "table",
            "hand",
            "dealer",
            "declarer",
            "game",
            "made",
            "seat",
            "entry",
            "name",
            "amount",
        ]
        body: list[list[Any]] = [header]
        for h in _hands(t, names):
            for p in h["players"]:
                body.append(
                    [
                        h["round"],
                        h["table"],
                        h["hand"],
                        h["dealer"],
                        h["declarer"] or "",
                        h["game"] or "",
                        "" if h["made"] is None else h["made"],
                        p["seat"],
                        p["entry"],
                        p["display_name"],
                        p["amount"],
                    ]
                )
        return _csv(body, f"{t.slug}-hands.csv")


#: The tiebreaks as the printable page names them (the API keeps their names).
TIEBREAK_LABELS = {
    "declarer_wins": pgettext_lazy("tiebreak", "declarer wins"),
    "best_round": pgettext_lazy("tiebreak", "best round"),
    "head_to_head": pgettext_lazy("tiebreak", "head to head"),
    "average_opponent": pgettext_lazy("tiebreak", "average opponent"),
    "lots": pgettext_lazy("tiebreak", "lots"),
}


def tiebreak_label(name: str) -> str:
    """A tiebreak as a reader names it (its name, underscores as blanks, where it has no
    label)."""
    return str(TIEBREAK_LABELS.get(name, name.replace("_", " ")))


#: What the printable page says about the names it shows, by :attr:`Names.basis`.
NAMES_NOTES = {
    CONSENT: gettext_lazy(
        "Names appear only of players who agreed; the others appear under a pseudonym."
    ),
    PUBLISH: gettext_lazy(
        "The club publishes its players' names; a player may object in their profile and then "
        "appears under a pseudonym."
    ),
    INSIDER: gettext_lazy(
        "You see every name because you run this tournament or belong to its club; the public "
        "page shows a pseudonym for each player whose name may not be published."
    ),
}


class PrintView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Printable standings",
        description="One HTML page for the venue's wall, readable on a phone and on paper. "
        "Players named as in the standings, with a sentence saying on which basis. "
        "Conditional like the standings.",
        parameters=[TOURNAMENT_ID, *conditional_headers(by_date=True)],
        responses={(200, "text/html"): OpenApiTypes.STR, 304: NOT_MODIFIED, **READ_ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> HttpResponse:
        user = caller(request)
        t = selectors.tournament_for_user(user=user, tournament_id=tournament_id)
        names = names_for(t, user)
        return conditional_response(
            request, t, "print", lambda: self.page(request, t, names), names
        )

    @staticmethod
    def page(request: Request, t: Tournament, names: Names) -> HttpResponse:
        """Players by their display names as the reader reads them, and a sentence saying
        why (:data:`NAMES_NOTES`); each row's deciding tiebreak (``lots`` only once it decided
        a placing at the end); provisional until the tournament is finished. In the reader's
        language: its words, the time of the standings (in the tournament's time zone) and
        the prizes' decimals as the language writes them."""
        rows = standings_rows(t, names)
        rounds = sorted({int(r) for row in rows for r in row["by_round"]})
        shown = [name for name in t.tiebreaks if name != "lots"]  # a draw's digits say nothing
        decided = scoring.decided_by([(r["points"], r["tiebreaks"]) for r in rows], t.tiebreaks)
        for row, deciding in zip(rows, decided, strict=True):
            row["round_points"] = [row["by_round"].get(str(r), "–") for r in rounds]
            row["tiebreak_values"] = [row["tiebreaks"].get(name, "") for name in shown]
            row["decided_by"] = ", ".join(
                tiebreak_label(name)
                + ("" if name == "lots" else f" {row['tiebreaks'].get(name, '')}")
                for name in deciding
            )
            prize = Decimal(row["prize"]) / 100
            row["prize_text"] = number_format(prize, 2) if row["prize"] else ""
        return render(
            request._request,
            "tournaments/standings.html",
            {
                "tournament": t,
                "as_of": local_time(t.computed_at, t.timezone) if t.computed_at else "",
                "rows": rows,
                "rounds": rounds,
                "played": bool(rounds) or any(row["pending"] for row in rows),
                "tiebreaks": [tiebreak_label(name) for name in shown],
                "deciding": any(row["decided_by"] for row in rows),
                "final": t.status == Tournament.Status.FINISHED,
                "prizes": any(row["prize"] for row in rows),
                "names_note": NAMES_NOTES[names.basis],
            },
        )


class SettlementView(APIView):
    @extend_schema(
        summary="The money settlement",
        description="For tournaments played for real stakes: each player's net over their "
        "closed tables and the fewest payments that settle them (the pots are one party when "
        "money stayed in them). Directors and entrants. Players named as in the standings, "
        "but an entrant also reads the names of those they pay or are paid by. 409 for "
        "tournaments played for points.",
        parameters=[TOURNAMENT_ID],
        responses={200: TournamentSettlementSerializer, **ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        user = caller(request)
        t = selectors.tournament_for_user(user=user, tournament_id=tournament_id)
        if not (tperms.is_director(user, t) or tperms.is_entrant(user, t)):
            raise NotAllowed(_("Only the directors and the players see the settlement."))
        settled = services.tournament_settlement(t, names=names_for(t, user))
        return Response(TournamentSettlementSerializer(settled).data)


T = "tournaments/<id:tournament_id>/"

urlpatterns = [
    path(T + "standings/", StandingsView.as_view(), name="t-standings"),
    path(T + "standings/recompute/", RecomputeView.as_view(), name="t-recompute"),
    path(T + "standings/print/", PrintView.as_view(), name="t-print"),
    path(
        T + "export/standings.csv", StandingsCSVExportView.as_view(), name="t-export-standings-csv"
    ),
    path(T + "export/standings.json", StandingsJSONExportView.as_view(), name="t-export-standings"),
    path(T + "export/hands.csv", HandsCSVExportView.as_view(), name="t-export-hands-csv"),
    path(T + "export/hands.json", HandsJSONExportView.as_view(), name="t-export-hands"),
    path(T + "entries/<id:entry_id>/results/", PlayerResultsView.as_view(), name="t-results"),
    path(T + "me/", MyTournamentView.as_view(), name="t-me"),
    path("me/tournaments/", MyTournamentsView.as_view(), name="me-tournaments"),
    path(T + "settlement/", SettlementView.as_view(), name="t-settlement"),
]
