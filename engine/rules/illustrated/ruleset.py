"""``illustrated`` behind the seam: the family's machinery asking
:data:`engine.rules.illustrated.rules.ILLUSTRATED`."""

from __future__ import annotations

from typing import ClassVar

from engine.cards import PIQUET
from engine.rules.family.ruleset import FamilyRuleSet
from engine.rules.family.schema import POSITIONS, SHAPES
from engine.rules.family.spec import Family
from engine.rules.illustrated.rules import ILLUSTRATED, OPTIONS
from engine.ruleset import Carry
from engine.table import Dealing, TableShape


class Illustrated(FamilyRuleSet):
    """Illustrated Préférence (``spec/next/austria-variants.md``, "illustrated")."""

    family: ClassVar[Family] = ILLUSTRATED


RULE_SET = Illustrated(
    name="illustrated",
    description="Illustrated Préférence: austria-modern plus the no-trump premium contracts "
    "misère, slam, open misère and open slam, each also from the hand "
    "(spec/next/austria-variants.md)",
    deck=PIQUET,
    table=TableShape((3, 4), players=3, reserved=("pot", "talon")),
    dealing=Dealing(((3, ""), (2, "talon"), (4, ""), (3, ""))),
    carry=Carry(("pot",), "cents", party="pot"),
    sheet_keys=frozenset({"game", "declarer", "defence", "tricks", "gave_up", "bonuses", "made"}),
    examples=(
        {"variant": "illustrated", "unit": 10, "ante": 100},
        {
            "variant": "illustrated",
            "unit": 10,
            "ante": 100,
            "illustrated_form": "six_in_row",
            "invitation": True,
            "no_ace_bonus": 10,
            "four_aces_bonus": 10,
            "preference_bonus": 10,
        },
        {
            "variant": "illustrated",
            "unit": 1,
            "ante": 7,
            "jump_bids": False,
            "forced_player": "throw_in",
            "must_head": True,
            "defender_unit_from": "dealer",
        },
    ),
    carry_examples=({"pot": 0}, {"pot": 300}, {"pot": 1000}),
    options=OPTIONS,
    phases=ILLUSTRATED.phases,
    vocabulary=ILLUSTRATED.vocabulary(),
    shapes=SHAPES,
    positions=POSITIONS,
)
"""The ``illustrated`` rule set, registered in ``engine.rules``."""
