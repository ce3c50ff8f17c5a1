"""Properties of the clocks' pure core (:mod:`games.clock`, issue 41), with no database: time
left never negative and never growing while a clock runs, a person charged exactly what the
time control says, a flag that falls exactly when its deadline and the lag allowance have
passed and only once, a late move judged as the flag is, and a seat away after its timeouts
in a row.

Every moment is drawn as a whole number of microseconds after a fixed instant and every
expected value is computed here in integers (milliseconds and microseconds), not with the
functions under test, so a rounding or an off-by-one in the core shows."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from games import clock
from tests.draws import draws

T0 = dt.datetime(2025, 3, 1, 18, 0, tzinfo=dt.UTC)
SEATS = ("anna", "bert", "carl", "dave")
MS = dt.timedelta(milliseconds=1)
US = dt.timedelta(microseconds=1)

#: Moments up to two hours after ``T0``, to the microsecond (a clock stores ISO 8601 text).
offsets_us = st.integers(0, 2 * 3600 * 1_000_000)
lag_caps = st.integers(0, 5_000)
claimed_lags = st.integers(-2_000, 10_000)


#: A live clock of one second an action and a 10 s reserve, and a hand where anna's runs.
ONE_SECOND = clock.TimeControl(kind=clock.LIVE, action_seconds=1, reserve_seconds=10)
RUNNING: dict[str, Any] = {
    "reserve_ms": {"anna": 10_000, "bert": 10_000},
    "running": {"anna": "2025-03-01T18:00:00Z"},
    "auto": [],
    "timeouts": [],
    "in_row": {},
}


def at(us: int) -> dt.datetime:
    return T0 + dt.timedelta(microseconds=us)


def floor_ms(delta: dt.timedelta) -> int:
    """Whole milliseconds in ``delta``, in integers."""
    return delta // MS


@st.composite
def time_controls(draw: st.DrawFn, kind: str | None = None) -> clock.TimeControl:
    """A time control the API accepts (``TimeControlSerializer``)."""
    kind = kind or draw(st.sampled_from(clock.KINDS))
    if kind == clock.LIVE:
        return clock.TimeControl(
            kind=kind,
            action_seconds=draw(st.integers(1, 600)),
            reserve_seconds=draw(st.integers(0, 7200)),
            increment_seconds=draw(st.integers(0, 600)),
            timeouts_before_away=draw(st.integers(1, 10)),
            bot_level=draw(st.sampled_from([None, "random", "heuristic", "pimc"])),
        )
    action = draw(st.integers(600, 30 * 86400))
    below = st.none() | st.integers(60, action - 1)
    return clock.TimeControl(
        kind=kind,
        action_seconds=action,
        reminder_seconds=draw(below),
        warning_seconds=draw(below),
        timeouts_before_away=draw(st.integers(1, 10)),
        bot_level=draw(st.sampled_from([None, "random"])),
    )


@st.composite
def clocks(draw: st.DrawFn, tc: clock.TimeControl, least_running: int = 0) -> dict[str, Any]:
    """A hand's clock as the core leaves it between two events: any reserve left (to the
    millisecond, as charging leaves it), some seats running since some moment, some whose
    flag fell (``auto``: never running), timeouts in a row."""
    seats = draw(st.lists(st.sampled_from(SEATS), min_size=1, max_size=4, unique=True))
    top = tc.reserve_seconds * 1000 + 600_000 if tc.kind == clock.LIVE else 0
    reserve = {s: draw(st.integers(0, top)) for s in seats}
    running = draw(st.lists(st.sampled_from(seats), min_size=least_running, unique=True))
    idle = [s for s in seats if s not in running]
    auto = draw(st.lists(st.sampled_from(idle), unique=True)) if idle else []
    in_row = {s: n for s in seats if (n := draw(st.integers(0, tc.timeouts_before_away + 1)))}
    return {
        "reserve_ms": reserve,
        "running": {s: clock.iso(at(draw(offsets_us))) for s in running},
        "auto": auto,
        "timeouts": [],
        "in_row": in_row,
    }


def deadline_of(tc: clock.TimeControl, state: dict[str, Any], seat: str) -> dt.datetime:
    """When ``seat``'s running clock ends, computed here: its start, the action's seconds and
    its reserve."""
    since = clock.parse(state["running"][seat])
    return since + dt.timedelta(seconds=tc.action_seconds, milliseconds=state["reserve_ms"][seat])


def credit_ms(lag: int, cap: int) -> int:
    return min(max(lag, 0), cap)


@st.composite
def a_clock_and_a_running_seat(
    draw: st.DrawFn, kind: str | None = None
) -> tuple[clock.TimeControl, dict[str, Any], str]:
    tc = draw(time_controls(kind))
    state = draw(clocks(tc, least_running=1))
    return tc, state, draw(st.sampled_from(sorted(state["running"])))


# --- time left ------------------------------------------------------------------------------


@given(a_clock_and_a_running_seat(), st.lists(offsets_us, min_size=2, max_size=6))
def test_time_left_is_never_negative_and_never_grows_while_the_clock_runs(
    drawn: tuple[clock.TimeControl, dict[str, Any], str], moments: list[int]
) -> None:
    """Catches a countdown that goes up or below zero (a sign or a clamp wrong)."""
    tc, state, seat = drawn
    left = [clock.remaining_ms(tc, state, seat, at(us)) for us in sorted(moments)]
    assert all(x >= 0 for x in left)
    assert left == sorted(left, reverse=True)


@given(a_clock_and_a_running_seat(), st.integers(0, 10 * 3600 * 1_000_000))
@example((ONE_SECOND, RUNNING, "anna"), 1_001_000)  # 1,001 ms, which floats made 1,000
def test_time_left_is_the_whole_milliseconds_to_the_deadline(
    drawn: tuple[clock.TimeControl, dict[str, Any], str], before_us: int
) -> None:
    """What a client counts down from: exactly the whole milliseconds between now and the
    deadline (action's seconds and reserve after the start), 0 from the deadline on. Catches
    a millisecond lost in rounding, and a deadline without the reserve."""
    tc, state, seat = drawn
    deadline = deadline_of(tc, state, seat)
    now = deadline - dt.timedelta(microseconds=before_us)
    assert clock.remaining_ms(tc, state, seat, now) == floor_ms(deadline - now)
    assert clock.remaining_ms(tc, state, seat, deadline) == 0
    assert clock.remaining_ms(tc, state, seat, deadline + dt.timedelta(seconds=1)) == 0


@given(time_controls(), st.data())
def test_a_seat_whose_clock_does_not_run_shows_its_reserve_and_a_fallen_one_nothing(
    tc: clock.TimeControl, data: st.DataObject
) -> None:
    """Catches a stopped clock that still counts down, and a fallen flag that shows time."""
    state = data.draw(clocks(tc))
    now = at(data.draw(offsets_us))
    for seat in state["reserve_ms"]:
        if seat in state["running"]:
            continue
        expected = 0 if seat in state["auto"] else state["reserve_ms"][seat]
        assert clock.remaining_ms(tc, state, seat, now) == expected


@given(time_controls(), st.lists(st.sampled_from(SEATS), unique=True), st.data())
def test_a_new_hand_gives_every_person_the_full_reserve_and_runs_nothing(
    tc: clock.TimeControl, seats: list[str], data: st.DataObject
) -> None:
    in_row = data.draw(st.dictionaries(st.sampled_from(SEATS), st.integers(0, 5)))
    state = clock.start(tc, seats, in_row)
    full = tc.reserve_seconds * 1000 if tc.kind == clock.LIVE else 0
    assert state["reserve_ms"] == dict.fromkeys(seats, full)
    assert state["running"] == {} and state["auto"] == [] and state["timeouts"] == []
    assert state["in_row"] == {s: n for s, n in in_row.items() if n}
    assert clock.flag_at(tc, state, 1000) is None


# --- charging a person's time ---------------------------------------------------------------


@settings(max_examples=draws(400))
@given(
    a_clock_and_a_running_seat(clock.LIVE),
    st.integers(0, 3 * 3600 * 1_000_000),
    claimed_lags,
    lag_caps,
)
def test_a_live_action_costs_the_time_beyond_its_seconds_less_the_credited_lag(
    drawn: tuple[clock.TimeControl, dict[str, Any], str], took_us: int, lag: int, cap: int
) -> None:
    """reserve' = max(0, reserve - max(0, used - credited lag - action)) + increment, in whole
    milliseconds. Catches a charge of the action's own seconds, uncapped or negative lag
    credit, a reserve below zero, a forgotten increment, and milliseconds lost in rounding."""
    tc, state, seat = drawn
    since = clock.parse(state["running"][seat])
    now = since + dt.timedelta(microseconds=took_us)
    used = floor_ms(now - since) - credit_ms(lag, cap)
    expected = (
        max(0, state["reserve_ms"][seat] - max(0, used - tc.action_ms))
        + tc.increment_seconds * 1000
    )
    after = clock.charge(tc, state, seat, now, lag_ms=lag, lag_cap_ms=cap)
    assert after["reserve_ms"][seat] == expected
    assert seat not in after["running"] and seat not in after["in_row"]
    others = {s: r for s, r in state["reserve_ms"].items() if s != seat}
    assert {s: r for s, r in after["reserve_ms"].items() if s != seat} == others
    assert {s: v for s, v in state["running"].items() if s != seat} == after["running"]


@given(
    a_clock_and_a_running_seat(clock.LIVE), st.integers(0, 3 * 3600 * 1000), claimed_lags, lag_caps
)
@example((ONE_SECOND, RUNNING, "anna"), 1_003, 0, 0)  # 1,003 ms, which floats made 1,002
def test_whole_milliseconds_are_charged_exactly(
    drawn: tuple[clock.TimeControl, dict[str, Any], str], took_ms: int, lag: int, cap: int
) -> None:
    """A move a whole number of milliseconds after the turn began (the common case: servers
    keep milliseconds) is charged exactly those milliseconds."""
    tc, state, seat = drawn
    now = clock.parse(state["running"][seat]) + dt.timedelta(milliseconds=took_ms)
    used = took_ms - credit_ms(lag, cap)
    expected = (
        max(0, state["reserve_ms"][seat] - max(0, used - tc.action_ms))
        + tc.increment_seconds * 1000
    )
    after = clock.charge(tc, state, seat, now, lag_ms=lag, lag_cap_ms=cap)
    assert after["reserve_ms"][seat] == expected


def test_a_whole_number_of_milliseconds_is_counted_exactly() -> None:
    """``clock.ms`` counts 1,001 ms as 1,001 (float arithmetic gave 1,000: a person's time
    left and their charge were a millisecond off for about one duration in a hundred)."""
    wrong = [n for n in range(0, 100_000) if clock.ms(dt.timedelta(milliseconds=n)) != n]
    assert wrong == []


@given(a_clock_and_a_running_seat(clock.TURN_BASED), offsets_us, claimed_lags, lag_caps)
def test_a_turn_based_action_leaves_the_reserve_alone(
    drawn: tuple[clock.TimeControl, dict[str, Any], str], took_us: int, lag: int, cap: int
) -> None:
    tc, state, seat = drawn
    now = clock.parse(state["running"][seat]) + dt.timedelta(microseconds=took_us)
    after = clock.charge(tc, state, seat, now, lag_ms=lag, lag_cap_ms=cap)
    assert after["reserve_ms"] == state["reserve_ms"]
    assert seat not in after["running"]


@given(time_controls(), st.data())
def test_acting_while_ones_clock_does_not_run_costs_nothing_and_ends_the_timeouts_in_a_row(
    tc: clock.TimeControl, data: st.DataObject
) -> None:
    """An away person (no clock) who acts: no charge and no increment, and back."""
    state = data.draw(clocks(tc))
    idle = [s for s in state["reserve_ms"] if s not in state["running"]]
    assume(idle)
    seat = data.draw(st.sampled_from(idle))
    after = clock.charge(tc, state, seat, at(data.draw(offsets_us)), lag_ms=0, lag_cap_ms=0)
    assert after["reserve_ms"] == state["reserve_ms"]
    assert seat not in after["in_row"]
    assert not clock.is_away(tc, after, seat)


@given(a_clock_and_a_running_seat(), offsets_us, claimed_lags, lag_caps)
def test_charging_leaves_the_clock_it_was_given_unchanged(
    drawn: tuple[clock.TimeControl, dict[str, Any], str], us: int, lag: int, cap: int
) -> None:
    """The core answers new clocks; the hand's stored one is untouched (a refused move or a
    rolled-back transaction must not have changed it)."""
    tc, state, seat = drawn
    before = json.loads(json.dumps(state))
    clock.charge(tc, state, seat, at(us), lag_ms=lag, lag_cap_ms=cap)
    clock.fall(state, [seat], at(us))
    clock.played_for(state, seat, 3, at(us))
    clock.run(state, [seat], at(us))
    assert state == before


# --- flags ----------------------------------------------------------------------------------


@settings(max_examples=draws(400))
@given(time_controls(), st.data(), lag_caps)
def test_the_flags_fallen_are_exactly_the_running_seats_past_deadline_and_lag_allowance(
    tc: clock.TimeControl, data: st.DataObject, cap: int
) -> None:
    """Catches a flag that falls before the lag a client may claim has passed (a move sent in
    time over a slow network would be lost), one that falls a moment late, and a stopped or
    fallen seat's flag falling."""
    state = data.draw(clocks(tc))
    grace = dt.timedelta(milliseconds=cap)
    ends = {s: deadline_of(tc, state, s) + grace for s in state["running"]}
    pick = data.draw(st.sampled_from(sorted(ends.values()))) if ends else T0
    now = pick + data.draw(st.sampled_from([-US, dt.timedelta(0), US]))
    expected = [s for s in state["running"] if ends[s] <= now]
    assert clock.fallen(tc, state, now, cap) == expected


