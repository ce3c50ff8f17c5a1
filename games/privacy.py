"""What the tables keep about a person (issue 39): the ``tables`` section of their export and
what their erasure does to it (:mod:`clubs.privacy`, registered in ``GamesConfig.ready``).

A *seat of theirs* is a seat the person's account holds, or a club guest's seat whose guest
was merged into the account (the guest's history is the member's). Every hand at a table
where they hold a seat is exported as that seat saw it, through the readers the API uses
(:mod:`games.hands`): a hosted hand is the engine's view for the seat (their own cards, what
the rules made public), its full record with the proof only once it is over and no deal
source withholds it; a recorded hand is its score-sheet entry, which was public at the table.
Nothing here reads a hosted hand's deal, deck or salt into the export.

Erasure keeps every row other players' results and money need: seats keep pointing at the
tombstone account, hands, ledger rows and score sheets stay as they are (hand records name
seats by the keys the table's creator chose, ``"anna"``, which are not renamed), and what
only served the person (idempotency records, worker pings) is deleted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Q, QuerySet

from clubs.models import User
from clubs.privacy import Erasure, Keeper, Scope, when
from clubs.privacy import register as register_keeper
from games.hands import (
    hand_common,
    hand_full_record,
    hand_proof,
    hand_timeouts,
    hand_view,
    hand_withheld,
)
from games.models import (
    AuditEntry,
    Hand,
    IdempotencyRecord,
    LedgerEntry,
    Seat,
    Table,
    TableSeries,
    WorkerPing,
)

SECTION = "tables"

MODELS = frozenset(
    {
        "games.Table",
        "games.TableSeries",
        "games.Seat",
        "games.Hand",
        "games.AuditEntry",
        "games.IdempotencyRecord",
        "games.WorkerPing",
    }
)


def seats_of(user: User) -> QuerySet[Seat]:
    """The seats of ``user``: their account's, and those of club guests merged into it."""
    return Seat.objects.filter(Q(user=user) | Q(guest__merged_into=user))


def tables_of(user: User) -> QuerySet[Table]:
    """The tables ``user`` created or holds a seat at, oldest first."""
    seated = seats_of(user).values("table_id")
    return (
        Table.objects.filter(Q(created_by=user) | Q(pk__in=seated))
        .prefetch_related("seats")
        .order_by("created_at", "id")
    )


# --- export ----------------------------------------------------------------------------------


def hand_as_seen(table: Table, hand: Hand, seat: str) -> dict[str, Any]:
    """``hand`` as the seat ``seat`` saw it, as the API's seat view shows it
    (``GET …/hands/{number}/view/``). Recorded: the score-sheet entry with its common part,
    public at the table. Hosted: the engine's view for the seat (:func:`games.hands.hand_view`:
    while played their own cards and what the rules made public; once over everything, unless
    a deal source withholds the board, then what the seat saw during play); once over, the
    result, and the full record with its proof when it is revealed (else null)."""
    out: dict[str, Any] = {
        "number": hand.number,
        "status": hand.status,
        "version": hand.version,
        "created_at": when(hand.created_at),
        "finished_at": when(hand.finished_at),
    }
    if table.mode == Table.Mode.RECORDED:
        out["entry"] = {**hand_common(table, hand), **(hand.entry or {})}
        out["result"] = hand.result
        return out
    withheld = hand_withheld(table, hand)
    out["commitment"] = hand.commitment
    out["view"] = hand_view(table, hand, seat, withheld=withheld)
    done = hand.status == Hand.Status.DONE
    proof = hand_proof(table, hand, withheld=withheld)
    out["result"] = hand.result if done else None
    out["record"] = None if proof is None else hand_full_record(table, hand)
    out["timeouts"] = hand_timeouts(hand)
    return out


def _ledger_rows(rows: Iterable[LedgerEntry], key: str) -> list[dict[str, Any]]:
    return [
        {
            "hand": None if row.hand is None else row.hand.number,
            "payer": row.payer,
            "payee": row.payee,
            "amount": row.amount,
            "reason": row.reason,
            "created_at": when(row.created_at),
        }
        for row in rows
        if key in (row.payer, row.payee)
    ]


def _table(table: Table, user: User, merged: frozenset[int]) -> dict[str, Any]:
    mine = [
        s
        for s in sorted(table.seats.all(), key=lambda s: s.position)
        if s.user_id == user.pk or (s.guest_id is not None and s.guest_id in merged)
    ]
    hands = list(table.hands.order_by("number")) if mine else []
    ledger = list(table.ledger.select_related("hand").order_by("id")) if mine else []
    return {
        "id": table.pk,
        "name": table.name,
        "mode": table.mode,
        "status": table.status,
        "club": table.club_id,
        "series": table.series_id,
        "rules": table.rules,
        "created_by_you": table.created_by_id == user.pk,
        "created_at": when(table.created_at),
        "closed_at": when(table.closed_at),
        "seats": [
            {
                "key": seat.key,
                "kind": seat.kind,
                "position": seat.position,
                "hands": [hand_as_seen(table, hand, seat.key) for hand in hands],
                "ledger": _ledger_rows(ledger, seat.key),
            }
            for seat in mine
        ],
    }


