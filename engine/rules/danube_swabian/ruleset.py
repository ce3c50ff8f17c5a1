"""``danube-swabian`` behind the seam: the family's machinery asking
:data:`engine.rules.danube_swabian.rules.DANUBE`. No pot: the carry is empty and every deal's
payments sum to zero between the players."""

from __future__ import annotations

from typing import ClassVar

from engine.cards import PIQUET
from engine.rules.danube_swabian.rules import DANUBE, OPTIONS
from engine.rules.family.ruleset import FamilyRuleSet
from engine.rules.family.schema import POSITIONS, SHAPES
from engine.rules.family.spec import Family
from engine.ruleset import Carry
from engine.table import Dealing, TableShape


class DanubeSwabian(FamilyRuleSet):
    """The Danube Swabian game (``spec/next/austria-variants.md``, "danube-swabian")."""

    family: ClassVar[Family] = DANUBE


RULE_SET = DanubeSwabian(
    name="danube-swabian",
    description="The Danube Swabian game: balkan's deal, auction and contracts without a pot; "
    "everyone plays, the declarer settles with each defender, contra per defender, artwork "
    "for a talon pair (spec/next/austria-variants.md)",
    deck=PIQUET,
    table=TableShape((3, 4), players=3, reserved=("talon",)),
    dealing=Dealing(((5, ""), (2, "talon"), (5, ""))),
    carry=Carry((), "cents", party=None),
    sheet_keys=frozenset({"game", "declarer", "tricks", "contra", "talon"}),
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
    options=OPTIONS,
    phases=DANUBE.phases,
    vocabulary=DANUBE.vocabulary(),
    shapes=SHAPES,
    positions=POSITIONS,
)
"""The ``danube-swabian`` rule set, registered in ``engine.rules``."""
