"""Reads for games: querysets scoped to the user, with their relations already loaded.

Who may read what follows :func:`games.permissions.can_read`: public tables and a public
club's tables for everybody; for a signed-in user also the tables where they sit, that they
created, of a club they belong to and of a tournament they direct; staff read all.
The filters are subqueries rather than joins, so no ``distinct()`` is needed and a table
never appears twice.

Who reads which names at a table (issue 39, :mod:`clubs.privacy`; docs/games.md, "Names in
public lists") is decided here too, for every answer that names its people (seats, score
sheet, payments, who created the table, entered, confirmed or changed its hands):
:func:`table_names`.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import (
    Count,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound

import clubs.privacy as privacy
from clubs.models import Club, Membership, User
from games import managers, rows
from games.errors import InvalidInput
from games.hands import hand_clock, hand_timeouts, hand_view
from games.models import (
    POT,
    SERIES,
    AuditEntry,
    Hand,
    LedgerEntry,
    Seat,
    Table,
    TableSeries,
    WorkerPing,
)
from games.permissions import can_read, seat_of
from games.rulesets import rule_set_of, sitting_score

AnyUser = User | AnonymousUser


def worker_pings_for_user(*, user: User) -> QuerySet[WorkerPing]:
    """The user's own pings, newest first."""
    return WorkerPing.objects.filter(user=user).select_related("user")


def _readable(user: AnyUser) -> Q:
    """The ``can_read`` rule as a filter on tables."""
    public_clubs = Club.objects.filter(is_public=True).values("pk")
    if not user.is_authenticated:
        return Q(is_public=True) | Q(club_id__in=public_clubs)
    if user.is_staff:
        return Q()
    member_of = Membership.objects.filter(user=user.pk).values("club_id")
    mine = Seat.objects.filter(Q(user=user.pk) | Q(guest__merged_into=user.pk))
    return (
        Q(is_public=True)
        | Q(club_id__in=public_clubs)
        | Q(created_by=user.pk)
        | Q(pk__in=mine.values("table_id"))
        | Q(club_id__in=member_of)
        | managers.managed(user)
    )


def _seats() -> Prefetch[str, QuerySet[Seat], str]:
    return Prefetch(
        "seats",
        queryset=Seat.objects.select_related("user", "guest__merged_into").order_by("position"),
    )


def _loaded_tables() -> QuerySet[Table]:
    """Tables with their seats (and their users), club, series and creator: one query for the
    tables and one for all their seats."""
    return Table.objects.select_related("club", "series", "created_by").prefetch_related(_seats())


def tables_for_user(*, user: AnyUser) -> QuerySet[Table]:
    """Tables ``user`` may read, loaded as :func:`_loaded_tables` loads them."""
    return _loaded_tables().filter(_readable(user))


def _ledger_sum(**filters: object) -> Coalesce:
    rows = (
        LedgerEntry.objects.filter(**filters)
        .order_by()
        .values("table_id" if "table" in filters else "table__series_id")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), Value(0))


