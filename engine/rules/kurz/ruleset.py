"""``kurz`` behind the seam: the family's machinery asking :data:`engine.rules.kurz.rules.KURZ`."""

from __future__ import annotations

from typing import ClassVar

from engine.rules.family.ruleset import FamilyRuleSet, family_rule_set
from engine.rules.family.schema import PLAY_HOME, SUIT_GAME, family_shapes
from engine.rules.family.spec import Family
from engine.rules.kurz.rules import KURZ

LABELS = {
    "call:1": "One",
    "call:1h": "One with Handspiel",
    "call:2": "Two",
    "call:2h": "Two with Handspiel",
    "call:3": "Three",
    "call:3h": "Three with Handspiel",
    "reason:premium": "Handspiel premium",
}
"""kurz's calls (Eins … Drei, each also „mit Handspiel") and its hand-game premium."""


class Kurz(FamilyRuleSet):
    """The short family rules (``spec/next/kurz.md``)."""

    family: ClassVar[Family] = KURZ


RULE_SET = family_rule_set(
    Kurz,
    name="kurz",
    description="The short family rules: 3 players (4 with the dealer sitting out), bids 1 to "
    "3 with hand versions, a cent per trick from the pot, a hand-game premium "
    "(spec/next/kurz.md)",
    sheet_keys=("defence",),
    examples=(
        {"variant": "kurz"},
        {
            "variant": "kurz",
            "dealer_contribution": 20,
            "trick_value": 2,
            "fail_multiple": 3,
            "hand_premium": 0,
            "hand_premium_from": "opponents",
        },
        {"variant": "kurz", "hand_premium_from": "opponents"},
    ),
    carry_examples=({"pot": 0}, {"pot": 35}, {"pot": 200}),
    shapes=family_shapes((SUIT_GAME,), PLAY_HOME, ("dealer", "game", "tricks", "fall", "premium")),
    labels=LABELS,
)
"""The ``kurz`` rule set, registered in ``engine.rules``."""
