"""Builders for the talon-family rule sets' tests (``kurz`` and the Austrian family): records
written with card strings, moves in the record vocabulary, every state through
``engine.replay`` / ``engine.apply`` like the CLI and the API."""

from __future__ import annotations

import copy
from typing import Any

import engine
from engine import PIQUET

SEATS = ["anna", "bert", "carl"]
#: anna: strong diamonds; bert: clubs and spades; carl: hearts (wien's test deal).
DEAL = {
    "anna": "DA DK DQ DJ DT D9 SA SK CA C7",
    "bert": "CK CQ CJ CT C9 C8 SQ SJ ST S9",
    "carl": "HA HK HQ HJ HT H9 H8 H7 D8 S8",
}
TALON = "D7 S7"


def record(
    rules: dict[str, Any],
    deal: dict[str, str] | None = None,
    talon: str = TALON,
    *,
    actions: list[dict[str, Any]] | None = None,
    dealer: str = "carl",
    seats: list[str] | None = None,
    **carry: Any,
) -> dict[str, Any]:
    """A full record; ``carry`` the record's carry keys (``pot=…``)."""
    return {
        "rules": dict(rules),
        "seats": list(seats or SEATS),
        "dealer": dealer,
        **carry,
        "deal": {
            **{seat: hand.split() for seat, hand in (deal or DEAL).items()},
            "talon": talon.split(),
        },
        "actions": copy.deepcopy(actions or []),
    }


def moves(*items: str) -> list[dict[str, Any]]:
    """``moves("anna call 1", "bert defence home", "anna card DA")`` -> actions; a value
    ``true``/``false`` is a boolean, a number in ``offer`` an integer, two cards a discard."""
    out: list[dict[str, Any]] = []
    for item in items:
        seat, key, *rest = item.split()
        value: Any = " ".join(rest)
        if value in ("true", "false"):
            value = value == "true"
        elif key == "discard":
            value = rest
        elif key == "declare":
            kind, level = rest
            value = {"type": kind, "level": int(level) if level.isdigit() else level}
        elif key == "offer" and value.isdigit():
            value = int(value)
        out.append({"seat": seat, key: value})
    return out


def state_of(rules: dict[str, Any], *items: str, **kw: Any) -> Any:
    return engine.replay(record(rules, actions=moves(*items), **kw))


def act(state: Any, item: str) -> Any:
    (data,) = moves(item)
    return engine.apply(state, engine.action_from_json(data, PIQUET, variant=state.rules.variant))


def legal(state: Any) -> list[dict[str, Any]]:
    return [engine.action_to_json(a, PIQUET, seat=False) for a in engine.legal_actions(state)]


def legal_values(state: Any, key: str) -> list[Any]:
    return [a[key] for a in legal(state) if key in a]


def play_first(state: Any, n: int = 100) -> Any:
    """Play up to ``n`` actions, each the first legal one (a card: the lowest legal)."""
    for _ in range(n):
        options = engine.legal_actions(state)
        if not options:
            break
        state = engine.apply(state, options[0])
    return state


def sheet(
    rules: dict[str, Any],
    game: dict[str, Any] | None,
    *,
    dealer: str = "carl",
    seats: list[str] | None = None,
    **keys: Any,
) -> dict[str, Any]:
    """A score-sheet entry; ``keys``: the carry (``pot``) and the entry's keys."""
    carry = {k: keys.pop(k) for k in ("pot", "refe", "refe_written") if k in keys}
    return {
        "rules": dict(rules),
        "seats": list(seats or SEATS),
        "dealer": dealer,
        **carry,
        "game": game,
        **keys,
    }


def suit(level: str, talon: bool = True) -> dict[str, Any]:
    return {"type": "suit", "level": level, "talon": talon}


def deltas(result: dict[str, Any]) -> tuple[int, ...]:
    """anna, bert, carl."""
    return tuple(result["delta"][s] for s in SEATS)
