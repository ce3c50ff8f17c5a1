"""Building ``preferans`` deals from card strings for the tests (``spec/next/preferans.md``).

``DEAL`` (carl deals to anna, bert, carl; talon ``CA DA``) is the deal of the §13 example
action list: anna holds the top hearts, bert the low spades and clubs, carl the middle.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.rules.preferans.hand import State


def hand(text: str) -> list[str]:
    """``"HA HK"`` → ``["HA", "HK"]``."""
    return text.split()


SOCHI: dict[str, Any] = {"variant": "preferans", "convention": "sochi", "pool_target": 20}
SEATS = ["anna", "bert", "carl"]

DEAL: dict[str, list[str]] = {
    "anna": hand("HA HK HQ HJ HT SA SK C7 D8 D9"),
    "bert": hand("H7 S7 S8 S9 C8 C9 CT D7 DT DJ"),
    "carl": hand("H9 H8 ST SJ SQ CJ CQ CK DQ DK"),
    "talon": ["CA", "DA"],
}

# Four seats, dora deals and sits out; carl has no heart (§14 example 12's first trick).
DEAL4: dict[str, list[str]] = {
    "anna": hand("H7 H8 HT HJ D7 D8 D9 DT DJ DQ"),
    "bert": hand("H9 HQ HK DK DA CT CJ CQ CK CA"),
    "carl": hand("S7 S8 S9 ST SJ SQ SK SA C8 C9"),
    "talon": ["HA", "C7"],
}


def record(
    deal: dict[str, list[str]] | None = None,
    actions: list[dict[str, Any]] | None = None,
    *,
    rules: dict[str, Any] | None = None,
    seats: list[str] | None = None,
    dealer: str = "carl",
    **carry: Any,
) -> dict[str, Any]:
    """A full record (§13) of ``deal`` (default :data:`DEAL`) under ``rules`` (default Sochi,
    ``pool_target`` 20)."""
    return {
        "rules": {**SOCHI, **(rules or {})},
        "seats": list(seats or SEATS),
        "dealer": dealer,
        **carry,
        "deal": deal or DEAL,
        "actions": list(actions or []),
    }


def moves(key: str, *items: str) -> list[dict[str, Any]]:
    """Actions of one key from ``"seat value"`` strings: ``moves("call", "anna 6S")``."""
    out = []
    for item in items:
        seat, value = item.split()
        out.append({"seat": seat, key: value})
    return out


def calls(*items: str) -> list[dict[str, Any]]:
    return moves("call", *items)


def whists(*items: str) -> list[dict[str, Any]]:
    return moves("whist", *items)


def cards(*items: str) -> list[dict[str, Any]]:
    return moves("card", *items)


def discard(seat: str, a: str, b: str) -> list[dict[str, Any]]:
    return [{"seat": seat, "discard": [a, b]}]


def declare(seat: str, bid: str) -> list[dict[str, Any]]:
    level, strain = (int(bid[:-2]), "NT") if bid.endswith("NT") else (int(bid[:-1]), bid[-1])
    return [{"seat": seat, "declare": {"type": "contract", "level": level, "strain": strain}}]


def state(*parts: list[dict[str, Any]], **kwargs: Any) -> State:
    """The deal after the actions of ``parts`` (lists of actions, in order)."""
    actions = [a for part in parts for a in part]
    result: State = engine.replay(record(actions=actions, **kwargs))
    return result


def legal(s: State, seat: str | None = None) -> list[dict[str, Any]]:
    """The legal actions as JSON (``seat`` included)."""
    rs = engine.rule_set("preferans")
    return [engine.action_to_json(a, rs.deck) for a in engine.legal_actions(s, seat)]


def legal_calls(s: State) -> list[str]:
    return [a["call"] for a in legal(s)]


def act(s: State, data: dict[str, Any]) -> State:
    rs = engine.rule_set("preferans")
    result: State = engine.apply(s, rs.action_from_json(data, "action"))
    return result


def play_out(s: State) -> State:
    """Play the deal to the end with the first legal action each time."""
    while engine.to_act(s):
        s = engine.apply(s, engine.legal_actions(s)[0])
    return s


# The §13 example action list (carl deals; anna holds bert's 6C, orders 7H; carl's half-whist is
# returned by bert, who plays open and sends carl's H9).
EXAMPLE_13: list[dict[str, Any]] = [
    {"seat": "anna", "call": "6S"},
    {"seat": "bert", "call": "6C"},
    {"seat": "carl", "call": "pass"},
    {"seat": "anna", "call": "hold"},
    {"seat": "bert", "call": "pass"},
    {"seat": "anna", "discard": ["C7", "D8"]},
    {"seat": "anna", "declare": {"type": "contract", "level": 7, "strain": "H"}},
    {"seat": "bert", "whist": "pass"},
    {"seat": "carl", "whist": "half"},
    {"seat": "bert", "whist": "whist"},
    {"seat": "bert", "mode": "open"},
    {"seat": "anna", "card": "HA"},
    {"seat": "bert", "card": "H7"},
    {"seat": "carl", "card": "H9"},
]
