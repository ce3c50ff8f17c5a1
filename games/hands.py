"""A hand as readers see it: the common part of its record, what carries into it, and for a
hosted hand its engine state, each seat's view and what its end reveals.

This is the read model both the write services (:mod:`games.services`) and the readers
(:mod:`games.selectors`, :mod:`games.live`, the API) build on; it imports neither.

The *common part* of a record is what the server fills into every hand record of a table
(hand-record.md, common part): ``rules``, ``seats``, ``dealer`` and the *carry*, what the hands
before leave to this one (the pot of the pot games, under the rule set's pot key,
:func:`games.rulesets.money_key`; what else the rule set carries).

A hosted hand is dealt from the deck a registered deal source gives (``games.deals``: a
duplicate tournament's board) or else from the server's own shuffle. Its deal, deck and salt
are secret while it is played and revealed once it is over, unless a deal source *withholds*
them (the same board is still being played at other tables): then every reader keeps seeing
only what a seat saw during play (:func:`hand_view`), ``proof`` is null (:func:`hand_proof`)
and the full record is refused (:func:`hand_full_record`). Results and amounts are never
withheld.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import engine
from clubs import outbox
from engine.ruleset import HandState
from games import clock, deals
from games.errors import TableConflict
from games.models import Hand, Seat, Table
from games.rulesets import money_key, rule_set_of

COMMON_KEYS = ("rules", "seats", "dealer", "pot")
"""The common part of every record the server fills in: the envelope, and the carry of a pot
game (:func:`common_keys` adds what else a table's rule set carries)."""


def seat_keys(table: Table) -> list[str]:
    """The seat keys in playing order (the ``seats`` of hand records)."""
    return [s.key for s in sorted(table.seats.all(), key=lambda s: s.position)]


def dealer_for(table: Table, number: int) -> str:
    """The dealer of hand ``number``: the first dealer, then each next seat in turn (where the
    rule set keeps rounds, as :func:`table_round` says: after a deal that does not count the
    same dealer may deal again)."""
    at = table_round(table, number)
    if at is not None:
        return at.dealer
    keys = seat_keys(table)
    return keys[(table.first_dealer + number - 1) % len(keys)]


def table_round(table: Table, number: int) -> engine.TableRound | None:
    """Where ``table`` stands in its rule set's round of deals before hand ``number``
    (``RuleSet.table_round``: its counted deals and any it plays besides), from the settled
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
    """A record's carry keys: the pot (in the pot games, under the rule set's pot key) and
    what else the rule set carries."""
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


# ---------------------------------------------------------------------------------------------
# hosted hands


def hand_record_json(table: Table, hand: Hand) -> dict[str, Any]:
    """The full record (form 2) of a hosted hand so far — secret until the hand is over."""
    return {
        **hand_common(table, hand),
        "deal": hand.deal,
        "actions": hand.actions,
    }


_STATES: dict[tuple[int, str, int], HandState] = {}
_STATES_LOCK = threading.Lock()
STATE_CACHE_SIZE = 2048


def hand_state(table: Table, hand: Hand) -> HandState:
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
        keep_state(hand, state)
    return state


def keep_state(hand: Hand, state: HandState, *, version: int | None = None) -> None:
    """Keep ``state`` as ``hand``'s state at ``version`` (its version now when omitted) for
    :func:`hand_state`, once the current transaction commits (nothing if it rolls back)."""
    key = (hand.pk, hand.commitment, hand.version if version is None else version)
    transaction.on_commit(partial(_keep, key, state))


def _keep(key: tuple[int, str, int], state: HandState) -> None:
    with _STATES_LOCK:
        if len(_STATES) >= STATE_CACHE_SIZE:
            for old in list(_STATES)[: STATE_CACHE_SIZE // 4]:  # oldest first
                del _STATES[old]
        _STATES[key] = state


def _state_before_last(table: Table, hand: Hand) -> HandState:
    """The engine state before the last action of a finished hosted hand (its version counts
    its actions), from this process's replays when kept."""
    key = (hand.pk, hand.commitment, hand.version - 1)
    state = _STATES.get(key)
    if state is None:
        state = engine.replay({**hand_record_json(table, hand), "actions": hand.actions[:-1]})
        keep_state(hand, state, version=hand.version - 1)
    return state


