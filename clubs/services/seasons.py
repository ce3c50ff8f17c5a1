"""Seasons, their stored standings and the club's ratings.

The algorithms are plain modules (:mod:`clubs.standings`, :mod:`clubs.ratings`); this module
turns the games app's tables and hands into their values and stores what they compute:

- :func:`season_create`, :func:`season_update`: a club's seasons, one active at a time.
- :func:`season_request_recompute`: a hand of the season changed. Bumps
  ``requested_version`` and sends the worker :func:`clubs.tasks_seasons.recompute_season`
  after ``STANDINGS_COALESCE_SECONDS``. A task computes (everything requested so far) when
  it is the newest request or the first one since the last computation
  (:func:`should_compute`), so a burst of fifty entries costs one or two computations, and a
  steady stream of entries, where a newer request always comes before the newest task runs,
  still gets standings about every ``STANDINGS_COALESCE_SECONDS``.
- :func:`seasons_pending`: seasons whose requested computation has not happened (beat's
  :func:`clubs.tasks_seasons.kick_stale_standings` sends it again after a lost message).
- :func:`season_recompute`: compute and store the season's standings (one row per player)
  and replay the club's ratings over its closed table sittings.
- :func:`season_sittings`, :func:`club_sittings`: the values the cores take, from the ORM.

A player is ``u:<user id>`` (a member, or a guest merged into one), ``g:<guest id>`` (a
club guest not merged) or ``s:<seat id>`` (a guest known only by the name at one table);
bots are not ranked.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import ratings as rating_core
from clubs import standings as standings_core
from clubs.errors import ClubConflict, InvalidInput, NotAllowed
from clubs.models import (
    Club,
    Evening,
    EveningTable,
    Rating,
    RatingChange,
    Season,
    SeasonStanding,
    User,
)
from clubs.permissions import is_manager
from clubs.players import PlayerInfo, seat_player
from config.tasks import send, send_after_commit
from games.models import Hand, LedgerEntry, Seat, Table
from games.rulesets import rule_set_for, rule_set_of
from games.selectors import sitting_scores

# ---------------------------------------------------------------------------------------------
# seasons


def _league_error(reason: str) -> InvalidInput:
    return InvalidInput(
        _("The league points are invalid: {reason}").format(reason=reason),
        fields={"league_points": [reason]},
    )


def _league(data: Any) -> standings_core.LeaguePoints | None:
    """``{"3": [3, 2, 1], "4": [4, 3, 2, 1]}`` as the core's value; a clear 400 (in the
    reader's language) otherwise."""
    if data is None:
        return None
    if not isinstance(data, Mapping) or not data:
        raise InvalidInput(
            _("league_points maps table sizes to points by rank, e.g. {example}.").format(
                example='{"3": [3, 2, 1]}'
            ),
            fields={"league_points": [_("Not an object of table sizes.")]},
        )
    by_size: dict[int, tuple[Any, ...]] = {}
    for size, points in data.items():
        try:
            players = int(size)
        except (TypeError, ValueError):
            raise _league_error(
                _("{size} is not a table size (a number of players).").format(size=repr(size))
            ) from None
        numbers = (int, float)
        if not isinstance(points, list | tuple) or not all(
            isinstance(p, numbers) and not isinstance(p, bool) for p in points
        ):
            raise _league_error(
                _("The points for tables of {size} are not a list of numbers.").format(size=players)
            )
        if len(points) != players:
            raise _league_error(
                ngettext(
                    "Tables of {size} need {size} points, one by place; {count} is given.",
                    "Tables of {size} need {size} points, one by place; {count} are given.",
                    len(points),
                ).format(size=players, count=len(points))
            )
        if any(a < b for a, b in zip(points, points[1:], strict=False)):
            raise _league_error(
                _("The points for tables of {size} rise with the place; they must not.").format(
                    size=players
                )
            )
        by_size[players] = tuple(points)
    try:
        return standings_core.LeaguePoints(by_size)
    except (TypeError, ValueError):  # a number no fraction is (infinity)
        raise _league_error(_("Points are finite numbers.")) from None


