"""The score sheet (пулька, ``spec/next/preferans.md`` §9, §10, §13): per seat a pool P
(пуля), a mountain M (гора), and the whists W[i→j] (висты) seat ``i`` writes on seat ``j``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
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


def _seat_map(data: object, seats: Sequence[str], at: str, what: str) -> dict[str, int]:
    if not isinstance(data, Mapping):
        raise EngineError(at, f"the {what} must be an object naming every seat")
    for key in data:
        if key not in seats:
            raise EngineError(f"{at}.{key}", f"{key!r} is not a seat at this table")
    out: dict[str, int] = {}
    for seat in seats:
        if seat not in data:
            raise EngineError(f"{at}.{seat}", f"the {what} must name every seat, {seat} too")
        value = data[seat]
        if not _is_int(value):
            raise EngineError(
                f"{at}.{seat}", f"a {what} entry must be a whole number, not {value!r}"
            )
        out[seat] = value
    return out


def parse_sheet(
    data: object, rules: PreferansRules, seats: Sequence[str], at: str = "sheet"
) -> Sheet:
    """§10 sheet validity: ``pool`` and ``mountain`` name every seat with whole numbers (pools
    ≥ 0, and ≤ T with ``"all_closed"``); ``whists`` may omit pairs, its values are whole
    numbers ≥ 0, never written on oneself. Unknown keys are errors."""
    if not isinstance(data, Mapping):
        raise EngineError(at, "the sheet must be an object with pool, mountain and whists")
    for key in data:
        if key not in ("pool", "mountain", "whists"):
            raise EngineError(f"{at}.{key}", f"unknown sheet key {key!r}")
    for key in ("pool", "mountain"):
        if key not in data:
            raise EngineError(f"{at}.{key}", f"the sheet needs its {key}")
    pool = _seat_map(data["pool"], seats, f"{at}.pool", "pool")
    mountain = _seat_map(data["mountain"], seats, f"{at}.mountain", "mountain")
    for seat, p in pool.items():
        if p < 0:
            raise EngineError(f"{at}.pool.{seat}", f"a pool is never below 0, not {p}")
        if rules.game_end == "all_closed" and p > rules.pool_target:
            raise EngineError(
                f"{at}.pool.{seat}",
                f"a pool never exceeds the pool target {rules.pool_target} when pools are "
                f"closed, not {p}",
            )
    raw = data.get("whists", {})
    if not isinstance(raw, Mapping):
        raise EngineError(f"{at}.whists", "whists must be an object {writer: {target: whists}}")
    whists: dict[str, dict[str, int]] = {}
    for writer, row in raw.items():
        if writer not in seats:
            raise EngineError(f"{at}.whists.{writer}", f"{writer!r} is not a seat at this table")
        if not isinstance(row, Mapping):
            raise EngineError(f"{at}.whists.{writer}", "a writer's whists must be an object")
        for target, value in row.items():
            where = f"{at}.whists.{writer}.{target}"
            if target not in seats:
                raise EngineError(where, f"{target!r} is not a seat at this table")
            if target == writer:
                raise EngineError(where, "nobody writes whists on himself")
            if not _is_int(value) or value < 0:
                raise EngineError(where, f"whists are a whole number ≥ 0, not {value!r}")
            if value:
                whists.setdefault(writer, {})[target] = value
    ordered = {w: {t: whists[w][t] for t in seats if t in whists[w]} for w in seats if w in whists}
    return Sheet(pool, mountain, ordered)
