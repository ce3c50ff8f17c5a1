"""Hosted tables: secret deals with a published commitment, moves checked by the engine, the
state cache and the wake-ups after each move, and what a finished hand reveals.

A hand is dealt from the deck a registered deal source gives (``games.deals``: a duplicate
tournament's board) or else from the server's own shuffle. Its deal, deck and salt are secret
while it is played and revealed once it is over, unless a deal source withholds them (the same
board is still being played at other tables): then every reader keeps seeing only what a seat
saw during play (:func:`hand_view`), ``proof`` is null (:func:`hand_proof`) and the full record
is refused (:func:`hand_full_record`). Results and amounts are never withheld.
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
from config.tasks import send_after_commit
from games import deals, hooks, live, managers, notify, rows
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
from games.rulesets import rule_set_of, stored_result, whose_turn
from games.services.common import (
    _audit,
    _lock_hand,
    _lock_table,
    _seat,
    _writable,
    _write_ledger,
    carry_columns,
    carry_for,
    common_part,
    hand_common,
)


def hand_record_json(table: Table, hand: Hand) -> dict[str, Any]:
    """The full record (form 2) of a hosted hand so far — secret until the hand is over."""
    return {
        **hand_common(table, hand),
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


BOARD_NOT_REVEALED = (
    "This board is still being played at other tables; its deal is revealed when every table "
    "has finished it."
)
#: The fields of a finished hand's seat view that are public at its end. Each rule set's view has
#: its own fields (the three-hand games' ``hand_sizes`` and ``offer``, Preferans's ``hand_due``,
#: Doppelkopf's ``parties``, which its Result names anyway): a withheld hand's view takes those
#: of them its view has from the end, and every other field from the view before the last
#: action (Doppelkopf's reservations stay ``"none"`` or ``"reserved"``).
PUBLIC_AT_END = (
    "phase",
    "to_act",
    "hand_due",
    "hand",
    "hand_sizes",
    "declarer",
    "game",
    "defence",
    "trick",
    "last_trick",
    "tricks",
    "offer",
    "parties",
)


def hand_withheld(table: Table, hand: Hand) -> bool:
    """Whether a finished hosted hand's deal, deck, salt and record stay hidden for now: a
    deal source says its board is still being played at other tables (``games.deals``).
    Sources are asked only about finished hosted hands."""
    return (
        table.mode == Table.Mode.HOSTED
        and hand.status == Hand.Status.DONE
        and deals.withheld(table.pk, hand.number)
    )


def hand_proof(table: Table, hand: Hand, *, withheld: bool | None = None) -> dict[str, Any] | None:
    """The proof of a finished hosted hand (hand-record.md, "Deal commitment"): commitment,
    salt and deck; None before the end and while the hand is withheld. ``withheld``:
    :func:`hand_withheld`'s answer when the caller has it already."""
    if table.mode != Table.Mode.HOSTED or hand.status != Hand.Status.DONE:
        return None
    if hand_withheld(table, hand) if withheld is None else withheld:
        return None
    return {"commitment": hand.commitment, "salt": hand.salt, "deck": hand.deck}


def hand_full_record(table: Table, hand: Hand) -> dict[str, Any]:
    """The full record (form 2) of a finished hosted hand with its proof, which
    ``engine.verify`` checks as it is. 409 ``hand_in_progress`` before the end, 409
    ``board_not_revealed`` while the hand is withheld."""
    if hand.status != Hand.Status.DONE:
        raise TableConflict(
            f"Hand {hand.number} is still being played; its record is secret until the end.",
            code="hand_in_progress",
        )
    if hand_withheld(table, hand):
        raise TableConflict(BOARD_NOT_REVEALED, code="board_not_revealed")
    return {**hand_record_json(table, hand), "proof": hand_proof(table, hand, withheld=False)}


def hand_view(
    table: Table, hand: Hand, seat: str | None, *, withheld: bool | None = None
) -> dict[str, Any]:
    """The engine's view of a hosted hand for ``seat`` (None: a spectator): after the end
    everything, unless the hand is withheld (:func:`hand_withheld`, or ``withheld`` when the
    caller has asked already).

    A withheld hand shows only what the seat saw during play: the engine's view of the position
    before the last action, with what the end made public (:data:`PUBLIC_AT_END`: phase, the
    last action, tricks, the seat's own cards left), whichever of those fields the rule set's
    view has. No ``deal``, no other seat's hand or discard, no talon the seat did not see, no
    reservation's content; hands that lay open (7 and 8) stay open with the cards they hold
    now.
    """
    seen = engine.view(hand_state(table, hand), seat)
    if not (hand_withheld(table, hand) if withheld is None else withheld):
        return seen
    before = engine.view(_state_before_last(table, hand), seat)
    out = {k: v for k, v in before.items() if k != "legal"}
    out.update({k: seen[k] for k in PUBLIC_AT_END if k in seen})
    if "open_hands" in before:
        still = seen.get("open_hands", {})
        out["open_hands"] = {s: still[s] for s in before["open_hands"] if s in still}
    last = dict(seen["actions"][-1])
    if "discard" in last and last["seat"] != seat:
        last["discard"] = None  # never the last action of a hand; kept hidden all the same
    out["actions"] = [*before["actions"], last]
    return out


