"""``american`` behind the seam: the family's machinery asking
:data:`engine.rules.american.rules.AMERICAN`."""

from __future__ import annotations

from typing import ClassVar

from engine.rules.american.rules import AMERICAN
from engine.rules.family.ruleset import FamilyRuleSet, family_rule_set
from engine.rules.family.schema import SUIT_GAME, family_shapes
from engine.rules.family.spec import Family


class American(FamilyRuleSet):
    """American Préférence (``spec/next/austria-variants.md``, "american")."""

    family: ClassVar[Family] = AMERICAN


RULE_SET = family_rule_set(
    American,
    name="american",
    description="American Préférence (Foster 1909, USPCC): one round of suit bids without the "
    "widow, a round of offers paid into the pool, whist play, a reward per trick "
    "(spec/next/austria-variants.md)",
    sheet_keys=("offers",),
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
    shapes=family_shapes((SUIT_GAME,), (), ("ante", "game", "fall", "offer")),
    labels={"reason:offer": "Offer (round 2)"},
)
"""The ``american`` rule set, registered in ``engine.rules``."""
