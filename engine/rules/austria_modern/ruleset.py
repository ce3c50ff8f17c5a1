"""``austria-modern`` behind the seam: the family's machinery asking
:data:`engine.rules.austria_modern.rules.MODERN`."""

from __future__ import annotations

from typing import ClassVar

from engine.cards import PIQUET
from engine.rules.austria_modern.rules import MODERN, OPTIONS
from engine.rules.family.ruleset import FamilyRuleSet
from engine.rules.family.schema import POSITIONS, SHAPES
from engine.rules.family.spec import Family
from engine.ruleset import Carry
from engine.table import Dealing, TableShape


class AustriaModern(FamilyRuleSet):
    """Modern Austrian Préférence (``spec/next/austria-variants.md``, "austria-modern")."""

    family: ClassVar[Family] = MODERN


RULE_SET = AustriaModern(
    name="austria-modern",
    description="Modern Austrian Préférence: bids 1 to 4 and their hand versions, holding, a "
    "forced rearhand, play or home, giving up, the pot paying 10 units, optional bonuses "
    "(spec/next/austria-variants.md)",
    deck=PIQUET,
    table=TableShape((3, 4), players=3, reserved=("pot", "talon")),
    dealing=Dealing(((3, ""), (2, "talon"), (4, ""), (3, ""))),
    carry=Carry(("pot",), "cents", party="pot"),
    sheet_keys=frozenset({"game", "declarer", "defence", "tricks", "gave_up", "bonuses"}),
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
    options=OPTIONS,
    phases=MODERN.phases,
    vocabulary=MODERN.vocabulary(),
    shapes=SHAPES,
    positions=POSITIONS,
)
"""The ``austria-modern`` rule set, registered in ``engine.rules``."""
