"""Hosted tables: secret deals with a published commitment, moves checked by the engine, and
the wake-ups after each move.

A hand is dealt from the deck a registered deal source gives (``games.deals``: a duplicate
tournament's board) or else from the server's own shuffle. What a hand shows its readers (its
state, each seat's view, what its end reveals) is :mod:`games.hands`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from clubs.models import User
from config.i18n import engine_text
from config.tasks import send_after_commit
from engine.ruleset import HandState
from engine.solver import playout
from games import clock, deals, hooks, live, managers, notify, rows
from games.errors import (
    InvalidInput,
    NotYourTurn,
    RuleViolation,
    StaleVersion,
    TableConflict,
)
from games.hands import carry_for, common_part, hand_state, keep_state
from games.models import (
    Hand,
    Table,
)
from games.permissions import seat_of
from games.rulesets import rule_set_of, stored_result, whose_turn
from games.services import clocks
from games.services.common import (
    carry_columns,
    check_writable,
    lock_hand,
    lock_table,
    locked_hand,
    write_audit,
    write_ledger,
)


def hand_start(*, table_id: int, user: User | None) -> Hand:
    """Deal the next hand of a hosted table from a secret shuffle whose commitment is
    published before the first call (hand-record.md, "Deal commitment"). When a deal source
    gives this hand's deck order and salt (``games.deals``: a duplicate board), the hand is
    dealt from those instead, so its commitment is the board's at every table."""
    with transaction.atomic():
        table = lock_table(table_id)
        if user is not None:
            check_writable(table, user, mode=Table.Mode.HOSTED)
        last = table.hands.order_by("-number").first()
        if last is not None and last.status != Hand.Status.DONE:
            raise TableConflict(
                _("Hand {number} is still being played.").format(number=last.number),
                code="hand_in_progress",
            )
        number = 1 if last is None else last.number + 1
        managers.check_hand_limit(table.pk, number)
        carry = carry_for(table, number)
        common = common_part(table, number, carry)
        rule_set = rule_set_of(table)
        board = deals.deck_for(table.pk, number)
        sealed = rule_set.seal() if board is None else rule_set.reseal(*board)
        active = rule_set.active_seats(common["seats"], common["dealer"])
        deal = rule_set.deal_sealed(sealed, active)
        try:  # what the table carries may end its game (a score sheet whose target is reached)
            rule_set.start_hand(
                rule_set.parse_rules(table.rules),
                common["seats"],
                common["dealer"],
                rule_set.read_carry(carry),
                deal,
            )
        except engine.EngineError as e:
            raise TableConflict(
                _(
                    "No further hand can be dealt at this table: {reason}; close it to settle."
                ).format(reason=engine_text(e)),
                code="game_over",
            ) from None
        hand = Hand.objects.create(
            table=table,
            number=number,
            clock=clocks.new_clock(table, last),
            status=Hand.Status.PLAYING,
            dealer=common["dealer"],
            **carry_columns(table, carry),
            deal=deal,
            deck=list(sealed.order),
            salt=sealed.salt,
            commitment=sealed.commitment,
            entered_by=user,
        )
        write_audit(
            table,
            user,
            "hand_start",
            hand_number=number,
            after={"dealer": hand.dealer, "commitment": hand.commitment},
        )
        state = hand_state(table, hand)
        if hand.clock is not None:
            clocks.after_deal(table, hand, state, timezone.now())
            rows.update(hand, ["clock", "flag_at"])
        after_move(table, hand, state)
    return hand


def after_move(table: Table, hand: Hand, state: HandState, schedule: bool = True) -> None:
    """On commit: wake long-polling clients; if a bot may act (a bot's seat, or a person's
    whose action the timeout policy plays: :func:`games.services.clocks.bot_plays`), ask a
    worker to move."""
    transaction.on_commit(partial(notify.publish, hand.pk, hand.version))
    live.hand_moved(table, hand, state)  # websockets: the hand, "your turn", a new hand
    acting = engine.to_act(state)
    if schedule and any(clocks.bot_plays(table, hand, seat) for seat in acting):
        # Never fails the committed move: a message the broker missed, beat sends again.
        send_after_commit("games.tasks.bot_act", hand.pk, hand.version)


def acting_hand(state: HandState, sender: str) -> str:
    """The hand an action of ``sender`` is about when it names none: the one its legal
    actions are about (``sender`` itself, or a hand the rule set lets it play for another
    seat: ``RuleSet.sender``)."""
    legal = engine.legal_actions(state, sender)
    return legal[0].seat if legal else sender


