"""Recorded tables: score-sheet entries settled by the engine, corrections, deletions and
confirmations; every later hand is recomputed in the same transaction.

A table an app above games limits (``games.managers``: a tournament round plays
``deals_per_round`` hands) takes no hand beyond the limit. Hands of a closed table are
corrected only by whoever such an app allows (a tournament's directors, while it runs); the
close is then settled again from the corrected hands, so its settlement stays true.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from clubs import outbox
from clubs.models import User
from config.i18n import engine_text
from games import hooks, managers, rows
from games.errors import (
    InvalidInput,
    NotAllowed,
    TableConflict,
)
from games.hands import carry_after, carry_for, common_part, dealer_for, hand_common
from games.models import (
    CARRY_OUT,
    Hand,
    Table,
)
from games.permissions import can_write, seat_of
from games.rulesets import stored_result
from games.services.common import (
    check_writable,
    keep_carry,
    last_hand,
    lock_table,
    no_such_hand,
    rule_violation,
    write_audit,
    write_ledger,
)
from games.services.tables import close_pot, closing_rows, settlement_for


def _split_entry(entry: Mapping[str, Any], common: Mapping[str, Any]) -> dict[str, Any]:
    """The entry without the common part; a common key the client sent must match the
    server's (409 otherwise)."""
    if not isinstance(entry, Mapping):
        raise InvalidInput(_("A score-sheet entry is a JSON object."))
    mismatched = {}
    for key in common:
        if key in entry:
            mine, theirs = common[key], entry[key]
            if key == "rules":
                with contextlib.suppress(engine.EngineError):
                    theirs = engine.parse_rules(theirs).to_json()
            if theirs != mine:
                mismatched[key] = [
                    _("the table's {key} is {value}").format(key=key, value=repr(mine))
                ]
    if mismatched:
        listed = "; ".join(f"{k}: {v[0]}" for k, v in mismatched.items())
        raise TableConflict(
            _(
                "The entry does not match the table: {mismatches}. Leave these out and the "
                "server fills them in."
            ).format(mismatches=listed),
            fields=mismatched,
            code="record_mismatch",
        )
    return {k: v for k, v in entry.items() if k not in common}


def _settle_entry(table: Table, hand: Hand) -> dict[str, Any]:
    record = {**hand_common(table, hand), **(hand.entry or {})}
    return stored_result(table, engine.settle(record))


def _recompute_from(table: Table, number: int, *, changed: bool = True) -> None:
    """Re-derive dealer, pot, settlement and ledger of hand ``number`` and every later hand,
    in order; a later hand that no longer settles aborts the whole change. ``changed``: hand
    ``number`` is the one the user changed (its refusal is a plain rule violation); after a
    delete it is a later hand that moved up."""
    carry = carry_for(table, number)
    for hand in table.hands.filter(number__gte=number).order_by("number"):
        hand.dealer = dealer_for(table, hand.number)
        keep_carry(table, hand, carry)
        try:
            hand.result = _settle_entry(table, hand)
        except engine.EngineError as e:
            if changed and hand.number == number:
                raise rule_violation(e) from None
            reason = engine_text(e)
            raise TableConflict(
                _(
                    "After this change hand {number} no longer settles: {reason}. Correct or "
                    "delete that hand first."
                ).format(number=hand.number, reason=reason),
                fields={f"hands[{hand.number}]": [reason]},
                code="later_hand_invalid",
            ) from None
        hand.save(update_fields=["dealer", "pot_before", "carry_before", "result", "updated_at"])
        hand.ledger.all().delete()
        write_ledger(table, hand, hand.result.get("transfers", ()))
        carry = carry_after(table, hand)


def table_record_hand(*, table_id: int, user: User, entry: Mapping[str, Any]) -> Hand:
    """Record a score-sheet entry (hand-record.md form 1): the server fills in rules, seats,
    dealer and pot, the engine checks and settles it, the transfers go to the ledger."""
    with transaction.atomic():
        table = lock_table(table_id)
        check_writable(table, user, mode=Table.Mode.RECORDED)
        last = last_hand(table)
        if last is not None and last.status == Hand.Status.PENDING:
            raise TableConflict(
                _("Hand {number} awaits confirmation by another seated player.").format(
                    number=last.number
                ),
                code="previous_hand_unconfirmed",
            )
        number = 1 if last is None else last.number + 1
        managers.check_hand_limit(table.pk, number)
        carry = carry_after(table, last)
        common = common_part(table, number, carry)
        hand = Hand(
            table=table,
            number=number,
            dealer=common["dealer"],
            entry=_split_entry(entry, common),
            status=Hand.Status.PENDING if table.requires_confirmation else Hand.Status.DONE,
            entered_by=user,
            finished_at=timezone.now(),
        )
        keep_carry(table, hand, carry)
        try:
            hand.result = _settle_entry(table, hand)
        except engine.EngineError as e:
            raise rule_violation(e) from None
        rows.insert([hand])
        write_ledger(table, hand, hand.result.get("transfers", ()))
        write_audit(table, user, "hand_record", hand_number=number, after=_snapshot(hand))
        hooks.hands_changed(table.pk, table.club_id)
    return hand


