"""Shared helpers of the game services: the bot levels, a hand's carry columns, the ledger
and audit writers, and the row locks every write path takes (plain SQL through
``games.rows``). The common part of hand records is read from :mod:`games.hands`.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import engine
from clubs.models import User
from config.i18n import engine_text
from engine.table import words
from games import rows
from games.errors import (
    InvalidInput,
    NotAllowed,
    RuleViolation,
    TableConflict,
)
from games.hands import carry_after as carry_after  # callers that import it from here
from games.models import (
    AuditEntry,
    Hand,
    LedgerEntry,
    Seat,
    Table,
    ledger_reasons,
)
from games.permissions import can_write
from games.rulesets import ledger_party, money_key, rule_set_of

BOT_LEVELS: tuple[str, ...] = (
    "random",
    *sorted({level for rs in engine.rule_sets() for level in rs.bot_policies()}),
)
"""Every bot level: ``random`` (any rule set) and those a rule set's bots play
(``RuleSet.bot_policies``, e.g. ``heuristic``)."""


def bot_levels(rule_set: engine.RuleSet[Any, Any, Any]) -> tuple[str, ...]:
    """The bot levels that play ``rule_set``: ``random`` and its own."""
    return ("random", *rule_set.bot_policies())


def filler_level(rule_set: engine.RuleSet[Any, Any, Any], level: str | None) -> str:
    """The level of bots a director seats in empty seats (club evenings, tournament rounds):
    ``level`` if the rule set has it (else a 400 naming its levels), omitted its strongest."""
    levels = bot_levels(rule_set)
    if level is not None and level not in levels:
        raise InvalidInput(
            _("{rule_set} has bots of level {levels}.").format(
                rule_set=rule_set.name, levels=any_of(levels)
            ),
            fields={"bot_level": [_("unknown level")]},
        )
    return level or levels[-1]


def any_of(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` in the reader's language."""
    return words(list(items), pgettext("a list's last item", "or"))


def rule_violation(e: engine.EngineError, prefix: str = "") -> RuleViolation:
    """The engine's refusal as an API error: its sentence in the reader's language
    (``config.i18n.engine_text``), and ``at`` as the field."""
    at = f"{prefix}.{e.at}" if prefix and e.at else (e.at or prefix or "record")
    sentence = engine_text(e)
    return RuleViolation(sentence, fields={at: [sentence]})


def carry_columns(table: Table, carry: Mapping[str, Any]) -> dict[str, Any]:
    """A hand's columns for what carried into it: the pot (:func:`games.rulesets.money_key`)
    in its own, the rest beside it."""
    pot_key = money_key(rule_set_of(table))
    return {
        "pot_before": int(carry.get(pot_key, 0)) if pot_key else 0,
        "carry_before": {k: v for k, v in carry.items() if k != pot_key},
    }


def keep_carry(table: Table, hand: Hand, carry: Mapping[str, Any]) -> None:
    """Store what carried into ``hand`` (:func:`carry_columns`)."""
    for column, value in carry_columns(table, carry).items():
        setattr(hand, column, value)


def ledger_entry(
    table: Table, hand: Hand | None, *, payer: str, payee: str, amount: int, reason: str
) -> LedgerEntry:
    """A ledger row to write, its ``reason`` checked against the registered rule sets' words
    and the table's own (``games.models.ledger_reasons``): a word no rule set declares in its
    shapes (``Shapes.reasons``) is a bug in that rule set, refused loudly (``ValueError``)
    rather than stored unexplained."""
    if reason not in ledger_reasons():
        raise ValueError(
            f"ledger reason {reason!r} is neither the table's own nor a registered rule set's "
            "(its shapes' reasons)"
        )
    return LedgerEntry(
        table=table, hand=hand, payer=payer, payee=payee, amount=amount, reason=reason
    )


def transfer_entries(
    table: Table, hand: Hand | None, transfers: Sequence[Mapping[str, Any]]
) -> list[LedgerEntry]:
    """The ledger rows of the rule set's transfers (a hand's, or a close's with no hand): its
    common money as ``pot`` (:func:`ledger_entry`)."""
    rule_set = rule_set_of(table)
    return [
        ledger_entry(
            table,
            hand,
            payer=ledger_party(rule_set, t["from"]),
            payee=ledger_party(rule_set, t["to"]),
            amount=t["amount"],
            reason=t["why"],
        )
        for t in transfers
    ]


def write_ledger(table: Table, hand: Hand, transfers: Sequence[Mapping[str, Any]]) -> None:
    """The ledger rows of a hand's transfers (:func:`transfer_entries`)."""
    rows.insert(transfer_entries(table, hand, transfers))