BOARD_NOT_REVEALED = gettext_lazy(
    "This board is still being played at other tables; its deal is revealed when every table "
    "has finished it."
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
            _("Hand {number} is still being played; its record is secret until the end.").format(
                number=hand.number
            ),
            code="hand_in_progress",
        )
    if hand_withheld(table, hand):
        raise TableConflict(str(BOARD_NOT_REVEALED), code="board_not_revealed")
    return {**hand_record_json(table, hand), "proof": hand_proof(table, hand, withheld=False)}


def hand_view(
    table: Table, hand: Hand, seat: str | None, *, withheld: bool | None = None
) -> dict[str, Any]:
    """The engine's view of a hosted hand for ``seat`` (None: a spectator): after the end
    everything, unless the hand is withheld (:func:`hand_withheld`, or ``withheld`` when the
    caller has asked already).

    A withheld hand shows only what the seat saw during play: the engine's view of the position
    before the last action, with the view keys the end made public as the rule set names them
    (``RuleSet.shapes.end_public``: e.g. phase, the last action, tricks, the seat's own cards
    left, the declarer, game and defence, or parties that the Result names anyway), whichever
    of those its view has. No ``deal``, no other seat's hand or discard, no talon the seat did
    not see, no reservation's content (only whether one was made); hands that lay open before
    the last action stay open with the cards they hold now (``RuleSet.shapes.kept_open``: e.g.
    open games, a defender's hand laid open).
    """
    seen = engine.view(hand_state(table, hand), seat)
    if not (hand_withheld(table, hand) if withheld is None else withheld):
        return seen
    before = engine.view(_state_before_last(table, hand), seat)
    out = {k: v for k, v in before.items() if k != "legal"}
    shapes = rule_set_of(table).shapes
    out.update({k: seen[k] for k in shapes.end_public if k in seen})
    for key in shapes.kept_open:
        if key in before:
            still = seen.get(key, {})
            out[key] = {s: still[s] for s in before[key] if s in still}
    last = dict(seen["actions"][-1])
    if "discard" in last and last["seat"] != seat:
        last["discard"] = None  # never the last action of a hand; kept hidden all the same
    out["actions"] = [*before["actions"], last]
    return out


def hand_clock(table: Table, hand: Hand, now: Any) -> dict[str, Any] | None:
    """What a hand's reader sees of its clocks (``HandClock``), at ``now``: each person's
    time left and whether it runs, the moment it runs out, whether the timeout policy plays
    for them (``away``) and whether a websocket of theirs watches the table (``connected``),
    with the server's time so that clients count down without drift. ``None`` without a time
    control; after the end only the timeouts matter and no clock runs."""
    tc = clock.TimeControl.from_json(table.time_control)
    if tc is None or hand.clock is None:
        return None
    state = hand.clock
    seats: dict[str, Any] = {}
    for seat in sorted(table.seats.all(), key=lambda s: s.position):
        if seat.kind == Seat.Kind.BOT:
            continue
        deadline = clock.seat_deadline(tc, state, seat.key)
        seats[seat.key] = {
            "remaining_ms": clock.remaining_ms(tc, state, seat.key, now),
            "reserve_ms": int(state["reserve_ms"].get(seat.key, 0)),
            "running": deadline is not None,
            "deadline": None if deadline is None else clock.iso(deadline),
            "timed_out": seat.key in state.get("auto", ()),
            "away": clock.is_away(tc, state, seat.key),
            "timeouts_in_row": int(state.get("in_row", {}).get(seat.key, 0)),
            "connected": seat.user_id is not None
            and hand.status == Hand.Status.PLAYING
            and outbox.watching(seat.user_id, table.pk),
        }
    return {
        "kind": tc.kind,
        "server_time": clock.iso(now),
        "flag_at": None if hand.flag_at is None else clock.iso(hand.flag_at),
        "seats": seats,
    }


def hand_timeouts(hand: Hand) -> list[dict[str, Any]]:
    """The actions of ``hand`` the timeout policy played (``action``: the index in its
    actions, ``seat``, ``at``); empty without a clock. Public: they change nothing hidden."""
    return [dict(t) for t in (hand.clock or {}).get("timeouts", ())]
