"""Clocks of hosted hands (issue 41, ``docs/clocks.md``): the server keeps each hand's clock
(:mod:`games.clock`), stores the moment the next flag falls (``Hand.flag_at``) and lets it
fall exactly once.

Enforcement is swept, never one long-delayed task per action: after each move the worker is
handed the flag only when it falls within ``CLOCK_HORIZON_SECONDS`` (far below the broker's
redelivery timeout), and the beat's sweep (``games.tasks.sweep_clocks``, every
``CLOCK_SWEEP_SECONDS``) hands on what enters that horizon and again anything overdue, whose
message a dead worker or broker lost. A flag falls by compare-and-set on the hand's version
(:func:`flag_fall`): a move that arrived first has changed the version and the flag does
nothing; a flag that runs twice finds the version changed by its first run.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from clubs import outbox
from config.tasks import send, send_after_commit
from engine.bots.levels import CARDS_ONLY
from engine.ruleset import HandState
from games import clock
from games.errors import TableConflict
from games.models import Hand, Seat, Table
from games.rulesets import rule_set_of
from games.services.common import filler_level, seat_at

log = logging.getLogger(__name__)

FLAG_TASK = "games.tasks.clock_flag"
SENT_KEY = "clock-flag:{hand}:{version}:{at}"


def time_control(table: Table) -> clock.TimeControl | None:
    """The table's time control (``None``: no clock)."""
    return clock.TimeControl.from_json(table.time_control)


def lag_cap_ms() -> int:
    return int(settings.CLOCK_LAG_CREDIT_MS)


def timeout_level(table: Table) -> str:
    """The bot level that plays for a seat whose time ran out: the time control's, else the
    level of the table's bots, else the rule set's strongest."""
    tc = time_control(table)
    if tc is not None and tc.bot_level:
        return tc.bot_level
    bots = [s.bot_level for s in table.seats.all() if s.kind == Seat.Kind.BOT and s.bot_level]
    return bots[0] if bots else filler_level(rule_set_of(table), None)


def thinks(level: str) -> bool:
    """Whether the bot of ``level`` thinks before it moves (``pimc``, ``pimc:N``,
    ``pimc-cards``: it samples deals, up to the table's ``bot_budget_ms``), so that it moves in
    the bots' task holding no lock; every other level decides at once."""
    return level.partition(":")[0] in ("pimc", CARDS_ONLY)


def person_seats(table: Table) -> set[str]:
    return {s.key for s in table.seats.all() if s.kind != Seat.Kind.BOT}


def played_by_policy(table: Table, hand: Hand, seat: str) -> bool:
    """Whether the timeout policy plays ``seat``'s actions now: its flag fell, or it is
    away."""
    tc = time_control(table)
    if tc is None or hand.clock is None or seat not in person_seats(table):
        return False
    return seat in hand.clock.get("auto", ()) or clock.is_away(tc, hand.clock, seat)


def bot_plays(table: Table, hand: Hand, seat: str) -> bool:
    """Whether a bot plays ``seat`` of ``hand`` now: a bot's seat, or a person's whose action
    the timeout policy plays (:func:`played_by_policy`)."""
    return seat_at(table, seat).kind == Seat.Kind.BOT or played_by_policy(table, hand, seat)


def new_clock(table: Table, previous: Hand | None) -> dict[str, Any] | None:
    """The clock a new hand of ``table`` starts with (the timeouts in a row carried from the
    hand before); ``None`` without a time control."""
    tc = time_control(table)
    if tc is None:
        return None
    in_row = (previous.clock or {}).get("in_row", {}) if previous is not None else {}
    return clock.start(tc, sorted(person_seats(table)), in_row)


def check_in_time(table: Table, hand: Hand, seat: str, now: dt.datetime, lag_ms: int) -> None:
    """Refuse (409 ``time_out``) a person's action that arrives after their time ran out."""
    tc = time_control(table)
    if tc is None or hand.clock is None:
        return
    if clock.late(tc, hand.clock, seat, now, lag_ms=lag_ms, lag_cap_ms=lag_cap_ms()):
        raise TableConflict(
            _("Your time for this action ran out; the table's timeout policy plays it for you."),
            code="time_out",
        )


def after_action(
    table: Table,
    hand: Hand,
    state: HandState,
    seat: str,
    *,
    by_policy: bool,
    now: dt.datetime,
    lag_ms: int = 0,
    by_solver: bool = False,
) -> list[str]:
    """Update ``hand``'s clock after ``seat`` sent the action that is now its last: charge a
    person's time (or list the policy's action; an action the round clock's double-dummy
    play-out played, ``by_solver``, is neither), then run the clocks of the seats the hand
    waits for now. Answers the hand's fields it changed."""
    tc = time_control(table)
    if tc is None or hand.clock is None:
        return []
    before = set(hand.clock.get("running", {}))
    if by_policy:
        hand.clock = clock.played_for(hand.clock, seat, len(hand.actions) - 1, now)
    elif not by_solver and seat in person_seats(table):
        hand.clock = clock.charge(tc, hand.clock, seat, now, lag_ms=lag_ms, lag_cap_ms=lag_cap_ms())
    return run_clocks(table, hand, state, tc, now, before)


def after_deal(table: Table, hand: Hand, state: HandState, now: dt.datetime) -> None:
    """Start the clocks of a newly dealt hand (its clock set by :func:`new_clock`)."""
    tc = time_control(table)
    if tc is not None and hand.clock is not None:
        run_clocks(table, hand, state, tc, now, set())