def _check_dates(starts_on: dt.date, ends_on: dt.date) -> None:
    if ends_on < starts_on:
        raise InvalidInput(
            _("A season ends on or after the day it starts."),
            fields={"ends_on": [_("Before starts_on.")]},
        )


def season_create(
    *,
    user: User,
    club: Club,
    name: str,
    starts_on: dt.date,
    ends_on: dt.date,
    is_active: bool = False,
    league_points: Mapping[str, Sequence[float]] | None = None,
) -> Season:
    """Start a season (owners and admins). Making it active ends the active one's turn."""
    if not is_manager(user, club):
        raise NotAllowed()
    _check_dates(starts_on, ends_on)
    _league(league_points)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if is_active:
            Season.objects.filter(club=club, is_active=True).update(is_active=False)
        season = Season.objects.create(
            club=club,
            name=name,
            starts_on=starts_on,
            ends_on=ends_on,
            is_active=is_active,
            league_points=league_points,
        )
        season_request_recompute(season_id=season.pk)
    return season


def season_update(*, user: User, season: Season, **changes: Any) -> Season:
    """Change a season's name, dates, league points or activity; its standings follow."""
    if not is_manager(user, season.club):
        raise NotAllowed()
    allowed = {"name", "starts_on", "ends_on", "is_active", "league_points"}
    unknown = set(changes) - allowed
    if unknown:
        raise InvalidInput(_("Cannot change {fields}.").format(fields=", ".join(sorted(unknown))))
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=season.club_id).first()
        season = Season.objects.select_for_update().get(pk=season.pk)
        for name, value in changes.items():
            setattr(season, name, value)
        _check_dates(season.starts_on, season.ends_on)
        _league(season.league_points)
        if changes.get("is_active"):
            Season.objects.filter(club_id=season.club_id, is_active=True).exclude(
                pk=season.pk
            ).update(is_active=False)
        season.save(update_fields=sorted(changes))
        season_request_recompute(season_id=season.pk)
    return season


def season_delete(*, user: User, season: Season) -> None:
    """Delete a season (its stored standings go; hands, evenings and ratings stay)."""
    if not is_manager(user, season.club):
        raise NotAllowed()
    if season.evenings.exists():
        raise ClubConflict(
            _("Evenings are filed under this season; move them first."), code="season_in_use"
        )
    season.delete()


def season_bounds(season: Season) -> tuple[dt.datetime, dt.datetime]:
    """The season's first and last day as UTC instants in the club's timezone."""
    tz = ZoneInfo(season.club.timezone)
    start = dt.datetime.combine(season.starts_on, dt.time.min, tzinfo=tz)
    end = dt.datetime.combine(season.ends_on + dt.timedelta(days=1), dt.time.min, tzinfo=tz)
    return start, end


def season_evenings(season: Season) -> QuerySet[Evening]:
    """The season's evenings: those filed under it, and the club's unfiled evenings that
    start within its dates (in the club's timezone). Cancelled evenings do not count."""
    start, end = season_bounds(season)
    return Evening.objects.filter(
        Q(season=season) | Q(season__isnull=True, starts_at__gte=start, starts_at__lt=end),
        club_id=season.club_id,
    ).exclude(status=Evening.Status.CANCELLED)


def seasons_for_table(table_id: int) -> list[int]:
    """The seasons whose standings a change at this table moves."""
    link = (
        EveningTable.objects.filter(table_id=table_id)
        .select_related("evening", "evening__club")
        .first()
    )
    if link is None:
        return []
    return seasons_for_evening(link.evening)


def seasons_for_evening(evening: Evening) -> list[int]:
    """The seasons an evening counts in: the one it is filed under, else every season of its
    club whose dates hold its day (in the club's timezone)."""
    if evening.season_id is not None:
        return [evening.season_id]
    local = evening.starts_at.astimezone(ZoneInfo(evening.club.timezone)).date()
    return list(
        Season.objects.filter(
            club_id=evening.club_id, starts_on__lte=local, ends_on__gte=local
        ).values_list("pk", flat=True)
    )


