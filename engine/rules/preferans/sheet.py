"""The score sheet (пулька, ``spec/next/preferans.md`` §9, §10, §13): per seat a pool P
(пуля), a mountain M (гора), and the whists W[i→j] (висты) seat ``i`` writes on seat ``j``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.rules.preferans import messages as m
from engine.rules.preferans.rules import PreferansRules


@dataclass(frozen=True, slots=True)
class Sheet:
    """A score sheet: ``pool`` and ``mountain`` name every seat; ``whists`` keeps only the
    non-zero pairs (``whists[writer][target]``)."""

    pool: Mapping[str, int]
    mountain: Mapping[str, int]
    whists: Mapping[str, Mapping[str, int]]

    @staticmethod
    def empty(seats: Sequence[str]) -> Sheet:
        """The sheet at the start of a game: all zero."""
        return Sheet({s: 0 for s in seats}, {s: 0 for s in seats}, {})

    def whist(self, writer: str, target: str) -> int:
        """W[writer→target], 0 when not written."""
        return self.whists.get(writer, {}).get(target, 0)

    def to_json(self) -> dict[str, Any]:
        """§13: ``{"pool", "mountain", "whists"}``; a writer without whists is left out."""
        return {
            "pool": dict(self.pool),
            "mountain": dict(self.mountain),
            "whists": whists_json(self.whists),
        }


def whists_json(whists: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """The non-zero pairs of ``whists``, writers and targets in their given order."""
    out: dict[str, dict[str, int]] = {}
    for writer, row in whists.items():
        kept = {target: v for target, v in row.items() if v}
        if kept:
            out[writer] = kept
    return out


def game_over(rules: PreferansRules, sheet: Sheet) -> bool:
    """§10: ``"all_closed"``: every pool equals T; ``"sum"``: ΣP ≥ n·T."""
    target = rules.pool_target
    if rules.game_end == "sum":
        return sum(sheet.pool.values()) >= len(sheet.pool) * target
    return all(p == target for p in sheet.pool.values())


def _is_int(value: object) -> bool:
    return type(value) is int


_REFUSALS = {
    "pool": (m.POOL_NOT_OBJECT, m.POOL_MISSING_SEAT, m.POOL_ENTRY),
    "mountain": (m.MOUNTAIN_NOT_OBJECT, m.MOUNTAIN_MISSING_SEAT, m.MOUNTAIN_ENTRY),
}
"""The refusals of a sheet's ``pool`` and ``mountain``: not an object, a seat missing, an
entry not a whole number."""


def _seat_map(data: object, seats: Sequence[str], at: str, what: str) -> dict[str, int]:
    not_object, missing, entry = _REFUSALS[what]
    if not isinstance(data, Mapping):
        raise not_object.error(at)
    for key in data:
        if key not in seats:
            raise m.NOT_A_SEAT.error(f"{at}.{key}", key=repr(key))
    out: dict[str, int] = {}
    for seat in seats:
        if seat not in data:
            raise missing.error(f"{at}.{seat}", seat=seat)
        value = data[seat]
        if not _is_int(value):
            raise entry.error(f"{at}.{seat}", value=repr(value))
        out[seat] = value
    return out


def parse_sheet(
    data: object, rules: PreferansRules, seats: Sequence[str], at: str = "sheet"
) -> Sheet:
    """§10 sheet validity: ``pool`` and ``mountain`` name every seat with whole numbers (pools
    ≥ 0, and ≤ T with ``"all_closed"``); ``whists`` may omit pairs, its values are whole
    numbers ≥ 0, never written on oneself. Unknown keys are errors."""
    if not isinstance(data, Mapping):
        raise m.SHEET_NOT_OBJECT.error(at)
    for key in data:
        if key not in ("pool", "mountain", "whists"):
            raise m.SHEET_UNKNOWN_KEY.error(f"{at}.{key}", key=repr(key))
    if "pool" not in data:
        raise m.SHEET_NEEDS_POOL.error(f"{at}.pool")
    if "mountain" not in data:
        raise m.SHEET_NEEDS_MOUNTAIN.error(f"{at}.mountain")
    pool = _seat_map(data["pool"], seats, f"{at}.pool", "pool")
    mountain = _seat_map(data["mountain"], seats, f"{at}.mountain", "mountain")
    for seat, p in pool.items():
        if p < 0:
            raise m.POOL_NEGATIVE.error(f"{at}.pool.{seat}", pool=p)
        if rules.game_end == "all_closed" and p > rules.pool_target:
            raise m.POOL_ABOVE_TARGET.error(f"{at}.pool.{seat}", target=rules.pool_target, pool=p)
    raw = data.get("whists", {})
    if not isinstance(raw, Mapping):
        raise m.WHISTS_NOT_OBJECT.error(f"{at}.whists")
    whists: dict[str, dict[str, int]] = {}
    for writer, row in raw.items():
        if writer not in seats:
            raise m.NOT_A_SEAT.error(f"{at}.whists.{writer}", key=repr(writer))
        if not isinstance(row, Mapping):
            raise m.WRITER_WHISTS_NOT_OBJECT.error(f"{at}.whists.{writer}")
        for target, value in row.items():
            where = f"{at}.whists.{writer}.{target}"
            if target not in seats:
                raise m.NOT_A_SEAT.error(where, key=repr(target))
            if target == writer:
                raise m.WHISTS_ON_SELF.error(where)
            if not _is_int(value) or value < 0:
                raise m.WHISTS_VALUE.error(where, value=repr(value))
            if value:
                whists.setdefault(writer, {})[target] = value
    ordered = {w: {t: whists[w][t] for t in seats if t in whists[w]} for w in seats if w in whists}
    return Sheet(pool, mountain, ordered)
