"""Seasons, their standings, and the club's ratings.

Anyone sees a public club's seasons, standings and ratings; members a private club's; owners
and admins create, change and delete seasons. Standings are computed by the worker after
each change and stored: reading them is one query for the season and one for the names it may
show (an anonymous poll reuses the names a process read within ``PUBLIC_POLL_CACHE_SECONDS``),
served with the time (``as_of``) and the version they reflect.

Names in these lists (issue 39, :mod:`clubs.privacy`): the club's members (and staff) read
every player's name; everyone else reads a name only where :func:`clubs.privacy.name_is_public`
allows it (the player agreed, or the club publishes names and the player did not object; a
guest only under the ``publish`` policy), else the player's pseudonym ("Player 7f3a2c"); a
person always reads their own name (:func:`names_for`). Player keys and ids stay: they are no
names.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import path
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import generics, permissions, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import privacy, selectors, standings
from clubs.errors import ClubNotFound
from clubs.models import Club, Rating, RatingChange, Season, SeasonStanding, User
from clubs.permissions import AnyUser, role_of
from clubs.selectors.people import name_choices
from clubs.services import seasons
from config.api.callers import caller, signed_in
from config.api.conditional import conditional_answer
from config.api.parsers import StrictJSONParser
from config.api.schema import ErrorSerializer, conditional_headers
from games.api import examples

CLUB_ID = OpenApiParameter("club_id", OpenApiTypes.INT, OpenApiParameter.PATH)
SEASON_ID = OpenApiParameter("season_id", OpenApiTypes.INT, OpenApiParameter.PATH)
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="Not an owner or admin of the club."),
    404: OpenApiResponse(ErrorSerializer, description="No such club or season."),
    409: OpenApiResponse(ErrorSerializer, description="The season is in use."),
}
READ_ERRORS = {404: ERRORS[404]}
LEAGUE_EXAMPLE = {"3": [3, 2, 1], "4": [4, 3, 2, 1]}


def _club(request: Request, club_id: int, *, manage: bool = False) -> Club:
    if manage:
        return selectors.club_for_manager(user=caller(request), club_id=club_id)
    return selectors.club_for_user(user=caller(request), club_id=club_id)


def _season(club: Club, season_id: int) -> Season:
    return selectors.season_of_club(club=club, season_id=season_id)


# ---------------------------------------------------------------------------------------------
# names

INSIDER = "insider"
"""Every name: the reader is a member of the club (or staff)."""
CONSENT = str(Club.NamePolicy.CONSENT)
"""The public version under the ``consent`` policy: names only of players who agreed."""
PUBLISH = str(Club.NamePolicy.PUBLISH)
"""The public version under the ``publish`` policy: names unless their player objected."""
NAMES_BASES = (CONSENT, PUBLISH, INSIDER)
NAMES_HELP = (
    "Whose names the rows show you: insider (you are a member of the club: every name); "
    "else the club's name_policy, consent (names only of players who agreed, pseudonyms such "
    "as 'Player 7f3a2c' for the others and for guests) or publish (every name unless its "
    "player objected). You always read your own name; player keys and ids stay."
)


@dataclass(frozen=True)
class Names:
    """What one reader reads as the players of one of a club's lists (:func:`names_for`):
    the ``basis`` (``insider``, or the club's policy) and the players (their keys, ``u:3``)
    the reader reads by their pseudonym."""

    basis: str
    hidden: frozenset[str] = frozenset()

    @cached_property
    def key(self) -> str:
        """What the names depend on, for ETags and cache keys: the basis and which players
        are read by pseudonym. It changes exactly when a name the list shows changes."""
        if not self.hidden:
            return f"{self.basis}-all"
        digest = hashlib.sha256("|".join(sorted(self.hidden)).encode()).hexdigest()[:12]
        return f"{self.basis}-{digest}"

    def row(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """``row`` (a player's row: ``player`` and ``name``) as the reader reads it."""
        player = row["player"]
        if player in self.hidden:
            return {**row, "name": privacy.public_pseudonym(player)}
        return dict(row)


def names_for(*, club_id: int, reader: AnyUser, players: Iterable[tuple[str, int | None]]) -> Names:
    """What ``reader`` reads as ``players`` (key and user id; ``None`` for a guest) in a list
    of the club ``club_id``: every name for a member (and staff); else the name only where
    :func:`clubs.privacy.name_is_public` allows it under the club's policy, and their own.

    An erased person is read by their pseudonym by everyone: the stored rows hold it already,
    and a copy read before the erasure (a process's cache of a computation) must not show the
    name. One query: the listed users' choices with the club's policy."""
    listed = list(players)
    me = reader.pk if reader.is_authenticated else None
    insider = me is not None and (
        bool(getattr(reader, "is_staff", False)) or role_of(reader, club_id) is not None
    )
    policy, choices = name_choices(
        club_id=club_id, user_ids={user for _, user in listed if user is not None}
    )
    club = Club(pk=club_id, name_policy=policy)
    hidden = set()
    for player, user_id in listed:
        if user_id is None:
            shown = insider or privacy.name_is_public(None, club)
        else:
            public, erased = choices.get(user_id, (None, None))
            person = User(pk=user_id, public_name=public, erased_at=erased)
            shown = erased is None and (
                insider or user_id == me or privacy.name_is_public(person, club)
            )
        if not shown:
            hidden.add(player)
    return Names(INSIDER if insider else policy, frozenset(hidden))


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "number"}},
        "example": {"3": [3, 2, 1], "4": [4, 3, 2, 1]},
    }
)
class LeaguePointsField(serializers.JSONField):
    """Points by place at a table sitting, by table size (``clubs.standings.LeaguePoints``:
    one number per place, not rising with the place); the service checks them."""