@given(time_controls(), st.data(), lag_caps)
def test_the_hands_flag_moment_is_the_first_moment_a_flag_has_fallen(
    tc: clock.TimeControl, data: st.DataObject, cap: int
) -> None:
    """``Hand.flag_at`` (what the sweep and the worker wait for): nothing has fallen a
    microsecond before it, something has at it; none while no clock runs."""
    state = data.draw(clocks(tc))
    first = clock.flag_at(tc, state, cap)
    if not state["running"]:
        assert first is None
        return
    assert first is not None
    assert clock.fallen(tc, state, first - US, cap) == []
    assert clock.fallen(tc, state, first, cap) != []
    assert first == min(deadline_of(tc, state, s) for s in state["running"]) + cap * MS


@given(time_controls(), st.data(), lag_caps)
def test_a_flag_falls_once(tc: clock.TimeControl, data: st.DataObject, cap: int) -> None:
    """After ``fall`` the fallen seats' clocks stop at zero and their flags never fall again,
    however late it gets; the other seats' flags are as before."""
    state = data.draw(clocks(tc))
    now = at(data.draw(offsets_us)) + dt.timedelta(hours=data.draw(st.integers(0, 800)))
    down = clock.fallen(tc, state, now, cap)
    after = clock.fall(state, down, now)
    for seat in down:
        assert seat in after["auto"] and after["reserve_ms"][seat] == 0
        assert clock.remaining_ms(tc, after, seat, now) == 0
    for later in (now, now + dt.timedelta(days=400)):
        assert not set(clock.fallen(tc, after, later, cap)) & set(down)
    assert clock.fall(after, down, now) == after  # falling twice changes nothing
    assert {s: v for s, v in state["running"].items() if s not in down} == after["running"]


