"""``illustrated`` behind the seam: the family's machinery asking
:data:`engine.rules.illustrated.rules.ILLUSTRATED`."""

from __future__ import annotations

from typing import ClassVar

from engine.rules.austria_modern.ruleset import LABELS as MODERN_LABELS
from engine.rules.family.labels import NUMBERS
from engine.rules.family.ruleset import FamilyRuleSet, family_rule_set
from engine.rules.family.schema import INVITING, PREMIUM_GAME, SUIT_GAME, family_shapes
from engine.rules.family.spec import Family
from engine.rules.illustrated.rules import ILLUSTRATED

PREMIUM = {5: "misère", 6: "slam", 7: "open misère", 8: "open slam"}
"""The premium contracts by their number."""

LABELS = {
    **MODERN_LABELS,
    **{f"call:{n}": f"{NUMBERS[n - 1]} ({name})" for n, name in PREMIUM.items()},
    **{f"call:{n}h": f"{NUMBERS[n - 1]} from the hand ({name})" for n, name in PREMIUM.items()},
    **{f"premium:{n}": name.capitalize() for n, name in PREMIUM.items()},
    "reason:premium": "Premium game",
}
"""illustrated's calls (modern's, and the premium contracts 5 … 8, each also from the hand),
its premium contracts and their payment."""


class Illustrated(FamilyRuleSet):
    """Illustrated Préférence (``spec/next/austria-variants.md``, "illustrated")."""

    family: ClassVar[Family] = ILLUSTRATED


RULE_SET = family_rule_set(
    Illustrated,
    name="illustrated",
    description="Illustrated Préférence: austria-modern plus the no-trump premium contracts "
    "misère, slam, open misère and open slam, each also from the hand "
    "(spec/next/austria-variants.md)",
    sheet_keys=("defence", "gave_up", "bonuses", "made"),
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
    shapes=family_shapes(
        (SUIT_GAME, PREMIUM_GAME),
        INVITING,
        ("ante", "game", "tricks", "fall", "premium", "giveup", "bonus"),
    ),
    labels=LABELS,
)
"""The ``illustrated`` rule set, registered in ``engine.rules``."""