class SeasonSerializer(serializers.ModelSerializer[Season]):
    """A season of a club: its dates, whether it is the active one, and optional league
    points by rank at each table sitting (the ranking key when given)."""

    league_points = LeaguePointsField(
        allow_null=True,
        required=False,
        help_text='Points by rank at each table sitting, by table size: {"3": [3, 2, 1]}; '
        "null ranks by balance.",
    )

    class Meta:
        model = Season
        fields = (
            "id",
            "club",
            "name",
            "starts_on",
            "ends_on",
            "is_active",
            "league_points",
            "requested_version",
            "computed_version",
            "computed_at",
            "computations",
            "created_at",
        )
        read_only_fields = (
            "computations",
            "id",
            "club",
            "requested_version",
            "computed_version",
            "computed_at",
            "created_at",
        )


class SeasonInputSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=150)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    is_active = serializers.BooleanField(required=False, default=False)
    league_points = LeaguePointsField(
        required=False,
        allow_null=True,
        default=None,
        help_text='Points by rank at each table sitting, by table size: {"3": [3, 2, 1]}; '
        "null or omitted ranks by balance.",
    )


class SeasonPatchSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=150, required=False)
    starts_on = serializers.DateField(required=False)
    ends_on = serializers.DateField(required=False)
    is_active = serializers.BooleanField(required=False)
    league_points = LeaguePointsField(
        required=False,
        allow_null=True,
        help_text='Points by rank at each table sitting, by table size: {"3": [3, 2, 1]}; '
        "null ranks by balance.",
    )


class StandingRowSerializer(serializers.ModelSerializer[SeasonStanding]):
    class Meta:
        model = SeasonStanding
        fields = selectors.STANDING_FIELDS
        read_only_fields = fields


