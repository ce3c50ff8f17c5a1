"""Reads for clubs, scoped to the caller: querysets with their relations loaded.

A private club, and everything in it, does not exist for non-members: lookups raise
:class:`clubs.errors.ClubNotFound` (404), never 403.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.db import connection
from django.db.models import Count, Field, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from clubs import permissions
from clubs.errors import ClubNotFound, NotAllowed
from clubs.models import Club, Membership, Rating, RatingChange, Season, SeasonStanding
from clubs.permissions import AnyUser
from games import rows


def member_club_ids(*, user_id: int) -> QuerySet[Membership, Any]:
    """The ids of the clubs the user belongs to, as a subquery (``values("club_id")``)."""
    return Membership.objects.filter(user=user_id).values("club_id")


def clubs_for_user(*, user: AnyUser) -> QuerySet[Club]:
    """Clubs the caller may see: public ones and their own (staff: all), with
    ``members_count``."""
    qs = Club.objects.all()
    if not user.is_authenticated:
        qs = qs.filter(is_public=True)
    elif not user.is_staff:
        qs = qs.filter(Q(is_public=True) | Q(pk__in=member_club_ids(user_id=user.pk)))
    return qs.annotate(members_count=Count("memberships"))


def _club_and_role(user: AnyUser, club_id: int) -> tuple[Club, str | None]:
    """The club the caller may see and their role in it, in one query; 404 otherwise."""
    clubs = Club.objects.filter(pk=club_id)
    if user.is_authenticated:
        mine = Membership.objects.filter(club=OuterRef("pk"), user=user.pk).values("role")[:1]
        clubs = clubs.annotate(caller_role=Subquery(mine))
    club = clubs.first()
    role: str | None = getattr(club, "caller_role", None)
    staff = bool(getattr(user, "is_staff", False))
    if club is None or not (club.is_public or staff or role is not None):
        raise ClubNotFound()
    return club, role


def club_for_user(*, user: AnyUser, club_id: int) -> Club:
    """The club if the caller may see it; 404 otherwise."""
    return _club_and_role(user, club_id)[0]


def club_for_member(*, user: AnyUser, club_id: int) -> Club:
    """The club if the caller is a member (staff too); 404 for a private club they cannot
    see, 403 for a public one they do not belong to."""
    club, role = _club_and_role(user, club_id)
    if role is None and not getattr(user, "is_staff", False):
        raise NotAllowed(_("Only the club's members may see this."))
    return club


def club_for_manager(*, user: AnyUser, club_id: int) -> Club:
    """The club if the caller is an owner or admin; 404 when they cannot see it, 403 when
    they can but do not run it."""
    club, role = _club_and_role(user, club_id)
    if role not in Membership.MANAGERS:
        raise NotAllowed()
    return club


def memberships_of(*, club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("joined_at", "id")


def seasons_of(*, club: Club) -> QuerySet[Season]:
    """The club's seasons, newest first."""
    return Season.objects.filter(club=club).order_by("-starts_on", "-id")


def season_of_club(*, club: Club, season_id: int) -> Season:
    """One of the club's seasons, with its club; 404 when the club has no such season."""
    season = Season.objects.filter(pk=season_id, club=club).select_related("club").first()
    if season is None:
        raise ClubNotFound(_("There is no such season."))
    return season


def ratings_of(*, club: Club) -> QuerySet[Rating]:
    """The club's ratings, highest ``ordinal`` first."""
    return Rating.objects.filter(club=club).order_by("-ordinal", "player")


def rating_changes_of(*, club: Club) -> QuerySet[RatingChange]:
    """The club's rating changes, oldest first (by table within a moment)."""
    return RatingChange.objects.filter(club=club).order_by("at", "table_id", "player")


# The standings columns an answer shows, in order (``SeasonStanding`` fields).
STANDING_FIELDS = (
    "rank",
    "player",
    "user",
    "guest",
    "name",
    "balance",
    "score",
    "hands_played",
    "declared",
    "made",
    "premium_games",
    "average_per_hand",
    "evenings",
    "sittings",
    "league_points",
)
_SEASON = rows.Columns(
    Season,
    "s",
    only=(
        "club",
        "league_points",
        "requested_version",
        "computed_version",
        "computed_at",
        "score_unit",
        "by_score",
    ),
)


_SEASON_SQL = (
    f"SELECT {_SEASON.sql}, c.{rows.quote('is_public')} FROM {Season._meta.db_table} s "
    f"JOIN {Club._meta.db_table} c ON c.id = s.club_id WHERE s.id = %s AND s.club_id = %s"
)
_ROWS: OrderedDict[tuple[int, Any, int], list[dict[str, Any]]] = OrderedDict()
_ROWS_LOCK = threading.Lock()
ROWS_CACHE_SIZE = 256


def _rows_sql() -> str:
    fields = [SeasonStanding._meta.get_field(name) for name in STANDING_FIELDS]
    columns = ", ".join(rows.quote(f.column) for f in fields if isinstance(f, Field))
    return (
        f"SELECT {columns} FROM {SeasonStanding._meta.db_table} "
        "WHERE season_id = %s ORDER BY position"
    )


def season_standings(
    *, user: AnyUser, club_id: int, season_id: int
) -> tuple[Season, list[dict[str, Any]]]:
    """A season of a club the caller may see, and its stored standings rows (404 as for the
    club).

    Phones poll the standings, so this is one plain query for the season (the ORM's
    compilation cost more than running it) and the rows come from this process's memory,
    keyed by the computation they belong to (``computed_at``, ``computed_version``): a new
    computation is a new key, so an answer is never older than the season row read with it.
    """
    found = rows.fetch(_SEASON_SQL, [season_id, club_id])
    if found is None:
        raise ClubNotFound(_("There is no such season."))
    season = _SEASON.instance(found)
    if not found[len(_SEASON)] and not (
        getattr(user, "is_staff", False) or permissions.role_of(user, club_id) is not None
    ):
        raise ClubNotFound()
    key = (season.pk, season.computed_at, season.computed_version)
    with _ROWS_LOCK:
        table = _ROWS.get(key)
    if table is None:
        with connection.cursor() as cursor:
            cursor.execute(_rows_sql(), [season.pk])
            table = [dict(zip(STANDING_FIELDS, row, strict=True)) for row in cursor.fetchall()]
        with _ROWS_LOCK:
            _ROWS[key] = table
            while len(_ROWS) > ROWS_CACHE_SIZE:
                _ROWS.popitem(last=False)
    return season, table
