"""``balkan`` behind the seam: the family's machinery asking
:data:`engine.rules.balkan.rules.BALKAN`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.rules.balkan.rules import BALKAN
from engine.rules.family.labels import number_calls
from engine.rules.family.ruleset import DEAL_5_2_5, FamilyRuleSet, family_rule_set
from engine.rules.family.schema import INVITING, NOTRUMP_GAME, SUIT_GAME, family_shapes
from engine.rules.family.spec import Family
from engine.ruleset import Carry

LABELS = {
    **number_calls(range(2, 10)),
    "call:hand": "Hand (igra)",
    "call:hold": "Hold (moje)",
    "notrump:misere": "Misère",
    "notrump:sans": "Sans (no trumps)",
    "notrump:uno": "Uno",
    "notrump:slam": "Slam",
}
"""The Balkan sets' calls (the number bids ``2`` … ``9``, *igra* and *moje*) and their
no-trump contracts (``danube-swabian`` shares them)."""


class Balkan(FamilyRuleSet):
    """Hungarian / West Balkan Préférence (``spec/next/austria-variants.md``, "balkan")."""

    family: ClassVar[Family] = BALKAN

    def carry_after(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """The pot, and the open refe and refe written when there are any."""
        out: dict[str, Any] = {"pot": result["pot"]}
        refe = {s: n for s, n in result.get("refe", {}).items() if n}
        if refe:
            out["refe"] = refe
        if result.get("refe_written"):
            out["refe_written"] = result["refe_written"]
        return out


RULE_SET = family_rule_set(
    Balkan,
    name="balkan",
    description="Hungarian / West Balkan Préférence: a 5-2-5 deal, contract codes 2 to 9 with "
    "misère, sans, uno and slam, hand contracts, invitations, giving up, contra and refe "
    "(spec/next/austria-variants.md)",
    dealing=DEAL_5_2_5,
    carry=Carry(("pot",), "cents", party="pot", optional=("refe", "refe_written")),
    sheet_keys=("defence", "gave_up", "contra"),
    examples=(
        {"variant": "balkan", "unit": 1, "ante": 100},
        {
            "variant": "balkan",
            "unit": 2,
            "ante": 50,
            "must_trump": False,
            "must_head": True,
            "contracts": "sans_uno_slam",
            "hold": True,
            "premium_defence": "free",
            "defender_fall": 20,
            "contra": False,
            "sans_slam_lead": "second_defender",
        },
        {
            "variant": "balkan",
            "unit": 1,
            "ante": 10,
            "contracts": "sans_slam",
            "hold": True,
            "sans_slam_lead": "second_defender",
        },
    ),
    carry_examples=({"pot": 0}, {"pot": 1000}, {"pot": 5000}),
    shapes=family_shapes(
        (SUIT_GAME, NOTRUMP_GAME),
        INVITING,
        ("ante", "game", "tricks", "fall", "giveup"),
        refe=True,
    ),
    labels=LABELS,
)
"""The ``balkan`` rule set, registered in ``engine.rules``."""