def season_request_recompute(*, season_id: int) -> None:
    """Ask for the season's standings to be computed again (coalesced: see the module)."""
    from clubs.tasks_seasons import recompute_season

    Season.objects.filter(pk=season_id).update(requested_version=F("requested_version") + 1)
    version = Season.objects.filter(pk=season_id).values_list("requested_version", flat=True)[0]
    # A message the broker missed is sent again by kick_stale_standings (seasons_pending).
    send_after_commit(
        recompute_season, season_id, version, countdown=settings.STANDINGS_COALESCE_SECONDS
    )


def seasons_pending() -> list[tuple[int, int]]:
    """(season id, requested version) of every season whose standings lag behind a request:
    the task computing them was lost (the broker or a worker went down) or is waiting."""
    return list(
        Season.objects.filter(requested_version__gt=F("computed_version")).values_list(
            "pk", "requested_version"
        )
    )


def ratings_request_recompute(*, club_id: int) -> None:
    """Ask the worker to replay the club's ratings from scratch (after a guest merge, say)."""
    from clubs.tasks_seasons import recompute_ratings

    send_after_commit(recompute_ratings, club_id)


def club_recompute_all(*, club_id: int) -> None:
    """Every season of the club and its ratings from scratch (a guest merged: who a player
    is changed)."""
    for season_id in Season.objects.filter(club_id=club_id).values_list("pk", flat=True):
        season_request_recompute(season_id=season_id)
    ratings_request_recompute(club_id=club_id)


def on_hands_changed(table_id: int, club_id: int | None) -> None:
    """games.hooks listener (after the change commits, in the request): hand the table to
    the worker (:func:`table_hands_changed`); nothing is read here, so recording a hand costs
    one message, not the season's look-ups."""
    if club_id is None:
        return
    from clubs.tasks_seasons import table_changed

    if not send(table_changed, table_id):
        # The broker is down and the hand is committed: ask for the standings here (a
        # database write; kick_stale_standings sends the computation once the broker is back).
        table_hands_changed(table_id=table_id)


def evening_closed(*, evening: Evening) -> None:
    """The evening closed (in its transaction): its seasons' standings are asked for now, so
    they read as not up to date from the close's commit until the worker has counted the money
    the close moved (the tables' own messages follow and coalesce with this request)."""
    for season_id in seasons_for_evening(evening):
        season_request_recompute(season_id=season_id)


def table_hands_changed(*, table_id: int) -> None:
    """A table's settled hands changed (or it closed): its seasons' standings are asked for
    again (coalesced), and a closed evening table is rated."""
    with transaction.atomic():
        for season_id in seasons_for_table(table_id):
            season_request_recompute(season_id=season_id)
    if Table.objects.filter(pk=table_id, status=Table.Status.CLOSED).exists():
        ratings_after_table(table_id=table_id)


# ---------------------------------------------------------------------------------------------
# from tables to sittings


# The parts of a hand's result the standings read, in each database's JSON spelling: ``r`` is
# the result column; ``value`` is one key of it as JSON text, the key (:func:`_value_param`)
# a statement parameter.
_JSON = {
    "postgresql": {
        "delta": "CAST({r} -> 'delta' AS TEXT)",
        "value": "CAST({r} -> CAST(%s AS TEXT) AS TEXT)",
    },
    "sqlite": {
        "delta": "json_extract({r}, '$.delta')",
        "value": "({r} -> %s)",
    },
}


def _value_param(vendor: str, key: str) -> str:
    """A result key as the parameter of ``_JSON[vendor]["value"]``."""
    return key if vendor == "postgresql" else f'$."{key}"'


def _hands_sql(vendor: str, tables: int, keys: int) -> str:
    """The statement behind :func:`_settled_hands` for ``tables`` table ids and ``keys``
    result keys (its parameters: the keys, the status, the ids). PostgreSQL takes the ids as
    one array (the client parses a statement's placeholders on every call: a season has
    hundreds of tables), SQLite as a list."""
    f = _JSON[vendor]
    r = Hand._meta.get_field("result").column
    ids = "= ANY(%s)" if vendor == "postgresql" else f"IN ({', '.join(['%s'] * tables)})"
    values = "".join(f", {f['value'].format(r=r)}" for _ in range(keys))
    return (
        f"SELECT table_id, dealer, {f['delta'].format(r=r)}{values} "
        f"FROM {Hand._meta.db_table} WHERE status = %s AND table_id {ids}"
    )