def run_clocks(
    table: Table,
    hand: Hand,
    state: HandState,
    tc: clock.TimeControl,
    now: dt.datetime,
    before: set[str],
) -> list[str]:
    assert hand.clock is not None
    persons = person_seats(table)
    waiting = [] if state.is_over else sorted(engine.waiting_for(state) & persons)
    running = [s for s in waiting if not clock.is_away(tc, hand.clock, s)]
    hand.clock = clock.run(hand.clock, running, now)
    hand.flag_at = clock.flag_at(tc, hand.clock, lag_cap_ms())
    if hand.flag_at is not None:
        hand_on_flag(hand.pk, hand.version, hand.flag_at, now, after_commit=True)
    if tc.kind == clock.TURN_BASED:
        _remind(table, hand, tc, before, set(hand.clock["running"]))
    return ["clock", "flag_at"]


def _remind(
    table: Table, hand: Hand, tc: clock.TimeControl, before: set[str], now_running: set[str]
) -> None:
    """Turn-based: a reminder and a warning before each new turn's time runs out (the
    outbox's ``time_running_out``); withdrawn for seats whose turn is over."""
    assert hand.clock is not None
    users = {s.key: s.user_id for s in table.seats.all() if s.user_id is not None}
    for seat in before - now_running:
        if seat in users:
            for which in ("reminder", "warning"):
                outbox.withdraw("time_running_out", f"table:{table.pk}:{which}", [users[seat]])
    for seat in now_running - before:
        deadline = clock.seat_deadline(tc, hand.clock, seat)
        if seat not in users or deadline is None:
            continue
        for which, before_end in (
            ("reminder", tc.reminder_seconds),
            ("warning", tc.warning_seconds),
        ):
            if not before_end:
                continue
            outbox.notify(
                [users[seat]],
                "time_running_out",
                f"table:{table.pk}:{which}",
                payload={
                    "path": f"/api/v1/tables/{table.pk}/hands/{hand.number}/",
                    "table_id": table.pk,
                    "number": hand.number,
                    "deadline": clock.iso(deadline),
                },
                context={"table": table.name, "deadline": clock.iso(deadline)},
                delay=max(
                    dt.timedelta(0),
                    deadline - dt.timedelta(seconds=before_end) - timezone.now(),
                ),
            )


def hand_on_flag(
    hand_id: int,
    version: int,
    at: dt.datetime,
    now: dt.datetime,
    *,
    after_commit: bool = False,
    again: bool = False,
) -> bool:
    """Hand the flag of ``hand_id`` at ``version`` to the worker, to fall at ``at``, when
    ``at`` is within the horizon; once per version and moment (a cache key), unless ``again``
    (the sweep found it overdue: its message was lost). A cache that cannot be reached hands
    nothing on (the move that asked goes through; the sweep finds the flag overdue). Answers
    whether it was handed on."""
    if at - now > dt.timedelta(seconds=settings.CLOCK_HORIZON_SECONDS):
        return False
    key = SENT_KEY.format(hand=hand_id, version=version, at=int(at.timestamp() * 1000))
    ttl = int(settings.CLOCK_HORIZON_SECONDS) + 60
    try:
        if again:
            cache.set(key, 1, ttl)
        elif not cache.add(key, 1, ttl):
            return False
    except Exception:  # Redis down: never fail the move; the sweep's overdue pass sends it
        log.warning("clock flag of hand %s not handed on: the cache is unreachable", hand_id)
        return False
    options = {"eta": at} if at > now else {}
    if after_commit:
        send_after_commit(FLAG_TASK, hand_id, version, **options)
    else:
        send(FLAG_TASK, hand_id, version, **options)
    return True


#: The cache keys of the sweep: how far the last sweep looked ahead, and when the overdue
#: flags may be handed on again.
SWEPT_UNTIL = "clock-sweep:until"
AGAIN_AFTER = "clock-sweep:again-after"


def hand_on_due(now: dt.datetime | None = None) -> int:
    """The beat's sweep: hand on the flags that entered the horizon since the last sweep
    (a move hands on its own flag when it falls within the horizon already), and, at most
    every ``CLOCK_RESEND_SECONDS``, again every flag overdue by more than
    ``CLOCK_OVERDUE_SECONDS`` (its message was lost: a killed worker, a restarted Redis).
    Without the cache (Redis down) it looks at the whole horizon. Answers how many were
    handed on."""
    now = now or timezone.now()
    horizon = now + dt.timedelta(seconds=settings.CLOCK_HORIZON_SECONDS)
    overdue = now - dt.timedelta(seconds=settings.CLOCK_OVERDUE_SECONDS)
    try:
        since = cache.get(SWEPT_UNTIL)
        resend = cache.add(AGAIN_AFTER, 1, int(settings.CLOCK_RESEND_SECONDS))
        cache.set(SWEPT_UNTIL, horizon, int(settings.CLOCK_HORIZON_SECONDS) * 2)
    except Exception:  # Redis down: look at everything, hand on what can be
        since, resend = None, True
    playing = Hand.objects.filter(status=Hand.Status.PLAYING)
    window = playing.filter(flag_at__lte=horizon)
    if since is not None:  # since the last sweep's horizon, a second's overlap for clocks
        window = window.filter(flag_at__gt=since - dt.timedelta(seconds=1))
    handed: set[int] = set()
    for hand_id, version, at in window.values_list("pk", "version", "flag_at").iterator():
        assert at is not None  # the filter's
        if hand_on_flag(hand_id, version, at, now):
            handed.add(hand_id)
    if resend:
        late = playing.filter(flag_at__lt=overdue).values_list("pk", "version", "flag_at")
        for hand_id, version, at in late.iterator():
            assert at is not None
            if hand_id not in handed and hand_on_flag(hand_id, version, at, now, again=True):
                handed.add(hand_id)
    return len(handed)
