"""``trickgame``'s API shapes (``engine.ruleset.Shapes``): the keys its view, ``Result``,
game and score-sheet row carry beyond every rule set's, as JSON-Schema data."""

from __future__ import annotations

from typing import Any

from engine.ruleset import Shapes
from tests.trickgame.hand import TRICKS
from tests.trickgame.results import REASONS

SEAT_TO_TRICKS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": TRICKS},
}
BIDS: dict[str, Any] = {**SEAT_TO_TRICKS, "description": "Each seat's bid (tricks), once made."}
EXACT: dict[str, Any] = {
    "type": "array",
    "items": {"type": "string"},
    "description": "The seats that took exactly the tricks they bid.",
}

VIEW: dict[str, Any] = {
    "properties": {
        "bids": BIDS,
        "needs": {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": -TRICKS, "maximum": TRICKS},
            "description": "Each seat's bid less the tricks it has taken (empty while bidding).",
        },
    },
    "required": ["bids", "needs"],
}
RESULT: dict[str, Any] = {
    "properties": {"bids": BIDS, "exact": EXACT},
    "required": ["bids", "exact"],
}
GAMES: tuple[dict[str, Any], ...] = (
    {
        "type": "object",
        "description": "Every bid was 0: nobody declares.",
        "properties": {"type": {"type": "string", "enum": ["quiet"]}},
        "required": ["type"],
        "additionalProperties": False,
    },
    {
        "type": "object",
        "description": "The highest bid (1 to 3 tricks); its bidder declares.",
        "properties": {
            "type": {"type": "string", "enum": ["contest"]},
            "high_bid": {"type": "integer", "minimum": 1, "maximum": TRICKS - 1},
        },
        "required": ["type", "high_bid"],
        "additionalProperties": False,
    },
    {
        "type": "object",
        "description": "A bid of all four tricks (the premium game); its bidder declares.",
        "properties": {"type": {"type": "string", "enum": ["sweep"]}},
        "required": ["type"],
        "additionalProperties": False,
    },
)
SHEET_ROW: dict[str, Any] = {
    "properties": {"bids": BIDS, "exact": EXACT},
    "required": ["bids", "exact"],
}
END_PUBLIC = (
    "phase", "to_act", "hand", "hand_sizes", "declarer", "game", "trick", "last_trick",
    "tricks", "needs",
)  # fmt: skip
"""The view keys the last card makes public while a duplicate board is withheld."""

SHAPES = Shapes(
    view=VIEW,
    result=RESULT,
    games=GAMES,
    sheet_row=SHEET_ROW,
    reasons=REASONS,
    end_public=END_PUBLIC,
)
POSITIONS = ("first_hand", "second_hand", "third_hand", "last_hand")
"""The four players of a deal, from the seat after the dealer (the dealer plays last)."""
