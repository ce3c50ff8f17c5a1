"""Preferans's API shapes (``engine.ruleset.Shapes``, ``spec/next/preferans.md`` §13): what a
seat's view and a deal's Result carry beyond every rule set's keys (the hand due, the raspasy
streak, the whist calls and mode, the pulya), its game forms (contract, misère, raspasy) and
its score-sheet row (the pulya after the deal), and the sheet's CSV columns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.ruleset import (
    CARDS_SCHEMA,
    SEAT_SCHEMA,
    Shapes,
    by_seat,
    game_form,
    nullable,
    object_schema,
)

END_PUBLIC = (
    "phase", "to_act", "hand_due", "hand", "hand_sizes", "declarer", "game", "defence",
    "trick", "last_trick", "tricks",
)  # fmt: skip
"""The view keys the end of a hand makes public while its board is withheld."""

POINTS = {"type": "integer"}
PULYA = object_schema(
    {
        "pool": by_seat(POINTS, "Each seat's pool (points)."),
        "mountain": by_seat(POINTS, "Each seat's mountain (points)."),
        "whists": by_seat(
            by_seat(POINTS, "Target → whists."),
            "The whists each seat writes on each other (writer → target → count; pairs "
            "without whists left out).",
        ),
    },
    description="A Preferans score sheet (§9–§10): each seat's pool and mountain, and the "
    "whists the seats write on each other.",
)
WHIST_CALLS = by_seat(
    {"type": "string", "enum": ["whist", "pass", "half"]}, "Each defender's whist call."
)
HELP = object_schema(
    {
        "from": SEAT_SCHEMA,
        "to": nullable(SEAT_SCHEMA, "The seat helped; null for a write-off to the mountain."),
        "points": {"type": "integer", "description": "Pool points past the target."},
        "whists": {"type": "integer", "description": "Whists written for the help."},
        "mountain": {"type": "integer", "description": "A write-off: the mountain's change."},
    },
    required=["from", "to", "points"],
    description="Pool points past the target given to another seat (whists), or written "
    "off the mountain.",
)

VIEW: dict[str, Any] = {
    "properties": {
        "hand_due": nullable(
            SEAT_SCHEMA,
            "The hand whose action is due (in open play the passer's, which the whister, "
            "``to_act``, sends); null after the deal.",
        ),
        "streak": {"type": "integer", "minimum": 0, "description": "Raspasy in a row."},
        "talon": CARDS_SCHEMA,
        "open_hands": by_seat(CARDS_SCHEMA, "The hands that lie open, by seat."),
        "defence": WHIST_CALLS,
        "whist_mode": nullable(
            {"type": "string", "enum": ["open", "closed"]},
            "How the defenders play: open or closed; null until chosen.",
        ),
        "sheet": {**PULYA, "description": "The pulya before this deal."},
    },
    "required": ["hand_due", "streak", "talon", "open_hands", "defence", "whist_mode"],
}
RESULT: dict[str, Any] = {
    "properties": {
        "defence": nullable(
            WHIST_CALLS, "The defenders' whist calls; null on raspasy, misère and a checked ten."
        ),
        "entry": {**PULYA, "description": "The deal's own entry on the sheet, before help."},
        "help": {"type": "array", "items": HELP, "description": "Help given, in order."},
        "streak": {
            "type": "integer",
            "minimum": 0,
            "description": "Raspasy in a row, for the next deal.",
        },
        "sheet": {**PULYA, "description": "The pulya after the deal."},
        "game_over": {
            "type": "boolean",
            "description": "Every pool is full; the table deals no more.",
        },
    },
    "required": ["defence", "entry", "help", "streak"],
}
GAMES = (
    game_form(
        "contract",
        "A contract: 6 to 10 tricks in a strain (§3–§4).",
        level={"type": "integer", "minimum": 6, "maximum": 10},
        strain={
            "type": "string",
            "enum": ["S", "C", "D", "H", "NT"],
            "description": "The trump suit, or NT: no trumps.",
        },
    ),
    game_form("misere", "Misère: the declarer must take no trick."),
    game_form("raspasy", "Raspasy: everyone passed; each plays for himself to take few tricks."),
)
SHEET_ROW: dict[str, Any] = {
    "properties": PULYA["properties"],
    "required": PULYA["required"],
}

SHAPES = Shapes(
    view=VIEW,
    result=RESULT,
    games=GAMES,
    sheet_row=SHEET_ROW,
    reasons=("score",),
    end_public=END_PUBLIC,
    kept_open=("open_hands",),
    legacy_sheet_key="pulya",
)


def sheet_columns(seats: Sequence[str]) -> list[str]:
    """The CSV columns of a pulya: each seat's pool and mountain, then each pair's whists
    (``anna>bert``: the whists anna writes on bert)."""
    return [
        *(f"{k} pool" for k in seats),
        *(f"{k} mountain" for k in seats),
        *(f"{a}>{b}" for a in seats for b in seats if a != b),
    ]


def sheet_cells(pulya: Mapping[str, Any], seats: Sequence[str]) -> list[Any]:
    """A row's pulya in the order of :func:`sheet_columns`."""
    whists = pulya.get("whists", {})
    return [
        *(pulya["pool"].get(k, 0) for k in seats),
        *(pulya["mountain"].get(k, 0) for k in seats),
        *(whists.get(a, {}).get(b, 0) for a in seats for b in seats if a != b),
    ]
