"""A finished ``preferans`` deal as the score sheet records it (``spec/next/preferans.md`` §13,
score-sheet entry), with its envelope: rules, seats, dealer, streak and the sheet before it.

Both a score-sheet entry and a replayed full record end here; :mod:`scoring` scores it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from engine.rules.preferans.rules import PreferansRules
from engine.rules.preferans.sheet import Sheet


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """A finished deal as the score sheet records it (§13 score-sheet entry), with its envelope."""

    rules: PreferansRules
    seats: tuple[str, ...]
    dealer: str
    streak: int
    """Raspasy deals in a row before this deal (§8.3)."""
    sheet: Sheet | None
    """The sheet before the deal, when the record gave one."""
    game: str
    """``"contract"``, ``"misere"`` or ``"raspasy"``."""
    level: int | None
    """6..10 for a contract, else None."""
    strain: str | None
    """``"S" "C" "D" "H" "NT"`` for a contract, else None."""
    declarer: str | None
    """None on raspasy."""
    defence: Mapping[str, str] | None
    """The two defenders' final calls ``"whist"``/``"pass"``/``"half"``; None on raspasy,
    misère and a checked ten (``ten_whisted = false``)."""
    mode: str | None
    """``"open"``/``"closed"`` (only with exactly one whister) or None."""
    tricks: Mapping[str, int]
    """Every participant (§8.2) → tricks; ``{}`` when nothing was played."""


def active_seats(seats: Sequence[str], dealer: str) -> tuple[str, ...]:
    """§1: the three seats after the dealer, first hand first (with 3 seats the dealer is the
    third hand)."""
    return _active_seats(tuple(seats), dealer)


@cache
def _active_seats(seats: tuple[str, ...], dealer: str) -> tuple[str, ...]:
    i = seats.index(dealer)
    n = len(seats)
    return tuple(seats[(i + k) % n] for k in (1, 2, 3))


def participants(outcome: DealOutcome) -> tuple[str, ...]:
    """§8.2 / §13 ``tricks``: the three active players, first hand first; on a talon-led
    raspasy with 4 seats also the dealer, last."""
    active = active_seats(outcome.seats, outcome.dealer)
    if (
        outcome.game == "raspasy"
        and len(outcome.seats) == 4
        and outcome.rules.raspasy_talon == "lead"
    ):
        return (*active, outcome.dealer)
    return active


def defenders(outcome: DealOutcome) -> tuple[str, str]:
    """§5: the first defender (the next active player after the declarer) and the second."""
    assert outcome.declarer is not None
    return _defenders(outcome.seats, outcome.dealer, outcome.declarer)


@cache
def _defenders(seats: tuple[str, ...], dealer: str, declarer: str) -> tuple[str, str]:
    active = _active_seats(seats, dealer)
    i = active.index(declarer)
    return active[(i + 1) % 3], active[(i + 2) % 3]
