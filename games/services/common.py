"""Shared helpers of the game services: the common part of hand records, the ledger and
audit writers, and the row locks every write path takes (plain SQL through ``games.rows``).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import engine
from clubs.models import User
from engine.table import words
from games import rows
from games.errors import (
    InvalidInput,
    NotAllowed,
    RuleViolation,
    TableConflict,
)
from games.models import (
    AuditEntry,
    Hand,
    LedgerEntry,
    Seat,
    Table,
)
from games.permissions import can_write
from games.rulesets import ledger_party, money_key, rule_set_of

COMMON_KEYS = ("rules", "seats", "dealer", "pot")
"""The common part of every record the server fills in: the envelope, and the carry of a pot
game (:func:`common_keys` adds what else a table's rule set carries)."""
BOT_LEVELS: tuple[str, ...] = (
    "random",
    *sorted({level for rs in engine.rule_sets() for level in rs.bot_policies()}),
)
"""Every bot level: ``random`` (any rule set) and those a rule set's bots play
(``RuleSet.bot_policies``: Doppelkopf's ``heuristic``)."""


def bot_levels(rule_set: engine.RuleSet[Any, Any, Any]) -> tuple[str, ...]:
    """The bot levels that play ``rule_set``: ``random`` and its own."""
    return ("random", *rule_set.bot_policies())


def filler_level(rule_set: engine.RuleSet[Any, Any, Any], level: str | None) -> str:
    """The level of bots a director seats in empty seats (club evenings, tournament rounds):
    ``level`` if the rule set has it (else a 400 naming its levels), omitted its strongest."""
    levels = bot_levels(rule_set)
    if level is not None and level not in levels:
        raise InvalidInput(
            f"{rule_set.name} has bots of level {words(list(levels), 'or')}.",
            fields={"bot_level": ["unknown level"]},
        )
    return level or levels[-1]


def _engine_error(e: engine.EngineError, prefix: str = "") -> RuleViolation:
    """The engine's refusal as an API error: its sentence, and ``at`` as the field."""
    at = f"{prefix}.{e.at}" if prefix and e.at else (e.at or prefix or "record")
    return RuleViolation(e.message, fields={at: [e.message]})


def seat_keys(table: Table) -> list[str]:
    """The seat keys in playing order (the ``seats`` of hand records)."""
    return [s.key for s in sorted(table.seats.all(), key=lambda s: s.position)]


def dealer_for(table: Table, number: int) -> str:
    """The dealer of hand ``number``: the first dealer, then each next seat in turn (where the
    rule set keeps rounds, as :func:`table_round` says: a Pflichtsolo is dealt again)."""
    at = table_round(table, number)
    if at is not None:
        return at.dealer
    keys = seat_keys(table)
    return keys[(table.first_dealer + number - 1) % len(keys)]


def table_round(table: Table, number: int) -> engine.TableRound | None:
    """Where ``table`` stands in its rule set's round of deals before hand ``number``
    (``RuleSet.table_round``: the DDV round of 24 deals and its Pflichtsoli), from the settled
    hands before it; ``None`` where the rule set keeps no rounds."""
    rule_set = rule_set_of(table)
    if rule_set.round_deals is None:
        return None
    keys = seat_keys(table)
    results = table.hands.filter(number__lt=number).order_by("number")
    return rule_set.table_round(
        rule_set.parse_rules(table.rules),
        keys,
        keys[table.first_dealer],
        [r for r in results.values_list("result", flat=True) if r is not None],
    )


def common_keys(table: Table) -> tuple[str, ...]:
    """The keys of a record of ``table`` the server fills in: the envelope and the carry of
    its rule set (``pot`` in the pot games)."""
    carry = rule_set_of(table).carry
    return (*COMMON_KEYS[:3], *carry.keys, *carry.optional)


def _carry(table: Table, pot: int, extra: Mapping[str, Any]) -> dict[str, Any]:
    """A record's carry keys: the pot (in the pot games: wien's ``pot``, Doppelkopf's
    ``kasse``) and what else the rule set carries."""
    rule_set = rule_set_of(table)
    carry = rule_set.carry
    pot_key = money_key(rule_set)
    out: dict[str, Any] = {}
    for key in (*carry.keys, *carry.optional):
        if key == pot_key:
            out[key] = pot
        elif key in extra:
            out[key] = extra[key]
    return out


def hand_carry(table: Table, hand: Hand) -> dict[str, Any]:
    """What carried into ``hand`` (its record's carry keys)."""
    return _carry(table, hand.pot_before, hand.carry_before or {})


def carry_for(table: Table, number: int) -> dict[str, Any]:
    """What carries into hand ``number``: after the previous hand, as its rule set says, or
    the table's opening carry."""
    previous = table.hands.filter(number=number - 1).only("result").first()
    return carry_after(table, previous)


def carry_after(table: Table, previous: Hand | None) -> dict[str, Any]:
    """What carries on after ``previous`` (a settled hand, or ``None`` before the first), and
    where the rule set keeps rounds what the round carries (:func:`table_round`)."""
    if previous is None or previous.result is None:
        carry = _carry(table, table.opening_pot, table.opening_carry or {})
    else:
        carry = dict(rule_set_of(table).carry_after(previous.result))
    at = table_round(table, 1 if previous is None else previous.number + 1)
    if at is not None:
        carry.update(at.carry)
    return carry


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


def hand_common(table: Table, hand: Hand) -> dict[str, Any]:
    """The common part of ``hand``'s record (rules, seats, its dealer, what carried into
    it)."""
    return common_part(table, hand.number, hand_carry(table, hand), dealer=hand.dealer or None)


def common_part(
    table: Table, number: int, carry: Mapping[str, Any], *, dealer: str | None = None
) -> dict[str, Any]:
    """What the server fills into every record of this table (hand-record.md, common part):
    rules, seats, dealer (``dealer``, else :func:`dealer_for`) and the carry into hand
    ``number``."""
    return {
        "rules": table.rules,
        "seats": seat_keys(table),
        "dealer": dealer or dealer_for(table, number),
        **carry,
    }


def _write_ledger(table: Table, hand: Hand, transfers: Sequence[Mapping[str, Any]]) -> None:
    """The ledger rows of a hand's transfers (the rule set's common money as ``pot``)."""
    rule_set = rule_set_of(table)
    rows.insert(
        [
            LedgerEntry(
                table=table,
                hand=hand,
                payer=ledger_party(rule_set, t["from"]),
                payee=ledger_party(rule_set, t["to"]),
                amount=t["amount"],
                reason=t["why"],
            )
            for t in transfers
        ]
    )


def _audit(
    table: Table,
    user: User | None,
    action: str,
    *,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> None:
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


def _lock_table(table_id: int) -> Table:
    """The table, row-locked, with its seats (from memory: they never change)."""
    row = rows.fetch(
        f"SELECT {_TABLE.sql} FROM {Table._meta.db_table} t WHERE t.id = %s" + rows.for_update("t"),
        [table_id],
    )
    if row is None:
        raise InvalidInput("There is no such table.", code="not_found")
    return _with_seats(_TABLE.instance(row))


def _last_hand(table: Table) -> Hand | None:
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


def _writable(table: Table, user: User, *, mode: str | None = None) -> None:
    if not can_write(user, table):
        raise NotAllowed()
    if table.status != Table.Status.OPEN:
        raise TableConflict("This table is closed; reopen a new sitting to go on.")
    if mode is not None and table.mode != mode:
        if mode == Table.Mode.RECORDED:
            raise TableConflict("This table hosts its hands; they are played, not recorded.")
        raise TableConflict("This table records hands played with real cards; it deals none.")


def _seat(table: Table, key: str) -> Seat:
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


def _locked_hand(where: str, params: Sequence[Any]) -> tuple[Table, Hand] | None:
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


def _lock_hand(table_id: int, number: int) -> tuple[Table, Hand]:
    found = _locked_hand("h.table_id = %s AND h.number = %s", [table_id, number])
    if found is None:
        raise InvalidInput(f"Table {table_id} has no hand {number}.", code="not_found")
    return found
