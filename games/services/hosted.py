"""Hosted tables: secret deals with a published commitment, moves checked by the engine, the
state cache and the wake-ups after each move.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from clubs.models import User
from games import hooks, notify, rows
from games.errors import (
    InvalidInput,
    NotYourTurn,
    RuleViolation,
    StaleVersion,
    TableConflict,
)
from games.models import (
    Hand,
    Seat,
    Table,
)
from games.permissions import seat_of
from games.services.common import (
    _audit,
    _lock_hand,
    _lock_table,
    _pot_before,
    _seat,
    _writable,
    _write_ledger,
    common_part,
)


def hand_record_json(table: Table, hand: Hand) -> dict[str, Any]:
    """The full record (form 2) of a hosted hand so far — secret until the hand is over."""
    return {
        **common_part(table, hand.number, hand.pot_before),
        "deal": hand.deal,
        "actions": hand.actions,
    }


_STATES: dict[tuple[int, str, int], engine.State] = {}
_STATES_LOCK = threading.Lock()
STATE_CACHE_SIZE = 2048


def hand_state(table: Table, hand: Hand) -> engine.State:
    """The engine state of a hosted hand, replayed from its record.

    Replays are kept in this process by (hand id, commitment, version): a hand's actions only
    grow and each new one bumps the version, so the key names one state for good (the
    commitment tells a new deal from an old one should ids be reused). States are immutable,
    so sharing them is safe. A state read inside a transaction is kept only once it commits.
    """
    key = (hand.pk, hand.commitment, hand.version)
    state = _STATES.get(key)
    if state is not None:
        return state
    state = engine.replay(hand_record_json(table, hand))
    if hand.pk is not None:
        transaction.on_commit(partial(_keep_state, key, state))
    return state


def _keep_state(key: tuple[int, str, int], state: engine.State) -> None:
    with _STATES_LOCK:
        if len(_STATES) >= STATE_CACHE_SIZE:
            for old in list(_STATES)[: STATE_CACHE_SIZE // 4]:  # oldest first
                del _STATES[old]
        _STATES[key] = state


def hand_start(*, table_id: int, user: User | None) -> Hand:
    """Deal the next hand of a hosted table from a secret shuffle whose commitment is
    published before the first call (hand-record.md, "Deal commitment")."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if user is not None:
            _writable(table, user, mode=Table.Mode.HOSTED)
        last = table.hands.order_by("-number").first()
        if last is not None and last.status != Hand.Status.DONE:
            raise TableConflict(
                f"Hand {last.number} is still being played.", code="hand_in_progress"
            )
        number = 1 if last is None else last.number + 1
        pot = _pot_before(table, number)
        common = common_part(table, number, pot)
        order, salt = engine.record.shuffled_deck(secrets.SystemRandom())
        deal = engine.deal_from_deck(order, engine.active_seats(common["seats"], common["dealer"]))
        hand = Hand.objects.create(
            table=table,
            number=number,
            status=Hand.Status.PLAYING,
            dealer=common["dealer"],
            pot_before=pot,
            deal=deal,
            deck=order,
            salt=salt,
            commitment=engine.commitment(salt, order),
            entered_by=user,
        )
        _audit(
            table,
            user,
            "hand_start",
            hand_number=number,
            after={"dealer": hand.dealer, "commitment": hand.commitment},
        )
        _after_move(table, hand, hand_state(table, hand))
    return hand


def _after_move(table: Table, hand: Hand, state: engine.State, schedule: bool = True) -> None:
    """On commit: wake long-polling clients; if a bot is to act, ask a worker to move."""
    from games.tasks import bot_act

    transaction.on_commit(partial(notify.publish, hand.pk, hand.version))
    seat = state.to_act_seat
    if schedule and seat is not None and _seat(table, seat).kind == Seat.Kind.BOT:
        transaction.on_commit(partial(bot_act.delay, hand.pk, hand.version))


def _apply(
    table: Table, hand: Hand, seat_key: str, data: Mapping[str, Any], *, schedule: bool = True
) -> Hand:
    """Apply one action for ``seat_key`` (turn checked first), store it, settle a finished
    hand into the ledger."""
    if hand.status != Hand.Status.PLAYING:
        raise TableConflict(f"Hand {hand.number} is over.", code="hand_over")
    state = hand_state(table, hand)
    if state.to_act_seat != seat_key:
        raise NotYourTurn(f"It is {state.to_act_seat}'s turn, not {seat_key}'s.")
    if not isinstance(data, Mapping):
        raise InvalidInput(
            'An action is an object like {"call": "pass"}.', fields={"action": ["not an object"]}
        )
    given = data.get("seat", seat_key)
    if given != seat_key:
        raise NotYourTurn(f"You sit at {seat_key} and cannot act for {given}.")
    try:
        action = engine.action_from_json({**data, "seat": seat_key}, engine.PIQUET, "action")
        state = engine.apply(state, action)
    except engine.EngineError as e:
        raise RuleViolation(e.message, fields={"action": [e.message]}) from None
    hand.actions = [*hand.actions, engine.action_to_json(action, engine.PIQUET)]
    hand.version += 1
    transaction.on_commit(partial(_keep_state, (hand.pk, hand.commitment, hand.version), state))
    fields = ["actions", "version", "updated_at"]
    if state.is_over:
        hand.result = engine.settle_outcome(engine.outcome(state))
        hand.status = Hand.Status.DONE
        hand.finished_at = timezone.now()
        fields += ["result", "status", "finished_at"]
        _write_ledger(table, hand, hand.result["transfers"])
        hooks.hands_changed(table.pk, table.club_id)
    rows.update(hand, fields)
    _after_move(table, hand, state, schedule)
    return hand


def hand_apply_action(
    *,
    table_id: int,
    number: int,
    user: User,
    action: Mapping[str, Any],
    expected_version: int | None = None,
) -> Hand:
    """A seated player's move. Checks, in order: the hand exists and is being played, the
    version the client saw (409), the caller's seat and turn (403), then the engine (400)."""
    with transaction.atomic():
        table, hand = _lock_hand(table_id, number)
        if hand.status != Hand.Status.PLAYING:
            raise TableConflict(f"Hand {hand.number} is over.", code="hand_over")
        if expected_version is not None and expected_version != hand.version:
            raise StaleVersion(
                f"The hand is at version {hand.version}, not {expected_version}; reload it.",
                fields={"expected_version": [f"current version is {hand.version}"]},
            )
        seat = seat_of(user, table)
        if seat is None:
            raise NotYourTurn("You have no seat at this table.", code="not_seated")
        return _apply(table, hand, seat.key, action)
