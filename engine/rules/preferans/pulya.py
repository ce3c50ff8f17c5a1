"""A whole game (пулька, *pulya*) of ``preferans`` deals scored one after another, and the bare
settlement of a sheet (``spec/next/preferans.md`` §13, "Pulya" and "Settlement").

Each deal is scored with the sheet and streak the previous one left; the next seat deals after
every deal (§1); a deal after the game ended is an error. Errors name the deal
(``deals[3].actions[12]``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine.errors import EngineError
from engine.rules.preferans.outcome import DealOutcome
from engine.rules.preferans.rules import PreferansRules, parse_rules
from engine.rules.preferans.scoring import check_open, parse_entry, score
from engine.rules.preferans.settlement import settle_sheet
from engine.rules.preferans.sheet import Sheet, game_over, parse_sheet
from engine.table import TableShape

TABLE = TableShape(seats=(3, 4), players=3)
"""§1: 3 players, or 4 with the dealer sitting out."""

FullDeal = Callable[
    [Mapping[str, Any], PreferansRules, tuple[str, ...], str, int, Sheet], DealOutcome
]
"""HAND's replay of a full record in a pulya: ``full_deal(deal_record, rules, seats, dealer,
streak, sheet)``, raising :class:`EngineError` with ``at`` relative to the deal record."""

PULYA_KEYS = ("rules", "seats", "dealer", "streak", "sheet", "deals")
BARE_KEYS = ("rules", "seats", "dealer", "streak", "sheet")
NOT_IN_A_DEAL = ("rules", "seats", "streak", "sheet", "pot")


def _check_keys(record: Mapping[str, Any], allowed: tuple[str, ...], what: str) -> None:
    for key in record:
        if key == "pot":
            raise EngineError("pot", "preferans keeps no pot: its records have no 'pot'")
        if key not in allowed:
            raise EngineError(key, f"unknown key {key!r} in a preferans {what}")


def _read_streak(record: Mapping[str, Any]) -> int:
    streak = record.get("streak", 0)
    if type(streak) is not int or streak < 0:
        raise EngineError("streak", f"streak must be a whole number ≥ 0, not {streak!r}")
    return streak


def _next_dealer(seats: tuple[str, ...], dealer: str) -> str:
    """§1: the next seat deals after every deal, raspasy included."""
    return seats[(seats.index(dealer) + 1) % len(seats)]


def _sheet_of(result: Mapping[str, Any]) -> Sheet:
    data = result["sheet"]
    return Sheet(data["pool"], data["mountain"], data["whists"])


def _deal_outcome(
    deal: object,
    full_deal: FullDeal,
    rules: PreferansRules,
    seats: tuple[str, ...],
    dealer: str,
    streak: int,
    sheet: Sheet,
) -> DealOutcome:
    """One deal of a pulya read as its outcome; errors relative to the deal."""
    if not isinstance(deal, Mapping):
        raise EngineError("", "a deal must be an object: a score-sheet entry or a full record")
    for key in NOT_IN_A_DEAL:
        if key in deal:
            raise EngineError(key, f"a deal of a pulya takes no {key!r}: the pulya gives it")
    if "dealer" in deal and deal["dealer"] != dealer:
        raise EngineError(
            "dealer", f"{dealer} deals this deal by the rotation, not {deal['dealer']!r}"
        )
    if "game" in deal:
        outcome = parse_entry(deal, rules, seats, dealer, streak, sheet)
    elif "deal" in deal or "actions" in deal:
        outcome = full_deal(deal, rules, seats, dealer, streak, sheet)
    else:
        raise EngineError(
            "", "a deal is a score-sheet entry (with game) or a full record (deal and actions)"
        )
    # The pulya owns the envelope: the deal is scored with the sheet and streak it carries.
    return replace(outcome, rules=rules, seats=seats, dealer=dealer, streak=streak, sheet=sheet)


def settle_pulya(record: Mapping[str, Any], full_deal: FullDeal) -> dict[str, Any]:
    """§13 Pulya: ``rules``, ``seats``, ``dealer`` (the first deal's), optional ``streak`` and
    ``sheet`` (default 0 and an empty sheet) and ``deals`` (score-sheet entries and full
    records, mixed). Output ``{"deals": [result + "dealer", …], "sheet", "streak",
    "game_over", "dealer" (the next dealer), "settlement"}``, the settlement on the last sheet
    whether the game is over or not."""
    if not isinstance(record, Mapping):
        raise EngineError("", "a pulya must be an object")
    _check_keys(record, PULYA_KEYS, "pulya")
    rules = parse_rules(record.get("rules"))
    seats = TABLE.check(record.get("seats"), record.get("dealer"))
    dealer: str = record["dealer"]
    streak = _read_streak(record)
    sheet = parse_sheet(record["sheet"], rules, seats) if "sheet" in record else Sheet.empty(seats)
    check_open(rules, sheet)
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise EngineError("deals", "deals must be a list of score-sheet entries and full records")
    out: list[dict[str, Any]] = []
    over = False
    for i, deal in enumerate(deals):
        at = f"deals[{i}]"
        if over:
            raise EngineError(at, f"the game ended with deals[{i - 1}]: no deal can follow")
        try:
            outcome = _deal_outcome(deal, full_deal, rules, seats, dealer, streak, sheet)
        except EngineError as e:
            raise type(e)(f"{at}.{e.at}" if e.at else at, e.message) from None
        result = score(outcome)
        out.append({**result, "dealer": dealer})
        sheet = _sheet_of(result)
        streak = result["streak"]
        over = result["game_over"]
        dealer = _next_dealer(seats, dealer)
    return {
        "deals": out,
        "sheet": sheet.to_json(),
        "streak": streak,
        "game_over": game_over(rules, sheet),
        "dealer": dealer,
        "settlement": settle_sheet(rules, seats, sheet),
    }


def settle_bare(record: Mapping[str, Any]) -> dict[str, Any]:
    """§13 Settlement: ``rules``, ``seats``, ``sheet`` (required) and an optional ``dealer`` (a
    seat, unused) give the §11 settlement of the sheet."""
    if not isinstance(record, Mapping):
        raise EngineError("", "a settlement record must be an object")
    _check_keys(record, BARE_KEYS, "settlement")
    rules = parse_rules(record.get("rules"))
    raw_seats = record.get("seats")
    if "dealer" in record:
        dealer = record["dealer"]
    else:
        dealer = raw_seats[0] if isinstance(raw_seats, list) and raw_seats else None
    seats = TABLE.check(raw_seats, dealer)
    _read_streak(record)
    if "sheet" not in record:
        raise EngineError("sheet", "a settlement needs the sheet to settle")
    sheet = parse_sheet(record["sheet"], rules, seats)
    return settle_sheet(rules, seats, sheet)
