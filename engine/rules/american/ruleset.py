"""``american`` behind the seam: the family's machinery asking
:data:`engine.rules.american.rules.AMERICAN`."""

from __future__ import annotations

from typing import ClassVar

from engine.cards import PIQUET
from engine.rules.american.rules import AMERICAN, OPTIONS
from engine.rules.family.ruleset import FamilyRuleSet
from engine.rules.family.schema import POSITIONS, SHAPES
from engine.rules.family.spec import Family
from engine.ruleset import Carry
from engine.table import Dealing, TableShape


class American(FamilyRuleSet):
    """American Préférence (``spec/next/austria-variants.md``, "american")."""

    family: ClassVar[Family] = AMERICAN


RULE_SET = American(
    name="american",
    description="American Préférence (Foster 1909, USPCC): one round of suit bids without the "
    "widow, a round of offers paid into the pool, whist play, a reward per trick "
    "(spec/next/austria-variants.md)",
    deck=PIQUET,
    table=TableShape((3, 4), players=3, reserved=("pot", "talon")),
    dealing=Dealing(((3, ""), (2, "talon"), (4, ""), (3, ""))),
    carry=Carry(("pot",), "cents", party="pot"),
    sheet_keys=frozenset({"game", "declarer", "tricks", "offers"}),
    examples=(
        {"variant": "american", "unit": 1, "ante": 20},
        {
            "variant": "american",
            "unit": 5,
            "ante": 10,
            "trick_reward": {"S": 2, "C": 3, "D": 4, "H": 5},
            "reward_mode": "contract",
            "fail_factor": 3,
            "offer_paid": "all",
            "discard_first": True,
            "leader": "forehand",
        },
        {"variant": "american", "unit": 1, "ante": 1, "discard_first": True},
    ),
    carry_examples=({"pot": 0}, {"pot": 100}, {"pot": 1000}),
    options=OPTIONS,
    phases=AMERICAN.phases,
    vocabulary=AMERICAN.vocabulary(),
    shapes=SHAPES,
    positions=POSITIONS,
)
"""The ``american`` rule set, registered in ``engine.rules``."""
