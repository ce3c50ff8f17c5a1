"""The options of a ``wien`` table, the auction ladder and the stake rule.

Terms: *Geberbeitrag* (dealer contribution, G), *Topf* (pot), *Topfsperre* (pot cap, L),
*Lizitieren* (auction), *Halten* (hold), *Geschäft* (a suit hand game in C/S/D), *Herz* (the
hand game in hearts, a premium game), *Prämienspiel* (premium game 5..8: Bettler, Mord,
Plauderer aufgedeckt, Mord aufgedeckt), *von der Hand* (without the talon), *Nachschauen*
(looking into the talon to raise to a premium game), *Mitgehen / zu Hause bleiben* (play /
stay home), *Einladung* (invitation), *Largierpflicht* (duty to beat low), *Aushandeln*
(agreeing a split of tricks), *Ausfechten* (the all-pass game).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.messages import (
    KEY_REQUIRED,
    OPTION_NOT_CHOICE,
    RULES_NOT_OBJECT,
    UNKNOWN_RULE_OPTION,
)
from engine.options import CHOICE, INTEGER, Option
from engine.rules.wien import messages as m

VARIANT = "wien"

# The auction ladder (spec/wien.md, "Auction"): each call's rank; herz ranks with 5.
CALL_RANK: dict[str, int] = {
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "geschaeft": 5,
    "herz": 6,
    "5": 6,
    "5h": 7,
    "6": 8,
    "6h": 9,
    "7": 10,
    "7h": 11,
    "8": 12,
    "8h": 13,
}
NUMBER_CALLS = ("1", "2", "3", "4")
PREMIUM_CALLS = ("5", "5h", "6", "6h", "7", "7h", "8", "8h")
ALL_CALLS = ("pass", *NUMBER_CALLS, "hold", "geschaeft", "herz", *PREMIUM_CALLS)

PREMIUM_NAMES = {5: "Bettler", 6: "Mord", 7: "Plauderer aufgedeckt", 8: "Mord aufgedeckt"}
MISERE_LEVELS = (5, 7)  # the declarer must take no trick
OPEN_LEVELS = (7, 8)  # defenders' hands are shown after the first trick


def premium_rank(level: int, hand: bool) -> int:
    """The ladder rank of premium game ``level`` (5..8), von der Hand or not."""
    return CALL_RANK[f"{level}{'h' if hand else ''}"]


_OPTIONS: dict[str, tuple[str, ...]] = {
    "holding_after_forehand": ("rearhand", "middlehand"),
    "invitation_tricks": ("inviter", "each"),
    "pot_at_close": ("carry", "split"),
}


OPTIONS: tuple[Option, ...] = (
    Option(
        "dealer_contribution",
        INTEGER,
        "G: paid into the pot by the dealer before each deal",
        minimum=10,
        multiple_of=10,
        unit="cents",
        example=100,
    ),
    Option(
        "pot_cap",
        INTEGER,
        "L: the most a game is worth (the stake is the pot, at most L); null: no cap; a "
        "multiple of the dealer contribution",
        minimum=10,
        multiple_of=10,
        nullable=True,
        unit="cents",
        example=300,
    ),
    Option(
        "holding_after_forehand",
        CHOICE,
        "who may hold once forehand has passed",
        default="rearhand",
        choices=_OPTIONS["holding_after_forehand"],
    ),
    Option(
        "invitation_tricks",
        CHOICE,
        "after an invitation, all tricks count for the inviter, or each defender is paid for "
        "his own",
        default="inviter",
        choices=_OPTIONS["invitation_tricks"],
    ),
    Option(
        "pot_at_close",
        CHOICE,
        "money left in the pot when a table stops: kept for its next sitting, or split among "
        "the players",
        default="carry",
        choices=_OPTIONS["pot_at_close"],
    ),
)
"""wien's options (``engine.options``), for listings and the API's schema; ``WienRules``
checks them."""


@dataclass(frozen=True, slots=True)
class WienRules:
    """The options of a ``wien`` table (``spec/wien.md``, "Stakes" and the named house rules).

    ``dealer_contribution`` G is a positive multiple of 10 cents; ``pot_cap`` L is ``None`` (no
    cap) or a positive multiple of G.
    """

    dealer_contribution: int
    pot_cap: int | None
    holding_after_forehand: str = "rearhand"
    invitation_tricks: str = "inviter"
    pot_at_close: str = "carry"
    variant: str = VARIANT

    def __post_init__(self) -> None:
        g = self.dealer_contribution
        if type(g) is not int or g <= 0 or g % 10:
            raise m.DEALER_CONTRIBUTION.error("rules.dealer_contribution", value=repr(g))
        cap = self.pot_cap
        if cap is not None and (type(cap) is not int or cap <= 0 or cap % g):
            raise m.POT_CAP.error("rules.pot_cap", contribution=g, value=repr(cap))
        for name, choices in _OPTIONS.items():
            value = getattr(self, name)
            if value not in choices:
                raise OPTION_NOT_CHOICE.error(
                    f"rules.{name}",
                    name=name,
                    choices=", ".join(repr(c) for c in choices),
                    value=repr(value),
                )

    @classmethod
    def from_json(cls, data: Any) -> WienRules:
        """Read the ``rules`` object of a record; unknown keys and missing required keys are
        errors, omitted house-rule options take their defaults."""
        if not isinstance(data, dict):
            raise RULES_NOT_OBJECT.error("rules")
        known = {"variant", "dealer_contribution", "pot_cap", *_OPTIONS}
        for key in data:
            if key not in known:
                raise UNKNOWN_RULE_OPTION.error(f"rules.{key}", option=repr(key), variant=VARIANT)
        for key in ("dealer_contribution", "pot_cap"):
            if key not in data:
                raise KEY_REQUIRED.error(f"rules.{key}", key=key)
        options = {k: data[k] for k in _OPTIONS if k in data}
        return cls(
            dealer_contribution=data["dealer_contribution"], pot_cap=data["pot_cap"], **options
        )

    def to_json(self) -> dict[str, Any]:
        """The full ``rules`` object, defaults spelled out."""
        return {
            "variant": self.variant,
            "dealer_contribution": self.dealer_contribution,
            "pot_cap": self.pot_cap,
            **{k: getattr(self, k) for k in _OPTIONS},
        }

    def stake(self, pot_before: int) -> int:
        """S = min(pot after the dealer's payment, L) (``spec/wien.md``, "Stakes")."""
        pot = pot_before + self.dealer_contribution
        return pot if self.pot_cap is None else min(pot, self.pot_cap)