class StandingsSerializer(serializers.Serializer[dict[str, Any]]):
    """The stored standings: rows in order (ties share a rank), as of ``as_of``."""

    season = serializers.IntegerField()
    as_of = serializers.DateTimeField(allow_null=True, help_text="When they were computed.")
    version = serializers.IntegerField(help_text="The change they reflect.")
    requested_version = serializers.IntegerField(help_text="The newest change recorded.")
    up_to_date = serializers.BooleanField(help_text="False while a recomputation is pending.")
    ranked_by = serializers.ChoiceField(
        choices=standings.RANKED_BY,
        help_text="league_points when the season has league points; else score when every "
        "table sitting of the season is scored as a whole (its rule set's `score_unit`), else "
        "balance (money, in minor units).",
    )
    score_unit = serializers.CharField(
        allow_null=True,
        help_text="The unit of the rows' `score` (the rule set's `score_unit`: sittings scored "
        "as a whole, as they stand); null when no table of the season is scored as a whole "
        "(`score` is then 0). Such a sitting's money counts in `balance` once its table "
        "closes.",
    )
    names = serializers.ChoiceField(choices=NAMES_BASES, help_text=NAMES_HELP)
    rows = StandingRowSerializer(many=True)


class RatingSerializer(serializers.ModelSerializer[Rating]):
    class Meta:
        model = Rating
        fields = ("player", "user", "guest", "name", "mu", "sigma", "ordinal", "sittings")
        read_only_fields = fields


class RatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    class Meta:
        model = RatingChange
        fields = (
            "player",
            "table",
            "at",
            "rank",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "ordinal_after",
        )
        read_only_fields = fields