@settings(max_examples=draws(200))
@given(time_controls(), st.data(), lag_caps)
def test_a_fallen_seat_stays_stopped_until_the_policy_plays_for_it(
    tc: clock.TimeControl, data: st.DataObject, cap: int
) -> None:
    """Between a flag's fall and the bot's action for the seat, the hand may move on without
    it (another seat's action in a window where several may act; the person's request to be
    back): its clock must not start again, or its flag falls a second time for the same
    action (a second timeout in the table's log, a second bot task). Catches :func:`run`
    restarting the clock of a seat in ``auto``."""
    state = data.draw(clocks(tc, least_running=1))
    now = max(deadline_of(tc, state, s) for s in state["running"]) + cap * MS
    down = clock.fallen(tc, state, now, cap)
    after = clock.fall(state, down, now)
    later = now + dt.timedelta(seconds=data.draw(st.integers(1, 60)))
    again = clock.run(after, sorted(state["reserve_ms"]), later)  # everyone waited for
    for seat in down:
        assert seat in again["auto"]
        assert seat not in again["running"]
    assert not set(clock.fallen(tc, again, later + dt.timedelta(days=400), cap)) & set(down)


# --- late moves -----------------------------------------------------------------------------


@settings(max_examples=draws(400))
@given(a_clock_and_a_running_seat(), st.data(), claimed_lags, lag_caps)
def test_a_move_is_late_exactly_when_it_arrives_after_the_deadline_plus_the_credited_lag(
    drawn: tuple[clock.TimeControl, dict[str, Any], str],
    data: st.DataObject,
    lag: int,
    cap: int,
) -> None:
    """Catches an uncapped lag claim (a client buying itself time), a negative claim taken as
    a penalty, and a move refused at its deadline."""
    tc, state, seat = drawn
    limit = deadline_of(tc, state, seat) + credit_ms(lag, cap) * MS
    now = limit + data.draw(st.sampled_from([-US, dt.timedelta(0), US])) * data.draw(
        st.integers(1, 10**6)
    )
    assert clock.late(tc, state, seat, now, lag_ms=lag, lag_cap_ms=cap) == (now > limit)