def _settled_hands(
    table_ids: Sequence[int], rule_sets: Mapping[int, Any]
) -> Iterator[tuple[int, str, dict[str, Any], Mapping[str, Any]]]:
    """The settled hands of these tables (each table's rule set in ``rule_sets``) as (table
    id, dealer, delta, statistics): the delta decoded, and what the table's rule set answers
    of the hand's result for season statistics (``RuleSet.statistics``: its declarer, made,
    premium). One statement, whatever the number of hands, reading of each stored result
    only its delta and the rule set's ``statistics_keys`` (as JSON text); the rule set is
    asked once for each combination of those keys' values."""
    if not table_ids:
        return
    vendor = connection.vendor
    ids: list[Any] = [list(table_ids)] if vendor == "postgresql" else list(table_ids)
    keys = list(dict.fromkeys(k for rs in rule_sets.values() for k in rs.statistics_keys))
    with connection.cursor() as cursor:
        cursor.execute(
            _hands_sql(vendor, len(table_ids), len(keys)),
            [*(_value_param(vendor, k) for k in keys), Hand.Status.DONE, *ids],
        )
        rows = cursor.fetchall()
    answers: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for table_id, dealer, delta, *values in rows:
        rule_set = rule_sets[table_id]
        known = (rule_set.name, *values)
        answer = answers.get(known)
        if answer is None:
            own = rule_set.statistics_keys
            result = {
                k: json.loads(v)
                for k, v in zip(keys, values, strict=True)
                if v is not None and k in own
            }
            answer = answers[known] = rule_set.statistics(result)
        yield table_id, dealer, json.loads(delta) if delta else {}, answer


_Flags = tuple[str, bool, bool, bool | None, bool]
"""A line's player, ``played``, ``declarer``, ``made`` and ``premium``."""


@dataclass(slots=True)
class _TableLines:
    """One table's lines while they are summed: who its seats are (``by_key``, seat key to
    player), its seat keys in order, its rule set, the active seats by dealer, and the sums
    by (player, played, declarer, made, premium)."""

    by_key: dict[str, str]
    keys: list[str]
    rule_set: Any
    active: dict[str, frozenset[str]] = field(default_factory=dict)
    alike: dict[_Flags, tuple[int, int]] = field(default_factory=dict)

    def lines(self) -> tuple[standings_core.HandLine, ...]:
        return tuple(
            standings_core.HandLine(
                player=player,
                amount=amount,
                played=played,
                declarer=declarer,
                made=made,
                premium=premium,
                hands=hands,
            )
            for (player, played, declarer, made, premium), (amount, hands) in self.alike.items()
        )


def seat_players(table_ids: Sequence[int]) -> dict[int, list[tuple[str, PlayerInfo | None]]]:
    """Each table's seats in order, as (seat key, player: :func:`clubs.players.seat_player`).

    A player is a seat's user, or its club guest (or the member the guest merged into), or,
    for a guest known only by name, the seat itself; a bot is nobody. So the seats of one
    user, and those of one guest, are one player wherever they sit, and ``seat_player`` is
    asked once for each of them: a season seats a few dozen people thousands of times, and
    loading every seat with its user cost more than everything else. Two queries."""
    rows = (
        Seat.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "position")
        .values_list("table_id", "key", "pk", "kind", "user_id", "guest_id")
    )
    seated: list[tuple[int, str, tuple[Any, ...]]] = []
    first: dict[tuple[Any, ...], int] = {}
    for table_id, key, pk, kind, user_id, guest_id in rows:
        if kind == Seat.Kind.BOT:
            who: tuple[Any, ...] = ("bot",)
        elif user_id is not None:
            who = ("user", user_id)
        elif guest_id is not None:
            who = ("guest", guest_id)
        else:
            who = ("seat", pk)
        first.setdefault(who, pk)
        seated.append((table_id, key, who))
    by_seat = {
        seat.pk: seat_player(seat)
        for seat in Seat.objects.filter(pk__in=first.values()).select_related(
            "user", "guest", "guest__merged_into"
        )
    }
    players = {who: by_seat[pk] for who, pk in first.items()}
    out: dict[int, list[tuple[str, PlayerInfo | None]]] = defaultdict(list)
    for table_id, key, who in seated:
        out[table_id].append((key, players[who]))
    return out


