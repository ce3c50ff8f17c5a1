"""``danube-swabian`` behind the seam: the family's machinery asking
:data:`engine.rules.danube_swabian.rules.DANUBE`. No pot: the carry is empty and every deal's
payments sum to zero between the players."""

from __future__ import annotations

from typing import ClassVar

from engine.rules.balkan.ruleset import LABELS
from engine.rules.danube_swabian.rules import DANUBE
from engine.rules.family.ruleset import DEAL_5_2_5, FamilyRuleSet, family_rule_set
from engine.rules.family.schema import NOTRUMP_GAME, SUIT_GAME, family_shapes
from engine.rules.family.spec import Family
from engine.ruleset import Carry


class DanubeSwabian(FamilyRuleSet):
    """The Danube Swabian game (``spec/next/austria-variants.md``, "danube-swabian")."""

    family: ClassVar[Family] = DANUBE


RULE_SET = family_rule_set(
    DanubeSwabian,
    name="danube-swabian",
    description="The Danube Swabian game: balkan's deal, auction and contracts without a pot; "
    "everyone plays, the declarer settles with each defender, contra per defender, artwork "
    "for a talon pair (spec/next/austria-variants.md)",
    dealing=DEAL_5_2_5,
    carry=Carry((), "cents", party=None),
    sheet_keys=("contra", "talon"),
    examples=(
        {"variant": "danube-swabian", "unit": 10},
        {
            "variant": "danube-swabian",
            "unit": 5,
            "must_trump": False,
            "must_head": True,
            "contracts": "sans_uno_slam",
            "hold": True,
            "contra": True,
            "sans_slam_lead": "second_defender",
            "hand_adds": 2,
            "artwork": 3,
        },
        {"variant": "danube-swabian", "unit": 1, "contracts": "sans_slam", "contra": False},
    ),
    carry_examples=({},),
    shapes=family_shapes((SUIT_GAME, NOTRUMP_GAME), (), ("game", "artwork"), pot=False),
    labels={**LABELS, "reason:game": "Game"},
)
"""The ``danube-swabian`` rule set, registered in ``engine.rules``."""