def export(user: User, scope: Scope) -> dict[str, Any]:
    """The ``tables`` section of ``user``'s export (docs/privacy.md, "Tables"): the tables
    they created or sit at with their seats, each seat's hands as it saw them and its ledger
    rows; the series they started; the hands they entered or confirmed; the audit entries
    they made; their idempotency keys and worker pings (only in their own export: they belong
    to no club)."""
    merged = frozenset(user.merged_guests.values_list("pk", flat=True))
    tables = [_table(t, user, merged) for t in tables_of(user) if scope.covers(t.club_id)]
    series = TableSeries.objects.filter(created_by=user).order_by("created_at", "id")
    entered = (
        Hand.objects.filter(Q(entered_by=user) | Q(confirmed_by=user))
        .select_related("table")
        .order_by("table_id", "number")
    )
    audit = AuditEntry.objects.filter(user=user).select_related("table").order_by("at", "id")
    personal = scope.covers(None)
    keys = IdempotencyRecord.objects.filter(user=user).order_by("created_at", "id")
    pings = WorkerPing.objects.filter(user=user).order_by("created_at", "id")
    return {
        "tables": tables,
        "series": [
            {"id": s.pk, "name": s.name, "club": s.club_id, "created_at": when(s.created_at)}
            for s in series
            if scope.covers(s.club_id)
        ],
        "hands_entered": [
            {
                "table": h.table_id,
                "number": h.number,
                "entered": h.entered_by_id == user.pk,
                "confirmed": h.confirmed_by_id == user.pk,
                "created_at": when(h.created_at),
            }
            for h in entered
            if scope.covers(h.table.club_id)
        ],
        "audit": [
            {
                "table": a.table_id,
                "hand_number": a.hand_number,
                "action": a.action,
                "at": when(a.at),
                # as the table's audit log shows them to its readers (GET …/audit/): table
                # settings, public score-sheet entries, settlements, a hosted hand's dealer and
                # commitment; never a hosted hand's cards, which no audit entry holds
                "before": a.before,
                "after": a.after,
            }
            for a in audit
            if scope.covers(a.table.club_id)
        ],
        "idempotency_keys": [
            {"key": r.key, "status_code": r.status_code, "created_at": when(r.created_at)}
            for r in (keys if personal else ())
        ],
        "worker_pings": [
            {
                "id": p.pk,
                "status": p.status,
                "created_at": when(p.created_at),
                "completed_at": when(p.completed_at),
            }
            for p in (pings if personal else ())
        ],
    }


# --- erasure ---------------------------------------------------------------------------------


def _strings(value: Any) -> Iterator[str]:
    """Every string of a JSON value, object keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)


def table_words(table: Table) -> frozenset[str]:
    """The strings ``table``'s own records hold (case-folded): its seat keys, and the rule
    set's words and the cards played in its rules, hands and settlement. A person's name that
    is one of them (a seat key ``"anna"``, a surname that is also a call) stays in the table's
    audit snapshots, as it stays in the hand records they copy."""
    words = {s.key for s in table.seats.all()}
    words.update(_strings([table.rules, table.closing, table.dealer_draw]))
    for row in table.hands.values_list("dealer", "entry", "result", "actions"):
        words.update(_strings(list(row)))
    return frozenset(w.casefold() for w in words)


def erase(erasure: Erasure) -> None:
    """Erase the person from the tables (inside :func:`clubs.privacy.erase`): their
    idempotency records (with the stored answers) and worker pings are deleted; the seats of
    club guests merged into them show the pseudonym instead of the guest's name; a table or
    series named exactly as they are is renamed to the pseudonym, and every audit entry they
    made or of a table of theirs has their names replaced (:meth:`clubs.privacy.Erasure.scrub`)
    except where a name is one of the table's own words (:func:`table_words`). Seats, hands,
    ledger rows, the tables' and series' ``created_by`` and the audit entries' ``user`` keep
    pointing at the tombstone: nobody else's results or money change."""
    user = erasure.user
    IdempotencyRecord.objects.filter(user=user).delete()
    WorkerPing.objects.filter(user=user).delete()
    Seat.objects.filter(guest__merged_into=user).exclude(guest_name="").update(
        guest_name=erasure.pseudonym
    )
    tables = list(tables_of(user))
    for table in tables:
        name = erasure.scrub(table.name)
        if name != table.name:
            Table.objects.filter(pk=table.pk).update(name=name)
    series = TableSeries.objects.filter(
        Q(created_by=user) | Q(pk__in=[t.series_id for t in tables])
    )
    for s in series:
        name = erasure.scrub(s.name)
        if name != s.name:
            TableSeries.objects.filter(pk=s.pk).update(name=name)
    touched = AuditEntry.objects.filter(Q(user=user) | Q(table__in=[t.pk for t in tables]))
    by_table: dict[int, list[AuditEntry]] = {}
    for entry in touched.only("id", "table_id", "before", "after"):
        by_table.setdefault(entry.table_id, []).append(entry)
    for table in Table.objects.filter(pk__in=by_table).prefetch_related("seats"):
        scrub = Erasure(
            user=user, pseudonym=erasure.pseudonym, names=erasure.names - table_words(table)
        ).scrub
        for entry in by_table[table.pk]:
            before, after = scrub(entry.before), scrub(entry.after)
            if (before, after) != (entry.before, entry.after):
                AuditEntry.objects.filter(pk=entry.pk).update(before=before, after=after)


KEEPER = Keeper(section=SECTION, models=MODELS, export=export, erase=erase, order=700)


def register() -> None:
    """Register the tables' keeper with :mod:`clubs.privacy` (``GamesConfig.ready``)."""
    register_keeper(KEEPER)