SITTING_TABLE_FIELDS = (
    "evening",
    "table",
    "table__created_at",
    "table__rules",
    "table__opening_carry",
)
"""What :func:`sittings_for_tables` and :func:`games.selectors.sitting_scores` read of an evening
table and its table."""


def _with_tables(links: QuerySet[EveningTable]) -> QuerySet[EveningTable]:
    return links.select_related("table").only(*SITTING_TABLE_FIELDS)


def sittings_for_tables(
    links: Iterable[EveningTable],
) -> tuple[list[standings_core.Sitting], dict[str, PlayerInfo]]:
    """One sitting per evening table, with every settled hand's lines and the money its close
    moved (a pot shared out, a score paid at its price); its score where its rule set scores a
    sitting as a whole (``sitting_score``, as the sitting stands); and who each player key is.
    A seat *played* a hand when its rule set makes it one of that deal's active players
    (``active_seats``; e.g. the dealer of a four-table with three active sits out).

    A player's hands at a sitting alike in every flag are one line (``HandLine.hands``), from
    the database's sums (:func:`_summed_lines`): a few lines per player and sitting, however
    many hands were played."""
    links = list(links)
    table_ids = [link.table_id for link in links]
    seats = seat_players(table_ids)
    people: dict[str, PlayerInfo] = {}
    tables: dict[int, _TableLines] = {}
    for link in links:
        by_key: dict[str, str] = {}
        for seat_key, info in seats[link.table_id]:
            if info is not None and info.key not in by_key.values():
                by_key[seat_key] = info.key
                people.setdefault(info.key, info)
        if by_key:
            keys = [seat_key for seat_key, _ in seats[link.table_id]]
            tables[link.table_id] = _TableLines(by_key, keys, rule_set_of(link.table))

    for table_id, dealer, delta, statistics in _settled_hands(
        list(tables), {table_id: table.rule_set for table_id, table in tables.items()}
    ):
        table = tables[table_id]
        active = table.active.get(dealer)
        if active is None:
            active = table.active[dealer] = frozenset(
                table.rule_set.active_seats(table.keys, dealer)
            )
        declarer = statistics["declarer"]
        for seat_key, amount in delta.items():
            player = table.by_key.get(seat_key)
            if player is None or amount is None:
                continue
            flags: _Flags
            if seat_key == declarer:
                made, premium = statistics["made"] is True, bool(statistics["premium"])
                flags = (player, seat_key in active, True, made, premium)
            else:
                flags = (player, seat_key in active, False, None, False)
            summed, count = table.alike.get(flags, (0, 0))
            table.alike[flags] = (summed + int(amount), count + 1)

    # The money a table's close moves between players (a pot shared out, a score paid):
    # standings count it beside the deals' amounts. Only rows of no hand (a deal's own transfers
    # are the deal's amounts already), and of them only the seats' side (the pot carried in and
    # on moves between the pot and the series).
    splits: dict[int, dict[str, int]] = defaultdict(dict)
    for table_id, payer, payee, amount in LedgerEntry.objects.filter(
        table_id__in=table_ids, hand__isnull=True
    ).values_list("table_id", "payer", "payee", "amount"):
        splits[table_id][payee] = splits[table_id].get(payee, 0) + amount
        splits[table_id][payer] = splits[table_id].get(payer, 0) - amount
    scores = sitting_scores(link.table for link in links)
    sittings = []
    for link in links:
        summed_lines = tables.get(link.table_id)
        if summed_lines is None:
            continue
        by_key = summed_lines.by_key
        extra = {by_key[k]: v for k, v in splits[link.table_id].items() if k in by_key}
        score = scores.get(link.table_id)
        sittings.append(
            standings_core.Sitting(
                key=link.table_id,
                evening=link.evening_id,
                at=link.table.created_at,
                players=tuple(by_key.values()),
                lines=summed_lines.lines(),
                extra=extra,
                scores=None
                if score is None
                else {by_key[k]: v for k, v in score.items() if k in by_key},
            )
        )
    return sittings, people


