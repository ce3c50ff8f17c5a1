"""Timeouts at hosted tables with a clock (issue 41, docs/clocks.md): a due flag falls
exactly once (:func:`flag_fall`, by compare-and-set on the hand's version under its row lock),
and the timeout policy's bot plays the fallen seat's action: at once in the flag's transaction
when the bot does not think, else through the bots' task. Without a broker (the embedded
default) a due flag falls when the hand is read (:func:`flags_due_on_read`).

A module of its own because it uses both the hosted hand's moves
(:mod:`games.services.hosted`) and the bots' choice (:mod:`games.services.bots`), which itself
plays through the hosted moves."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.tasks import send_after_commit
from games import clock, hooks, rows
from games.models import Hand, Seat, Table
from games.services import clocks
from games.services.bots import bot_choice
from games.services.common import locked_hand, seat_at, write_audit
from games.services.hosted import apply_action


def flag_fall(hand_id: int, version: int, now: dt.datetime | None = None) -> Hand | None:
    """Let the flags of ``hand_id`` fall that are due at ``now`` (the clock unless given),
    exactly once: nothing unless the hand is still at ``version`` (a move that came first
    changed it) and a flag is due (a second run finds the fallen seats' clocks stopped). The
    fallen seats' actions are then played by the timeout policy (a bot of
    :func:`games.services.clocks.timeout_level`: in this transaction when it does not think,
    else through the bots' task), and the table's log lists the timeout."""
    now = now or timezone.now()
    with transaction.atomic():
        found = locked_hand("h.id = %s", [hand_id])
        if found is None:
            return None
        table, hand = found
        tc = clocks.time_control(table)
        if (
            tc is None
            or hand.clock is None
            or hand.version != version
            or hand.status != Hand.Status.PLAYING
        ):
            return None
        seats = clock.fallen(tc, hand.clock, now, clocks.lag_cap_ms())
        if not seats:
            return None
        hand.clock = clock.fall(hand.clock, seats, now)
        hand.flag_at = clock.flag_at(tc, hand.clock, clocks.lag_cap_ms())
        rows.update(hand, ["clock", "flag_at", "updated_at"])
        write_audit(
            table,
            None,
            "timeout",
            hand_number=hand.number,
            after={"seats": seats, "version": hand.version},
        )
        hooks.timed_out(table.pk, hand.number, seats)  # a tournament's log lists it
        if hand.flag_at is not None:  # another seat's clock still runs
            clocks.hand_on_flag(hand.pk, hand.version, hand.flag_at, now, after_commit=True)
        # The version stays (it counts the hand's actions): the bot's action moves it on. A bot
        # that does not think (every level but pimc) plays it here, in the flag's transaction:
        # no second task, lock or replay of the hand (issue 41's flags on time). One that
        # thinks does so in the bots' task, holding no lock while it samples deals.
        if not clocks.thinks(clocks.timeout_level(table)):
            move = bot_choice(table, hand)
            if move is not None:
                sender, data = move
                by_policy = seat_at(table, sender).kind != Seat.Kind.BOT
                # after the flag's audit row: the action's time is never before its flag's
                played_at = max(now, timezone.now())
                return apply_action(table, hand, sender, data, by_policy=by_policy, now=played_at)
        send_after_commit("games.tasks.bot_act", hand.pk, hand.version)
    return hand


def flags_due_on_read(table: Table, hand: Hand, now: dt.datetime | None = None) -> bool:
    """Without a broker (the embedded default, ``make run``: no worker and no beat), let the
    due flags of ``hand`` (as a reader loaded it) fall when someone reads it, so clocks are
    kept there too; with a broker the worker does it and a read changes nothing. Answers
    whether a flag fell (then read the hand again)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER or hand.flag_at is None or table.time_control is None:
        return False
    now = now or timezone.now()
    return hand.flag_at <= now and bool(flag_fall(hand.pk, hand.version, now))