class SeasonListView(generics.ListAPIView[Season]):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    serializer_class = SeasonSerializer
    queryset = Season.objects.none()

    def get_queryset(self) -> QuerySet[Season]:
        club = _club(self.request, self.kwargs["club_id"])
        return selectors.seasons_of(club=club)

    @extend_schema(
        summary="A club's seasons",
        description=("Newest first; anyone who may see the club sees its seasons."),
        parameters=[CLUB_ID],
        responses={200: SeasonSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Start a season",
        description=(
            "Owners and admins. A season files the club's evenings between its dates; with "
            "`is_active` it becomes the club's active season (the previous one stops being "
            "active). `league_points` (optional) gives league points by table rank for 3- and"
            " 4-player tables. The worker computes its standings."
        ),
        parameters=[CLUB_ID],
        request=SeasonInputSerializer,
        responses={201: SeasonSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Spring league",
                value={
                    "name": "Frühjahr 2027",
                    "starts_on": "2027-01-01",
                    "ends_on": "2027-06-30",
                    "is_active": True,
                    "league_points": LEAGUE_EXAMPLE,
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = _club(request, club_id, manage=True)
        data = SeasonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = seasons.season_create(user=signed_in(request), club=club, **data.validated_data)
        season.refresh_from_db()
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]

    @extend_schema(
        summary="A season",
        description=("Its dates, activity, league points and where its standings stand."),
        parameters=[CLUB_ID, SEASON_ID],
        responses={200: SeasonSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, club_id: int, season_id: int) -> Response:
        return Response(SeasonSerializer(_season(_club(request, club_id), season_id)).data)

    @extend_schema(
        summary="Change a season",
        description=(
            "Owners and admins change the name, dates, activity or league points; the "
            "standings are computed again."
        ),
        parameters=[CLUB_ID, SEASON_ID],
        request=SeasonPatchSerializer,
        responses={200: SeasonSerializer, **ERRORS},
        examples=[OpenApiExample("Activate", value={"is_active": True}, request_only=True)],
    )
    def patch(self, request: Request, club_id: int, season_id: int) -> Response:
        season = _season(_club(request, club_id, manage=True), season_id)
        data = SeasonPatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = seasons.season_update(
            user=signed_in(request), season=season, **data.validated_data
        )
        season.refresh_from_db()
        return Response(SeasonSerializer(season).data)

    @extend_schema(
        summary="Delete a season",
        description=(
            "Owners and admins; its stored standings go, hands, evenings and ratings stay. A "
            "season with evenings filed under it is 409 `season_in_use`."
        ),
        parameters=[CLUB_ID, SEASON_ID],
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, club_id: int, season_id: int) -> Response:
        season = _season(_club(request, club_id, manage=True), season_id)
        seasons.season_delete(user=signed_in(request), season=season)
        return Response(status=status.HTTP_204_NO_CONTENT)


_BODIES: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
_BODIES_LOCK = threading.Lock()
BODIES_CACHE_SIZE = 256


def _etag(key: tuple[Any, ...], names: Names) -> str:
    """The standings' state (``key``) and the names the reader reads (:attr:`Names.key`):
    the members' version and the public one differ, and a player's new choice is a new tag."""
    computed_at = key[1].timestamp() if key[1] is not None else 0
    league = "-l" if key[4] else ""
    return f'"s{key[0]}-{key[2]}-{key[3]}-{computed_at:.6f}{league}-{names.key}"'


def _takes_json(accept: str) -> bool:
    """Whether an ``Accept`` header (empty: none sent) takes a JSON answer, so DRF's content
    negotiation would choose it rather than refuse the request (406)."""
    if not accept:
        return True
    types = {part.split(";", 1)[0].strip() for part in accept.split(",")}
    return not types.isdisjoint(("*/*", "application/*", "application/json"))


def score_examples() -> list[OpenApiExample]:
    """A season ranked by the score of the first rule set that scores a sitting in a unit of
    its own (``RuleSet.score_unit``), none where no offered rule set does."""
    rule_set = examples.scored_rule_set()
    if rule_set is None:
        return []
    return [
        OpenApiExample(
            f"A {rule_set.name} season ranked by {rule_set.score_unit}",
            response_only=True,
            status_codes=["200"],
            value={
                "season": 2,
                "as_of": "2026-11-27T23:05:10.112233Z",
                "version": 12,
                "requested_version": 12,
                "up_to_date": True,
                "ranked_by": "score",
                "score_unit": rule_set.score_unit,
                "names": CONSENT,
                "rows": [
                    {
                        "rank": 1,
                        "player": "u:3",
                        "user": 3,
                        "guest": None,
                        "name": "Boris",
                        "balance": 2340,
                        "score": 234,
                        "hands_played": 42,
                        "declared": 9,
                        "made": 8,
                        "premium_games": 0,
                        "average_per_hand": 5.57,
                        "evenings": 2,
                        "sittings": 2,
                        "league_points": None,
                    }
                ],
            },
        )
    ]


class StandingsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A season's standings",
        description="Stored by the worker after each change (coalesced): one query to read, "
        "one for the names. `up_to_date` is false while a recomputation is pending. Players "
        "are named as the caller reads them (`names`): the club's members read every name; "
        "everyone else reads a name only where its player agreed (or the club publishes names, "
        "its `name_policy`, and the player did not object), else a pseudonym; everyone reads "
        "their own. Answers carry an `ETag` (it names the names too); send it back in "
        "`If-None-Match` to get a 304 while nothing changed.",
        parameters=[CLUB_ID, SEASON_ID, *conditional_headers(by_date=False)],
        responses={
            200: StandingsSerializer,
            304: OpenApiResponse(description="Not modified since the ETag sent."),
            **READ_ERRORS,
        },
        examples=[
            OpenApiExample(
                "A league by league points",
                response_only=True,
                status_codes=["200"],
                value={
                    "season": 1,
                    "as_of": "2026-11-24T22:41:44.595087Z",
                    "version": 97,
                    "requested_version": 97,
                    "up_to_date": True,
                    "ranked_by": "league_points",
                    "score_unit": None,
                    "names": INSIDER,
                    "rows": [
                        {
                            "rank": 1,
                            "player": "u:2",
                            "user": 2,
                            "guest": None,
                            "name": "Anna",
                            "balance": 550,
                            "score": 0,
                            "hands_played": 30,
                            "declared": 4,
                            "made": 2,
                            "premium_games": 1,
                            "average_per_hand": 18.33,
                            "evenings": 2,
                            "sittings": 4,
                            "league_points": 10.0,
                        }
                    ],
                },
            ),
            *score_examples(),
        ],
    )
    def get(self, request: Request, club_id: int, season_id: int) -> HttpResponse:
        user = caller(request)
        season, rows = selectors.season_standings(user=user, club_id=club_id, season_id=season_id)
        return self.answer(request, season, rows, standing_names(season, rows, user))

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        """Phones poll the standings, mostly without signing in: a GET without credentials
        that takes JSON, of a public club's season, is answered here, without DRF's request
        cycle (negotiation, authentication, throttle checks: some 7 % of such a read in the
        benchmark's profile), with the same body, status and headers. Every other request,
        and every error, takes the ordinary way (as the tournaments' standings do)."""
        if (
            request.method == "GET"
            and "HTTP_AUTHORIZATION" not in request.META
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
            and _takes_json(request.META.get("HTTP_ACCEPT", ""))
        ):
            try:
                season, rows = selectors.season_standings(
                    user=AnonymousUser(),
                    club_id=kwargs["club_id"],
                    season_id=kwargs["season_id"],
                )
            except ClubNotFound:
                pass  # a private club's or no such season: the ordinary way says so
            else:
                answer = self.answer(request, season, rows, public_names(season, rows))
                # what DRF's cycle adds: its headers (a Vary of its own), and who reads
                for name, value in self.default_response_headers.items():
                    answer[name] = value
                patch_vary_headers(answer, ("Authorization", "Cookie"))
                return answer
        return super().dispatch(request, *args, **kwargs)

    @staticmethod
    def answer(
        request: HttpRequest, season: Season, rows: list[dict[str, Any]], names: Names
    ) -> HttpResponse:
        """The answer is rendered once per computation, state and names and kept in this
        process (phones poll it); its ETag names that state and the names. It varies on
        ``Authorization`` and ``Cookie``: who reads decides which names show."""
        key = (
            season.pk,
            season.computed_at,
            season.computed_version,
            season.requested_version,
            bool(season.league_points),
            season.by_score,
            season.score_unit,
        )
        answer = conditional_answer(
            request,
            etag=_etag(key, names),
            build=lambda: HttpResponse(
                _body(key, season, rows, names), content_type="application/json"
            ),
        )
        patch_vary_headers(answer, ("Authorization", "Cookie"))
        return answer


def standing_names(season: Season, rows: list[dict[str, Any]], reader: AnyUser) -> Names:
    """:func:`names_for` the standings ``rows`` of ``season``."""
    return names_for(
        club_id=season.club_id, reader=reader, players=((r["player"], r["user"]) for r in rows)
    )


_PUBLIC: dict[tuple[Any, ...], tuple[float, Names]] = {}
_PUBLIC_LOCK = threading.Lock()
PUBLIC_KEPT = 1024


def public_names(season: Season, rows: list[dict[str, Any]]) -> Names:
    """The names an anonymous reader reads in ``season``'s standings ``rows``, as this process
    read them at most ``PUBLIC_POLL_CACHE_SECONDS`` ago (phones poll: a player's new choice
    shows from then on, and a poll costs the one query for the season)."""
    keep = settings.PUBLIC_POLL_CACHE_SECONDS
    if keep <= 0:
        return standing_names(season, rows, AnonymousUser())
    key = (season.pk, season.computed_at, season.computed_version)
    now = time.monotonic()
    with _PUBLIC_LOCK:
        cached = _PUBLIC.get(key)
    if cached is not None and cached[0] > now:
        return cached[1]
    names = standing_names(season, rows, AnonymousUser())
    with _PUBLIC_LOCK:
        if len(_PUBLIC) >= PUBLIC_KEPT:
            _PUBLIC.clear()
        _PUBLIC[key] = (now + keep, names)
    return names


def _body(key: tuple[Any, ...], season: Season, rows: list[dict[str, Any]], names: Names) -> bytes:
    """The standings' JSON, rendered once per ``key`` (the season's computation and state),
    ``names`` (:attr:`Names.key`) and language: a pseudonym is a word of the reader's
    language (the ETag names the language too, ``config.api.conditional``)."""
    key = (*key, names.key, translation.get_language())
    with _BODIES_LOCK:
        body = _BODIES.get(key)
    if body is None:
        body = JSONRenderer().render(
            {
                "season": season.pk,
                "as_of": season.computed_at,
                "version": season.computed_version,
                "requested_version": season.requested_version,
                "up_to_date": season.computed_version >= season.requested_version,
                "ranked_by": standings.ranked_by(
                    league=bool(season.league_points), by_score=season.by_score
                ),
                "score_unit": season.score_unit or None,
                "names": names.basis,
                "rows": [names.row(row) for row in rows] if names.hidden else rows,
            }
        )
        with _BODIES_LOCK:
            _BODIES[key] = body
            while len(_BODIES) > BODIES_CACHE_SIZE:
                _BODIES.popitem(last=False)
    return body


class RecomputeView(APIView):
    @extend_schema(
        summary="Recompute a season's standings",
        description="Asks the worker to compute the standings (and the club's ratings) from "
        "scratch; answers at once with the requested version.",
        parameters=[CLUB_ID, SEASON_ID],
        request=None,
        responses={202: SeasonSerializer, **ERRORS},
    )
    def post(self, request: Request, club_id: int, season_id: int) -> Response:
        season = _season(_club(request, club_id, manage=True), season_id)
        seasons.season_request_recompute(season_id=season.pk)
        seasons.ratings_request_recompute(club_id=season.club_id)
        season.refresh_from_db()
        return Response(SeasonSerializer(season).data, status=status.HTTP_202_ACCEPTED)


class RatingListView(generics.ListAPIView[Rating]):
    permission_classes = [permissions.AllowAny]
    serializer_class = RatingSerializer
    queryset = Rating.objects.none()

    def get_queryset(self) -> QuerySet[Rating]:
        club = _club(self.request, self.kwargs["club_id"])
        return selectors.ratings_of(club=club)

    @extend_schema(
        summary="A club's ratings",
        description="OpenSkill (Plackett-Luce) per player, updated per closed table sitting "
        "from its final ranking; ordered by `ordinal` (mu − 3σ). Players are named as in the "
        "standings: the club's members read every name, everyone else a pseudonym where the "
        "player's name is not public (the club's `name_policy`), and everyone their own.",
        parameters=[CLUB_ID],
        responses={200: RatingSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        ratings = list(queryset if page is None else page)
        names = names_for(
            club_id=self.kwargs["club_id"],
            reader=caller(request),
            players=((r.player, r.user_id) for r in ratings),
        )
        data = [names.row(row) for row in RatingSerializer(ratings, many=True).data]
        return Response(data) if page is None else self.get_paginated_response(data)


class RatingChangeFilter(filters.FilterSet):
    """Filter rating changes by player key (``u:3``)."""

    class Meta:
        model = RatingChange
        fields = ("player",)


class RatingHistoryView(generics.ListAPIView[RatingChange]):
    permission_classes = [permissions.AllowAny]
    serializer_class = RatingChangeSerializer
    filterset_class = RatingChangeFilter
    queryset = RatingChange.objects.none()

    def get_queryset(self) -> QuerySet[RatingChange]:
        club = _club(self.request, self.kwargs["club_id"])
        return selectors.rating_changes_of(club=club)

    @extend_schema(
        summary="A club's rating history",
        description=(
            "Every rating change at the club's closed tables, oldest first; `?player=` "
            "narrows it to one player. Visible to whoever may see the club."
        ),
        parameters=[CLUB_ID],
        responses={200: RatingChangeSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


CLUB = "clubs/<id:club_id>/"
SEASON = CLUB + "seasons/<id:season_id>/"

urlpatterns = [
    path(CLUB + "seasons/", SeasonListView.as_view(), name="seasons"),
    path(SEASON, SeasonDetailView.as_view(), name="season"),
    path(SEASON + "standings/", StandingsView.as_view(), name="season-standings"),
    path(SEASON + "recompute/", RecomputeView.as_view(), name="season-recompute"),
    path(CLUB + "ratings/", RatingListView.as_view(), name="ratings"),
    path(CLUB + "ratings/history/", RatingHistoryView.as_view(), name="rating-history"),
]