def _snapshot(hand: Hand) -> dict[str, Any]:
    return {
        "entry": hand.entry,
        "dealer": hand.dealer,
        "pot": hand.pot_before,
        **({"carry": hand.carry_before} if hand.carry_before else {}),
        "result": hand.result,
    }


def _recorded_hand(table: Table, number: int) -> Hand:
    hand = table.hands.filter(number=number).first()
    if hand is None:
        raise InvalidInput(no_such_hand(table.pk, number), code="not_found")
    return hand


def _correctable(table: Table, user: User) -> None:
    """Corrections (edit, delete) go where any change goes; at a closed table only for whoever
    an app above games allows (``managers.corrects_closed``), else 409 as every closed table."""
    if (
        table.status == Table.Status.CLOSED
        and can_write(user, table)
        and managers.corrects_closed(user, table.pk)
    ):
        if table.mode != Table.Mode.RECORDED:
            check_writable(table, user, mode=Table.Mode.RECORDED)
        return
    check_writable(table, user, mode=Table.Mode.RECORDED)


def _close_again(table: Table, user: User) -> None:
    """A closed table's hands changed: share out (or carry on) the pot as the close did
    (``tables.table_close``, the rule set's close) from the corrected hands, and store the new
    settlement. Refused when a later sitting of the series already took the pot on."""
    if table.status != Table.Status.CLOSED:
        return
    closing = closing_rows(table)
    if (
        closing.filter(reason=CARRY_OUT).exists()
        and Table.objects.filter(series_id=table.series_id, pk__gt=table.pk).exists()
    ):
        raise TableConflict(
            _("A later sitting of this series took this table's pot on; correct hands there."),
            code="pot_carried_on",
        )
    closing.delete()
    close_pot(table)
    before = table.closing
    table.closing = settlement_for(table)
    table.save(update_fields=["closing"])
    write_audit(table, user, "table_close_again", before=before, after=table.closing)


def _tell_corrected(table: Table, user: User, number: int) -> None:
    """A hand of a closed table was corrected: tell everyone seated there but the one who
    corrected it (``clubs.outbox``; at an open table the players see it happen)."""
    if table.status != Table.Status.CLOSED:
        return
    seated = [s.user_id for s in table.seats.all() if s.user_id not in (None, user.pk)]
    outbox.notify(
        [u for u in seated if u is not None],
        "results_corrected",
        f"table:{table.pk}:hand:{number}",
        payload={"path": f"/api/v1/tables/{table.pk}/", "table_id": table.pk, "number": number},
        context={"table": table.name, "at": timezone.now().isoformat()},
    )


def hand_edit(*, table_id: int, number: int, user: User, entry: Mapping[str, Any]) -> Hand:
    """Correct any recorded hand; it and every later hand are recomputed in this transaction
    (and a closed table's close settled again)."""
    with transaction.atomic():
        table = lock_table(table_id)
        _correctable(table, user)
        hand = _recorded_hand(table, number)
        before = _snapshot(hand)
        hand.entry = _split_entry(entry, hand_common(table, hand))
        hand.analysis = None  # the cards may have changed: analysed again when asked
        hand.version += 1
        hand.save(update_fields=["entry", "analysis", "version"])
        _recompute_from(table, number)
        hand.refresh_from_db()
        write_audit(
            table, user, "hand_edit", hand_number=number, before=before, after=_snapshot(hand)
        )
        _tell_corrected(table, user, number)
        _close_again(table, user)
        hooks.hands_changed(table.pk, table.club_id)
    return hand


def hand_delete(*, table_id: int, number: int, user: User) -> None:
    """Delete any recorded hand; later hands move up one place and are recomputed (their
    dealers follow from the new order; a closed table's close is settled again)."""
    with transaction.atomic():
        table = lock_table(table_id)
        _correctable(table, user)
        hand = _recorded_hand(table, number)
        before = _snapshot(hand)
        hand.delete()
        for later in table.hands.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        _recompute_from(table, number, changed=False)
        write_audit(table, user, "hand_delete", hand_number=number, before=before)
        _tell_corrected(table, user, number)
        _close_again(table, user)
        hooks.hands_changed(table.pk, table.club_id)


def hand_confirm(*, table_id: int, number: int, user: User) -> Hand:
    """A second seated player confirms a recorded entry."""
    with transaction.atomic():
        table = lock_table(table_id)
        check_writable(table, user, mode=Table.Mode.RECORDED)
        hand = _recorded_hand(table, number)
        if hand.status != Hand.Status.PENDING:
            raise TableConflict(
                _("Hand {number} needs no confirmation.").format(number=number),
                code="already_confirmed",
            )
        if seat_of(user, table) is None or hand.entered_by_id == user.pk:
            raise NotAllowed(
                _("A seated player other than the one who entered it confirms a hand.")
            )
        hand.status = Hand.Status.DONE
        hand.confirmed_by = user
        hand.save(update_fields=["status", "confirmed_by", "updated_at"])
        write_audit(table, user, "hand_confirm", hand_number=number)
        hooks.hands_changed(table.pk, table.club_id)
    return hand