def write_audit(
    table: Table,
    user: User | None,
    action: str,
    *,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> None:
    """Add an entry to ``table``'s audit log: who did ``action``, to which hand, and the
    snapshots ``before`` and ``after`` it."""
    rows.insert(
        [
            AuditEntry(
                table=table,
                user=user,
                action=action,
                hand_number=hand_number,
                before=before,
                after=after,
            )
        ]
    )


def lock_table(table_id: int) -> Table:
    """The table, row-locked, with its seats (from memory: they never change)."""
    row = rows.fetch(
        f"SELECT {_TABLE.sql} FROM {Table._meta.db_table} t WHERE t.id = %s" + rows.for_update("t"),
        [table_id],
    )
    if row is None:
        raise InvalidInput(_("There is no such table."), code="not_found")
    return _with_seats(_TABLE.instance(row))


def last_hand(table: Table) -> Hand | None:
    """The table's last hand (number, status and result only)."""
    row = rows.fetch(
        f"SELECT {_LAST.sql} FROM {Hand._meta.db_table} h WHERE h.table_id = %s "
        "ORDER BY h.number DESC LIMIT 1",
        [table.pk],
    )
    return None if row is None else _LAST.instance(row)


_HAND = rows.Columns(Hand, "h")
_LAST = rows.Columns(Hand, "h", only=("number", "status", "result"))
_TABLE = rows.Columns(Table, "t")


def check_writable(table: Table, user: User, *, mode: str | None = None) -> None:
    """Refuse a write ``user`` may not make (403), to a closed table or, with ``mode``, to a
    table of the other mode (409)."""
    if not can_write(user, table):
        raise NotAllowed()
    if table.status != Table.Status.OPEN:
        raise TableConflict(_("This table is closed; reopen a new sitting to go on."))
    if mode is not None and table.mode != mode:
        if mode == Table.Mode.RECORDED:
            raise TableConflict(_("This table hosts its hands; they are played, not recorded."))
        raise TableConflict(_("This table records hands played with real cards; it deals none."))


def seat_at(table: Table, key: str) -> Seat:
    """``table``'s seat ``key`` (from its loaded seats)."""
    return next(s for s in table.seats.all() if s.key == key)


_SEATS: dict[tuple[int, Any], list[Seat]] = {}
_SEATS_LOCK = threading.Lock()


def _with_seats(table: Table) -> Table:
    """Give ``table`` its seats from this process's memory: seats never change once a table
    is open, so a move need not load them again (keyed by id and creation time, so an id
    reused after a rollback is another table)."""
    key = (table.pk, table.created_at)
    with _SEATS_LOCK:
        seats = _SEATS.get(key)
    if seats is None:
        seats = list(Seat.objects.filter(table_id=table.pk).order_by("position"))
        with _SEATS_LOCK:
            if len(_SEATS) > 4096:
                _SEATS.clear()
            _SEATS[key] = seats
    prefetch_related_objects_from(table, "seats", seats)
    return table


def prefetch_related_objects_from(obj: Any, name: str, items: list[Any]) -> None:
    """Set ``obj``'s prefetched ``name`` to ``rows``, as ``prefetch_related`` would."""
    queryset = getattr(obj, name).all()
    queryset._result_cache = items
    queryset._prefetch_done = True
    obj._prefetched_objects_cache = {
        **getattr(obj, "_prefetched_objects_cache", {}),
        name: queryset,
    }


def locked_hand(where: str, params: Sequence[Any]) -> tuple[Table, Hand] | None:
    """The hand ``where`` selects, row-locked, with its table and seats (one plain query:
    the ORM's compilation of this join cost more than running it)."""
    row = rows.fetch(
        f"SELECT {_HAND.sql}, {_TABLE.sql} FROM {Hand._meta.db_table} h "
        f"JOIN {Table._meta.db_table} t ON t.id = h.table_id WHERE {where}{rows.for_update('h')}",
        params,
    )
    if row is None:
        return None
    hand = _HAND.instance(row)
    table = _with_seats(_TABLE.instance(row, len(_HAND)))
    hand.table = table
    return table, hand


def no_such_hand(table_id: int, number: int) -> str:
    """The sentence for a hand a table does not have."""
    return _("Table {table} has no hand {number}.").format(table=table_id, number=number)


def lock_hand(table_id: int, number: int) -> tuple[Table, Hand]:
    """Hand ``number`` of table ``table_id`` and its table, row-locked (:func:`locked_hand`);
    ``not_found`` when there is none."""
    found = locked_hand("h.table_id = %s AND h.number = %s", [table_id, number])
    if found is None:
        raise InvalidInput(no_such_hand(table_id, number), code="not_found")
    return found
