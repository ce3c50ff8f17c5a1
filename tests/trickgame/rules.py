"""``trickgame``'s options: the price of an exact bid, the nil bonus and who leads first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.options import CHOICE, INTEGER, Option, read_options

VARIANT = "trickgame"

OPTIONS: tuple[Option, ...] = (
    Option(
        "trick_value",
        INTEGER,
        "an exact bid of n tricks is paid (n + 1) times this by each player who missed his bid",
        default=10,
        minimum=1,
        unit="cents",
    ),
    Option(
        "nil_bonus",
        INTEGER,
        "an exact bid of 0 is also paid this by each other player",
        default=20,
        minimum=0,
        unit="cents",
    ),
    Option(
        "lead",
        CHOICE,
        "who leads the first trick: the highest bidder (the first of equal bids) or forehand",
        default="high_bid",
        choices=("high_bid", "forehand"),
    ),
)

EXAMPLES: tuple[dict[str, Any], ...] = (
    {"variant": VARIANT, "trick_value": 10, "nil_bonus": 20, "lead": "high_bid"},
    {"variant": VARIANT, "trick_value": 5, "nil_bonus": 0, "lead": "forehand"},
)


@dataclass(frozen=True, slots=True)
class TrickRules:
    """The validated options of a ``trickgame`` rules object."""

    trick_value: int
    nil_bonus: int
    lead: str

    @property
    def variant(self) -> str:
        return VARIANT

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": VARIANT,
            "trick_value": self.trick_value,
            "nil_bonus": self.nil_bonus,
            "lead": self.lead,
        }


def parse_rules(data: Any) -> TrickRules:
    """The options of ``data`` (unknown options and bad values are errors naming them)."""
    values = read_options(VARIANT, OPTIONS, data)
    return TrickRules(values["trick_value"], values["nil_bonus"], values["lead"])