@given(a_clock_and_a_running_seat(), st.data(), claimed_lags, lag_caps)
def test_no_move_is_in_time_once_the_flag_could_have_fallen(
    drawn: tuple[clock.TimeControl, dict[str, Any], str],
    data: st.DataObject,
    lag: int,
    cap: int,
) -> None:
    """The lag credit and the flag's allowance agree: a move in time (whatever lag it claims)
    arrives no later than the moment the flag falls, and once the flag fell every move of the
    seat is late. Catches an allowance smaller than the credit (a move in time refused after
    the flag fell) or larger."""
    tc, state, seat = drawn
    now = at(data.draw(offsets_us)) + dt.timedelta(hours=data.draw(st.integers(0, 800)))
    if not clock.late(tc, state, seat, now, lag_ms=lag, lag_cap_ms=cap):
        assert now <= deadline_of(tc, state, seat) + cap * MS
    fell = clock.fall(state, clock.fallen(tc, state, now, cap), now)
    if seat in fell["auto"]:
        assert clock.late(tc, fell, seat, now, lag_ms=lag, lag_cap_ms=cap)


@given(a_clock_and_a_running_seat(clock.LIVE), st.data(), claimed_lags, lag_caps)
def test_a_move_in_time_never_needs_its_reserve_clamped_at_zero(
    drawn: tuple[clock.TimeControl, dict[str, Any], str],
    data: st.DataObject,
    lag: int,
    cap: int,
) -> None:
    """What ``late`` lets through, ``charge`` can pay from the reserve: reserve - (used -
    credit - action) >= 0 for every move in time."""
    tc, state, seat = drawn
    since = clock.parse(state["running"][seat])
    now = since + dt.timedelta(microseconds=data.draw(st.integers(0, 3 * 3600 * 1_000_000)))
    if clock.late(tc, state, seat, now, lag_ms=lag, lag_cap_ms=cap):
        return
    used = floor_ms(now - since) - credit_ms(lag, cap)
    assert state["reserve_ms"][seat] - max(0, used - tc.action_ms) >= 0