def apply_action(
    table: Table,
    hand: Hand,
    seat_key: str,
    data: Mapping[str, Any],
    *,
    schedule: bool = True,
    by_policy: bool = False,
    now: dt.datetime | None = None,
    lag_ms: int = 0,
    by_solver: bool = False,
) -> Hand:
    """Apply one action sent by ``seat_key`` to ``hand``, which the caller has locked in its
    transaction (:func:`hand_apply_action`, a bot's move: ``games.services.bots``). The turn
    is checked first (the seat may send it, for its own hand or for the hand the rule set lets
    it play, ``RuleSet.sender``); then the action is stored and a finished hand settled into
    the ledger (a deal scored in points writes none). ``by_policy``: the timeout policy's bot
    plays for a person (the hand's clock lists the action); ``by_solver``: the round clock's
    double-dummy play-out plays it (:func:`end_hand_by_solver`: no clock is checked or
    charged); else a person's action at ``now`` is charged to their clock, crediting the
    ``lag_ms`` their client claims."""
    if hand.status != Hand.Status.PLAYING:
        raise TableConflict(
            _("Hand {number} is over.").format(number=hand.number), code="hand_over"
        )
    state = hand_state(table, hand)
    acting = engine.to_act(state)
    if seat_key not in acting:
        raise NotYourTurn(
            _("It is {whose} turn, not {seat}'s.").format(
                whose=whose_turn(acting, state.seats), seat=seat_key
            )
        )
    if not isinstance(data, Mapping):
        raise InvalidInput(
            _("An action is an object like {example}.").format(example='{"call": "pass"}'),
            fields={"action": [_("not an object")]},
        )
    now = now or timezone.now()
    if not by_policy and not by_solver:
        clocks.check_in_time(table, hand, seat_key, now, lag_ms)
    rules = rule_set_of(table)
    given = data.get("seat", None)
    if given is None:
        given = acting_hand(state, seat_key)
    if given != seat_key and rules.sender(state, given) != seat_key:
        raise NotYourTurn(
            _("You sit at {seat} and cannot act for {given}.").format(seat=seat_key, given=given)
        )
    try:
        action = rules.action_from_json({**data, "seat": given}, "action")
        state = engine.apply(state, action)
    except engine.EngineError as e:
        sentence = engine_text(e)
        raise RuleViolation(sentence, fields={"action": [sentence]}) from None
    hand.actions = [*hand.actions, rules.action_to_json(action)]
    hand.version += 1
    keep_state(hand, state)
    fields = ["actions", "version", "updated_at"]
    fields += clocks.after_action(
        table,
        hand,
        state,
        seat_key,
        by_policy=by_policy,
        now=now,
        lag_ms=lag_ms,
        by_solver=by_solver,
    )
    if state.is_over:
        hand.result = stored_result(table, engine.settle_outcome(engine.outcome(state)))
        hand.status = Hand.Status.DONE
        hand.finished_at = timezone.now()
        fields += ["result", "status", "finished_at"]
        write_ledger(table, hand, hand.result.get("transfers", ()))
        hooks.hands_changed(table.pk, table.club_id)
    rows.update(hand, fields)
    after_move(table, hand, state, schedule)
    return hand


def hand_apply_action(
    *,
    table_id: int,
    number: int,
    user: User,
    action: Mapping[str, Any],
    expected_version: int | None = None,
    lag_ms: int = 0,
    now: dt.datetime | None = None,
) -> Hand:
    """A seated player's move. Checks, in order: the hand exists and is being played, the
    version the client saw (409), the caller's seat and turn (403), the clock (409
    ``time_out``: the time ran out, crediting the claimed ``lag_ms`` up to
    ``CLOCK_LAG_CREDIT_MS``), then the engine (400)."""
    with transaction.atomic():
        table, hand = lock_hand(table_id, number)
        if hand.status != Hand.Status.PLAYING:
            raise TableConflict(
                _("Hand {number} is over.").format(number=hand.number), code="hand_over"
            )
        if expected_version is not None and expected_version != hand.version:
            raise StaleVersion(
                _("The hand is at version {version}, not {expected}; reload it.").format(
                    version=hand.version, expected=expected_version
                ),
                fields={
                    "expected_version": [
                        _("current version is {version}").format(version=hand.version)
                    ]
                },
            )
        seat = seat_of(user, table)
        if seat is None:
            raise NotYourTurn(_("You have no seat at this table."), code="not_seated")
        return apply_action(table, hand, seat.key, action, lag_ms=lag_ms, now=now)