def season_sittings(
    season: Season,
) -> tuple[list[standings_core.Sitting], dict[str, PlayerInfo]]:
    links = EveningTable.objects.filter(evening__in=season_evenings(season))
    return sittings_for_tables(_with_tables(links))


def season_score_unit(season: Season) -> str:
    """The unit of the season's scores: the ``score_unit`` of its tables' rule sets that
    have one, empty when none has; several are named together."""
    units = {
        rule_set_for(rules).score_unit
        for rules in EveningTable.objects.filter(evening__in=season_evenings(season))
        .values_list("table__rules", flat=True)
        .distinct()
    }
    return " ".join(sorted(u for u in units if u))


def club_sittings(club_id: int) -> tuple[list[standings_core.Sitting], dict[str, PlayerInfo]]:
    """Every closed evening table of the club: what its ratings are replayed over."""
    links = EveningTable.objects.filter(evening__club_id=club_id, table__status=Table.Status.CLOSED)
    return sittings_for_tables(_with_tables(links))


# ---------------------------------------------------------------------------------------------
# computing and storing


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Run a season's (or a club's) computation with Python's cyclic garbage collector paused.

    A computation builds tens of thousands of short-lived values (rows, lines, sittings,
    rating changes) without reference cycles: reference counting frees every one of them. While
    they are alive the collector would only walk the whole process again and again (a full
    collection visits every object of the loaded project, 100,000 and more): a third of a
    season's recomputation in the benchmark (``bench/clubs_bench.py``). It runs again as usual
    afterwards; when the caller paused it already, it stays paused."""
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def compute_standings(season: Season) -> tuple[standings_core.Standings, dict[str, PlayerInfo]]:
    """The season's standings from scratch (nothing stored)."""
    with _collector_paused():
        sittings, people = season_sittings(season)
        return standings_core.compute(sittings, league=_league(season.league_points)), people


def should_compute(version: int, requested: int, computed: int) -> bool:
    """Whether the task for request ``version`` computes, the newest request being
    ``requested`` and the stored standings answering ``computed``: when it is not answered
    yet and it is the newest request or the first since the stored computation. Only the
    newest would starve under a steady stream of changes (each task finding a newer request);
    the first after a computation runs ``STANDINGS_COALESCE_SECONDS`` after it and takes
    every request since, so standings lag at most about that long. (Tournaments coalesce the
    same way: ``tournaments.services.standings``.)"""
    return computed < version and (version >= requested or version == computed + 1)


def season_recompute(*, season_id: int, version: int | None = None) -> bool:
    """Compute and store the season's standings, if the task for ``version`` should
    (:func:`should_compute`; None: always). Answers whether it computed. Safe to run
    twice."""
    with transaction.atomic():
        season = (
            Season.objects.select_for_update().select_related("club").filter(pk=season_id).first()
        )
        if season is None:
            return False
        if version is not None and not should_compute(
            version, season.requested_version, season.computed_version
        ):
            return False
        target = season.requested_version
        table, people = compute_standings(season)
        store_standings(season, table, people)
        season.computed_version = target
        season.computed_at = timezone.now()
        season.computations += 1
        season.score_unit = season_score_unit(season)
        season.by_score = table.by_score
        season.save(
            update_fields=[
                "computed_version",
                "computed_at",
                "computations",
                "score_unit",
                "by_score",
            ]
        )
    return True


def store_standings(
    season: Season, table: standings_core.Standings, people: Mapping[str, PlayerInfo]
) -> None:
    """Replace the season's stored rows with ``table``."""
    SeasonStanding.objects.filter(season=season).delete()
    SeasonStanding.objects.bulk_create(
        _standing_row(season, position, row, people[str(row.player)])
        for position, row in enumerate(table.rows, 1)
    )