def _state_before_last(table: Table, hand: Hand) -> engine.State:
    """The engine state before the last action of a finished hosted hand (its version counts
    its actions), from this process's replays when kept."""
    key = (hand.pk, hand.commitment, hand.version - 1)
    state = _STATES.get(key)
    if state is None:
        state = engine.replay({**hand_record_json(table, hand), "actions": hand.actions[:-1]})
        transaction.on_commit(partial(_keep_state, key, state))
    return state


def hand_start(*, table_id: int, user: User | None) -> Hand:
    """Deal the next hand of a hosted table from a secret shuffle whose commitment is
    published before the first call (hand-record.md, "Deal commitment"). When a deal source
    gives this hand's deck order and salt (``games.deals``: a duplicate board), the hand is
    dealt from those instead, so its commitment is the board's at every table."""
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
        managers.check_hand_limit(table.pk, number)
        carry = carry_for(table, number)
        common = common_part(table, number, carry)
        rule_set = rule_set_of(table)
        board = deals.deck_for(table.pk, number)
        if board is None:
            order, salt = rule_set.shuffled_deck(secrets.SystemRandom())
        else:
            order, salt = list(board[0]), board[1]
        active = rule_set.active_seats(common["seats"], common["dealer"])
        deal = rule_set.deal_from_deck(order, active)
        try:  # what the table carries may end its game (a Preferans pulya whose pools are full)
            rule_set.start_hand(
                rule_set.parse_rules(table.rules),
                common["seats"],
                common["dealer"],
                rule_set.read_carry(carry),
                deal,
            )
        except engine.EngineError as e:
            raise TableConflict(
                f"No further hand can be dealt at this table: {e.message}; close it to settle.",
                code="game_over",
            ) from None
        hand = Hand.objects.create(
            table=table,
            number=number,
            status=Hand.Status.PLAYING,
            dealer=common["dealer"],
            **carry_columns(table, carry),
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
    """On commit: wake long-polling clients; if a bot may act, ask a worker to move."""
    from games.tasks import bot_act

    transaction.on_commit(partial(notify.publish, hand.pk, hand.version))
    live.hand_moved(table, hand, state)  # websockets: the hand, "your turn", a new hand
    acting = engine.to_act(state)
    if schedule and any(_seat(table, seat).kind == Seat.Kind.BOT for seat in acting):
        # Never fails the committed move: a message the broker missed, beat sends again.
        send_after_commit(bot_act, hand.pk, hand.version)


def hand_due(state: engine.State, sender: str) -> str:
    """The hand an action of ``sender`` is about when it names none: the one its legal
    actions are about (``sender`` itself, or in Preferans's open play the passer whose cards
    the lone whister sends: ``RuleSet.sender``)."""
    legal = engine.legal_actions(state, sender)
    return legal[0].seat if legal else sender


def _apply(
    table: Table, hand: Hand, seat_key: str, data: Mapping[str, Any], *, schedule: bool = True
) -> Hand:
    """Apply one action sent by ``seat_key`` (turn checked first: the seat may send it, for
    its own hand or for the hand the rule set lets it play, ``RuleSet.sender``), store it,
    settle a finished hand into the ledger (a deal scored in points writes none)."""
    if hand.status != Hand.Status.PLAYING:
        raise TableConflict(f"Hand {hand.number} is over.", code="hand_over")
    state = hand_state(table, hand)
    acting = engine.to_act(state)
    if seat_key not in acting:
        raise NotYourTurn(f"It is {whose_turn(acting, state.seats)} turn, not {seat_key}'s.")
    if not isinstance(data, Mapping):
        raise InvalidInput(
            'An action is an object like {"call": "pass"}.', fields={"action": ["not an object"]}
        )
    rules = rule_set_of(table)
    given = data.get("seat", None)
    if given is None:
        given = hand_due(state, seat_key)
    if given != seat_key and rules.sender(state, given) != seat_key:
        raise NotYourTurn(f"You sit at {seat_key} and cannot act for {given}.")
    try:
        action = engine.action_from_json(
            {**data, "seat": given}, rules.deck, "action", variant=rules.name
        )
        state = engine.apply(state, action)
    except engine.EngineError as e:
        raise RuleViolation(e.message, fields={"action": [e.message]}) from None
    hand.actions = [*hand.actions, engine.action_to_json(action, rules.deck)]
    hand.version += 1
    transaction.on_commit(partial(_keep_state, (hand.pk, hand.commitment, hand.version), state))
    fields = ["actions", "version", "updated_at"]
    if state.is_over:
        hand.result = stored_result(table, engine.settle_outcome(engine.outcome(state)))
        hand.status = Hand.Status.DONE
        hand.finished_at = timezone.now()
        fields += ["result", "status", "finished_at"]
        _write_ledger(table, hand, hand.result.get("transfers", ()))
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