def seat_back(*, table_id: int, user: User) -> dict[str, Any]:
    """``user`` is back at their seat: the timeout policy stops playing for it (its timeouts
    in a row are forgotten) and, on their turn, their clock runs again. Answers the seat and
    whether it was away."""
    with transaction.atomic():
        table = lock_table(table_id)
        seat = next((s for s in table.seats.all() if s.user_id == user.pk), None)
        if seat is None:
            raise NotYourTurn(_("You have no seat at this table."), code="not_seated")
        tc = clocks.time_control(table)
        last = table.hands.order_by("-number").values_list("number", flat=True).first()
        found = None if tc is None or last is None else lock_hand(table.pk, last)
        was_away = False
        if found is not None and tc is not None:
            hand = found[1]
            if hand.clock is not None and hand.clock.get("in_row", {}).get(seat.key):
                was_away = clock.is_away(tc, hand.clock, seat.key)
                hand.clock = clock.copy(hand.clock)
                hand.clock["in_row"].pop(seat.key, None)
                fields = ["clock", "updated_at"]  # a reader's cached view is checked by it
                if hand.status == Hand.Status.PLAYING:
                    state = hand_state(table, hand)
                    before = set(hand.clock["running"])
                    fields += clocks.run_clocks(table, hand, state, tc, timezone.now(), before)
                rows.update(hand, list(dict.fromkeys(fields)))
                write_audit(table, user, "back", hand_number=hand.number, after={"seat": seat.key})
        return {"seat": seat.key, "was_away": was_away}


def end_hand_by_solver(
    *, table_id: int, number: int, max_tricks: int, now: dt.datetime | None = None
) -> Hand | None:
    """End hand ``number`` of a hosted table by the double-dummy result of its remaining cards
    (a tournament round's clock ran out: ``docs/tournaments.md``, "Round clocks"), when it is
    being played, in card play of a game the solver plays, with at most ``max_tricks`` tricks
    to play (the one in progress included): every remaining card is played as
    :func:`engine.solver.playout.playout` chooses (each side plays perfectly with every hand
    open), each through :func:`apply_action` (checked by the engine, stored, the hand settled
    at its end; no clock checked or charged, no bot woken), and the table's audit lists them
    as ``hand_end_solver`` (the index of the first action it played, the cards, the tricks
    that were left). ``None``, changing nothing, otherwise: the hand is over or gone, not in
    card play (or a choice other than a card is open), or more tricks remain. Safe to run
    twice: the second finds the hand over."""
    now = now or timezone.now()
    with transaction.atomic():
        found = locked_hand("h.table_id = %s AND h.number = %s", [table_id, number])
        if found is None:
            return None
        table, hand = found
        if table.mode != Table.Mode.HOSTED or hand.status != Hand.Status.PLAYING:
            return None
        state = hand_state(table, hand)
        try:
            left = playout.tricks_left(state)
            if left > max_tricks:
                return None
            cards = playout.playout(state)
        except engine.EngineError:
            return None
        rules = rule_set_of(table)
        first = len(hand.actions)
        played = []
        for card in cards:
            data = rules.action_to_json(card)
            hand = apply_action(
                table,
                hand,
                rules.sender(state, card.seat),
                data,
                schedule=False,
                by_solver=True,
                now=now,
            )
            state = engine.apply(state, card)
            played.append(data)
        write_audit(
            table,
            None,
            "hand_end_solver",
            hand_number=hand.number,
            after={"from_action": first, "cards": played, "tricks_left": left},
        )
    return hand


def hand_abandon(*, table_id: int, number: int, user: User | None = None) -> dict[str, Any] | None:
    """Take back hand ``number`` of a hosted table, the table's last, while it is being
    played, as if it had never been dealt: a tournament round's clock ran out and its director
    gives the hand an adjusted score instead (``docs/tournaments.md``, "Round clocks"); the
    apps above call it and check who may. Nothing of it was settled, so nothing else changes;
    the table's audit keeps ``hand_abandon`` with its dealer, commitment and how many actions
    it had (not its cards: a duplicate board may still be played at other tables). Answers
    ``{"number", "dealer", "commitment", "actions"}``, or ``None``, changing nothing, when the
    hand is not being played (it ended, or there is none) or is not the table's last."""
    with transaction.atomic():
        found = locked_hand("h.table_id = %s AND h.number = %s", [table_id, number])
        if found is None:
            return None
        table, hand = found
        if (
            table.mode != Table.Mode.HOSTED
            or hand.status != Hand.Status.PLAYING
            or Hand.objects.filter(table_id=table.pk, number__gt=number).exists()
        ):
            return None
        what = {
            "number": hand.number,
            "dealer": hand.dealer,
            "commitment": hand.commitment,
            "actions": len(hand.actions),
        }
        hand_id, version = hand.pk, hand.version
        hand.delete()
        write_audit(table, user, "hand_abandon", hand_number=number, before=what)
        # long-polling readers wake up and find the hand gone
        transaction.on_commit(partial(notify.publish, hand_id, version + 1))
        hooks.hands_changed(table.pk, table.club_id)
    return what