def tables_with_totals(*, user: AnyUser) -> QuerySet[Table]:
    """:func:`tables_for_user` with ``pot`` (the pot now, from the ledger) and
    ``hands_count`` annotated."""
    hands = (
        Hand.objects.filter(table=OuterRef("pk"))
        .order_by()
        .values("table_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return tables_for_user(user=user).annotate(
        pot_in=_ledger_sum(table=OuterRef("pk"), payee=POT),
        pot_out=_ledger_sum(table=OuterRef("pk"), payer=POT),
        hands_count=Coalesce(Subquery(hands, output_field=IntegerField()), Value(0)),
    )


def table_for_user(*, user: AnyUser, table_id: int) -> Table | None:
    """One readable table (loaded as :func:`_loaded_tables` loads them), or None: unreadable
    tables do not exist.

    Loaded by its id and checked by :func:`games.permissions.can_read` (the rule
    :func:`_readable` writes as a filter for lists): building and compiling that filter's six
    subqueries cost more than the query itself, and a seated reader needs no further query."""
    table = _loaded_tables().filter(pk=table_id).first()
    if table is None or not can_read(user, table):
        return None
    return table


def hands_for_table(*, table: Table) -> QuerySet[Hand]:
    """The table's hands in order, with who entered and confirmed them; the secret columns
    (deal, deck, salt) stay in the row but are never shown before the hand is over."""
    return (
        Hand.objects.filter(table=table)
        .select_related("entered_by", "confirmed_by")
        .order_by("number")
    )


def _hand_stamp(table_id: int, number: int) -> tuple[Any, ...] | None:
    """The id and last change of hand ``number`` of table ``table_id``, by one plain query
    (the ORM's query compilation costs more than the query itself here)."""
    return rows.fetch(_STAMP_SQL, [table_id, number])


_STAMP_SQL = f"SELECT id, updated_at FROM {Hand._meta.db_table} WHERE table_id = %s AND number = %s"
#: Snapshots of hands with their table and seats, by (table id, hand number).
_SNAPSHOTS: OrderedDict[tuple[int, int], tuple[tuple[Any, ...], float, Hand]] = OrderedDict()
_SNAPSHOTS_LOCK = threading.Lock()
SNAPSHOTS_KEPT = 4096
#: How long a snapshot's table flags (``is_public``, ``status``, name) may be reused; the hand
#: itself is always current (its id and ``updated_at`` are checked on every read).
SNAPSHOT_SECONDS = 5.0


def _load_hand(table_id: int, number: int) -> Hand | None:
    try:  # get(), not first(): no ORDER BY through both models' orderings to compile
        return (
            Hand.objects.select_related("table__club", "entered_by", "confirmed_by")
            .prefetch_related(
                Prefetch(
                    "table__seats",
                    queryset=Seat.objects.select_related("user", "guest__merged_into"),
                )
            )
            .get(table_id=table_id, number=number)
        )
    except Hand.DoesNotExist:
        return None


def hand_for_user(*, user: AnyUser, table_id: int, number: int) -> Hand | None:
    """Hand ``number`` of a readable table, its table and seats loaded; None when the hand
    does not exist or its table is not readable.

    Seat views are read far more often than hands change, so a read costs one plain query:
    the hand's id and ``updated_at`` (every service that changes a hand saves it) decide
    whether this process's snapshot of the hand is still the hand. Seats never change after a
    table opens; the table's own flags are reloaded after ``SNAPSHOT_SECONDS``. The returned
    objects are shared: read them, never change them.
    """
    stamp = _hand_stamp(table_id, number)
    if stamp is None:
        return None
    key = (table_id, number)
    now = time.monotonic()
    with _SNAPSHOTS_LOCK:
        cached = _SNAPSHOTS.get(key)
    if cached is not None and cached[0] == stamp and now - cached[1] < SNAPSHOT_SECONDS:
        hand = cached[2]
    else:
        loaded = _load_hand(table_id, number)
        if loaded is None:
            return None
        hand = loaded
        if not connection.in_atomic_block:  # never keep what a transaction may roll back
            with _SNAPSHOTS_LOCK:
                # the stamp read before loading: the snapshot is at least that new
                _SNAPSHOTS[key] = (stamp, now, hand)
                _SNAPSHOTS.move_to_end(key)
                while len(_SNAPSHOTS) > SNAPSHOTS_KEPT:
                    _SNAPSHOTS.popitem(last=False)
    if not can_read(user, hand.table):
        return None
    return hand


def no_hosted_hand(table_id: int, number: int) -> str:
    """The sentence for a hosted hand a table does not have."""
    return _("Table {table} has no hosted hand {number}.").format(table=table_id, number=number)


def hosted_hand_for_user(
    *, user: AnyUser, table_id: int, number: int
) -> tuple[Table, Hand, str | None]:
    """The table (seats loaded) and hosted hand ``user`` may read, and their seat at it (None:
    a spectator); :class:`NotFound` (404) for a table the user may not read or a hand that is
    not hosted. The check of the long poll and of a websocket's hand subscription."""
    table = Table.objects.prefetch_related("seats").filter(pk=table_id).first()
    if table is None or not can_read(user, table):
        raise NotFound(_("There is no such table."))
    hand = Hand.objects.filter(table=table, number=number).first()
    if hand is None or hand.deal is None:
        raise NotFound(no_hosted_hand(table_id, number))
    seat = seat_of(user, table)
    return table, hand, None if seat is None else seat.key


def hand_events_body(*, table: Table, hand: Hand, seat: str | None, after: int) -> dict[str, Any]:
    """The events after version ``after`` as ``seat`` (None: a spectator) may see them, and
    where the hand stands: the body of the long poll and of a websocket's ``events``.
    :class:`~games.errors.InvalidInput` for an ``after`` beyond the hand's version."""
    if after > hand.version:
        raise InvalidInput(
            _("The hand is at version {version}; 'after' cannot be beyond it.").format(
                version=hand.version
            ),
            fields={"after": [_("at most {version}").format(version=hand.version)]},
        )
    seen = hand_view(table, hand, seat)
    events = [
        {
            "version": i,
            "seat": item["seat"],
            "action": {k: v for k, v in item.items() if k != "seat"},
        }
        for i, item in enumerate(seen["actions"][after:], start=after + 1)
    ]
    return {
        "version": hand.version,
        "status": hand.status,
        "phase": seen["phase"],
        "to_act": seen["to_act"],
        "events": events,
        "clock": hand_clock(table, hand, timezone.now()),
        "timeouts": hand_timeouts(hand),
    }


def hand_events_for_user(
    *, user: AnyUser, table_id: int, number: int, after: int
) -> tuple[dict[str, Any], int]:
    """:func:`hand_events_body` for ``user`` and the hand's id; 404 as
    :func:`hosted_hand_for_user`."""
    table, hand, seat = hosted_hand_for_user(user=user, table_id=table_id, number=number)
    return hand_events_body(table=table, hand=hand, seat=seat, after=after), hand.pk


def hand_events_for_seat(
    *, table_id: int, number: int, seat: str | None, after: int
) -> dict[str, Any]:
    """:func:`hand_events_body` for ``seat`` without asking who reads: only for a caller that
    checked the reader with :func:`hosted_hand_for_user` already (a websocket subscription,
    which shares one read among the sockets of a process that would read the same thing)."""
    table = Table.objects.prefetch_related("seats").filter(pk=table_id).first()
    hand = None if table is None else Hand.objects.filter(table=table, number=number).first()
    if table is None or hand is None or hand.deal is None:
        raise NotFound(no_hosted_hand(table_id, number))
    return hand_events_body(table=table, hand=hand, seat=seat, after=after)


def hand_moved_past(*, hand_id: int, after: int) -> bool:
    """Whether hand ``hand_id`` moved past version ``after`` (a long poll's wake-up check)."""
    return Hand.objects.filter(pk=hand_id, version__gt=after).exists()


def mode_if_seated(*, user: AnyUser, table_id: int) -> str | None:
    """The mode of table ``table_id`` when ``user`` sits there (one small query), else None:
    players may write to their own tables, so nothing more is needed before their entry."""
    if not user.is_authenticated:
        return None
    row = rows.fetch(_SEATED_SQL, [table_id, user.pk])  # plain SQL: compiling costs more
    return None if row is None else str(row[0])


_SEATED_SQL = (
    f"SELECT t.mode FROM {Seat._meta.db_table} s JOIN {Table._meta.db_table} t "
    "ON t.id = s.table_id WHERE s.table_id = %s AND s.user_id = %s"
)


def sitting_scores(
    tables: Iterable[Table], *, up_to: int | None = None
) -> dict[int, dict[str, int]]:
    """Per table whose rule set scores a sitting besides its money (``RuleSet.score_unit``):
    each seat's score after its settled hands (numbered at most ``up_to``, when given: a
    tournament round's deals): what its last settled hand leaves, by
    :func:`games.rulesets.sitting_score`, or where the rule set scores deal by deal
    (``RuleSet.deal_scores``) its hands' scores summed. Tables of other rule sets are left
    out. At most four queries, however many tables."""
    scored = {t.pk: t for t in tables if rule_set_of(t).score_unit is not None}
    if not scored:
        return {}
    done = Hand.objects.filter(table_id__in=scored, status=Hand.Status.DONE)
    if up_to is not None:
        done = done.filter(number__lte=up_to)
    summed = {pk for pk, t in scored.items() if rule_set_of(t).deal_scores}
    out: dict[int, dict[str, int]] = {}
    if summed:
        for pk in summed:
            out[pk] = {}
        in_order = Seat.objects.filter(table_id__in=summed).order_by("table_id", "position")
        for table_id, key in in_order.values_list("table_id", "key"):
            out[table_id][key] = 0
        rows = done.filter(table_id__in=summed).values_list("table_id", "result__score")
        for table_id, score in rows:
            for key, points in (score or {}).items():
                out[table_id][key] = out[table_id].get(key, 0) + int(points)
        scored = {pk: t for pk, t in scored.items() if pk not in summed}
        if not scored:
            return out
        done = done.exclude(table_id__in=summed)
    per_table = done.order_by().values("table_id").annotate(last=Max("number"))
    last = dict(per_table.values_list("table_id", "last"))
    results = {
        (table_id, number): result
        for table_id, number, result in Hand.objects.filter(
            table_id__in=last, number__in=set(last.values())
        )
        .order_by()  # no join to order by table
        .values_list("table_id", "number", "result")
        if last.get(table_id) == number
    }
    seats: dict[int, list[str]] = {pk: [] for pk in scored}
    in_order = Seat.objects.filter(table_id__in=scored).order_by("table_id", "position")
    for table_id, key in in_order.values_list("table_id", "key"):
        seats[table_id].append(key)
    for pk, table in scored.items():
        number = last.get(pk)
        score = sitting_score(table, seats[pk], None if number is None else results[pk, number])
        if score is not None:
            out[pk] = score
    return out


def ledger_for_table(*, table: Table) -> QuerySet[LedgerEntry]:
    """The table's ledger rows in the order they were written."""
    return LedgerEntry.objects.filter(table=table).select_related("hand").order_by("id")


def audit_for_table(*, table: Table) -> QuerySet[AuditEntry]:
    """The table's audit log, newest first."""
    return AuditEntry.objects.filter(table=table).select_related("user").order_by("-at", "-id")


def series_for_user(*, user: AnyUser) -> QuerySet[TableSeries]:
    """Series with a table ``user`` may read, and series ``user`` created, with ``pot`` (what
    the series holds between sittings) annotated."""
    readable = Table.objects.filter(_readable(user)).values("series_id")
    scope = Q(pk__in=readable)
    if user.is_authenticated:
        scope |= Q(created_by=user.pk)
    return (
        TableSeries.objects.filter(scope)
        .select_related("club")
        .annotate(
            carried_out=_ledger_sum(table__series=OuterRef("pk"), payee=SERIES),
            carried_in=_ledger_sum(table__series=OuterRef("pk"), payer=SERIES),
        )
        .order_by("-created_at", "-id")
    )


def users_to_seat(*, user: User) -> QuerySet[User]:
    """The accounts whose id ``user`` may name in a seat: themselves and everyone who shares
    a club with them (:func:`games.permissions.may_seat` then asks for the table's club). Any
    other id answers as one nobody uses, so ids do not reveal who has an account."""
    mine = Membership.objects.filter(user_id=user.pk).values("club_id")
    return User.objects.filter(
        Q(pk=user.pk) | Q(pk__in=Membership.objects.filter(club_id__in=mine).values("user_id"))
    )


def open_seats_of(*, user: User) -> QuerySet[Seat]:
    """The user's seats at open tables, with the table, newest table first."""
    return (
        Seat.objects.filter(user=user, table__status=Table.Status.OPEN)
        .select_related("table")
        .order_by("-table__created_at", "-table_id")
    )


def seats_of_tables(*, table_ids: list[int]) -> QuerySet[Seat]:
    """Every seat of these tables, with the user or guest its display name comes from."""
    return Seat.objects.filter(table_id__in=table_ids).select_related("user", "guest")


# ---------------------------------------------------------------------------------------------
# names


class Reader:
    """Who reads tables' answers, and at which tables they read every person's name: the
    table's world (:meth:`insider`). One per request; what it looks up it looks up once."""

    def __init__(self, user: AnyUser) -> None:
        self.user = user

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user.is_authenticated else None

    @cached_property
    def _clubs(self) -> frozenset[int]:
        """The clubs the reader belongs to."""
        if not isinstance(self.user, User):
            return frozenset()
        mine = Membership.objects.filter(user_id=self.user.pk).values_list("club_id", flat=True)
        return frozenset(mine)

    @cached_property
    def _managed(self) -> frozenset[int]:
        """The tables an app above games lets the reader manage (a tournament's directors)."""
        if not isinstance(self.user, User):
            return frozenset()
        found = Table.objects.filter(managers.managed(self.user)).values_list("pk", flat=True)
        return frozenset(found)

    def insider(self, table: Table) -> bool:
        """Whether the reader belongs to ``table``'s world and reads every name there: they
        sit at it (or a guest who sat there was merged into them), created it, belong to its
        club, manage it (a tournament's directors), or are staff. Load the seats (with
        ``guest``) with the table."""
        user = self.user
        if not user.is_authenticated:
            return False
        if user.is_staff or table.created_by_id == user.pk:
            return True
        for seat in table.seats.all():
            if seat.user_id == user.pk:
                return True
            if seat.guest is not None and seat.guest.merged_into_id == user.pk:
                return True
        if table.club_id is not None and table.club_id in self._clubs:
            return True
        return table.pk in self._managed


@dataclass(frozen=True)
class TableNames:
    """What one reader reads as the people of one table (:func:`table_names`): everyone's
    name in the table's world (``insider``); elsewhere a person's name only where
    :func:`clubs.privacy.name_is_public` allows it for the table's club (``club``; ``None``
    at a table of no club: only the names of those who agreed), else their pseudonym ("Player
    7f3a2c"); the reader's own name always. Seat keys are no names: they stay."""

    club: Club | None
    insider: bool
    reader_id: int | None = None

    def shows(self, user: User | None) -> bool:
        """Whether the reader reads the name of ``user`` (``None``: a guest)."""
        if self.insider or (user is not None and user.pk == self.reader_id):
            return True
        return privacy.name_is_public(user, self.club)

    def seat(self, seat: Seat) -> str:
        """The name the reader reads for ``seat`` (a bot's is the bot's)."""
        person = seat_person(seat)
        if person is None or self.shows(person[0]):
            return seat.display_name
        return privacy.public_pseudonym(person[1])

    def hides(self, seat: Seat) -> bool:
        """Whether the reader reads ``seat``'s player by their pseudonym."""
        person = seat_person(seat)
        return person is not None and not self.shows(person[0])

    def account(self, user: User | None) -> str | None:
        """How the reader reads the account ``user`` (who created the table, entered,
        confirmed or changed a hand): its login, or its pseudonym; ``None`` for nobody."""
        if user is None:
            return None
        return str(user.username) if self.shows(user) else privacy.public_pseudonym(f"u:{user.pk}")

    def party_names(self, table: Table) -> dict[str, str]:
        """Seat key → the name the reader reads for its player (the score sheet's seats, the
        payments' sentences)."""
        return {seat.key: self.seat(seat) for seat in table.seats.all()}


def seat_person(seat: Seat) -> tuple[User | None, str] | None:
    """Who sits at ``seat``: their account (``None`` for a guest) and the key of their
    pseudonym (``u:3``; a club guest's ``g:1``; a guest known only at this table ``s:<seat
    id>``); ``None`` for a bot. A club guest merged into a member is that member."""
    if seat.kind == Seat.Kind.BOT:
        return None
    if seat.user_id is not None:
        return seat.user, f"u:{seat.user_id}"
    guest = seat.guest if seat.guest_id is not None else None
    if guest is not None:
        merged = guest.merged_into if guest.merged_into_id is not None else None
        if merged is not None:
            return merged, f"u:{merged.pk}"
        return None, f"g:{guest.pk}"
    return None, f"s:{seat.pk}"


def table_names(table: Table, reader: Reader | AnyUser) -> TableNames:
    """What ``reader`` reads as ``table``'s people (load the table's club and its seats, with
    their users and guests, with it: then this asks nothing of the database for a reader who
    sits at the table)."""
    if not isinstance(reader, Reader):
        reader = Reader(reader)
    club = table.club if table.club_id is not None else None
    return TableNames(club=club, insider=reader.insider(table), reader_id=reader.user_id)