def _standing_row(
    season: Season, position: int, row: standings_core.StandingsRow, who: PlayerInfo
) -> SeasonStanding:
    data = row.to_json()
    return SeasonStanding(
        season=season,
        player=who.key,
        user_id=who.user_id,
        guest_id=who.guest_id,
        name=who.name,
        rank=row.rank,
        position=position,
        balance=row.balance,
        score=row.score,
        hands_played=row.hands_played,
        declared=row.declared,
        made=row.made,
        premium_games=row.premium_games,
        average_per_hand=float(data["average_per_hand"]),
        evenings=row.evenings,
        sittings=row.sittings,
        league_points=None if row.league_points is None else float(row.league_points),
    )


def ratings_recompute(*, club_id: int) -> rating_core.Ratings:
    """Replay the club's ratings over every closed evening table, in order, and store the
    current ratings and every change (a full replay reproduces the stored values exactly)."""
    with _collector_paused():
        sittings, people = club_sittings(club_id)
        result = rating_core.replay(sittings)
    at = {s.key: s.at for s in sittings}
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club_id).first()
        Rating.objects.filter(club_id=club_id).delete()
        RatingChange.objects.filter(club_id=club_id).delete()
        counts: dict[str, int] = defaultdict(int)
        for change in result.history:
            counts[str(change.player)] += 1
        Rating.objects.bulk_create(
            Rating(
                club_id=club_id,
                player=str(player),
                user_id=people[str(player)].user_id,
                guest_id=people[str(player)].guest_id,
                name=people[str(player)].name,
                mu=rating.mu,
                sigma=rating.sigma,
                ordinal=rating.ordinal,
                sittings=counts[str(player)],
            )
            for player, rating in result.current.items()
        )
        RatingChange.objects.bulk_create(
            _change_row(club_id, c, at[c.sitting]) for c in result.history
        )
    return result


def _change_row(club_id: int, c: rating_core.RatingChange, at: dt.datetime) -> RatingChange:
    return RatingChange(
        club_id=club_id,
        player=str(c.player),
        table_id=int(c.sitting),
        at=at,
        rank=c.place,
        mu_before=c.before.mu,
        sigma_before=c.before.sigma,
        mu_after=c.after.mu,
        sigma_after=c.after.sigma,
        ordinal_after=c.after.ordinal,
    )


def _later(club_id: int, sitting: standings_core.Sitting) -> bool:
    """Whether the club has a rated sitting after ``sitting`` (or ``sitting`` itself)."""
    return RatingChange.objects.filter(
        Q(at__gt=sitting.at) | Q(at=sitting.at, table_id__gte=sitting.key), club_id=club_id
    ).exists()


def ratings_after_table(*, table_id: int) -> None:
    """Rate one closed evening table: the players' ratings move by its final ranking.

    The usual case, the newest sitting of the club, is one OpenSkill update; when a sitting
    closes after a later one was rated (tables of a round close in any order), the club's
    ratings are replayed in order instead, so the stored values always equal a full replay.
    Serialised per club by a lock on the club row; safe to run twice.
    """
    link = (
        EveningTable.objects.filter(table_id=table_id, table__status=Table.Status.CLOSED)
        .select_related("table", "evening")
        .first()
    )
    if link is None:
        return
    club_id = link.evening.club_id
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club_id).first()
        sittings, people = sittings_for_tables([link])
        if not sittings:
            return
        sitting = sittings[0]
        if _later(club_id, sitting):
            ratings_recompute(club_id=club_id)
            return
        stored = {
            r.player: r for r in Rating.objects.filter(club_id=club_id, player__in=sitting.players)
        }
        current: dict[standings_core.Player, rating_core.Rating] = {
            player: rating_core.Rating(mu=r.mu, sigma=r.sigma) for player, r in stored.items()
        }
        changes = rating_core.rate_sitting(
            rating_core.Ratings(model=rating_core.DEFAULT_MODEL, current=current), sitting
        )
        for change in changes:
            player = str(change.player)
            row = stored.get(player)
            if row is None:
                who = people[player]
                row = Rating(
                    club_id=club_id,
                    player=player,
                    user_id=who.user_id,
                    guest_id=who.guest_id,
                    name=who.name,
                )
            row.mu, row.sigma = change.after.mu, change.after.sigma
            row.ordinal = change.after.ordinal
            row.sittings += 1
            row.save()
        RatingChange.objects.bulk_create(_change_row(club_id, c, sitting.at) for c in changes)