@given(time_controls(), st.data(), claimed_lags, lag_caps)
def test_a_seat_whose_clock_does_not_run_is_never_late_unless_its_flag_fell(
    tc: clock.TimeControl, data: st.DataObject, lag: int, cap: int
) -> None:
    state = data.draw(clocks(tc))
    now = at(data.draw(offsets_us))
    for seat in state["reserve_ms"]:
        if seat not in state["running"]:
            late = clock.late(tc, state, seat, now, lag_ms=lag, lag_cap_ms=cap)
            assert late == (seat in state["auto"])


# --- running the clocks of the seats waited for ---------------------------------------------


@given(time_controls(), st.data())
def test_running_keeps_the_start_of_a_seat_still_waited_for_and_stops_the_others(
    tc: clock.TimeControl, data: st.DataObject
) -> None:
    """Catches a seat's turn restarting when someone else acts (a person waiting in a window
    where several act would gain time with each other action)."""
    state = data.draw(clocks(tc))
    persons = sorted(state["reserve_ms"])
    waiting = data.draw(st.lists(st.sampled_from(persons), unique=True))
    waiting = [s for s in waiting if s not in state["auto"]]
    now = at(data.draw(offsets_us))
    after = clock.run(state, waiting, now)
    assert set(after["running"]) == set(waiting)
    for seat in waiting:
        expected = state["running"].get(seat, clock.iso(now))
        assert after["running"][seat] == expected
    assert after["reserve_ms"] == state["reserve_ms"]  # stopping charges nothing
    assert after["auto"] == []  # nobody waited for is still to be played for
    assert after["in_row"] == state["in_row"]


# --- timeouts in a row, away ----------------------------------------------------------------


