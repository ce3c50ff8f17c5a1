"""What the six rule sets of ``spec/next/austria-variants.md`` share ("Common to all six"):
amounts in units of ``unit`` cents, a pot refilled by antes, the 1829 card play (follow; void:
trump with ``must_trump``; beat with ``must_head``), and the options every set has."""

from __future__ import annotations

from engine.options import BOOLEAN, CHOICE, INTEGER, Option
from engine.rules.family.game import Rules
from engine.rules.family.spec import Family
from engine.tricks import Obligations

UNIT = Option("unit", INTEGER, "cents per unit", minimum=1, unit="cents", example=10)
ANTE = Option(
    "ante",
    INTEGER,
    "cents each seat pays into a pot that cannot pay what it owes",
    minimum=1,
    unit="cents",
    example=100,
)
MUST_TRUMP = Option(
    "must_trump", BOOLEAN, "a player void in the led suit must trump if he can", default=True
)
MUST_HEAD = Option(
    "must_head",
    BOOLEAN,
    "a player must beat the trick if he can (wien's rules 1–2; without must_trump only rule 1)",
    default=False,
)
JUMP_BIDS = Option(
    "jump_bids",
    BOOLEAN,
    "a bid may skip rungs of the ladder; false: each bid is the next rung",
    default=True,
)
FORCED_PLAYER = Option(
    "forced_player",
    CHOICE,
    "when the others pass: rearhand must play, or the deal is thrown in without payment",
    default="rearhand",
    choices=("rearhand", "throw_in"),
)


OBLIGATIONS = {
    (trump, head): Obligations(trump=trump, head=head)
    for trump in (True, False)
    for head in (True, False)
}


def obligations(rules: Rules) -> Obligations:
    """``must_trump`` and ``must_head`` as data (austria-variants.md, "Card play")."""
    return OBLIGATIONS[rules["must_trump"], rules["must_head"]]


class AustrianFamily(Family):
    """The common part of the Austrian family's answers."""

    def obligations(self, rules: Rules) -> Obligations:
        return obligations(rules)

    def ante(self, rules: Rules) -> int | None:
        return int(rules["ante"])
