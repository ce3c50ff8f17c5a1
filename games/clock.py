"""Clocks of hosted hands (issue 41, ``docs/clocks.md``): plain Python, no database.

A table's *time control* (:class:`TimeControl`) is live (seconds for each action, then a
reserve that an increment tops up after each action, as a chess clock with a delay) or
turn-based (hours or days for each action, with a reminder and a warning before it runs out).
A hand's *clock* is a JSON object kept on the hand (:func:`start`):

- ``reserve_ms``: each person's reserve left (live; 0 for turn-based);
- ``running``: the seats whose clock runs, each with the moment (ISO 8601) it started;
- ``auto``: the seats whose time ran out and whose action the timeout policy plays now;
- ``timeouts``: every action the timeout policy played (``action``: its index in the
  hand's actions, ``seat``, ``at``);
- ``in_row``: each seat's timeouts in a row, carried from hand to hand; a seat with
  ``timeouts_before_away`` of them is *away* and the policy plays for it at once until its
  person acts or comes back.

Only seats the hand waits for (``engine.waiting_for``) and a person holds run a clock; a
seat that merely may act (an announcement window) does not. The moment a seat's flag falls
is its deadline plus the lag a client may claim (:func:`flag_at`), so that a move sent in
time over a slow network is still taken (:func:`late` credits the claimed lag up to that
cap)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

LIVE = "live"
TURN_BASED = "turn_based"
KINDS = (LIVE, TURN_BASED)


@dataclass(frozen=True)
class TimeControl:
    """A table's time control (``Table.time_control``; :meth:`to_json` is its API form)."""

    kind: str
    action_seconds: int
    reserve_seconds: int = 0
    increment_seconds: int = 0
    reminder_seconds: int | None = None
    warning_seconds: int | None = None
    timeouts_before_away: int = 2
    bot_level: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TimeControl | None:
        """The time control a stored object describes (``None``: the table has none)."""
        if not data:
            return None
        return cls(
            kind=data["kind"],
            action_seconds=int(data["action_seconds"]),
            reserve_seconds=int(data.get("reserve_seconds") or 0),
            increment_seconds=int(data.get("increment_seconds") or 0),
            reminder_seconds=data.get("reminder_seconds"),
            warning_seconds=data.get("warning_seconds"),
            timeouts_before_away=int(data.get("timeouts_before_away", 2)),
            bot_level=data.get("bot_level") or None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "action_seconds": self.action_seconds,
            "reserve_seconds": self.reserve_seconds,
            "increment_seconds": self.increment_seconds,
            "reminder_seconds": self.reminder_seconds,
            "warning_seconds": self.warning_seconds,
            "timeouts_before_away": self.timeouts_before_away,
            "bot_level": self.bot_level,
        }

    @property
    def action_ms(self) -> int:
        return self.action_seconds * 1000