@given(time_controls(), st.data())
def test_the_policys_action_counts_a_timeout_in_a_row_only_after_a_flag(
    tc: clock.TimeControl, data: st.DataObject
) -> None:
    """Once per flag: an away seat the bot plays for at once (no flag) is listed but its
    count stays. Catches counting every action of an away seat, or none."""
    state = data.draw(clocks(tc))
    seat = data.draw(st.sampled_from(sorted(state["reserve_ms"])))
    index = data.draw(st.integers(0, 60))
    now = at(data.draw(offsets_us))
    after = clock.played_for(state, seat, index, now)
    before = int(state["in_row"].get(seat, 0))
    assert after["in_row"].get(seat, 0) == before + (seat in state["auto"])
    assert after["timeouts"] == [{"action": index, "seat": seat, "at": clock.iso(now)}]
    assert seat not in after["auto"] and seat not in after["running"]
    assert {s: n for s, n in after["in_row"].items() if s != seat} == {
        s: n for s, n in state["in_row"].items() if s != seat
    }


@given(time_controls(), st.lists(st.booleans(), max_size=14), st.data())
def test_a_seat_is_away_after_its_timeouts_in_a_row_until_its_person_acts(
    tc: clock.TimeControl, steps: list[bool], data: st.DataObject
) -> None:
    """A person's turns, one after another: True, they let the flag fall (the bot plays once
    the flag fell, or at once while they are away); False, they act in time. They are away
    exactly when their last ``timeouts_before_away`` turns or more ended by flags in a row;
    acting ends it. Catches an off-by-one in the threshold, and a count that acting does not
    reset."""
    cap = data.draw(lag_caps)
    seat = "anna"
    state = clock.start(tc, [seat, "bert"], {})
    now = T0
    flags = 0
    for index, absent in enumerate(steps):
        away = clock.is_away(tc, state, seat)
        state = clock.run(state, [] if away else [seat], now)
        if not absent:
            now += dt.timedelta(milliseconds=100)
            assert not clock.late(tc, state, seat, now, lag_ms=0, lag_cap_ms=cap)
            state = clock.charge(tc, state, seat, now, lag_ms=0, lag_cap_ms=cap)
            flags = 0
        else:
            if not away:
                due = clock.flag_at(tc, state, cap)
                assert due is not None
                now = due
                state = clock.fall(state, clock.fallen(tc, state, now, cap), now)
                assert state["auto"] == [seat]
                flags += 1
            state = clock.played_for(state, seat, index, now)
        assert clock.is_away(tc, state, seat) == (flags >= tc.timeouts_before_away)
        assert state["in_row"].get(seat, 0) == min(flags, tc.timeouts_before_away)
    assert [t["action"] for t in state["timeouts"]] == [i for i, a in enumerate(steps) if a]


# --- stored forms ---------------------------------------------------------------------------


@given(time_controls())
def test_a_time_control_reads_back_as_it_was_stored(tc: clock.TimeControl) -> None:
    stored = json.loads(json.dumps(tc.to_json()))
    assert clock.TimeControl.from_json(stored) == tc


@given(st.sampled_from([None, {}]))
def test_no_time_control_is_none(stored: dict[str, Any] | None) -> None:
    assert clock.TimeControl.from_json(stored) is None


@given(offsets_us, st.integers(-14 * 60, 14 * 60))
def test_a_moment_reads_back_as_it_was_written(us: int, offset_minutes: int) -> None:
    """The clock keeps moments as text: the same instant comes back, to the microsecond, in
    whatever zone it was written."""
    moment = at(us).astimezone(dt.timezone(dt.timedelta(minutes=offset_minutes)))
    assert clock.parse(clock.iso(moment)) == moment
    assert clock.iso(at(us)).endswith("Z")


@given(a_clock_and_a_running_seat(), offsets_us, lag_caps)
def test_a_clock_stored_as_json_answers_as_before(
    drawn: tuple[clock.TimeControl, dict[str, Any], str], us: int, cap: int
) -> None:
    """``Hand.clock`` is a JSON field: what the core answers does not depend on the trip."""
    tc, state, seat = drawn
    stored = json.loads(json.dumps(state))
    now = at(us)
    assert clock.flag_at(tc, stored, cap) == clock.flag_at(tc, state, cap)
    assert clock.fallen(tc, stored, now, cap) == clock.fallen(tc, state, now, cap)
    assert clock.remaining_ms(tc, stored, seat, now) == clock.remaining_ms(tc, state, seat, now)
