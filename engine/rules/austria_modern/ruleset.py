"""``austria-modern`` behind the seam: the family's machinery asking
:data:`engine.rules.austria_modern.rules.MODERN`."""

from __future__ import annotations

from typing import ClassVar

from engine.rules.austria_modern.rules import MODERN
from engine.rules.family.labels import number_calls
from engine.rules.family.ruleset import FamilyRuleSet, family_rule_set
from engine.rules.family.schema import INVITING, SUIT_GAME, family_shapes
from engine.rules.family.spec import Family

LABELS = {
    **number_calls(range(1, 5)),
    **number_calls(range(1, 5), "h"),
    "call:4h": "Four from the hand (Préférence)",
}
"""austria-modern's calls: ``1`` … ``4`` and their hand versions, ``4h`` the Préférence."""


class AustriaModern(FamilyRuleSet):
    """Modern Austrian Préférence (``spec/next/austria-variants.md``, "austria-modern")."""

    family: ClassVar[Family] = MODERN


RULE_SET = family_rule_set(
    AustriaModern,
    name="austria-modern",
    description="Modern Austrian Préférence: bids 1 to 4 and their hand versions, holding, a "
    "forced rearhand, play or home, giving up, the pot paying 10 units, optional bonuses "
    "(spec/next/austria-variants.md)",
    sheet_keys=("defence", "gave_up", "bonuses"),
    examples=(
        {"variant": "austria-modern", "unit": 10, "ante": 100},
        {
            "variant": "austria-modern",
            "unit": 5,
            "ante": 50,
            "must_trump": False,
            "must_head": True,
            "jump_bids": False,
            "forced_player": "throw_in",
            "defender_unit_from": "dealer",
            "defender_unit_per_trick": True,
            "invitation": True,
            "invitation_fall": 2,
            "multiply_by_bid": True,
            "preference_bonus": 10,
            "four_aces_bonus": 10,
            "no_ace_bonus": 10,
        },
        {
            "variant": "austria-modern",
            "unit": 1,
            "ante": 3,
            "invitation": True,
            "no_ace_bonus": 10,
            "four_aces_bonus": 10,
        },
    ),
    carry_examples=({"pot": 0}, {"pot": 300}, {"pot": 1000}),
    shapes=family_shapes(
        (SUIT_GAME,), INVITING, ("ante", "game", "tricks", "fall", "giveup", "bonus")
    ),
    labels=LABELS,
)
"""The ``austria-modern`` rule set, registered in ``engine.rules``."""