def iso(moment: dt.datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def parse(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def ms(delta: dt.timedelta) -> int:
    """Whole milliseconds of ``delta``, exactly (no floating point), rounded down."""
    return delta // dt.timedelta(milliseconds=1)


def start(tc: TimeControl, seats: Iterable[str], in_row: Mapping[str, int]) -> dict[str, Any]:
    """A new hand's clock: every seat's full reserve, nothing running yet, the timeouts in a
    row carried from the hand before (``in_row``)."""
    reserve = tc.reserve_seconds * 1000 if tc.kind == LIVE else 0
    return {
        "reserve_ms": {s: reserve for s in seats},
        "running": {},
        "auto": [],
        "timeouts": [],
        "in_row": {s: n for s, n in in_row.items() if n},
    }


def is_away(tc: TimeControl, clock: Mapping[str, Any], seat: str) -> bool:
    """Whether ``seat`` has timed out ``timeouts_before_away`` times in a row."""
    return int(clock.get("in_row", {}).get(seat, 0)) >= tc.timeouts_before_away


def charge(
    tc: TimeControl,
    clock: Mapping[str, Any],
    seat: str,
    now: dt.datetime,
    *,
    lag_ms: int = 0,
    lag_cap_ms: int = 0,
) -> dict[str, Any]:
    """``clock`` after ``seat``'s person acted at ``now``: the time it took beyond the action's
    own seconds comes off the reserve (less the lag the client claims, up to ``lag_cap_ms``),
    then the increment is added; the seat's clock stops and its timeouts in a row are
    forgotten (the person is back)."""
    out = copy(clock)
    since = out["running"].pop(seat, None)
    if since is not None and tc.kind == LIVE:
        used = ms(now - parse(since)) - min(max(lag_ms, 0), lag_cap_ms)
        left = out["reserve_ms"].get(seat, 0) - max(0, used - tc.action_ms)
        out["reserve_ms"][seat] = max(0, left) + tc.increment_seconds * 1000
    out["in_row"].pop(seat, None)
    return out


def run(clock: Mapping[str, Any], waiting: Iterable[str], now: dt.datetime) -> dict[str, Any]:
    """``clock`` with exactly the seats of ``waiting`` running: a seat already running keeps
    its start, a new one starts ``now``; a seat no longer waited for stops uncharged and leaves
    ``auto``; a seat whose flag fell stays stopped until the policy has played for it."""
    out = copy(clock)
    waiting = list(waiting)
    out["auto"] = [s for s in out["auto"] if s in waiting]
    out["running"] = {s: out["running"].get(s) or iso(now) for s in waiting if s not in out["auto"]}
    return out


def seat_deadline(tc: TimeControl, clock: Mapping[str, Any], seat: str) -> dt.datetime | None:
    """When ``seat``'s time runs out (its action's seconds and its reserve from the start of
    its turn), ``None`` when its clock does not run."""
    since = clock["running"].get(seat)
    if since is None:
        return None
    return parse(since) + dt.timedelta(milliseconds=tc.action_ms + clock["reserve_ms"].get(seat, 0))


def flag_at(tc: TimeControl, clock: Mapping[str, Any], lag_cap_ms: int) -> dt.datetime | None:
    """When the first running seat's flag falls: its deadline plus the lag a client may
    claim; ``None`` when no clock runs."""
    ends = [d for s in clock["running"] if (d := seat_deadline(tc, clock, s)) is not None]
    return min(ends) + dt.timedelta(milliseconds=lag_cap_ms) if ends else None


def fallen(
    tc: TimeControl, clock: Mapping[str, Any], now: dt.datetime, lag_cap_ms: int
) -> list[str]:
    """The running seats whose flag has fallen by ``now``."""
    grace = dt.timedelta(milliseconds=lag_cap_ms)
    return [
        s
        for s in clock["running"]
        if (d := seat_deadline(tc, clock, s)) is not None and d + grace <= now
    ]


def fall(clock: Mapping[str, Any], seats: Iterable[str], now: dt.datetime) -> dict[str, Any]:
    """``clock`` after the flags of ``seats`` fell at ``now``: their clocks stop at zero and
    the timeout policy plays their actions (``auto``)."""
    out = copy(clock)
    for seat in seats:
        out["running"].pop(seat, None)
        out["reserve_ms"][seat] = 0
        if seat not in out["auto"]:
            out["auto"].append(seat)
    return out


def played_for(
    clock: Mapping[str, Any], seat: str, action_index: int, now: dt.datetime
) -> dict[str, Any]:
    """``clock`` after the timeout policy played action ``action_index`` for ``seat``: the
    action is listed, the seat's timeouts in a row grow (once per flag: an away seat's later
    actions in the same hand count too, so the person sees every one) and it leaves
    ``auto``."""
    out = copy(clock)
    out["timeouts"].append({"action": action_index, "seat": seat, "at": iso(now)})
    if seat in out["auto"]:
        out["auto"].remove(seat)
        out["in_row"][seat] = int(out["in_row"].get(seat, 0)) + 1
    out["running"].pop(seat, None)
    return out


def late(
    tc: TimeControl,
    clock: Mapping[str, Any],
    seat: str,
    now: dt.datetime,
    *,
    lag_ms: int,
    lag_cap_ms: int,
) -> bool:
    """Whether ``seat``'s action arriving at ``now`` comes after its time ran out, crediting
    the lag its client claims up to ``lag_cap_ms``."""
    if seat in clock["auto"]:
        return True
    deadline = seat_deadline(tc, clock, seat)
    if deadline is None:
        return False
    credit = dt.timedelta(milliseconds=min(max(lag_ms, 0), lag_cap_ms))
    return now - credit > deadline


def remaining_ms(tc: TimeControl, clock: Mapping[str, Any], seat: str, now: dt.datetime) -> int:
    """What ``seat`` has left at ``now``: while its clock runs, the action's seconds and the
    reserve less the time since its turn began; else its reserve (0 once its flag fell)."""
    if seat in clock["auto"]:
        return 0
    deadline = seat_deadline(tc, clock, seat)
    if deadline is None:
        return int(clock["reserve_ms"].get(seat, 0))
    return max(0, ms(deadline - now))


def copy(clock: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``clock`` whose parts may be changed."""
    return {
        "reserve_ms": dict(clock.get("reserve_ms", {})),
        "running": dict(clock.get("running", {})),
        "auto": list(clock.get("auto", [])),
        "timeouts": [dict(t) for t in clock.get("timeouts", [])],
        "in_row": dict(clock.get("in_row", {})),
    }
