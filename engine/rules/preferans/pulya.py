"""A whole game (пулька, *pulya*) of ``preferans`` deals scored one after another, and the bare
settlement of a sheet (``spec/next/preferans.md`` §13, "Pulya" and "Settlement").

Each deal is scored with the sheet and streak the previous one left; the next seat deals after
every deal (§1); a deal after the game ended is an error. Errors name the deal
(``deals[3].actions[12]``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine.errors import EngineError, Message
from engine.messages import relocated
from engine.rules.preferans import messages as m
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


def _check_keys(record: Mapping[str, Any], allowed: tuple[str, ...], unknown: Message) -> None:
    """No ``pot`` and no key but ``allowed`` (``unknown``: the refusal of another, its one
    field ``key``)."""
    for key in record:
        if key == "pot":
            raise m.NO_POT.error("pot")
        if key not in allowed:
            raise unknown.error(key, key=repr(key))


def _read_streak(record: Mapping[str, Any]) -> int:
    streak = record.get("streak", 0)
    if type(streak) is not int or streak < 0:
        raise m.STREAK.error("streak", streak=repr(streak))
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
        raise m.DEAL_NOT_OBJECT.error("")
    for key in NOT_IN_A_DEAL:
        if key in deal:
            raise m.DEAL_ENVELOPE_KEY.error(key, key=repr(key))
    if "dealer" in deal and deal["dealer"] != dealer:
        raise m.DEAL_DEALER.error("dealer", dealer=dealer, given=repr(deal["dealer"]))
    if "game" in deal:
        outcome = parse_entry(deal, rules, seats, dealer, streak, sheet)
    elif "deal" in deal or "actions" in deal:
        outcome = full_deal(deal, rules, seats, dealer, streak, sheet)
    else:
        raise m.DEAL_FORM.error("")
    # The pulya owns the envelope: the deal is scored with the sheet and streak it carries.
    return replace(outcome, rules=rules, seats=seats, dealer=dealer, streak=streak, sheet=sheet)


def settle_pulya(record: Mapping[str, Any], full_deal: FullDeal) -> dict[str, Any]:
    """§13 Pulya: ``rules``, ``seats``, ``dealer`` (the first deal's), optional ``streak`` and
    ``sheet`` (default 0 and an empty sheet) and ``deals`` (score-sheet entries and full
    records, mixed). Output ``{"deals": [result + "dealer", …], "sheet", "streak",
    "game_over", "dealer" (the next dealer), "settlement"}``, the settlement on the last sheet
    whether the game is over or not."""
    if not isinstance(record, Mapping):
        raise m.PULYA_NOT_OBJECT.error("")
    _check_keys(record, PULYA_KEYS, m.PULYA_UNKNOWN_KEY)
    rules = parse_rules(record.get("rules"))
    seats = TABLE.check(record.get("seats"), record.get("dealer"))
    dealer: str = record["dealer"]
    streak = _read_streak(record)
    sheet = parse_sheet(record["sheet"], rules, seats) if "sheet" in record else Sheet.empty(seats)
    check_open(rules, sheet)
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise m.DEALS_NOT_LIST.error("deals")
    out: list[dict[str, Any]] = []
    over = False
    for i, deal in enumerate(deals):
        at = f"deals[{i}]"
        if over:
            raise m.DEAL_AFTER_END.error(at, last=i - 1)
        try:
            outcome = _deal_outcome(deal, full_deal, rules, seats, dealer, streak, sheet)
        except EngineError as e:
            raise relocated(e, f"{at}.{e.at}" if e.at else at) from None
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
        raise m.SETTLEMENT_NOT_OBJECT.error("")
    _check_keys(record, BARE_KEYS, m.SETTLEMENT_UNKNOWN_KEY)
    rules = parse_rules(record.get("rules"))
    raw_seats = record.get("seats")
    if "dealer" in record:
        dealer = record["dealer"]
    else:
        dealer = raw_seats[0] if isinstance(raw_seats, list) and raw_seats else None
    seats = TABLE.check(raw_seats, dealer)
    _read_streak(record)
    if "sheet" not in record:
        raise m.SETTLEMENT_NEEDS_SHEET.error("sheet")
    sheet = parse_sheet(record["sheet"], rules, seats)
    return settle_sheet(rules, seats, sheet)
